"""The run directory: created before anything starts, never overwriting what a user had.

Layout::

    command.json      how safelaunch was called and the command each rank runs
    config.json       the resolved options
    env.json          the launcher's environment, secrets redacted
    rank<N>.log       one per global rank: "<UTC time> out|err <line>"
    events.jsonl      what the launcher did, as it happened
    launcher.log      torch's elastic engine's own log
    errors/           exception reports written by ranks that use torch's @record
    stacks/           every rank's thread stacks, dumped when a hang is detected
    summary.json      the end-of-run summary (written last)
    .safelaunch-run   the claim: created exclusively, so two runs never share a directory

Default runs go to ``./safelaunch_runs/<UTC time>-<id>/`` with a ``latest`` link beside them.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, Protocol

from safelaunch.errors import RunDirError, StartError
from safelaunch.redact import mask, process_secrets

LATEST_LINK = "latest"
CLAIM_FILE = ".safelaunch-run"
NO_SPACE = (errno.ENOSPC, errno.EDQUOT)
"""A full disk, a full quota, or a file system out of inodes (ENOSPC with bytes free)."""


def no_space_message(path: Path, exc: OSError) -> str:
    """One line for a run directory that cannot take a file: says when it is the inodes
    (every file needs one) and not the bytes that ran out."""
    reason = exc.strerror or str(exc)
    inodes = out_of_inodes(path)
    if inodes:
        reason += f" ({inodes})"
    return (f"no space left for run directory {path}: {reason}; free space or pass --run-dir "
            "on another file system")


def out_of_inodes(path: Path) -> str | None:
    """What to say when the file system of ``path`` has no free inode left, else None."""
    folder = path
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        st = os.statvfs(folder)
    except OSError:
        return None
    if st.f_files and st.f_favail == 0:
        return (f"no free inodes: the file system is out of files, with "
                f"{st.f_bavail * st.f_frsize >> 20} MiB free")
    return None


def create_run_dir(run_dir: Path, runs_root: Path | None) -> None:
    try:
        if run_dir.exists():
            if not run_dir.is_dir():
                raise RunDirError(f"run directory {run_dir} exists and is not a directory")
            if any(run_dir.iterdir()):
                raise RunDirError(
                    f"run directory {run_dir} is not empty; choose a new --run-dir so no "
                    f"earlier logs are overwritten"
                )
        run_dir.mkdir(parents=True, exist_ok=True)
        _claim(run_dir)
        run_dir.chmod(0o700)  # it holds the environment and the ranks' output: the user's only
        for folder in ("errors", "stacks"):
            private_dir(run_dir / folder)
        probe = run_dir / ".write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno in NO_SPACE:
            raise StartError(no_space_message(run_dir, exc)) from exc
        raise RunDirError(
            f"cannot write run directory {run_dir}: {reason}; choose another with --run-dir"
        ) from exc
    if runs_root is not None:
        _point_latest(runs_root, run_dir)


def private_dir(path: Path) -> None:
    """A folder of the run directory, for the user only (``0700`` whatever the umask)."""
    path.mkdir(mode=0o700, exist_ok=True)
    path.chmod(0o700)


def open_private(path: Path) -> int:
    """A file of the run directory opened for appending, created ``0600``."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)


def _claim(run_dir: Path) -> None:
    """Make the directory this run's: two runs given the same ``--run-dir`` at the same
    instant both find it empty, and only one can create the claim file."""
    try:
        fd = os.open(run_dir / CLAIM_FILE, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        raise RunDirError(f"run directory {run_dir} was just taken by another run; choose a "
                          "new --run-dir so no earlier logs are overwritten") from None
    try:
        os.write(fd, f"{os.getpid()}\n".encode())
    finally:
        os.close(fd)


def _point_latest(runs_root: Path, run_dir: Path) -> None:
    """Atomically repoint ``latest``; a user's own file of that name is left alone."""
    link = runs_root / LATEST_LINK
    if link.exists() and not link.is_symlink():
        return
    tmp = runs_root / f".{LATEST_LINK}.{os.getpid()}"
    try:
        os.symlink(run_dir.name, tmp)
        os.replace(tmp, link)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()


def write_json(path: Path, data: Any) -> None:
    """Write atomically (a reader never sees half a file), secrets masked, for the user only."""
    text = mask(json.dumps(data, indent=2, default=str), process_secrets())
    write_private(path, (text + "\n").encode("utf-8"))


def write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` atomically with ``data``, readable by the user only."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        try:
            write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _elsewhere() -> tuple[Path, ...]:
    return Path(tempfile.gettempdir()), Path.home() / ".cache" / "safelaunch"


def fallback_summary_name(run_id: str) -> str:
    return f"safelaunch-{run_id}-summary.json"


def fallback_summary(run_dir: Path, run_id: str | None = None) -> Path | None:
    """The summary of the run in ``run_dir`` that had to be written elsewhere (a full disk,
    a deleted run directory), if there is one; ``run_id`` where the caller knows it (a
    deleted run directory no longer says)."""
    run_ids = {run_dir.name, *([run_id] if run_id else [])}
    with contextlib.suppress(OSError, ValueError, AttributeError):
        run_ids.add(str(_read_json_head(run_dir / "config.json", 1 << 20).get("run_id")))
    for folder in _elsewhere():
        for run_id in sorted(run_ids):
            path = folder / fallback_summary_name(run_id)
            with contextlib.suppress(OSError, ValueError, AttributeError):
                data = _read_json_head(path, 1 << 24)
                if os.path.abspath(str(data.get("run_dir"))) == os.path.abspath(run_dir):
                    return path
    return None


def _read_json_head(path: Path, limit: int) -> Any:
    """JSON from at most ``limit`` bytes of ``path`` (the temporary directory is anyone's:
    a file there may be huge); a longer file does not parse."""
    with path.open("rb") as fh:
        return json.loads(fh.read(limit).decode("utf-8"))


class SummaryRecord(Protocol):
    """What ``summary.json`` can hold: a run's outcome (``result.RunOutcome``), the reaper's
    record of a launcher that died (``reaper.LauncherDied``), several nodes' merged record
    (``remote.several.NodesSummary``)."""

    def to_json(self) -> dict[str, Any]: ...


def write_summary(run_dir: Path, run_id: str, record: SummaryRecord,
                  extra: dict[str, Any] | None = None) -> str | None:
    """The one writer of ``summary.json``: ``record`` (and ``extra``, e.g. the diagnosis),
    atomically, secrets masked, for the user only; in the run directory, else (a full disk,
    a deleted directory) where ``fallback_summary`` finds it.  A note for the user when it
    did not go to the run directory, None when it did."""
    summary = {**record.to_json(), **(extra or {})}
    try:
        write_json(run_dir / "summary.json", summary)
        return None
    except OSError as exc:
        note = f"summary.json could not be written in the run directory ({exc.strerror or exc})"
    try:
        notes = [*summary.get("notes", []), note]
        where = write_json_elsewhere({**summary, "notes": notes}, fallback_summary_name(run_id))
    except OSError as exc:
        return f"summary.json could not be written anywhere: {exc}"
    return f"{note}: it is at {where}"


def write_json_elsewhere(data: Any, name: str) -> Path:
    """``write_json`` as ``name`` in the temporary directory, else the home directory: for a
    file the run directory could not take (a full disk).  Where it went."""
    failures = []
    for folder in _elsewhere():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            write_json(folder / name, data)
            return folder / name
        except OSError as exc:
            failures.append(f"{folder}: {exc.strerror or exc}")
    raise OSError("; ".join(failures))


def write_all(fd: int, data: bytes) -> None:
    """All of ``data`` to ``fd``, however many writes it takes."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def make_private(run_dir: Path, limit: int = 100_000) -> None:
    """Files and folders of the run directory for the user only: ranks and torch create some
    with their own mode (an error report, a stack dump, a folder of the debug variables).
    Links are left alone (``chmod`` would follow them out of the run directory)."""
    for count, path in enumerate(run_dir.rglob("*")):
        if count >= limit:
            break
        with contextlib.suppress(OSError):
            mode = path.lstat().st_mode
            if (stat.S_ISREG(mode) or stat.S_ISDIR(mode)) and mode & 0o077:
                path.chmod(stat.S_IMODE(mode) & 0o700)


def mask_files(folder: Path) -> None:
    """Mask secrets in the files the ranks wrote themselves (torch's @record error reports)."""
    secrets = process_secrets()
    for path in folder.glob("*.json"):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            text = path.read_text(encoding="utf-8")
            masked = mask(text, secrets)
            if masked != text:
                write_private(path, masked.encode("utf-8"))
