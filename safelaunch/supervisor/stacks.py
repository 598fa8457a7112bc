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
from dataclasses import dataclass, field
from pathlib import Path

from safelaunch.runtime.rank import STACK_SIGNAL

PY_SPY_TIMEOUT_S = 10.0
NATIVE_TIMEOUT_S = 4.0
"""Resolving C++ symbols of torch's libraries takes about a second; a native dump is extra
evidence and must not hold up the verdict."""
NATIVE_READ_LIMIT = 1 << 20
SIGNAL_WAIT_S = 2.0
RUNTIME_FRAME = re.compile(r"safelaunch[/\\]runtime[/\\]")
LIBRARY_FRAME = re.compile(r"(site-packages|dist-packages|[/\\]lib[/\\]python3[^/\\]{0,32})[/\\]")


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


def _py_spy(pid: int, out: Path, stopped: bool, native: bool = False) -> str | None:
    """Dump with py-spy; None on success, else why not.  A stopped process (state T) cannot
    be paused by py-spy, so it is read as it is (``--nonblocking``): it does not move.
    ``native`` adds the C/C++ frames (the process is paused while they are resolved)."""
    exe = shutil.which("py-spy")
    if exe is None:
        return "py-spy is not installed"
    command = [exe, "dump", "--pid", str(pid)] + (["--nonblocking"] if stopped else [])
    command += ["--native"] if native else []
    timeout = NATIVE_TIMEOUT_S if native else PY_SPY_TIMEOUT_S
    try:
        proc = subprocess.run(command, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"py-spy did not answer within {timeout:g}s"
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


@dataclass
class Capture:
    method: str
    """"py-spy", "signal", "py-spy+signal" or "none"."""
    files: dict[int, Path] = field(default_factory=dict)
    missing: dict[int, str] = field(default_factory=dict)
    """Each rank without a stack, and why."""
    native: dict[int, Path] = field(default_factory=dict)
    """Dumps with the C/C++ frames (py-spy ``--native``), where they could be taken."""
    native_missing: dict[int, str] = field(default_factory=dict)
    """Ranks with a py-spy stack but no native dump, and why (a rank that is stopped, or
    slow to pause on a loaded machine)."""


def capture(ranks: dict[int, tuple[int, bool, bool]], stack_dir: Path,
            method: str = "auto") -> Capture:
    """Dump every rank's stacks; ``ranks`` maps global rank -> (pid, signal handler ready,
    process stopped).  Where py-spy can pause a rank, its native frames are dumped as well:
    they show a wait inside a collective that the Python frames hide (code compiled by
    torch.compile, a C++ extension, DDP's reducer)."""
    stack_dir.mkdir(parents=True, exist_ok=True)
    result = Capture("none")
    used: set[str] = set()
    lock = threading.Lock()

    def one(rank: int, pid: int, ready: bool, stopped: bool) -> None:
        reasons = []
        spy_file = stack_dir / f"rank{rank}.py-spy.txt"
        if method in ("auto", "py-spy"):
            why = _py_spy(pid, spy_file, stopped)
            if why is None:
                with lock:
                    result.files[rank] = spy_file
                    used.add("py-spy")
                native_file = stack_dir / f"rank{rank}.native.txt"
                why_not = ("a stopped process cannot be paused" if stopped
                           else _py_spy(pid, native_file, False, native=True))
                with lock:
                    if why_not is None:
                        result.native[rank] = native_file
                    else:
                        result.native_missing[rank] = why_not
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
                    result.files[rank] = sig_file
                    used.add("signal")
                return
            else:
                reasons.append(f"no dump within {SIGNAL_WAIT_S:g}s of the signal (the rank "
                               "holds the interpreter lock in native code)")
        with lock:
            result.missing[rank] = "; ".join(reasons) or "stack dumps are turned off"

    threads = [threading.Thread(target=one, args=(rank, *info), daemon=True)
               for rank, info in ranks.items()]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + PY_SPY_TIMEOUT_S + NATIVE_TIMEOUT_S + SIGNAL_WAIT_S + 1
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    with lock:
        return Capture("+".join(sorted(used)) or "none", dict(result.files),
                       dict(result.missing), dict(result.native), dict(result.native_missing))


# Frame lines are read in time linear in their length (a native frame of templated C++ runs
# to kilobytes): tests/diagnose/test_regex_linear.py checks every pattern's shape.
_SPY_TAIL = re.compile(r":(\d+)\)\s*$")
_FH_FRAME = re.compile(r'^\s+File "(.{1,4096}?)", line (\d+) in (.+)$')


def _spy_frame(line: str) -> tuple[str, str, str] | None:
    """(function, file, line) of a py-spy frame line, ``    function (file:line)``: the
    function runs to the first `` (`` that leaves a file name before the ``:line)`` ending."""
    tail = _SPY_TAIL.search(line)
    name = line.lstrip()
    start = len(line) - len(name)
    if tail is None or start == 0 or not name:
        return None
    cut = line.find(" (", start + 1, tail.start() - 1)
    if cut < 0:
        return None
    return line[start:cut], line[cut + 2:tail.start()], tail.group(1)


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
        spy = _spy_frame(line)
        fh = None if spy else _FH_FRAME.match(line)
        if spy:
            current.append(spy)
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


_NATIVE_WAIT = re.compile(r"\b(?:c10d|gloo|nccl)\w{0,100}::[\w:<>]*|\bnccl[A-Z]\w*|\bwait_tensor\b")
# The name ends on a non-space (as '\S.*?' followed by '\s+' would): then '\s+' is tried once
# per run of spaces, not once per space.
_NATIVE_FRAME = re.compile(r"^\s+(\S(?:.{0,4096}?\S)?)\s+\(([^()]*)\)\s*$")
NATIVE_NAME_LEN = 120


_NATIVE_GPU_WAIT = re.compile(
    r"\bcu(?:da)?(?:Stream|Ctx|Device|Event)Synchronize\w{0,20}|\bcu(?:da)?Memcpy\w{0,30}")


def _main_native(text: str, pattern: re.Pattern[str]) -> str | None:
    """The innermost frame of the main thread of a ``py-spy dump --native`` that ``pattern``
    finds, as much of its name as the pattern takes."""
    main = False
    for line in text.splitlines():
        if line.startswith("Thread "):
            if main:
                return None
            main = '"MainThread"' in line
            continue
        frame = _NATIVE_FRAME.match(line[:4096]) if main else None
        hit = pattern.search(frame.group(1)) if frame else None
        if hit is not None:
            return hit.group(0)[:NATIVE_NAME_LEN]
    return None


def native_wait(text: str) -> str | None:
    """The innermost frame of a communication library (c10d, gloo, NCCL) in the main thread
    of a ``py-spy dump --native``: the rank waits inside a collective whatever its Python
    frames say.  None when there is none."""
    return _main_native(text, _NATIVE_WAIT)


def native_gpu_wait(text: str) -> str | None:
    """The CUDA call the main thread waits in for its GPU (``cudaStreamSynchronize`` under
    ``.item()``, ``cuCtxSynchronize`` under ``torch.cuda.synchronize()``, a blocking copy), or
    None.  NCCL is asynchronous: a rank whose collective waits for a peer that never comes
    looks like this on a GPU, not like a wait in NCCL (seen on an H200,
    tests/fixtures/gpu/real)."""
    return _main_native(text, _NATIVE_GPU_WAIT)


def read_dump(path: Path) -> str:
    """A stack dump as text, at most ``NATIVE_READ_LIMIT`` bytes (native frames of templated
    C++ run to kilobytes a line)."""
    with path.open("rb") as fh:
        return fh.read(NATIVE_READ_LIMIT).decode(errors="replace")


def place(text: str, native: str | None = None) -> tuple[str, str] | None:
    """Where the main thread of a stack dump is: ``("waiting", what)`` inside a
    torch.distributed call, in autograd's backward (where DDP's gradient all_reduce waits) or,
    by its ``native`` dump, inside a communication library; ``("gpu", what)`` by its native
    dump, in a CUDA call that waits for the GPU (an NCCL collective's kernel, or one of its
    own that never ends); ``("data", where)`` in data
    loading, ``("elsewhere", where)`` anywhere else (the user's code, a framework's loop);
    None when the dump has no frames."""
    frames = _main_thread(text)
    if not frames:
        return None
    waits = native_wait(native) if native else None
    for func, path, _ in frames:
        if _DISTRIBUTED.search(path):
            return "waiting", f"{func} (torch.distributed)"
        if _AUTOGRAD.search(path):
            return "waiting", "backward (autograd, where DDP's gradient all_reduce waits)"
    if waits is not None:
        return "waiting", f"{waits} (its native stack)"
    own = next((f for f in frames if not is_library_frame(f[1])), frames[0])
    where = f"{own[0]} ({os.path.basename(own[1])}:{own[2]})"
    if any(_DATA.search(path) for _, path, _ in frames):
        return "data", f"data loading, called from {where}"
    gpu = native_gpu_wait(native) if native else None
    if gpu is not None:
        return "gpu", f"{gpu} (its native stack), called from {where}"
    return "elsewhere", where
