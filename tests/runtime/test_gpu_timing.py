"""GPU-timed waits (``safelaunch.runtime.gpu_timing``) and their use by a rank's heartbeat.

There is no GPU here, so the CUDA events are stand-ins on a simulated stream: an event
recorded at a stream position completes once the test moves the GPU past it.  The real
events ran on an H200 (``scripts/gpu_check.py``'s ``nccl-straggler`` steps)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from safelaunch.runtime import beatfile, gpu_timing, rank


class Gpu:
    """A stream whose work the test places: ``at`` is where the next record lands (seconds
    of GPU time), ``done`` how far the GPU has got."""

    def __init__(self) -> None:
        self.at = 0.0
        self.done = 0.0
        self.created = 0
        self.fail = False

    def event(self) -> Event:
        self.created += 1
        return Event(self)


class Event:
    def __init__(self, gpu: Gpu) -> None:
        self.gpu = gpu
        self.t: float | None = None

    def record(self) -> None:
        if self.gpu.fail:
            raise RuntimeError("CUDA error: an illegal memory access was encountered")
        self.t = self.gpu.at

    def query(self) -> bool:
        assert self.t is not None
        return self.gpu.done >= self.t

    def elapsed_time(self, end: Any) -> float:
        assert self.t is not None and end.t is not None and self.query() and end.query()
        return (end.t - self.t) * 1000.0


C, D = gpu_timing.COLLECTIVE, gpu_timing.DDP_WAIT


def every_span(gpu: Gpu, capturing: Any = lambda: False) -> gpu_timing.GpuSpans:
    return gpu_timing.GpuSpans(gpu.event, capturing, min_gap_s=0.0)


def test_a_span_adds_what_the_gpu_waited_beyond_the_host_once_the_gpu_is_past_it():
    gpu = Gpu()
    spans = every_span(gpu)
    start = spans.begin(C, 0.0)
    gpu.at = 0.4
    spans.end(start, 0.001, C)  # NCCL returned at once; the GPU waits 0.4 s
    assert spans.drain() == 0.0  # the GPU is not there yet
    gpu.done = 0.4
    assert spans.drain() == pytest.approx(0.399)
    assert spans.drain() == 0.0  # counted once
    start = spans.begin(C, 1.0)
    gpu.at = 0.5
    spans.end(start, 0.3, C)  # a barrier: the host waited as long as the GPU span
    gpu.done = 1.0
    assert spans.drain() == 0.0  # the host time was counted already


def test_spans_drain_in_order_and_stop_at_the_first_the_gpu_has_not_reached():
    gpu = Gpu()
    spans = every_span(gpu)
    for begin, end in ((0.0, 0.1), (0.2, 0.5), (0.6, 0.7)):
        gpu.at = begin
        start = spans.begin(C, begin)
        gpu.at = end
        spans.end(start, 0.0, C)
    gpu.done = 0.55
    assert spans.drain() == pytest.approx(0.1 + 0.3)
    gpu.done = 0.7
    assert spans.drain() == pytest.approx(0.1)


def test_spans_are_sampled_per_kind_and_a_timed_one_stands_for_those_between():
    gpu = Gpu()
    spans = gpu_timing.GpuSpans(gpu.event, min_gap_s=0.1)
    timed = []
    for i in range(10):  # a collective every 30 ms, each waiting 20 ms on the GPU
        now = i * 0.03
        gpu.at = now
        start = spans.begin(C, now)
        ddp = spans.begin(D, now)  # the other kind is sampled on its own
        assert ddp is not None or i % 4
        spans.cancel(ddp)
        timed.append(start is not None)
        gpu.at = now + 0.02
        spans.end(start, 0.0, C)
    assert timed == [True, False, False, False, True, False, False, False, True, False]
    assert gpu.created == 6  # three timed spans; the DDP marks reuse one event
    gpu.done = 1.0
    # the first stands for itself, the second for 4, the third for 4; one left untimed
    assert spans.drain() == pytest.approx(0.02 * 9)


def _step(spans: gpu_timing.GpuSpans, gpu: Gpu, now: float, waits: list[float]) -> list[bool]:
    """One optimizer step at ``now``, then its spans back to back, each waiting as given on
    the GPU; which of them were timed."""
    spans.next_round(now)
    timed = []
    for wait in waits:
        start = spans.begin(C, now)
        timed.append(start is not None)
        gpu.at += wait
        spans.end(start, 0.0, C)
    return timed


def test_a_round_is_an_optimizer_step_timed_whole_and_stands_for_the_rounds_between():
    """FSDP2-like steps: the first collective of a step waits 20 ms for a late peer, the
    others none.  Timed one by one, the span sampled decides the answer; timed by step, every
    step counts its 20 ms."""
    gpu = Gpu()
    spans = gpu_timing.GpuSpans(gpu.event, min_gap_s=0.1)
    timed = [_step(spans, gpu, i * 0.03, [0.02, 0.0, 0.0, 0.0]) for i in range(9)]
    assert [all(t) for t in timed] == [True, False, False, False, True, False, False, False,
                                       True]
    assert not any(any(t) for i, t in enumerate(timed) if i % 4)
    gpu.done = gpu.at
    # the first round stands for itself, the second and third for 4 steps each
    assert spans.drain() == pytest.approx(0.02 * 9)


def test_a_round_of_many_spans_is_timed_less_often():
    gpu = Gpu()
    spans = gpu_timing.GpuSpans(gpu.event, min_gap_s=0.1)
    waits = [0.001] * 30  # 30 collectives a step: the next timed round 0.3 s on
    timed = [all(_step(spans, gpu, i * 0.05, waits)) for i in range(8)]
    assert timed == [True, False, False, False, False, False, True, False]


def test_a_round_past_its_limit_is_no_step_and_its_spans_are_sampled_one_by_one():
    gpu = Gpu()
    spans = gpu_timing.GpuSpans(gpu.event, min_gap_s=0.1)
    timed = _step(spans, gpu, 0.0, [0.0] * (gpu_timing.ROUND_MAX + 3))
    assert timed == [True] * gpu_timing.ROUND_MAX + [True, False, False]
    assert spans.round is None


def test_a_span_on_a_side_stream_counts_its_host_time_only():
    """FSDP2 all-gathers on a stream of its own, beside the computation: the GPU is busy
    there, the rank is not waiting; such a span is not timed, nor stood for."""
    gpu = Gpu()
    aside = [True]
    spans = gpu_timing.GpuSpans(gpu.event, min_gap_s=0.0, aside=lambda: aside[0])
    start = spans.begin(C, 0.0)
    assert start is gpu_timing.ASIDE and gpu.created == 0
    gpu.at = 0.5
    spans.end(start, 0.001, C)
    spans.cancel(spans.begin(C, 0.1))
    assert spans.restart(gpu_timing.ASIDE) is gpu_timing.ASIDE
    aside[0] = False
    start = spans.begin(C, 1.0)
    gpu.at = 0.6
    spans.end(start, 0.0, C)
    gpu.done = 1.0
    assert spans.drain() == pytest.approx(0.1)  # the one timed span, standing for itself


def test_an_untimed_round_past_its_limit_is_sampled_one_by_one_too():
    """An evaluation loop of collectives between two optimizer steps: past ``ROUND_MAX``
    spans, timed round or not, its spans are sampled one by one and stood for."""
    gpu = Gpu()
    spans = gpu_timing.GpuSpans(gpu.event, min_gap_s=0.1)
    spans.next_round(0.0)
    spans.end(spans.begin(C, 0.0), 0.0, C)  # the timed round
    spans.next_round(0.01)  # untimed: within the gap
    waited = 0.0
    for i in range(gpu_timing.ROUND_MAX + 100):
        now = 0.01 + i * 0.002
        start = spans.begin(C, now)
        gpu.at += 0.001
        waited += 0.001
        spans.end(start, 0.0, C)
    assert spans.round is None
    start = spans.begin(C, 1.0)  # a timed one stands for the untimed ones before it
    gpu.at += 0.001
    waited += 0.001
    spans.end(start, 0.0, C)
    gpu.done = gpu.at
    # the first ROUND_MAX spans of the untimed round are stood for by the next timed round
    assert spans.drain() == pytest.approx(waited - 0.001 * gpu_timing.ROUND_MAX)


def test_a_side_stream_span_is_stood_for_by_no_span_when_sampled_one_by_one():
    gpu = Gpu()
    side = [True]
    spans = gpu_timing.GpuSpans(gpu.event, min_gap_s=0.1, aside=lambda: side[0])
    for i in range(100):  # every tenth on the default stream waits 10 ms, the rest aside
        side[0] = bool(i % 10)
        start = spans.begin(C, i * 0.005)
        gpu.at += 0.0 if side[0] else 0.01
        spans.end(start, 0.0, C)
    gpu.done = gpu.at
    assert spans.drain() <= 0.1 + 1e-9


def test_events_are_reused_and_the_queue_is_bounded():
    gpu = Gpu()
    spans = every_span(gpu)
    for i in range(gpu_timing.PENDING_MAX + 5):
        spans.end(spans.begin(C, i), 0.0, C)
    assert spans.dropped == 5
    assert gpu.created == 2 * gpu_timing.PENDING_MAX + 2  # the dropped spans' events reused
    gpu.done = 1.0
    spans.drain()
    created = gpu.created
    for i in range(10):
        spans.end(spans.begin(C, 1000 + i), 0.0, C)
        spans.drain()
    assert gpu.created == created  # from the pool


def test_nothing_is_recorded_while_a_graph_is_captured():
    gpu = Gpu()
    capturing = [True]
    spans = every_span(gpu, lambda: capturing[0])
    start = spans.begin(C, 0.0)
    assert start is None and gpu.created == 0
    spans.end(start, 0.2, C)
    capturing[0] = False
    start = spans.begin(C, 1.0)
    capturing[0] = True
    spans.end(start, 0.2, C)  # capture began inside the span: dropped, its event kept
    assert spans.dropped == 2 and gpu.created == 1
    gpu.done = 1.0
    assert spans.drain() == 0.0


def test_a_cancelled_span_gives_its_event_back():
    gpu = Gpu()
    spans = every_span(gpu)
    spans.cancel(spans.begin(C, 0.0))
    spans.cancel(None)
    spans.begin(C, 1.0)
    assert gpu.created == 1


@pytest.mark.parametrize(("backend", "nccl"), [
    ("nccl", True), ("cpu:gloo,cuda:nccl", True), ("NCCL", True), ("gloo", False),
    ("mpi", False), ("", False)])
def test_uses_nccl(backend: str, nccl: bool):
    assert gpu_timing.uses_nccl(backend) is nccl


class FakeCuda:
    def __init__(self, available: bool) -> None:
        self.available = available
        self.stream = "default"

    def current_stream(self) -> str:
        return self.stream

    def default_stream(self) -> str:
        return "default"

    def is_available(self) -> bool:
        if self.available is None:
            raise RuntimeError("CUDA driver initialization failed")
        return self.available


class FakeTorch:
    def __init__(self, available: Any) -> None:
        self.cuda = FakeCuda(available)


def test_for_cuda_only_where_cuda_works():
    assert gpu_timing.for_cuda(FakeTorch(False)) is None
    assert gpu_timing.for_cuda(FakeTorch(None)) is None
    assert isinstance(gpu_timing.for_cuda(FakeTorch(True)), gpu_timing.GpuSpans)


@pytest.fixture
def beat(tmp_path: Path) -> tuple[rank.Beat, Any, Gpu]:
    path = tmp_path / "r.hb"
    beatfile.create(path)
    reader = beatfile.open_map(path, writable=False)
    beat = rank.Beat(beatfile.open_map(path, writable=True))
    gpu = Gpu()
    beat.gpu = every_span(gpu)
    return beat, reader, gpu


def _published_wait(reader: Any) -> float:
    snap = beatfile.read(reader)
    assert snap is not None
    return snap.step_wait


def test_an_nccl_collective_counts_what_the_gpu_waited(beat):
    b, reader, gpu = beat
    b.collective_enter("all_reduce")
    gpu.at = 0.25  # the all_reduce returned at once; on the GPU it ends 0.25 s later
    b.collective_exit()
    b.optimizer_step()
    assert _published_wait(reader) < 0.1  # the GPU is not there yet
    gpu.done = 0.25
    b.optimizer_step()
    assert _published_wait(reader) == pytest.approx(0.25, abs=0.05)


def test_the_ddp_wait_is_timed_on_the_gpu_and_encloses_collectives(beat):
    b, reader, gpu = beat
    b.backward_done()  # the last gradient computed: the reducer's all_reduce follows
    b.collective_enter("all_reduce")  # a collective inside the span counts once
    gpu.at = 0.1
    b.collective_exit()
    gpu.at = 0.6
    b.optimizer_step_begin()
    gpu.done = 1.0
    b.optimizer_step()
    assert _published_wait(reader) == pytest.approx(0.6, abs=0.05)


def test_the_optimizer_step_begins_a_round(beat):
    b, reader, gpu = beat
    b.gpu = gpu_timing.GpuSpans(gpu.event, min_gap_s=3600.0)
    b.optimizer_step()  # the first round is timed
    for wait in (0.2, 0.0):
        b.collective_enter("all_gather_into_tensor")
        gpu.at += wait
        b.collective_exit()
    b.optimizer_step()  # the next is not (the gap): its collective counts host time only
    b.collective_enter("all_gather_into_tensor")
    gpu.at += 0.3
    b.collective_exit()
    gpu.done = gpu.at
    b.optimizer_step()
    assert _published_wait(reader) == pytest.approx(0.2, abs=0.05)


@pytest.mark.parametrize("after", ["nothing", "heartbeat", "second optimizer"])
def test_a_step_with_no_span_since_the_last_is_the_same_round(beat, after, monkeypatch):
    """The README's loop calls ``safelaunch.heartbeat(step=...)`` after ``opt.step()``; a GAN
    steps two optimizers: an empty round between must not be the one timed."""
    b, reader, gpu = beat
    b.gpu = gpu_timing.GpuSpans(gpu.event, min_gap_s=0.1)
    clock = [0.0]
    monkeypatch.setattr(rank, "_monotonic", lambda: clock[0])
    for i in range(40):  # 0.1 s iterations, each waiting 50 ms on the GPU in DDP's wait
        clock[0] = i * 0.1
        b.backward_done()
        gpu.at += 0.05
        b.optimizer_step_begin()
        b.optimizer_step()
        if after == "heartbeat":
            b.heartbeat(i, {})
        elif after == "second optimizer":
            b.optimizer_step()
        gpu.done = gpu.at
    clock[0] = 4.0
    b.optimizer_step()
    assert _published_wait(reader) == pytest.approx(2.0, abs=0.15)


@pytest.mark.parametrize("min_gap_s", [0.0, 3600.0], ids=["every span", "sampled"])
def test_gradient_accumulation_keeps_the_last_backward_mark(beat, min_gap_s):
    """Gradient accumulation: the timed mark moves to the last backward pass, whether every
    span is timed or the micro-batches come closer than the sampling gap (then the mark is
    not given up for an untimed one)."""
    b, reader, gpu = beat
    b.gpu = gpu_timing.GpuSpans(gpu.event, min_gap_s=min_gap_s)
    b.backward_done()
    gpu.at = 0.5
    b.backward_done()  # a second micro-batch's backward pass: the mark moves here
    gpu.at = 0.7
    b.optimizer_step_begin()
    gpu.done = 1.0
    b.optimizer_step()
    assert _published_wait(reader) == pytest.approx(0.2, abs=0.05)
    assert gpu.created == 2  # the first mark's event went back to the pool: the span's end
    b.backward_done()
    assert gpu.created == 2


def test_a_collective_inside_ddps_wait_is_not_timed_apart(beat):
    b, _reader, gpu = beat
    b.backward_done()
    b.collective_enter("all_reduce")
    assert b.coll_event is None and gpu.created == 1  # only the DDP wait's mark
    b.collective_exit()


def test_a_cuda_error_turns_gpu_timing_off_and_the_host_times_the_waits(beat):
    b, reader, gpu = beat
    gpu.fail = True
    b.collective_enter("all_reduce")
    assert b.gpu is None
    b.collective_exit()
    b.optimizer_step()
    assert 0.0 <= _published_wait(reader) < 0.1
    b.collective_enter("all_reduce")  # host timing from now on
    b.coll_start -= 0.5
    b.collective_exit()
    b.optimizer_step()
    assert _published_wait(reader) >= 0.5
