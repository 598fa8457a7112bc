"""Shared fixtures: a clean environment, and running the real ``safelaunch`` binary."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

FIXTURES = Path(__file__).parent / "fixtures"
FAULT = str(FIXTURES / "fault.py")
MINIMAL_TEST_ENV = "SAFELAUNCH_MINIMAL_TEST"
CLEARED_PREFIXES = ("SAFELAUNCH_", "PET_", "TORCHELASTIC_", "NCCL_", "MASTER_", "TORCH_NCCL_")


@pytest.fixture(scope="session")
def rule_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache of the rule file for the whole session (a worker's), not the user's own:
    results never depend on what a developer's home folder holds."""
    return tmp_path_factory.mktemp("rule-cache")


@pytest.fixture(autouse=True)
def clean_env(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
              rule_cache_dir: Path) -> None:
    for name in list(os.environ):
        if name.startswith(CLEARED_PREFIXES) or name in ("RANK", "WORLD_SIZE", "LOCAL_RANK"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SAFELAUNCH_CACHE_DIR", str(rule_cache_dir))
    if (request.node.get_closest_marker("slow") is not None
            and request.node.get_closest_marker("minimal_test") is None):
        # The minimal test is about 3.5 of the 5.7 CPU-seconds a small 2-rank `safelaunch
        # run` costs here (its ranks import torch too): a test runs it only when it is what
        # the test is about or what it must meet (marked `minimal_test`, or `--minimal-test`
        # given).
        monkeypatch.setenv(MINIMAL_TEST_ENV, "0")


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    cwd: Path
    seconds: float

    @property
    def run_dir(self) -> Path:
        for line in self.stderr.splitlines():
            if line.startswith("[safelaunch] logs: "):
                return self.cwd / line.split(": ", 1)[1]
        raise AssertionError(f"no run directory announced:\n{self.stderr}")

    def summary(self) -> dict[str, Any]:
        return dict(json.loads((self.run_dir / "summary.json").read_text()))

    def rank_log(self, rank: int) -> str:
        return (self.run_dir / f"rank{rank}.log").read_text(errors="replace")


def safelaunch_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "safelaunch", *args]


class Spawned:
    """The processes a test starts.  Whatever of them still runs when the test ends (a
    failed assertion, a timeout) is killed with everything it started, so no test leaves a
    launcher, an ssh client or a rank behind for the next one."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen[bytes]] = []

    def popen(self, argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        proc: subprocess.Popen[bytes] = subprocess.Popen(argv, **kwargs)
        self.started.append(proc)
        return proc

    def stop_all(self) -> None:
        for proc in self.started:
            if proc.poll() is not None:
                continue
            with contextlib.suppress(psutil.Error):
                tree = psutil.Process(proc.pid).children(recursive=True)
                for child in tree:
                    with contextlib.suppress(psutil.Error):
                        child.kill()
            proc.kill()
            proc.wait()


@pytest.fixture
def spawn() -> Iterator[Spawned]:
    """Start real processes; a test that does is ``slow`` (see ``PROCESS_FIXTURES``)."""
    spawned = Spawned()
    yield spawned
    spawned.stop_all()


@pytest.fixture
def run_safelaunch(tmp_path: Path, spawn: Spawned) -> Any:
    def run(*args: str, cwd: Path | None = None, timeout: float = 90,
            env: dict[str, str] | None = None) -> Run:
        where = cwd or tmp_path
        t0 = time.monotonic()
        proc = spawn.popen(safelaunch_cmd(*args), cwd=where, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)
        out, err = proc.communicate(timeout=timeout)
        return Run(proc.returncode, out.decode(errors="replace"), err.decode(errors="replace"),
                   where, time.monotonic() - t0)

    return run


def pids_in(pid_dir: Path) -> set[int]:
    return {int(p.read_text()) for p in pid_dir.iterdir() if p.read_text().strip()}


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                out.add(pid)
        except psutil.Error:
            pass
    return out


def wait_gone(pids: set[int], timeout: float) -> set[int]:
    """The pids still alive after ``timeout`` seconds (empty when all are gone)."""
    deadline = time.monotonic() + timeout
    while True:
        left = alive(pids)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def torch_gloo_exit_abort(returncode: int, summary: dict[str, Any]) -> bool:
    """The run finished its work and then aborted in torch's own gloo teardown at interpreter
    exit, and says so.  Scripts that leave their process group alive at exit (accelerate's and
    transformers' documented loops) abort there in 1 run in 4 to 8 under plain torchrun too;
    a test of such a script accepts exactly this outcome, never a hang or another cause."""
    findings = (summary.get("diagnosis") or {}).get("findings") or []
    return (returncode == 134 and summary.get("hang") is None
            and [f.get("id") for f in findings][:1] == ["gloo-exit-abort"])


def not_private(run_dir: Path) -> list[str]:
    """Files and folders of the run directory that others could read (links aside)."""
    found = []
    for path in [run_dir, *run_dir.rglob("*")]:
        mode = path.lstat().st_mode
        if (stat.S_ISREG(mode) or stat.S_ISDIR(mode)) and mode & 0o077:
            found.append(f"{path.relative_to(run_dir)} {stat.S_IMODE(mode):o}")
    return found


def kill_all(pids: set[int]) -> None:
    for pid in alive(pids):
        with contextlib.suppress(OSError):
            os.kill(pid, 9)


# A test is ``slow`` when it starts real processes: ranks, launchers, an OpenSSH server.  It
# says so by the fixtures it uses (``spawn``, or one built on it such as ``run_safelaunch``;
# the module-wide ssh servers); a module whose every test does says
# ``pytestmark = pytest.mark.usefixtures("spawn")``.  `pytest -m "not slow"` runs the rest (the
# pure parts: config, plan, rules, the corpus, hang analysis, rendering) in seconds, and a test
# of that tier that starts a process anyway fails and names the fixture to use.
PROCESS_FIXTURES = {"spawn", "server", "servers"}


def pytest_configure(config: pytest.Config) -> None:
    """SIGINT as a terminal gives it; the package and its environment byte-compiled once: the
    suite starts safelaunch and torch hundreds of times (launchers, reapers, every rank), and
    where PYTHONDONTWRITEBYTECODE is set each of them would compile every module it imports
    that has no byte code yet."""
    # A suite started in the background by a shell without job control (`nohup pytest &`)
    # inherits SIGINT ignored, and so would every process it starts: the tests that press
    # Ctrl-C on safelaunch would wait for nothing.  A handler (unlike "ignored") is reset to
    # the default in each child.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        _byte_compile()


def _byte_compile() -> None:
    """safelaunch, and the virtual environment the suite runs in where its installer did not
    (the README installs with ``--no-compile``: pip compiles its 12,000 files one by one, this
    uses every core, and an already compiled file costs a stat)."""
    import compileall
    import importlib.util
    import sysconfig

    compileall.compile_dir(Path(__file__).resolve().parents[1] / "safelaunch", quiet=1)
    if sys.prefix == sys.base_prefix:
        return  # not a virtual environment of the project's: not ours to write in
    for lib in sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}):
        missing = sum(1 for folder, _, names in os.walk(lib) for name in names
                      if name.endswith(".py") and not os.path.exists(
                          importlib.util.cache_from_source(os.path.join(folder, name))))
        if missing:
            compileall.compile_dir(lib, quiet=2, workers=0 if missing > 100 else 1)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Every module the tests import is loaded now (torch's too): freeze them, so that the
    cycle collector, which runs thousands of times in a suite, no longer walks torch's
    objects at each full collection (as the launcher does, ``safelaunch/heap.py``)."""
    gc.freeze()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers per core, at most 8.  Most slow tests wait (on a rendezvous,
    a hang timeout, a remote link) more than they compute, so a 2-core machine runs four at a
    time in about the time of two."""
    return max(2, min(8, 2 * (os.cpu_count() or 1)))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if PROCESS_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def only_slow_tests_start_processes(request: pytest.FixtureRequest,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("slow") is not None:
        return

    def refused(self: object, *args: object, **kwargs: object) -> None:
        raise AssertionError(f"{request.node.nodeid} starts a process: use the `spawn` "
                             "fixture (the test is then marked slow and its processes reaped)")

    monkeypatch.setattr(subprocess.Popen, "__init__", refused)
