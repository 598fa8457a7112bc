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
the host hooks.  So spans are sampled, by optimizer step where there are steps: the spans
from one optimizer step to the next make a round, and a round is timed whole (every span in
it) when at least ``MIN_GAP_S`` (or ``PER_SPAN_GAP_S`` for each span the last timed round
had, whichever is longer) have passed since the last timed round began; the GPU's excess in
a timed round stands for each round untimed since.  A step is what repeats: its spans are
not alike (FSDP2's first all-gather of a step waits for a late peer, the rest do not), so
one span cannot stand for the others, but one step can stand for the steps between.  Before
the first optimizer step, in a loop without one, and in a round that outgrows ``ROUND_MAX``
spans, spans are sampled one by one: of each kind (a collective, DDP's wait) at most one
begins every ``MIN_GAP_S``; the spans between are counted, and the timed one's excess
stands for each of them (every span still counts its own host time).
A job of 0.1 s steps or longer has every span timed; a job of 1 ms steps pays at most
about 1 % of its host time.  A span is dropped, never waited for: the
queue of spans not yet complete is bounded (``PENDING_MAX``), and nothing is recorded while
a CUDA graph is being captured (an event record would break the capture).  Any CUDA error
turns the timing off for the rank, which then counts host time as on CPU.

Only spans on the stream a rank computes on (the device's default stream) are timed on the
GPU: a collective queued on a side stream (FSDP2 all-gathers the next layer's parameters on
a stream of its own while the current layer computes) keeps the GPU busy there, which is
no wait of the rank's computation, so such a span counts its host time only.

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
"""The kinds of span, each sampled on its own outside rounds."""
MIN_GAP_S = 0.1
"""At most one timed round, or outside rounds one timed span of a kind, begins in this many
seconds."""
PER_SPAN_GAP_S = 0.01
"""A timed round of N spans is followed by at least N times this many seconds untimed: a
step of many collectives (FSDP2 on a deep model) is timed less often, so that the timing
costs about 1 % of the host's time whatever the step holds."""
ROUND_MAX = 64
"""Spans timed in one round at most: past it the round is no step (an evaluation loop of
collectives between optimizer steps, say) and its spans are sampled one by one."""


class Span:
    """A timed span's start: its event, its kind, and how many spans or rounds it stands
    for (0: counted when it ends, sampled one by one)."""

    __slots__ = ("count", "event", "kind")

    def __init__(self, event: Event, kind: int, count: int = 0) -> None:
        self.event = event
        self.kind = kind
        self.count = count


class _NoEvent:
    def record(self) -> None:
        raise AssertionError("a span on a side stream is not timed")

    def query(self) -> bool:
        return True

    def elapsed_time(self, end: Any) -> float:
        return 0.0


ASIDE = Span(_NoEvent(), -1)
"""A span on a side stream: host time only, and stood for by no timed span."""


class GpuSpans:
    """Spans marked on the GPU's current stream; ``drain`` gives the seconds of those done."""

    def __init__(self, new_event: Callable[[], Event],
                 capturing: Callable[[], bool] = lambda: False,
                 min_gap_s: float = MIN_GAP_S,
                 aside: Callable[[], bool] = lambda: False) -> None:
        self._new = new_event
        self._capturing = capturing
        self._aside = aside
        self._min_gap = min_gap_s
        self._free: list[Event] = []
        self.pending: deque[tuple[Span, Event, float, int]] = deque()
        """Timed spans whose end the GPU may not have reached yet, oldest first, with the
        number of spans of their kind each stands for."""
        self._last = [float("-inf"), float("-inf")]
        self._untimed = [0, 0]
        """Spans of each kind ended untimed since the last timed one ended."""
        self.round: bool | None = None
        """True: this round is timed; False: it is not; None: no round (no optimizer step
        yet, or the round outgrew ``ROUND_MAX``): spans are sampled one by one."""
        self._round_began = float("-inf")
        self._rounds_untimed = 0
        self._round_count = 1
        self._round_spans = 0
        self._began = 0
        """Spans begun since the last optimizer step."""
        self.dropped = 0
        """Spans given up: the queue was full, or a graph was being captured."""

    def next_round(self, now: float) -> None:
        """An optimizer step at host time ``now``: the spans up to the next one make a round,
        timed whole if the gap since the last timed round has passed.  A step with no span
        since the last one (a second optimizer, a heartbeat after the step) goes on the same
        round: an empty round must neither be the timed one nor be stood for."""
        if not self._began and self.round is not None:
            return
        self._began = 0
        gap = max(self._min_gap, self._round_spans * PER_SPAN_GAP_S)  # the last timed one's
        if now - self._round_began >= gap:
            self.round, self._round_began, self._round_spans = True, now, 0
            self._round_count, self._rounds_untimed = self._rounds_untimed + 1, 0
        else:
            self.round = False
            self._rounds_untimed += 1

    def begin(self, kind: int, now: float) -> Span | None:
        """A span of ``kind`` begins at host time ``now``: timed (an event recorded on the
        current stream) in a timed round, or outside rounds unless one of its kind was timed
        less than the gap ago; never on a side stream (``ASIDE``) or while a graph is being
        captured (None: the span counts its host time only)."""
        count = 0
        self._began += 1
        if self.round is not None:
            if self._began > ROUND_MAX:  # no step: sampled one by one until the next one
                self.round = None
            elif not self.round:
                return None
            else:
                count = self._round_count
        if self._aside():
            return ASIDE
        if not count and now - self._last[kind] < self._min_gap:
            return None
        if self._capturing():
            self.dropped += 1
            return None
        event = self._recorded()
        if count:
            self._round_spans += 1
        else:
            self._last[kind] = now
        return Span(event, kind, count)

    def restart(self, start: Span) -> Span | None:
        """``start`` begins again now (a later backward pass before the same optimizer
        step: the wait starts at the last one)."""
        if start is ASIDE:
            return start
        if self._given_up_in_capture(start):
            return None
        start.event.record()
        return start

    def end(self, start: Span | None, host_s: float, kind: int) -> None:
        """A span of ``kind`` ends now; ``host_s``: what the host waited in it.  An untimed
        one (``start`` None) sampled one by one is counted for the next timed span of its
        kind to stand for; in a round the timed round stands for it."""
        if start is None:
            if self.round is None:
                self._untimed[kind] += 1
            return
        if start is ASIDE:
            return
        count = start.count
        if not count:
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
        if start is not None and start is not ASIDE:
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
        current, default = cuda.current_stream, cuda.default_stream
        return GpuSpans(lambda: cuda.Event(enable_timing=True),
                        capturing if callable(capturing) else (lambda: False),
                        aside=lambda: current() != default())
    except Exception:  # a broken CUDA setup: the rank times on the host
        return None


def uses_nccl(backend: str) -> bool:
    """Whether ``torch.distributed.get_backend()``'s answer includes NCCL (``nccl``, or a
    device map such as ``cpu:gloo,cuda:nccl``)."""
    return "nccl" in backend.lower()
