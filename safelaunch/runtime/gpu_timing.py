"""GPU-timed waits for the ranks of an NCCL job: what a rank's GPU waited for its peers.

On CPU (gloo) a rank's host thread waits inside the collective, so the seconds it waits are
host time (``rank.Beat.waited``).  With NCCL the host thread does not wait there: the
collective is queued on the GPU and returns at once, and the GPU waits, in NCCL's kernel, for
the peers' data.  The host catches up later, in whatever synchronises with the GPU (a
``.item()``, the next step's memory), which looks like compute.  So a rank that is slow (its
peers wait for it) looked like no straggler on a GPU.

Here the same spans the host timing marks (a ``torch.distributed`` collective; the end of a
DDP backward pass to the optimizer step, where DDP's reducer makes the compute stream wait for
the gradient all_reduce) are marked on the GPU as well, by a CUDA event recorded on the
current stream at each end.  Every span counts its host time at once, as on CPU; once the end
event has completed (asked without blocking, at the next step), what the GPU waited beyond
that is added, so a collective that blocks the host too (a barrier) counts once.

Cost.  A timed span costs two event records, a query and an elapsed time through torch's
Python API: about 0.11 ms on an H200 host (``scripts/bench_gpu_timing.py``), far more than
the host hooks.  So spans are sampled: of each kind (a collective, DDP's wait) at most one
begins every ``MIN_GAP_S``; the spans between are counted, and the GPU's excess over the host
time in the timed one stands for each of them (every span still counts its own host time).
A job of 0.1 s steps or longer has every span timed; a job of 1 ms steps pays at most
``1 / MIN_GAP_S`` timed spans a second per kind.  A span is dropped, never waited for: the
queue of spans not yet complete is bounded (``PENDING_MAX``), and nothing is recorded while
a CUDA graph is being captured (an event record would break the capture).  Any CUDA error
turns the timing off for the rank, which then counts host time as on CPU.

Nothing here imports torch: the event factory comes from the caller (``for_cuda``), so the
queue is tested without a GPU.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

PENDING_MAX = 256
"""Spans waiting for their end event: a host thread that runs this far ahead of its GPU is
rare; past it the oldest span is dropped."""


class Event(Protocol):
    """What is used of ``torch.cuda.Event``."""

    def record(self) -> None: ...

    def query(self) -> bool: ...

    def elapsed_time(self, end: Any) -> float: ...


COLLECTIVE, DDP_WAIT = 0, 1
"""The kinds of span, each sampled on its own."""
MIN_GAP_S = 0.1
"""At most one timed span of a kind begins in this many seconds."""


class Span:
    """A timed span's start: its event and its kind."""

    __slots__ = ("event", "kind")

    def __init__(self, event: Event, kind: int) -> None:
        self.event = event
        self.kind = kind


class GpuSpans:
    """Spans marked on the GPU's current stream; ``drain`` gives the seconds of those done."""

    def __init__(self, new_event: Callable[[], Event],
                 capturing: Callable[[], bool] = lambda: False,
                 min_gap_s: float = MIN_GAP_S) -> None:
        self._new = new_event
        self._capturing = capturing
        self._min_gap = min_gap_s
        self._free: list[Event] = []
        self.pending: deque[tuple[Span, Event, float, int]] = deque()
        """Timed spans whose end the GPU may not have reached yet, oldest first, with the
        number of spans of their kind each stands for."""
        self._last = [float("-inf"), float("-inf")]
        self._untimed = [0, 0]
        """Spans of each kind ended untimed since the last timed one ended."""
        self.dropped = 0
        """Spans given up: the queue was full, or a graph was being captured."""

    def begin(self, kind: int, now: float) -> Span | None:
        """A span of ``kind`` begins at host time ``now``: timed (an event recorded on the
        current stream) unless one of its kind was timed less than the gap ago, or a graph
        is being captured (None: the span counts its host time only)."""
        if now - self._last[kind] < self._min_gap:
            return None
        if self._capturing():
            self.dropped += 1
            return None
        event = self._recorded()
        self._last[kind] = now
        return Span(event, kind)

    def restart(self, start: Span) -> Span | None:
        """``start`` begins again now (a later backward pass before the same optimizer
        step: the wait starts at the last one)."""
        if self._given_up_in_capture(start):
            return None
        start.event.record()
        return start

    def end(self, start: Span | None, host_s: float, kind: int) -> None:
        """A span of ``kind`` ends now; ``host_s``: what the host waited in it.  An untimed
        one (``start`` None) is counted for the next timed span of its kind to stand for."""
        if start is None:
            self._untimed[kind] += 1
            return
        count, self._untimed[kind] = self._untimed[kind] + 1, 0
        if self._given_up_in_capture(start):
            return
        event = self._recorded()
        if len(self.pending) >= PENDING_MAX:
            old_start, old_end, _, _ = self.pending.popleft()
            self._free += (old_start.event, old_end)
            self.dropped += 1
        self.pending.append((start, event, host_s, count))

    def _recorded(self) -> Event:
        """An event from the pool (a new one if it is empty), recorded now."""
        event = self._free.pop() if self._free else self._new()
        event.record()
        return event

    def _given_up_in_capture(self, start: Span) -> bool:
        """While a CUDA graph is captured no event may be recorded: the span is dropped."""
        if not self._capturing():
            return False
        self.cancel(start)
        self.dropped += 1
        return True

    def cancel(self, start: Span | None) -> None:
        """A span begun and not to be counted (another span encloses it)."""
        if start is not None:
            self._free.append(start.event)

    def drain(self) -> float:
        """Seconds the GPU waited beyond the host time already counted, in the spans whose
        end the GPU has reached, oldest first; the rest stay for a later call (the GPU runs
        behind the host).  A timed span's excess counts once for every span it stands for."""
        total = 0.0
        pending = self.pending
        while pending:
            start, end, host_s, count = pending[0]
            if not end.query():
                break
            pending.popleft()
            excess = start.event.elapsed_time(end) / 1000.0 - host_s
            if excess > 0:
                total += excess * count
            self._free += (start.event, end)
        return total


def for_cuda(torch: Any) -> GpuSpans | None:
    """Spans on ``torch``'s CUDA events, or None where CUDA is not usable."""
    try:
        cuda = torch.cuda
        if not cuda.is_available():
            return None
        capturing = getattr(cuda, "is_current_stream_capturing", None)
        return GpuSpans(lambda: cuda.Event(enable_timing=True),
                        capturing if callable(capturing) else (lambda: False))
    except Exception:  # a broken CUDA setup: the rank times on the host
        return None


def uses_nccl(backend: str) -> bool:
    """Whether ``torch.distributed.get_backend()``'s answer includes NCCL (``nccl``, or a
    device map such as ``cpu:gloo,cuda:nccl``)."""
    return "nccl" in backend.lower()
