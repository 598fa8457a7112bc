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
current stream at each end.  Once the end event has completed (asked without blocking, at
the next step), the span's GPU time is known; the wait counted is the longer of the GPU time
and the host time, so a collective that blocks the host too (a barrier) counts once.

Cost per span: two event records and one query (microseconds), on events taken from a pool.
A span is dropped, never waited for: the queue of spans not yet complete is bounded
(``PENDING_MAX``), and nothing is recorded while a CUDA graph is being captured (an event
record would break the capture).  Any CUDA error turns the timing off for the rank, which
then counts host time as on CPU.

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


class GpuSpans:
    """Spans marked on the GPU's current stream; ``drain`` gives the seconds of those done."""

    def __init__(self, new_event: Callable[[], Event],
                 capturing: Callable[[], bool] = lambda: False) -> None:
        self._new = new_event
        self._capturing = capturing
        self._free: list[Event] = []
        self._pending: deque[tuple[Event, Event, float]] = deque()
        self.dropped = 0
        """Spans given up: the queue was full, or a graph was being captured."""

    def begin(self) -> Event | None:
        """An event recorded now on the current stream (None while a graph is captured)."""
        if self._capturing():
            self.dropped += 1
            return None
        event = self._free.pop() if self._free else self._new()
        event.record()
        return event

    def end(self, start: Event | None, host_s: float) -> None:
        """The span from ``start`` to now; ``host_s``: what the host waited in it."""
        if start is None:
            return
        if self._capturing():
            self.cancel(start)
            self.dropped += 1
            return
        event = self._free.pop() if self._free else self._new()
        event.record()
        if len(self._pending) >= PENDING_MAX:
            old_start, old_end, _ = self._pending.popleft()
            self._free += (old_start, old_end)
            self.dropped += 1
        self._pending.append((start, event, host_s))

    def cancel(self, start: Event | None) -> None:
        """A span begun and not to be counted (another span encloses it)."""
        if start is not None:
            self._free.append(start)

    def drain(self) -> float:
        """Seconds waited in the spans whose end the GPU has reached, oldest first; the rest
        stay for a later call (the GPU runs behind the host)."""
        total = 0.0
        pending = self._pending
        while pending:
            start, end, host_s = pending[0]
            if not end.query():
                break
            pending.popleft()
            total += max(host_s, start.elapsed_time(end) / 1000.0)
            self._free += (start, end)
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
