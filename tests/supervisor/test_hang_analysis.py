"""Hang rules replayed on heartbeat readings, without processes."""

from __future__ import annotations

from dataclasses import replace

from safelaunch.plan import HangPolicy
from safelaunch.runtime.beatfile import EXIT_PHASE, EXIT_WINDOW_S, INIT_DONE, INIT_ENTERED, Snapshot
from safelaunch.supervisor.hangs import (
    HangReport,
    RankView,
    StepIntervals,
    analyze,
    find_stalls,
    step_limit,
)

BASE = Snapshot(pid=1, step=10, step_time=100.0, beats=30, beat_time=100.0, coll_count=10,
                coll_step=10, coll_start=100.0, forwards=10, phase_start=0.0, phase_timeout=0.0,
                in_coll=False, init_state=INIT_DONE, stack_ready=True, coll_name="all_reduce",
                phase_name="", metrics="")


def view(rank: int, alive: bool = True, exit_code: int | None = None, **beat) -> RankView:
    return RankView(rank, alive, 0.0, replace(BASE, **beat), exit_code)


POLICY = HangPolicy(hang_timeout=10, startup_timeout=100)


def texts(report: HangReport) -> list[str]:
    return [finding.text for finding in report.findings]


def kinds(report: HangReport) -> list[tuple[str, list[int]]]:
    """The findings as the diagnosis reads them, without the per-rank stall lines."""
    return [(f.kind, f.ranks) for f in report.findings if f.kind != "no_progress"]


def test_auto_limit_learns_from_step_intervals():
    auto = HangPolicy(hang_timeout=None, factor=5, floor=60, warmup_steps=3)
    intervals = StepIntervals(warmup_steps=3)
    assert step_limit(auto, intervals.longest) is None
    for step, t in [(1, 0.0), (2, 30.0), (3, 31.0), (4, 33.0), (5, 34.0)]:
        intervals.observe(0, step, t)
    assert intervals.longest == 2.0  # the 30 s warm-up interval is ignored
    assert step_limit(auto, intervals.longest) == 60  # floor
    intervals.observe(0, 6, 54.0)
    assert step_limit(auto, intervals.longest) == 100
    assert step_limit(POLICY, None) == 10


def test_stall_needs_more_than_the_limit():
    views = [view(0, beat_time=95.0), view(1, beat_time=89.0)]
    stalls = find_stalls(views, POLICY, 10, now=100.0)
    assert [s.rank for s in stalls] == [1]


def test_a_first_beat_read_between_its_two_stores_is_no_stall():
    """The rank stores its beat count and its time separately: a record read between them
    has a count and no time, and counts from the rank's start, not from the clock's zero."""
    torn = RankView(1, True, 95.0, replace(BASE, step=1, beats=1, beat_time=0.0), None)
    assert torn.last_progress() == 95.0
    assert find_stalls([view(0, beat_time=99.0), torn], POLICY, 10, now=100.0) == []


def test_a_rank_exiting_has_the_exit_window_not_the_hang_timeout():
    """A script that ended and whose interpreter takes a while to exit (a loaded machine,
    exit handlers, torch's teardown) is not hung; one stuck there past the window is."""
    exiting = view(0, beat_time=90.0, phase_name=EXIT_PHASE, phase_start=90.0,
                   phase_timeout=EXIT_WINDOW_S)
    assert find_stalls([exiting], POLICY, 10, now=90.0 + EXIT_WINDOW_S - 1) == []
    (stall,) = find_stalls([exiting], POLICY, 10, now=90.0 + EXIT_WINDOW_S + 1)
    assert stall.limit_s == EXIT_WINDOW_S and stall.limit_name.startswith("exit timeout")
    # a hang timeout longer than the window wins; a thread still working keeps it alive
    assert find_stalls([exiting], POLICY, 600, now=90.0 + EXIT_WINDOW_S + 1) == []
    working = replace(exiting.beat, beat_time=90.0 + EXIT_WINDOW_S)
    assert find_stalls([replace(exiting, beat=working)], POLICY, 10,
                       now=90.0 + EXIT_WINDOW_S + 1) == []


def test_startup_timeout_before_first_step_and_phase_timeout():
    starting = view(0, step=0, beats=0, coll_count=0, forwards=0)
    assert find_stalls([starting], POLICY, 10, now=99.0) == []
    assert [s.rank for s in find_stalls([starting], POLICY, 10, now=101.0)] == [0]
    in_phase = view(0, beat_time=0.0, phase_name="checkpoint", phase_start=50.0,
                    phase_timeout=900.0)
    assert find_stalls([in_phase], POLICY, 10, now=500.0) == []
    assert find_stalls([in_phase], POLICY, 10, now=951.0)[0].limit_name.startswith("phase")


def test_a_loop_without_an_optimizer_is_past_startup():
    """Evaluation, inference, a custom update: collectives completed, no optimizer step."""
    idle = dict(step=0, forwards=0, backwards=0, beat_time=50.0)
    looping = view(0, coll_count=6, in_coll=True, **idle)  # five done, waiting in the sixth
    assert [(s.rank, s.limit_name) for s in find_stalls([looping], POLICY, 10, now=61.0)] == [
        (0, "hang timeout")]
    # a setup's barrier or two (rank 0 downloads meanwhile) keeps the start-up window
    for setup in (view(0, coll_count=1, in_coll=True, **idle),
                  view(0, coll_count=3, in_coll=True, **idle),
                  view(0, coll_count=5, init_state=INIT_ENTERED, **idle)):
        assert find_stalls([setup], POLICY, 10, now=99.0) == []
    # auto mode before any step has nothing to learn a limit from: start-up still applies
    assert find_stalls([looping], POLICY, None, now=99.0) == []


def test_lone_survivor_doing_rank0_work_is_not_a_hang():
    survivor = view(0, beat_time=50.0)
    done = view(1, alive=False, exit_code=0)
    assert find_stalls([survivor, done], POLICY, 10, now=100.0) == []
    waiting = view(0, beat_time=50.0, in_coll=True)
    assert find_stalls([waiting, done], POLICY, 10, now=100.0)


def test_culprit_outside_collective():
    report = analyze([view(0, in_coll=True, coll_count=11), view(1)], [])
    assert report.culprits == [1] and report.hint is None
    assert kinds(report) == [("outside_collective", [1])]


def test_uneven_exit_early():
    report = analyze([view(0, in_coll=True, coll_count=11),
                      view(1, alive=False, exit_code=0, coll_count=10)], [])
    assert report.culprits == [1] and "drop_last=True" in (report.hint or "")
    assert kinds(report) == [("exited_early", [1]), ("work_differs", [])]


def test_uneven_extra_ddp_step():
    report = analyze([view(0, forwards=11), view(1, in_coll=True, coll_name="barrier")], [])
    assert report.culprits == [0] and report.hint
    assert kinds(report) == [("ddp_forwards_ahead", [0]), ("work_differs", [])]


def test_never_reached_init():
    report = analyze([view(0, step=0, init_state=INIT_ENTERED), view(1, step=0, init_state=0)],
                     [])
    assert report.culprits == [1]
    assert "never reached init_process_group" in report.findings[-1].text
    assert kinds(report) == [("never_initialized", [1])]


def test_collective_mismatch_and_fewer_forwards():
    report = analyze([view(0, in_coll=True, coll_count=12),
                      view(1, in_coll=True, coll_count=11, coll_name="barrier")], [])
    assert report.culprits == [1] and "mismatch" in report.findings[-1].text
    assert kinds(report) == [("collective_mismatch", [1])]
    report = analyze([view(0, forwards=11), view(1, forwards=10)], [])
    assert report.culprits == [1] and kinds(report) == [("ddp_forwards_behind", [1])]


def test_backward_counts_name_the_rank_that_never_reached_the_gradient_all_reduce():
    # same forwards: rank 1 is stuck between its forward and its backward (the loss, a
    # metric in user code); rank 0 already waits in DDP's all_reduce inside backward #11
    report = analyze([view(0, forwards=11, backwards=11), view(1, forwards=11, backwards=10)],
                     [])
    assert report.culprits == [1] and kinds(report) == [("ddp_backwards_behind", [1])]
    assert "rank(s) 0 wait in DDP's gradient all_reduce of backward pass #11" in texts(report)[0]
    assert report.hint is None  # no uneven-batches fix: nothing says the data differs
    # a rank that ran an extra backward while the other waits in a Python collective
    report = analyze([view(0, backwards=11),
                      view(1, backwards=10, in_coll=True, coll_name="barrier")], [])
    assert report.culprits == [0] and kinds(report)[0] == ("ddp_forwards_ahead", [0])
    # equal counts say nothing
    report = analyze([view(0, backwards=10), view(1, backwards=10)], [])
    assert kinds(report) == []


def test_process_state_names_the_stopped_rank_whatever_the_counters_say():
    from safelaunch.supervisor.hangs import RankView, Stall, analyze

    views = [RankView(0, True, 0.0), RankView(1, True, 0.0), RankView(2, True, 0.0)]
    stalls = [Stall(r, 12.0, 10.0, "hang timeout") for r in (0, 1, 2)]
    for letter, word in (("T", "stopped"), ("D", "uninterruptible sleep"), ("Z", "zombie")):
        report = analyze(views, stalls, {0: "S", 1: letter, 2: "S"})
        assert report.culprits == [1]
        assert any(f.startswith(f"rank 1 is {'a ' if letter == 'Z' else ''}") and word in f
                   for f in texts(report)), report.findings
        assert report.hint is None
    # every rank stopped (the whole job paused): no single culprit from the state
    report = analyze(views, stalls, {0: "T", 1: "T", 2: "T"})
    assert not any("state T" in f for f in texts(report))


SPY_BACKWARD = """Thread 100 (idle): "MainThread"
    _engine_run_backward (torch/autograd/graph.py:979)
    backward (torch/_tensor.py:630)
    training_step (train.py:62)
    <module> (train.py:124)
"""
SPY_ALL_REDUCE = """Thread 100 (idle): "MainThread"
    all_reduce (torch/distributed/distributed_c10d.py:3231)
    wrapper (torch/distributed/c10d_logger.py:83)
    main (train.py:80)
    <module> (train.py:124)
"""
FH_USER_LOOP = """Current thread 0x00007f (most recent call first):
  File "/home/me/train.py", line 41 in compute_metrics
  File "/home/me/train.py", line 80 in main
  File "/home/me/train.py", line 124 in <module>
"""


def test_stack_place():
    from safelaunch.supervisor.stacks import place

    assert place(SPY_BACKWARD)[0] == "waiting"
    assert place(SPY_ALL_REDUCE) == ("waiting", "all_reduce (torch.distributed)")
    assert place(FH_USER_LOOP) == ("elsewhere", "compute_metrics (train.py:41)")
    assert place("no frames at all") is None


NATIVE_COMPILED_WAIT = """Process 26136: python train.py
Thread 26136 (idle): "MainThread"
    0x7f118b4a3f16 (libc.so.6)
    pthread_cond_wait (libc.so.6)
    std::condition_variable::wait (libstdc++.so.6.0.30)
    c10d::Work::wait (libtorch_cpu.so)
    pybind11::cpp_function::dispatcher (libtorch_python.so)
    __call__ (torch/_ops.py:1279)
    call (/tmp/torchinductor_me/ab/cabcdef.py:120)
    main (train.py:80)
    <module> (train.py:124)
Thread 26140 (idle): "pt_autograd_0"
    gloo::transport::tcp::UnboundBuffer::waitRecv (libtorch_cpu.so)
"""
NATIVE_SLEEP = """Thread 26137 (idle): "MainThread"
    clock_nanosleep (libc.so.6)
    time_sleep (libpython3.11.so.1.0)
    compute_metrics (train.py:41)
Thread 26141 (idle): "gloo"
    gloo::transport::tcp::Loop::run (libtorch_cpu.so)
"""


def test_native_frames_show_a_wait_the_python_frames_hide():
    from safelaunch.supervisor.stacks import native_wait, place

    assert native_wait(NATIVE_COMPILED_WAIT) == "c10d::Work::wait"
    assert native_wait(NATIVE_SLEEP) is None  # gloo's own thread is not the main thread
    assert native_wait("Thread 1 (idle): \"MainThread\"\n    " + "x" * 100_000 + "\n") is None
    python_only = place(NATIVE_COMPILED_WAIT)
    assert python_only is not None and python_only[0] == "elsewhere"
    assert place(NATIVE_COMPILED_WAIT, NATIVE_COMPILED_WAIT) == (
        "waiting", "c10d::Work::wait (its native stack)")
    assert place(FH_USER_LOOP, NATIVE_SLEEP) == ("elsewhere", "compute_metrics (train.py:41)")


def test_stacks_name_the_rank_outside_the_collective():
    from safelaunch.supervisor.hangs import RankView, Stall, analyze
    from safelaunch.supervisor.stacks import place

    views = [RankView(0, True, 0.0), RankView(1, True, 0.0)]
    stalls = [Stall(r, 12.0, 10.0, "hang timeout") for r in (0, 1)]
    places = {0: place(SPY_BACKWARD), 1: place(FH_USER_LOOP)}
    report = analyze(views, stalls, {0: "S", 1: "R"}, places)
    assert report.culprits == [1] and report.hint is None
    assert any("rank 1 is in compute_metrics (train.py:41)" in f for f in texts(report))
    assert kinds(report) == [("stack_elsewhere", [1])]
    # both in collectives (a mismatch, or a network stall): the stacks alone name no one
    both = analyze(views, stalls, {}, {0: place(SPY_BACKWARD), 1: place(SPY_ALL_REDUCE)})
    assert not any("(its stack)" in f for f in texts(both))


def _local_report():
    from safelaunch.supervisor.hangs import HangFinding, HangReport

    return HangReport(stalled=[0, 1], culprits=[0, 1],
                      findings=[HangFinding("no_progress", [], "rank 0 made no progress")],
                      hint=None, ranks=[], stacks={0: ["all_reduce (c.py:1)"]})


def test_another_nodes_verdict_and_stacks_are_adopted():
    from safelaunch.supervisor.hangs import merge_reports

    other = {"node": "b:1", "host": "b", "culprits": [2], "kinds": ["stack_elsewhere"],
             "stacks": {"2": ["time.sleep (train.py:9)"], "3": ["all_reduce (c.py:1)"]}}
    report = merge_reports(_local_report(), [other])
    assert report.culprits == [2]
    assert [f.kind for f in report.findings][-1] == "other_node"
    assert report.stacks[2] == ["time.sleep (train.py:9)"]
    assert report.stack_hosts == {2: "b", 3: "b"}


def test_hostile_stack_records_are_bounded():
    from safelaunch.supervisor.hangs import MAX_FRAME_CHARS, MAX_FRAMES, merge_reports

    hostile = [
        {"host": "x" * 10_000, "stacks": {"9": ["f" * 100_000] * 1000}},
        {"stacks": {"0": ["overwrite me"], "../1": ["x"], "7": "not a list", "-1": ["x"]}},
        {"stacks": ["not", "a", "dict"]},
        {"stacks": {str(i): ["x"] for i in range(100, 5000)}},
    ]
    report = merge_reports(_local_report(), hostile)
    assert report.stacks[0] == ["all_reduce (c.py:1)"]  # this node's own are never replaced
    assert len(report.stacks[9]) == MAX_FRAMES
    assert all(len(f) <= MAX_FRAME_CHARS for f in report.stacks[9])
    assert len(report.stack_hosts[9]) <= 100
    assert 7 not in report.stacks and len(report.stacks) <= 2 + 1024
    assert report.culprits == [0, 1]  # nobody named anyone


def _flight(*findings):
    from safelaunch.supervisor.collectives import CollectiveReport

    return CollectiveReport([], list(findings), {}, 2)


def test_the_flight_recorder_overrules_the_counters_and_keeps_the_agreeing_stacks():
    from safelaunch.supervisor.findings import FindingKind, HangFinding
    from safelaunch.supervisor.hangs import RankView, Stall, analyze
    from safelaunch.supervisor.stacks import place

    desync = HangFinding(FindingKind.COLLECTIVE_DESYNC, [1], "desync at #5 (pg 0): ...")
    # the counters alone blame both ranks (same count, different names)
    views = [view(0, in_coll=True, coll_name="all_reduce"),
             view(1, in_coll=True, coll_name="broadcast")]
    assert analyze(views, []).culprits == [0, 1]
    report = analyze(views, [], flight=_flight(desync))
    assert report.culprits == [1]
    assert kinds(report) == [("collective_desync", [1])]
    assert report.collectives is not None and report.collectives["dumps"] == 2
    # a rank outside any collective: the recorder and the stacks agree, both are kept
    not_entered = HangFinding(FindingKind.COLLECTIVE_NOT_ENTERED, [1], "rank 1 never entered")
    views = [RankView(0, True, 0.0), RankView(1, True, 0.0)]
    stalls = [Stall(r, 12.0, 10.0, "hang timeout") for r in (0, 1)]
    places = {0: place(SPY_BACKWARD), 1: place(FH_USER_LOOP)}
    report = analyze(views, stalls, {}, places, _flight(not_entered))
    assert kinds(report) == [("collective_not_entered", [1]), ("stack_elsewhere", [1])]


def test_a_stopped_rank_stays_the_culprit_and_the_recorder_says_where_the_others_wait():
    from safelaunch.supervisor.findings import FindingKind, HangFinding
    from safelaunch.supervisor.hangs import RankView, analyze

    views = [RankView(0, True, 0.0), RankView(1, True, 0.0)]
    missing = HangFinding(FindingKind.FLIGHT_RECORDER_MISSING, [], "no dump from rank 1")
    waiting = HangFinding(FindingKind.COLLECTIVE_WAITING, [], "rank 0 waits in all_reduce #7")
    report = analyze(views, [], {0: "S", 1: "T"}, flight=_flight(missing, waiting))
    assert report.culprits == [1]
    assert kinds(report) == [("process_state", [1]), ("flight_recorder_missing", []),
                             ("collective_waiting", [])]
