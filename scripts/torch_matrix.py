"""The torch matrix: safelaunch on every torch it supports, each against its own torchrun.

    python scripts/torch_matrix.py [--torch 2.4.1 --torch 2.15.0 ...] [--venvs DIR]
                                   [--checks smoke,options,differential] [--markdown FILE]

For each torch version: a virtual environment of its own under ``--venvs`` (made once and
reused; newer torch are CUDA wheels of several GB that import and run on the CPU, so they are
installed with ``PIP_CONSTRAINT=/dev/null`` past any local cap), the project installed
editable into it, then three checks:

- ``differential``: ``tests/test_torchrun_diff.py``, safelaunch against that torch's own
  ``python -m torch.distributed.run`` on the same arguments;
- ``options``: ``tests/test_torchrun_options.py`` (every option, spelling and ``PET_*``
  variable of that torch's parser) and ``tests/test_torch_versions.py``;
- ``smoke``: the run paths one by one (a healthy job with the minimal test, a failing rank, a
  SIGKILLed rank, a stalled rank with ``--hang-timeout``, ``--standalone``, ``-m``,
  ``--no-python``, ``minimal-test``, ``diagnose`` of a failed run), each with its exit code and
  what its summary says.

It prints one table, torch version x check, with the time each took, and writes it as
Markdown with ``--markdown``.  A torch below the supported floor gets one check instead:
that safelaunch refuses it in one line with exit 2.  Exit status: 0 when every cell passed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
DEFAULT_TORCHES = ("2.4.1", "2.7.1", "2.9.1", "2.13.0", "2.15.0")
CHECKS = ("smoke", "options", "differential")
INSTALL_TIMEOUT_S = 1800
SUITE_TIMEOUT_S = 2400
RUN_TIMEOUT_S = 180

sys.path.insert(0, str(ROOT))
from safelaunch.torch_support import MIN_TORCH, version_tuple  # noqa: E402


@dataclass
class Cell:
    ok: bool
    seconds: float
    detail: str = ""

    def text(self) -> str:
        mark = "pass" if self.ok else "FAIL"
        return f"{mark} ({self.seconds:.0f}s)" + ("" if self.ok else f": {self.detail}")


def venv_python(venvs: Path, version: str) -> Path:
    """A venv holding exactly torch ``version`` and the project, made once."""
    venv = venvs / f"torch-{version}"
    python = venv / "bin" / "python"
    if python.exists() and _torch_version(python) == version:
        return python
    print(f"[matrix] installing torch {version} into {venv} (several GB, a few minutes)",
          flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {**os.environ, "PIP_CONSTRAINT": "/dev/null"}
    pip = [str(python), "-m", "pip", "install", "-q"]
    # the project without its torch requirement, so a torch below the floor installs too
    # (pip itself refuses it beside safelaunch; the check is what safelaunch says then)
    others = [d for d in project_dependencies() if not d.startswith("torch")]
    subprocess.run([*pip, f"torch=={version}", "numpy", "pytest", "pytest-timeout", *others],
                   check=True, env=env, timeout=INSTALL_TIMEOUT_S)
    subprocess.run([*pip, "--no-deps", "-e", str(ROOT)], check=True, env=env,
                   timeout=INSTALL_TIMEOUT_S)
    return python


def project_dependencies() -> list[str]:
    """``[project] dependencies`` of pyproject.toml (Python 3.10 has no tomllib)."""
    text = (ROOT / "pyproject.toml").read_text()
    block = re.search(r"^dependencies = \[(.*?)^\]", text, re.MULTILINE | re.DOTALL)
    return re.findall(r'"([^"]+)"', block.group(1)) if block else []


def _torch_version(python: Path) -> str | None:
    """The venv's torch, when everything a check needs is installed there (asked from "/",
    so the project's own folder on the path cannot stand in for its install)."""
    proc = subprocess.run([str(python), "-W", "ignore", "-c",
                           "import torch, safelaunch, click, pytest; print(torch.__version__)"],
                          capture_output=True, text=True, timeout=120, cwd="/")
    return proc.stdout.strip().split("+")[0] if proc.returncode == 0 else None


def run_tests(python: Path, *paths: str) -> tuple[bool, str]:
    proc = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *paths],
                          cwd=ROOT, capture_output=True, text=True, timeout=SUITE_TIMEOUT_S)
    lines = proc.stdout.strip().splitlines()
    tally = lines[-1] if lines else proc.stderr.strip()[-200:]
    failed = [line.split(" - ")[0] for line in lines if line.startswith("FAILED")]
    return proc.returncode == 0, tally if not failed else f"{tally}; {', '.join(failed[:5])}"


class Smoke:
    """The run paths of one torch, each in a directory of its own."""

    def __init__(self, python: Path, work: Path) -> None:
        self.python = python
        self.work = work
        self.runs: dict[str, Path] = {}

    def safelaunch(self, name: str, *args: str,
                   env: dict[str, str] | None = None) -> tuple[int, dict[str, object], str]:
        cwd = self.work / name
        cwd.mkdir(parents=True, exist_ok=True)
        run_dir = cwd / "run"
        argv = [str(self.python), "-m", "safelaunch", *args]
        if args[0] == "run":
            argv[4:4] = ["--run-dir", str(run_dir)]
        proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT_S, env={**os.environ, **(env or {})})
        summary_file = run_dir / "summary.json"
        summary = json.loads(summary_file.read_text()) if summary_file.exists() else {}
        self.runs[name] = run_dir
        return proc.returncode, summary, (proc.stdout + proc.stderr)[-400:]

    def expect(self, name: str, code: int, *args: str, status: str | None = None,
               root: int | None = None, env: dict[str, str] | None = None) -> str | None:
        got, summary, tail = self.safelaunch(name, *args, env=env)
        if got != code:
            return f"{name}: exit {got}, expected {code}: {tail!r}"
        if status is not None and summary.get("status") != status:
            return f"{name}: status {summary.get('status')!r}, expected {status!r}"
        if root is not None and summary.get("root_cause_rank") != root:
            return f"{name}: root cause {summary.get('root_cause_rank')!r}, expected {root}"
        return None

    def checks(self) -> list[Callable[[], str | None]]:
        fault, hang = str(FIXTURES / "fault.py"), str(FIXTURES / "hang.py")
        train = str(ROOT / "examples" / "train_ddp.py")
        quick = ("run", "--nproc", "2", "--no-minimal-test")
        return [
            lambda: self.expect("ok", 0, "run", "--nproc", "2", train, status="succeeded"),
            lambda: self.expect("failing-rank", 3, *quick, fault, "--mode", "exit", "--code", "3",
                                status="failed", root=1),
            lambda: self.expect("sigkill", 137, *quick, fault, "--mode", "sigkill",
                                status="failed", root=1),
            lambda: self.expect("stalled", 124, *quick, "--hang-timeout", "3", hang, "stall",
                                status="hung"),
            lambda: self.expect("standalone", 0, "run", "--standalone", "--nproc", "2",
                                "--no-minimal-test", train, status="succeeded"),
            self.module,
            self.no_python,
            lambda: self.expect("minimal-test", 0, "minimal-test", "--nproc", "2"),
            self.diagnose,
        ]

    def module(self) -> str | None:
        package = self.work / "module" / "smoke_mod"
        package.mkdir(parents=True, exist_ok=True)
        (package / "__init__.py").write_text("")
        (package / "__main__.py").write_text("import os\nprint('rank', os.environ['RANK'])\n")
        return self.expect("module", 0, "run", "--nproc", "2", "--no-minimal-test", "-m",
                           "smoke_mod", status="succeeded")

    def no_python(self) -> str | None:
        folder = self.work / "no-python"
        folder.mkdir(parents=True, exist_ok=True)
        program = folder / "job.sh"
        program.write_text("#!/bin/sh\necho \"rank $RANK of $WORLD_SIZE\"\n")
        program.chmod(0o755)
        return self.expect("no-python", 0, "run", "--nproc", "2", "--no-minimal-test",
                           "--no-python", "./job.sh", status="succeeded")

    def diagnose(self) -> str | None:
        run_dir = self.runs.get("sigkill")
        if run_dir is None:
            return "diagnose: no failed run to read"
        proc = subprocess.run([str(self.python), "-m", "safelaunch", "diagnose", "--json",
                               str(run_dir)], capture_output=True, text=True, timeout=60)
        try:
            found = json.loads(proc.stdout)["findings"][0]
        except (ValueError, KeyError, IndexError):
            return f"diagnose: no finding: {proc.stdout[-300:]!r} {proc.stderr[-300:]!r}"
        if found.get("id") != "sigkill-from-outside" or found.get("rank") != 1:
            return f"diagnose: {found.get('id')} on rank {found.get('rank')}"
        return None


def smoke(python: Path) -> tuple[bool, str]:
    work = Path(tempfile.mkdtemp(prefix="safelaunch-matrix-"))
    try:
        problems = [p for p in (check() for check in Smoke(python, work).checks()) if p]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return not problems, "; ".join(problems)


def refused(python: Path) -> tuple[bool, str]:
    """Below the floor: one line, exit 2, nothing started."""
    with tempfile.TemporaryDirectory() as work:
        Path(work, "train.py").write_text("print('must not run')\n")
        proc = subprocess.run([str(python), "-m", "safelaunch", "run", "train.py"], cwd=work,
                              capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        lines = (proc.stdout + proc.stderr).strip().splitlines()
        ok = (proc.returncode == 2 and len(lines) == 1 and "older than" in lines[0]
              and not Path(work, "safelaunch_runs").exists())
        return ok, lines[0] if lines else f"exit {proc.returncode}, no output"


def timed(check: Callable[[], tuple[bool, str]]) -> Cell:
    start = time.monotonic()
    try:
        ok, detail = check()
    except (subprocess.SubprocessError, OSError) as exc:
        ok, detail = False, f"{type(exc).__name__}: {exc}"
    return Cell(ok, time.monotonic() - start, detail)


def run_torch(version: str, checks: list[str], venvs: Path) -> dict[str, Cell]:
    """One row of the matrix."""
    try:
        python = venv_python(venvs, version)
    except (subprocess.SubprocessError, OSError) as exc:
        return {"install": Cell(False, 0, f"{type(exc).__name__}: {exc}")}
    parsed = version_tuple(version)
    if parsed is not None and parsed < MIN_TORCH:
        cell = timed(partial(refused, python))
        print(f"[matrix] torch {version} refused: {cell.text()}", flush=True)
        return {"refused": cell}
    jobs: dict[str, Callable[[], tuple[bool, str]]] = {
        "smoke": partial(smoke, python),
        "options": partial(run_tests, python, "tests/test_torchrun_options.py",
                           "tests/test_torch_versions.py"),
        "differential": partial(run_tests, python, "tests/test_torchrun_diff.py"),
    }
    row: dict[str, Cell] = {}
    for name in checks:
        row[name] = timed(jobs[name])
        print(f"[matrix] torch {version} {name}: {row[name].text()}", flush=True)
    return row


def render(table: dict[str, dict[str, Cell]], checks: list[str], seconds: float) -> str:
    columns = list(dict.fromkeys([*checks, *(c for row in table.values() for c in row)]))
    lines = ["| torch | " + " | ".join(columns) + " |",
             "| --- | " + " | ".join("---" for _ in columns) + " |"]
    for version, row in table.items():
        cells = [row[c].text() if c in row else "-" for c in columns]
        lines.append(f"| {version} | " + " | ".join(cells) + " |")
    lines.append(f"\n{len(table)} torch version(s), {seconds / 60:.1f} min")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--torch", action="append", dest="torches",
                        help=f"a torch version (repeatable) [default: {' '.join(DEFAULT_TORCHES)}]")
    parser.add_argument("--venvs", type=Path, default=ROOT / "build" / "torch-matrix",
                        help="where the per-torch virtual environments live")
    parser.add_argument("--checks", default=",".join(CHECKS),
                        help=f"comma-separated subset of {','.join(CHECKS)}")
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = parser.parse_args()
    checks = [c for c in args.checks.split(",") if c]
    unknown = set(checks) - set(CHECKS)
    if unknown:
        parser.error(f"unknown checks: {', '.join(sorted(unknown))}")
    start = time.monotonic()
    table = {version: run_torch(version, checks, args.venvs)
             for version in args.torches or DEFAULT_TORCHES}
    text = render(table, checks, time.monotonic() - start)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")
    return 0 if all(cell.ok for row in table.values() for cell in row.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
