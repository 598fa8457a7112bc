"""Capturing the Python stack of every thread of every rank, and reading the top frames.

``py-spy dump`` is used where it is installed and allowed to attach (it needs ptrace; many
containers lack SYS_PTRACE); otherwise the rank runtime's fallback: a real-time signal on
which ``faulthandler`` writes all threads' stacks into the rank's stack file.  Both work
while a rank is blocked inside a C++ collective.
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sysconfig
import threading
import time
from pathlib import Path

from safelaunch.runtime.rank import STACK_SIGNAL

PY_SPY_TIMEOUT_S = 10.0
SIGNAL_WAIT_S = 2.0
RUNTIME_FRAME = re.compile(r"safelaunch[/\\]runtime[/\\]")
LIBRARY_FRAME = re.compile(r"(site-packages|dist-packages|[/\\]lib[/\\]python3[^/\\]*)[/\\]")


def _library_roots() -> list[str]:
    paths = {*site.getsitepackages(), site.getusersitepackages()}
    paths.update(sysconfig.get_paths()[key] for key in ("purelib", "platlib", "stdlib"))
    return sorted(paths)


LIBRARY_ROOTS = _library_roots()


def is_library_frame(path: str) -> bool:
    """A frame of the standard library or an installed package.  py-spy prints such paths
    relative to their site-packages (``torch/autograd/graph.py``)."""
    if LIBRARY_FRAME.search(path):
        return True
    return not os.path.isabs(path) and any(
        os.path.exists(os.path.join(root, path)) for root in LIBRARY_ROOTS)


def _py_spy(pid: int, out: Path, stopped: bool) -> str | None:
    """Dump with py-spy; None on success, else why not.  A stopped process (state T) cannot
    be paused by py-spy, so it is read as it is (``--nonblocking``): it does not move."""
    exe = shutil.which("py-spy")
    if exe is None:
        return "py-spy is not installed"
    command = [exe, "dump", "--pid", str(pid)] + (["--nonblocking"] if stopped else [])
    try:
        proc = subprocess.run(command, capture_output=True, timeout=PY_SPY_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return f"py-spy did not answer within {PY_SPY_TIMEOUT_S:g}s"
    except OSError as exc:
        return f"py-spy could not run: {exc.strerror}"
    if proc.returncode != 0 or not proc.stdout.strip():
        error = proc.stderr.decode(errors="replace").strip().splitlines()
        return "py-spy failed: " + (error[0][:200] if error else f"exit {proc.returncode}")
    out.write_bytes(proc.stdout)
    return None


def _signal_dump(pid: int, stack_file: Path) -> bool:
    before = stack_file.stat().st_size if stack_file.exists() else 0
    try:
        os.kill(pid, STACK_SIGNAL)
    except OSError:
        return False
    deadline = time.monotonic() + SIGNAL_WAIT_S
    last = -1
    while time.monotonic() < deadline:
        time.sleep(0.1)
        size = stack_file.stat().st_size if stack_file.exists() else 0
        if size > before and size == last:
            return True
        last = size
    return stack_file.exists() and stack_file.stat().st_size > before


def capture(ranks: dict[int, tuple[int, bool, bool]], stack_dir: Path,
            method: str = "auto") -> tuple[str, dict[int, Path], dict[int, str]]:
    """Dump every rank's stacks; ``ranks`` maps global rank -> (pid, signal handler ready,
    process stopped).

    Returns the method used ("py-spy", "signal", "py-spy+signal" or "none"), the files, and
    for each rank without a stack the reason.
    """
    stack_dir.mkdir(parents=True, exist_ok=True)
    files: dict[int, Path] = {}
    missing: dict[int, str] = {}
    used: set[str] = set()
    lock = threading.Lock()

    def one(rank: int, pid: int, ready: bool, stopped: bool) -> None:
        reasons = []
        spy_file = stack_dir / f"rank{rank}.py-spy.txt"
        if method in ("auto", "py-spy"):
            why = _py_spy(pid, spy_file, stopped)
            if why is None:
                with lock:
                    files[rank] = spy_file
                    used.add("py-spy")
                return
            reasons.append(why)
        sig_file = stack_dir / f"rank{rank}.txt"
        if method in ("auto", "signal"):
            if stopped:
                reasons.append("a stopped process cannot run its stack-dump signal handler")
            elif not ready:
                reasons.append("the rank runtime's signal handler is not loaded")
            elif _signal_dump(pid, sig_file):
                with lock:
                    files[rank] = sig_file
                    used.add("signal")
                return
            else:
                reasons.append(f"no dump within {SIGNAL_WAIT_S:g}s of the signal (the rank "
                               "holds the interpreter lock in native code)")
        with lock:
            missing[rank] = "; ".join(reasons) or "stack dumps are turned off"

    threads = [threading.Thread(target=one, args=(rank, *info), daemon=True)
               for rank, info in ranks.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(PY_SPY_TIMEOUT_S + SIGNAL_WAIT_S + 1)
    return ("+".join(sorted(used)) or "none"), files, missing


_SPY_FRAME = re.compile(r"^\s+(\S.*?) \((.+?):(\d+)\)\s*$")
_FH_FRAME = re.compile(r'^\s+File "(.+?)", line (\d+) in (.+)$')


def _main_thread(text: str) -> list[tuple[str, str, str]]:
    """(function, file, line) of the main thread, innermost first, from py-spy or
    faulthandler output."""
    blocks: list[list[tuple[str, str, str]]] = []
    current: list[tuple[str, str, str]] | None = None
    for line in text.splitlines():
        if line.startswith(("Thread ", "Current thread ")):
            current = []
            blocks.append(current)
            continue
        if current is None:
            continue
        spy = _SPY_FRAME.match(line)
        fh = None if spy else _FH_FRAME.match(line)
        if spy:
            current.append((spy.group(1), spy.group(2), spy.group(3)))
        elif fh:
            current.append((fh.group(3), fh.group(1), fh.group(2)))
    main = next((b for b in blocks if any(f[0] == "<module>" for f in b)),
                blocks[0] if blocks else [])
    return [f for f in main if not RUNTIME_FRAME.search(f[1])]


def top_frames(text: str, count: int = 4) -> list[str]:
    """The main thread's innermost frame, then its innermost frames outside libraries (the
    user's own code), as ``func (file:line)``; safelaunch's wrappers are skipped.  Reads py-spy
    and faulthandler output."""
    frames = _main_thread(text)
    chosen = frames[:1] + [f for f in frames[1:] if not is_library_frame(f[1])]
    return [f"{func} ({os.path.basename(path)}:{line})" for func, path, line in chosen[:count]]


_DISTRIBUTED = re.compile(r"torch[/\\]distributed[/\\]")
_AUTOGRAD = re.compile(r"torch[/\\]autograd[/\\]")
_DATA = re.compile(r"torch[/\\]utils[/\\]data[/\\]")


def place(text: str) -> tuple[str, str] | None:
    """Where the main thread of a stack dump is: ``("waiting", what)`` inside a
    torch.distributed call or in autograd's backward (where DDP's gradient all_reduce waits),
    ``("data", where)`` in data loading, ``("elsewhere", where)`` anywhere else (the user's
    code, a framework's loop); None when the dump has no frames."""
    frames = _main_thread(text)
    if not frames:
        return None
    for func, path, _ in frames:
        if _DISTRIBUTED.search(path):
            return "waiting", f"{func} (torch.distributed)"
        if _AUTOGRAD.search(path):
            return "waiting", "backward (autograd, where DDP's gradient all_reduce waits)"
    own = next((f for f in frames if not is_library_frame(f[1])), frames[0])
    where = f"{own[0]} ({os.path.basename(own[1])}:{own[2]})"
    if any(_DATA.search(path) for _, path, _ in frames):
        return "data", f"data loading, called from {where}"
    return "elsewhere", where
