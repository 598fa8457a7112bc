"""Turn what a GPU check brought back into test fixtures.

    python scripts/gpu_check_import.py RUNS_TAR_GZ DEST [--steps a,b,...]

RUNS_TAR_GZ is the ``runs.tar.gz`` that ``scripts/gpu_check.py`` wrote; DEST a folder under
``tests/fixtures/gpu/real/``.  Every step's console output lands in ``DEST/STEP.txt`` (its
stdout alone, where the check kept it apart, in ``DEST/STEP.stdout.txt``) and its run
directory, if any, in ``DEST/STEP/`` (rank logs, summary.json, stacks, flight-recorder dumps),
byte for byte, except that the machine's own paths are replaced: the checkout becomes
``/repo`` and the check's work folder ``/tmp/gpu-check``, also inside the pickled dumps.
``env.json`` (the machine's whole environment) is left out.  Later steps win: import the full
check first, then a shorter rerun over it: a step imported again replaces the older one whole.
"""

from __future__ import annotations

import argparse
import pickle
import re
import shutil
import sys
import tarfile
from pathlib import Path, PurePosixPath
from typing import Any

SKIP_FILES = {"env.json"}
SKIP_STEPS = {"wheels", "install"}
MAX_MEMBER_BYTES = 4 << 20
WORK = re.compile(r"/tmp/gpu-check-[A-Za-z0-9_]+|/tmp/gc\b")


def clean_text(text: str, repo: str) -> str:
    return WORK.sub("/tmp/gpu-check", text.replace(repo, "/repo") if repo else text)


def clean_object(value: Any, repo: str, depth: int = 0) -> Any:
    """Every string inside a flight-recorder dump, cleaned; anything else as it was."""
    if depth > 50:
        return value
    if isinstance(value, str):
        return clean_text(value, repo)
    if isinstance(value, dict):
        return {clean_object(k, repo, depth + 1): clean_object(v, repo, depth + 1)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [clean_object(v, repo, depth + 1) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return value


def clean_bytes(data: bytes, name: str, repo: str) -> bytes:
    if "flight_recorder/" in name:
        # torch's own dump format; written by torch or safelaunch on the GPU machine
        return pickle.dumps(clean_object(pickle.loads(data), repo))
    return clean_text(data.decode("utf-8", errors="surrogateescape"), repo).encode(
        "utf-8", errors="surrogateescape")


def guess_repo(archive: tarfile.TarFile) -> str:
    """The checkout's path on the GPU machine, read from a step's output or its run's
    ``command.json`` (the output of a job that names no file of the checkout has none)."""
    for member in archive.getmembers():
        if member.isfile() and member.name.endswith(("/output.txt", "/command.json")):
            handle = archive.extractfile(member)
            text = handle.read(1 << 20).decode(errors="replace") if handle else ""
            found = re.search(r"(/\S+?)/(?:tests/fixtures/gpu|examples)/", text)
            if found:
                return found.group(1)
    return ""  # not found: no checkout path to replace


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("archive", type=Path)
    parser.add_argument("dest", type=Path)
    parser.add_argument("--steps", default="", help="only these steps (comma-separated)")
    args = parser.parse_args()
    wanted = {s for s in args.steps.split(",") if s}
    fresh: set[str] = set()
    with tarfile.open(args.archive) as archive:
        repo = guess_repo(archive)
        for member in archive.getmembers():
            parts = PurePosixPath(member.name).parts
            if not member.isfile() or len(parts) < 3 or member.size > MAX_MEMBER_BYTES:
                continue
            step, rest = parts[1], parts[2:]
            if (wanted and step not in wanted) or step in SKIP_STEPS or ".." in rest \
                    or rest[-1] in SKIP_FILES:
                continue
            if step not in fresh:  # a step imported again replaces the older one whole
                fresh.add(step)
                shutil.rmtree(args.dest / step, ignore_errors=True)
                for old in args.dest.glob(f"{step}.*txt"):
                    old.unlink()
            if rest in (("output.txt",), ("output.stdout.txt",)):
                target = args.dest / f"{step}.{rest[0].removeprefix('output.')}"
            elif rest[0] == "run":
                target = args.dest.joinpath(step, *rest[1:])
            else:
                continue
            handle = archive.extractfile(member)
            if handle is None:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(clean_bytes(handle.read(), member.name, repo))
    print(f"imported into {args.dest} (checkout was {repo})", file=sys.stderr)


if __name__ == "__main__":
    main()
