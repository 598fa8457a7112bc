"""summary.json says how far every rank got; the console shows progress early and notices
only while they matter; ranks that never formed a process group are called out."""

from __future__ import annotations

import os

from conftest import FIXTURES, torch_gloo_exit_abort

HANG = str(FIXTURES / "hang.py")


def test_ranks_that_never_joined_a_process_group_are_called_out(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", str(FIXTURES / "solo.py"))
    assert run.returncode == 0, run.stderr[-2000:]
    assert "2 ranks ran, none joined a process group: each trained alone" in run.stderr
    summary = run.summary()
    assert any("none joined a process group" in note for note in summary["notes"])
    for rank in summary["ranks"]:
        assert rank["progress"]["process_group"] == "never joined"
        assert rank["progress"]["step"] == 5


def test_a_ddp_job_is_not_called_solo_and_shows_progress_early(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", HANG, "slow",
                         "--steps", "30", "--step-time", "0.1")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "none joined" not in run.stderr
    # the default status interval is 30 s; the job takes ~4 s and still shows where it is
    assert "[safelaunch] status: step " in run.stderr
    summary = run.summary()
    assert summary["notes"] == []
    for rank in summary["ranks"]:
        progress = rank["progress"]
        assert progress["process_group"] == "joined"
        assert progress["step"] == 30
        assert progress["forward_passes"] == 30
        assert progress["backward_passes"] == 30
        assert progress["runtime_loaded"] is True
        # the last progress before the rank's exit: within its run (its teardown after the
        # last step takes seconds on a loaded machine, so no fixed bound)
        assert 0 <= progress["heartbeat_age_s"] <= rank["runtime_s"]


def test_failed_rank_records_how_far_it_got(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test",
                         str(FIXTURES / "user_error.py"), "collective")
    summary = run.summary()
    # both ranks raise TypeError at once; the first to end may abort in gloo's teardown on
    # its way out (1 run in 10): then the exit is 134 and the diagnosis still names the error
    first = summary["diagnosis"]["findings"][0]
    assert first["id"] == "collective-not-a-tensor", first
    assert run.returncode in (1, 134)
    assert first["evidence"][0]["text"].startswith("TypeError"), first
    for rank in summary["ranks"]:
        progress = rank["progress"]
        assert progress["process_group"] == "joined"
        assert progress["last_collective"] == "all_reduce"
        assert progress["collectives"] >= 1


def test_accelerate_without_a_gpu_trains_alone_and_is_told_so(run_safelaunch):
    script = str(FIXTURES / "accelerate_loop.py")
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", script)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "done: 1 process(es)" in run.stdout  # accelerate fell back to one process per rank
    notes = " ".join(run.summary()["notes"])
    assert "2 ranks ran, none ran a collective or a DDP forward pass" in notes
    assert "ACCELERATE_USE_CPU=true" in notes


def test_accelerate_on_cpu_is_a_real_ddp_job(run_safelaunch):
    env = {**os.environ, "ACCELERATE_USE_CPU": "true"}
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test",
                         str(FIXTURES / "accelerate_loop.py"), env=env)
    summary = run.summary()
    assert run.returncode == 0 or torch_gloo_exit_abort(run.returncode, summary), \
        run.stderr[-2000:]
    assert "done: 2 process(es)" in run.stdout
    assert summary["notes"] == []
