"""The rank runtime: loaded into every rank before the user's script, with no change to it.

``activate`` runs from the ``sitecustomize`` that safelaunch puts first on the rank's
``PYTHONPATH``.  In the rank's own process (never in DataLoader workers or other helper
processes, which inherit the environment) it opens the rank's heartbeat record, registers a
signal that dumps every thread's stack, starts the thread that dumps torch's flight recorder
on request (``flight``), and, once the script imports torch, adds:

- a global optimizer step hook (one step per ``Optimizer.step()``);
- wrappers around ``init_process_group`` (entered / done; the default process-group timeout
  from ``--collective-timeout``) and every collective (running count, name, step);
- counters of ``DistributedDataParallel`` forward and backward passes (each backward ends in
  DDP's gradient all_reduce, which the reducer runs in C++);
- the time the rank waits for its peers (inside collectives, and from the end of a DDP
  backward's gradient computation to the optimizer step), summed and published at each step
  for the straggler detector (``supervisor.stragglers``).

Nothing here imports torch, and nothing raises into the user's code.
"""

from __future__ import annotations

import atexit
import contextlib
import faulthandler
import functools
import mmap
import os
import re
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FunctionType, ModuleType
from typing import IO, Any

from safelaunch.runtime import beatfile, flight, frames, gpu_timing
from safelaunch.runtime.imports import when_imported

HEARTBEAT_FILE_ENV = "SAFELAUNCH_HEARTBEAT_FILE"
STACK_FILE_ENV = "SAFELAUNCH_STACK_FILE"
RANK_PID_ENV = "SAFELAUNCH_RANK_PID"
LAUNCHER_PID_ENV = "SAFELAUNCH_LAUNCHER_PID"
JOB_ID_ENV = "SAFELAUNCH_JOB_ID"
"""The job's mark, in the environment of every process of the job."""
PR_SET_PDEATHSIG = 1
COLLECTIVE_TIMEOUT_ENV = "SAFELAUNCH_COLLECTIVE_TIMEOUT"
GPU_WAIT_TIMING_ENV = "SAFELAUNCH_GPU_WAIT_TIMING"
"""``0``: an NCCL rank's waits are timed on the host only (no CUDA events)."""
STACK_SIGNAL = signal.SIGRTMIN + 6 if hasattr(signal, "SIGRTMIN") else signal.SIGUSR2

_P2P_OR_OBJECT = re.compile(r"(^|_)i?(send|recv)(_|$)|_object(_list)?$|barrier$")


def collective_names(module: ModuleType) -> list[str]:
    """Every collective and point-to-point function ``torch.distributed`` defines in this
    torch version: the public functions that take ``async_op``, the object collectives,
    send/recv in all their forms and the barriers."""
    import inspect

    names = []
    for name, fn in list(vars(module).items()):
        # type(), not isinstance(): deprecated module attributes warn when their class is read
        if name.startswith("_") or type(fn) is not FunctionType or fn.__module__ != module.__name__:
            continue
        try:
            takes_async = "async_op" in inspect.signature(fn).parameters
        except (TypeError, ValueError):
            takes_async = False
        if takes_async or _P2P_OR_OBJECT.search(name):
            names.append(name)
    return sorted(names)


def _packer(name: str) -> Callable[[mmap.mmap, Any], None]:
    offset, fmt = beatfile.FIELDS[name]
    pack_into = struct.Struct(fmt).pack_into
    return lambda mm, value: pack_into(mm, offset, value)


_P = {name: _packer(name) for name in beatfile.FIELDS}
# The per-step path writes with bare pack_into calls at fixed offsets: it runs on every
# optimizer step of every rank and must stay well under a microsecond.
_PACK_Q = struct.Struct("<q").pack_into
_PACK_D = struct.Struct("<d").pack_into
_OFF_STEP, _OFF_STEP_TIME = beatfile.FIELDS["step"][0], beatfile.FIELDS["step_time"][0]
_OFF_BEATS, _OFF_BEAT_TIME = beatfile.FIELDS["beats"][0], beatfile.FIELDS["beat_time"][0]
_OFF_BACKWARDS = beatfile.FIELDS["backwards"][0]
_OFF_STEP_WAIT = beatfile.FIELDS["step_wait"][0]
_monotonic = time.monotonic


class Beat:
    """The writing side of one rank's heartbeat record."""

    def __init__(self, mm: mmap.mmap) -> None:
        self.mm = mm
        self.enabled = True
        self.steps = 0
        self.beats = 0
        self.collectives = 0
        self.forwards = 0
        self.backwards = 0
        self.optimizer_steps = False
        self.in_collective = False
        self.waited = 0.0
        """Seconds spent waiting for the peers (see ``beatfile.Snapshot.step_wait``)."""
        self.coll_start = 0.0
        self.backward_end = 0.0
        """When the last gradient of a DDP backward pass was computed (0: not in that wait)."""
        self.gpu: gpu_timing.GpuSpans | None = None
        """With NCCL: the same waits timed on the GPU (``gpu_timing``); None: host time only."""
        self.coll_event: gpu_timing.Span | None = None
        self.backward_event: gpu_timing.Span | None = None
        self.pre_step_hooked = False
        self.phases: list[tuple[str, float, float]] = []
        _P["pid"](mm, os.getpid())
        _P["magic"](mm, beatfile.MAGIC)

    def progress(self, now: float) -> None:
        self.beats += 1
        # the time first: a launcher reading between the two stores sees the older count
        _PACK_D(self.mm, _OFF_BEAT_TIME, now)
        _PACK_Q(self.mm, _OFF_BEATS, self.beats)

    def step(self, step: int | None = None) -> None:
        if not self.enabled:
            return
        now = _monotonic()
        mm = self.mm
        gpu = self.gpu
        if gpu is not None:
            if gpu.pending:
                self._drain_gpu()
            gpu.next_round(now)
        self.steps = self.steps + 1 if step is None else int(step)
        _PACK_Q(mm, _OFF_STEP, self.steps)
        _PACK_D(mm, _OFF_STEP_TIME, now)
        self.progress(now)
        _PACK_D(mm, _OFF_STEP_WAIT, self.waited)

    def optimizer_step(self, *_: Any) -> None:
        """The global optimizer step hook: the hot path, kept flat."""
        if not self.enabled:
            return
        now = _monotonic()
        mm = self.mm
        gpu = self.gpu
        if gpu is not None:
            if gpu.pending:
                self._drain_gpu()
            gpu.next_round(now)
        self.optimizer_steps = True
        self.steps += 1
        self.beats += 1
        _PACK_Q(mm, _OFF_STEP, self.steps)
        _PACK_D(mm, _OFF_STEP_TIME, now)
        # progress()'s stores, inline on the hot path: the time before the count
        _PACK_D(mm, _OFF_BEAT_TIME, now)
        _PACK_Q(mm, _OFF_BEATS, self.beats)
        _PACK_D(mm, _OFF_STEP_WAIT, self.waited)

    def optimizer_step_begin(self, *_: Any) -> None:
        """A global optimizer pre-step hook, registered once a DDP model exists: the wait at
        the end of the backward pass (DDP's reducer waits there, in C++, for the gradient
        all_reduce that needs every rank) ends here."""
        end = self.backward_end
        if end:
            self._waited(_monotonic() - end, self.backward_event, gpu_timing.DDP_WAIT)
            self.backward_end = 0.0
            self.backward_event = None

    def backward_done(self, *_: Any) -> None:
        """An autograd post-hook on the gradient accumulator a DDP backward pass reaches
        last: from here to the optimizer step the rank waits for its peers."""
        if self.enabled:
            self.backward_end = _monotonic()
            gpu = self.gpu
            if gpu is not None:
                before = self.backward_event
                try:  # a later backward pass (gradient accumulation) moves the mark
                    self.backward_event = (gpu.begin(gpu_timing.DDP_WAIT, self.backward_end)
                                           if before is None else gpu.restart(before))
                except Exception:  # any CUDA failure: time on the host
                    self.gpu = self.backward_event = None

    def _waited(self, host_s: float, span: gpu_timing.Span | None, kind: int) -> None:
        """A wait of ``host_s`` host seconds ends now; with GPU timing, what the GPU waited
        beyond that in ``span`` (its start on the GPU; None: not timed, stood for by the
        next timed span of its ``kind``) is added once the GPU is past it."""
        self.waited += host_s
        if self.gpu is not None:
            try:
                self.gpu.end(span, host_s, kind)
            except Exception:  # any CUDA failure: time on the host
                self.gpu = None

    def _drain_gpu(self) -> None:
        """Adds what the GPU waited in the spans it is past.  A CUDA error anywhere (a broken
        context after a device-side assert) turns GPU timing off for good: the rank's waits
        are then timed on the host, as on CPU."""
        gpu = self.gpu
        if gpu is None:
            return
        try:
            self.waited += gpu.drain()
        except Exception:  # any CUDA failure: time on the host
            self.gpu = None

    def heartbeat(self, step: int | None, metrics: dict[str, Any]) -> None:
        if not self.enabled:
            return
        if step is not None or not self.optimizer_steps:
            self.step(step)
        else:
            self.progress(time.monotonic())
        if metrics:
            import json

            text = json.dumps(metrics, default=str).encode()[: beatfile.METRICS_LEN]
            _P["metrics"](self.mm, text)

    def collective_enter(self, name: str) -> None:
        self.in_collective = True
        self.collectives += 1
        mm = self.mm
        _P["coll_count"](mm, self.collectives)
        _P["coll_name"](mm, name.encode()[: beatfile.NAME_LEN])
        _P["coll_step"](mm, self.steps)
        self.coll_start = now = time.monotonic()
        _P["coll_start"](mm, now)
        _P["in_coll"](mm, 1)
        gpu = self.gpu
        if gpu is not None and not self.backward_end:  # else DDP's wait encloses it
            try:
                self.coll_event = gpu.begin(gpu_timing.COLLECTIVE, now)
            except Exception:  # any CUDA failure: time on the host
                self.gpu = self.coll_event = None

    def collective_exit(self) -> None:
        self.in_collective = False
        _P["in_coll"](self.mm, 0)
        now = time.monotonic()
        span, self.coll_event = self.coll_event, None
        if not self.backward_end:  # else the DDP wait that encloses it counts it
            self._waited(now - self.coll_start, span, gpu_timing.COLLECTIVE)
        elif span is not None and self.gpu is not None:
            self.gpu.cancel(span)
        self.progress(now)

    def forward(self) -> None:
        if not self.enabled:
            return
        self.forwards += 1
        _P["forwards"](self.mm, self.forwards)
        self.progress(time.monotonic())

    def backward(self, *_: Any) -> None:
        """An autograd pre-hook: returns None, so the gradient passes unchanged.  One store:
        the forward pass before it and the optimizer step after it mark progress."""
        if self.enabled:
            self.backwards += 1
            _PACK_Q(self.mm, _OFF_BACKWARDS, self.backwards)

    def init_state(self, state: int) -> None:
        _P["init_state"](self.mm, state)
        if state == beatfile.INIT_DONE:
            self.progress(time.monotonic())

    def set_phase(self, name: str, start: float, timeout: float) -> None:
        _P["phase_name"](self.mm, name.encode()[: beatfile.NAME_LEN])
        _P["phase_timeout"](self.mm, timeout)
        _P["phase_start"](self.mm, start)

    def disable(self) -> None:
        """In a forked child (a DataLoader worker): never write the parent's record."""
        self.enabled = False


_BEAT: Beat | None = None
_STACK_FILE: IO[str] | None = None
_COLLECTIVES: list[str] = []
"""The functions instrumented in torch.distributed, once it is imported."""


def heartbeat(step: int | None = None, **metrics: Any) -> None:
    beat = _BEAT
    if beat is not None:
        beat.heartbeat(step, metrics)


@contextlib.contextmanager
def phase(name: str, timeout: float | None = None) -> Iterator[None]:
    beat = _BEAT
    if beat is None or not beat.enabled:
        yield
        return
    limit = float("inf") if timeout is None else float(timeout)
    entry = (name, time.monotonic(), limit)
    beat.phases.append(entry)
    beat.set_phase(name, entry[1], limit)
    try:
        yield
    finally:
        beat.phases.remove(entry)
        if beat.phases:
            beat.set_phase(*beat.phases[-1])
        else:
            beat.set_phase("", 0.0, 0.0)
        beat.progress(time.monotonic())


def _exiting() -> None:
    """The script has ended: from now on the rank is exiting, which may take a while on a
    loaded machine and is no hang unless it lasts (``beatfile.EXIT_WINDOW_S``)."""
    beat = _BEAT
    if beat is not None and beat.enabled:
        beat.set_phase(beatfile.EXIT_PHASE, time.monotonic(), beatfile.EXIT_WINDOW_S)


def _when_exit_begins(fn: Callable[[], None]) -> None:
    """Call ``fn`` as the interpreter starts to exit, before it waits for the script's
    threads and before any atexit handler (threading's own hook), else as an atexit
    handler (an interpreter without that hook)."""
    register = getattr(threading, "_register_atexit", None)
    try:
        if register is None:
            raise RuntimeError
        register(fn)
    except RuntimeError:
        atexit.register(fn)


# -- torch instrumentation -----------------------------------------------------------------


def _wrap_collective(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    @functools.wraps(fn)
    def collective(*args: Any, **kwargs: Any) -> Any:
        beat = _BEAT
        if beat is None or not beat.enabled or beat.in_collective:
            return fn(*args, **kwargs)  # safelaunch's collective counter calls torch's
        beat.collective_enter(name)
        try:
            return fn(*args, **kwargs)  # safelaunch's collective counter calls torch's
        finally:
            beat.collective_exit()

    collective.__safelaunch_wrapped__ = True  # type: ignore[attr-defined]
    return frames.own(collective)


def _with_default_timeout(fn: Callable[..., Any], seconds: float | None) -> Callable[..., Any]:
    """``fn(..., timeout=...)`` gets ``seconds`` unless the caller passed a timeout."""
    if seconds is None:
        return fn
    import inspect
    from datetime import timedelta

    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def with_timeout(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind_partial(*args, **kwargs)
        except TypeError:
            return fn(*args, **kwargs)  # safelaunch's default timeout calls torch's
        if bound.arguments.get("timeout") is None:
            bound.arguments["timeout"] = timedelta(seconds=seconds)
        return fn(*bound.args, **bound.kwargs)  # safelaunch's default timeout calls torch's

    return frames.own(with_timeout)


def _wrap_init(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def init_process_group(*args: Any, **kwargs: Any) -> Any:
        beat = _BEAT
        if beat is not None:
            beat.init_state(beatfile.INIT_ENTERED)
        result = fn(*args, **kwargs)  # safelaunch's progress record calls torch's
        if beat is not None:
            beat.init_state(beatfile.INIT_DONE)
            if beat.gpu is None:
                beat.gpu = _gpu_spans()
        return result

    return frames.own(init_process_group)


def _gpu_spans() -> gpu_timing.GpuSpans | None:
    """GPU timing of the waits when the default process group uses NCCL (see
    ``gpu_timing``); None otherwise, or with ``SAFELAUNCH_GPU_WAIT_TIMING=0``."""
    if os.environ.get(GPU_WAIT_TIMING_ENV, "1") == "0":
        return None
    torch = sys.modules.get("torch")
    try:
        if torch is None or not gpu_timing.uses_nccl(str(torch.distributed.get_backend())):
            return None
    except Exception:  # no default group after all: host timing
        return None
    return gpu_timing.for_cuda(torch)


def _collective_timeout() -> float | None:
    value = os.environ.get(COLLECTIVE_TIMEOUT_ENV)
    return float(value) if value else None


def _patch_c10d(module: ModuleType) -> None:
    # Patched where they are defined, before torch.distributed re-exports them, so every
    # spelling (dist.all_reduce, distributed_c10d.all_reduce, from-imports) sees the wrapper.
    timeout = _collective_timeout()
    _COLLECTIVES[:] = collective_names(module)
    for name in _COLLECTIVES:
        fn = getattr(module, name, None)
        if callable(fn) and not getattr(fn, "__safelaunch_wrapped__", False):
            setattr(module, name, _wrap_collective(fn, name))
    module.init_process_group = _wrap_init(  # type: ignore[attr-defined]
        _with_default_timeout(module.init_process_group, timeout))
    if hasattr(module, "new_group"):
        module.new_group = _with_default_timeout(module.new_group, timeout)  # type: ignore[attr-defined]


def _patch_distributed_namespace(module: ModuleType) -> None:
    c10d = sys.modules.get("torch.distributed.distributed_c10d")
    if c10d is None:
        return
    for name in (*_COLLECTIVES, "init_process_group", "new_group"):
        if hasattr(module, name) and hasattr(c10d, name):
            setattr(module, name, getattr(c10d, name))


def _patch_optimizer(module: ModuleType) -> None:
    beat = _BEAT
    if beat is not None:
        module.register_optimizer_step_post_hook(beat.optimizer_step)


def _first_in_backward(model: Any) -> Any:
    """The parameter whose gradient a backward pass through ``model`` computes first: the
    last one registered that requires a gradient (the output layer, in the usual order)."""
    last = None
    for param in model.parameters():
        if param.requires_grad:
            last = param
    return last


def _last_in_backward(model: Any) -> Any:
    """The parameter whose gradient a backward pass through ``model`` computes last: the
    first one registered that requires a gradient (the input layer, in the usual order)."""
    return next((p for p in model.parameters() if p.requires_grad), None)


def _accumulator(param: Any) -> Any:
    """The autograd node that accumulates ``param``'s gradient."""
    return param.view_as(param).grad_fn.next_functions[0][0]


def _time_ddp_wait(ddp: Any, beat: Beat) -> None:
    """Marks the end of a DDP backward's gradient computation (a post-hook on the gradient
    accumulator reached last), and, once per process, the optimizer pre-step hook that ends
    the wait: the time between is what the rank waits for its peers' gradients."""
    param = _last_in_backward(ddp.module)
    if param is None:
        return
    node = _accumulator(param)
    node.register_hook(beat.backward_done)
    ddp.__dict__["_safelaunch_backward_end_node"] = node
    if not beat.pre_step_hooked:
        from torch.optim.optimizer import register_optimizer_step_pre_hook

        register_optimizer_step_pre_hook(beat.optimizer_step_begin)
        beat.pre_step_hooked = True


def _count_backwards(ddp: Any) -> None:
    """Counts the backward passes through a DDP model, each of which ends in DDP's gradient
    all_reduce (run by the reducer in C++, never through ``torch.distributed``'s Python
    functions): a pre-hook on one parameter's gradient accumulator, one Python call per
    step.  The hook sits on the autograd node, not on the tensor, so copying or saving the
    model never carries it along; DDP's reducer keeps the node alive, and so does the model."""
    beat = _BEAT
    param = _first_in_backward(ddp.module)
    if beat is None or param is None:
        return
    node = _accumulator(param)
    node.register_prehook(beat.backward)
    ddp.__dict__["_safelaunch_backward_node"] = node
    _time_ddp_wait(ddp, beat)


def _patch_ddp(module: ModuleType) -> None:
    ddp = module.DistributedDataParallel
    forward = ddp.forward
    init = ddp.__init__

    @functools.wraps(init)
    def counted_init(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)  # safelaunch's backward counter calls DDP's
        with contextlib.suppress(Exception):
            _count_backwards(self)

    ddp.__init__ = frames.own(counted_init)

    @functools.wraps(forward)
    def counted_forward(self: Any, *args: Any, **kwargs: Any) -> Any:
        beat = _BEAT
        if beat is not None:
            beat.forward()
        return forward(self, *args, **kwargs)  # safelaunch's forward counter calls DDP's

    ddp.forward = frames.own(counted_forward)


# -- activation ------------------------------------------------------------------------------


def _die_with_launcher() -> None:
    """End this rank and its process group (its DataLoader workers, its subprocesses) when
    the launcher dies: if the launcher and its reaper are both killed (``pkill -9 -f
    safelaunch`` matches both), nothing of the job is left behind holding the GPUs.

    A daemon thread waits on a pidfd of the launcher (no polling, no interpreter lock while
    it waits); without pidfds (Linux < 5.3) the kernel's parent-death signal ends the rank
    alone.  A rank whose parent is not the launcher (a wrapper script in between) is left to
    the reaper."""
    launcher = os.environ.get(LAUNCHER_PID_ENV, "")
    if not launcher.isdigit() or os.getppid() != int(launcher):
        return
    try:
        fd = os.pidfd_open(int(launcher))
    except (AttributeError, OSError):
        _parent_death_signal(int(launcher))
        return
    import threading

    threading.Thread(target=_end_job_when_readable, args=(fd,),
                     name="safelaunch-launcher-watch", daemon=True).start()


def _end_job_when_readable(fd: int) -> None:
    import select

    with contextlib.suppress(OSError, ValueError):
        select.select([fd], [], [])
        _end_marked_processes()
        if os.getpgid(0) == os.getpid():  # a group of its own (torch starts ranks so)
            os.killpg(os.getpid(), signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)


def _end_marked_processes() -> None:
    """SIGKILL every process whose environment carries this job's mark and this launcher's
    pid: a daemon a rank started in a session of its own (``setsid``) is in no rank's process
    group, and with the launcher and its reaper both dead nobody else would find it.  (A
    process that dropped its environment, ``env -i``, carries no mark and is not found.)

    Every rank does this at the same moment, and the other ranks carry the mark too: killing
    them as the scan meets them lets two ranks kill each other before either reaches the
    daemon.  So the whole scan comes first, then the kills, children of marked processes
    (the daemon, whose parent is a rank) before the ranks (whose parent, the launcher, is
    gone)."""
    job, launcher = os.environ.get(JOB_ID_ENV), os.environ.get(LAUNCHER_PID_ENV)
    if not job or not launcher:
        return
    marks = {f"{JOB_ID_ENV}={job}".encode(), f"{LAUNCHER_PID_ENV}={launcher}".encode()}
    marked = _marked_processes(marks, os.getpid())
    for pid in sorted(marked, key=lambda pid: marked[pid] not in marked):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _marked_processes(marks: set[bytes], me: int) -> dict[int, int]:
    """Every other process whose environment holds ``marks``, with its parent's pid."""
    marked: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                environ = set(fh.read().split(b"\0"))
            if not marks <= environ:
                continue
            with open(f"/proc/{entry}/stat", "rb") as fh:
                # pid (comm) state ppid ...: comm may hold spaces and parentheses
                marked[int(entry)] = int(fh.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return marked


def _parent_death_signal(launcher: int) -> None:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
            return
    except (OSError, AttributeError):
        return
    if os.getppid() != launcher:  # it died before the request was made
        os.kill(os.getpid(), signal.SIGKILL)


def activate() -> bool:
    """Instrument this process if it is a rank's own; True when it did."""
    global _BEAT, _STACK_FILE
    path = os.environ.get(HEARTBEAT_FILE_ENV)
    if not path or _BEAT is not None:
        return False
    owner = os.environ.get(RANK_PID_ENV)
    if owner and owner != str(os.getpid()):
        return False  # a helper process the rank started: it inherits the env, not the role
    os.environ[RANK_PID_ENV] = str(os.getpid())
    _die_with_launcher()
    try:
        beat = Beat(beatfile.open_map(path, writable=True))
    except (OSError, ValueError):
        return False
    _BEAT = beat
    os.register_at_fork(after_in_child=beat.disable)
    _when_exit_begins(_exiting)
    stack_path = os.environ.get(STACK_FILE_ENV)
    if stack_path:
        try:
            fd = os.open(stack_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            _STACK_FILE = os.fdopen(fd, "w", encoding="utf-8")  # lives on; 0600: the run dir's
            faulthandler.register(STACK_SIGNAL, file=_STACK_FILE, all_threads=True, chain=False)
            _P["stack_ready"](beat.mm, 1)
        except (OSError, ValueError, RuntimeError):
            pass
    flight.start(lambda: _P["fr_ready"](beat.mm, 1))
    frames.install(when_imported)
    when_imported("torch.distributed.distributed_c10d", _patch_c10d)
    when_imported("torch.distributed", _patch_distributed_namespace)
    when_imported("torch.optim.optimizer", _patch_optimizer)
    when_imported("torch.nn.parallel.distributed", _patch_ddp)
    return True
