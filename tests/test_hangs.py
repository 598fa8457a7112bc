"""Hang detection with real gloo ranks: the culprit, the stacks, the exit code, the time."""

from __future__ import annotations

import pytest

from conftest import FIXTURES

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

HANG = str(FIXTURES / "hang.py")


def _hang(run, culprit: int):
    assert run.returncode == 124, run.stderr[-3000:]
    summary = run.summary()
    assert summary["status"] == "hung" and summary["exit_code"] == 124
    assert summary["hang"]["culprits"] == [culprit]
    assert "<- hang culprit" in run.stderr
    return summary["hang"]


def test_rank_stalled_before_collective(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", "3", HANG, "stall")
    hang = _hang(run, 1)
    assert any("not in a collective" in f and "all_reduce" in f for f in (f["text"] for f in hang["findings"]))
    with open(hang["stack_files"]["1"]) as fh:
        assert "stall_before_collective" in fh.read()
    assert "stall_before_collective" in " ".join(hang["stacks"]["1"])


def test_signal_fallback_dumps_stacks(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", "3", "--stack-dump", "signal",
                         HANG, "stall")
    hang = _hang(run, 1)
    assert hang["stack_method"] == "signal"
    assert "stall_before_collective" in (run.run_dir / "stacks" / "rank1.txt").read_text()
    assert "all_reduce" in (run.run_dir / "stacks" / "rank0.txt").read_text()


def test_uneven_batches(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", "3", HANG, "uneven")
    hang = _hang(run, 0)
    assert "drop_last=True" in hang["hint"]
    assert "DistributedSampler" in run.stderr


def test_rank_stuck_between_forward_and_backward(run_safelaunch):
    """Same DDP forward count on both ranks: only the backward count (DDP's gradient
    all_reduce runs in C++, never through torch.distributed's Python functions) and the
    stacks tell that rank 0 waits inside backward #4 for rank 1."""
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", "3", HANG, "after-forward")
    hang = _hang(run, 1)
    kinds = [f["kind"] for f in hang["findings"]]
    assert "ddp_backwards_behind" in kinds, hang["findings"]
    text = " ".join(f["text"] for f in hang["findings"])
    assert "rank(s) 0 wait in DDP's gradient all_reduce of backward pass #4" in text
    assert hang["hint"] is None
    progress = {r["global_rank"]: r["progress"] for r in run.summary()["ranks"]}
    assert progress[0]["forward_passes"] == progress[1]["forward_passes"] == 4
    assert (progress[0]["backward_passes"], progress[1]["backward_passes"]) == (4, 3)


def test_a_wait_only_native_frames_show_still_names_the_right_rank(run_safelaunch):
    """Code compiled by torch.compile calls collectives through torch.ops: while rank 0
    waits, no torch.distributed frame is on its Python stack, and only its native frames
    (py-spy --native) show it inside c10d's wait."""
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", "3", HANG, "ops")
    if "py-spy" not in run.summary().get("hang", {}).get("stack_method", ""):
        pytest.skip("py-spy cannot attach here")
    hang = _hang(run, 1)
    missing = hang["native_stack_missing"].get("0", "")
    if "did not answer" in missing:  # py-spy --native is bounded, so as not to hold up the
        pytest.skip(f"rank 0's native dump: {missing}")  # verdict; the machine was loaded
    assert sorted(hang["native_stack_files"]) == ["0", "1"], hang["native_stack_missing"]
    text = " ".join(f["text"] for f in hang["findings"])
    assert "rank(s) 0 wait in c10d::Work::wait (its native stack)" in text


def test_rank_stuck_before_init(run_safelaunch):
    # long enough for the other rank to import torch and reach init_process_group on a
    # loaded machine (at 5 s, a suite run beside four stress runs had it not there yet)
    run = run_safelaunch("run", "--nproc", "2", "--startup-timeout", "12", HANG, "before-init")
    hang = _hang(run, 1)
    assert any("never reached init_process_group" in f for f in (f["text"] for f in hang["findings"]))
    assert "wait_for_init_forever" in " ".join(hang["stacks"]["1"])


def test_heartbeat_api_without_optimizer(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", "3", "--status-interval", "1",
                         HANG, "heartbeat", "--steps", "40", "--step-time", "0.2")
    _hang(run, 1)
    assert "[safelaunch] status: step" in run.stderr and '"loss"' in run.stderr


@pytest.mark.parametrize("args", [
    ["slow", "--steps", "4", "--step-time", "2.5"],
    ["spawn"],
])
def test_healthy_jobs_run_untouched(run_safelaunch, args):
    run = run_safelaunch("run", "--nproc", "2", HANG, *args)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "hang detected" not in run.stderr and "HUNG" not in run.stderr
    assert run.summary()["hang"] is None


def test_long_phase_is_not_a_hang(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", "2", HANG, "phase",
                         "--phase-time", "5")
    assert run.returncode == 0, run.stderr[-3000:]


def test_long_first_step_within_startup_timeout(run_safelaunch, tmp_path):
    script = tmp_path / "slow_start.py"
    script.write_text(
        "import time, torch, torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "time.sleep(6)  # loading data\n"
        "opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)\n"
        "for _ in range(5):\n"
        "    dist.all_reduce(torch.ones(1)); opt.step(); time.sleep(0.1)\n")
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", "2", str(script))
    assert run.returncode == 0, run.stderr[-3000:]


def test_a_slow_exit_after_training_is_not_a_hang(run_safelaunch, tmp_path):
    """The script ended; its exit handlers (or torch's teardown on a loaded machine) take
    longer than the hang timeout.  The job succeeded: exit 0, no hang."""
    script = tmp_path / "slow_exit.py"
    script.write_text(
        "import atexit, time, torch, torch.distributed as dist\n"
        "dist.init_process_group('gloo')\n"
        "opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)\n"
        "for _ in range(5):\n"
        "    dist.all_reduce(torch.ones(1)); opt.step(); time.sleep(0.1)\n"
        "atexit.register(time.sleep, 6)  # flushing a logger, uploading a checkpoint\n"
        "print('training done', flush=True)\n")
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", "--hang-timeout", "2",
                         str(script))
    assert run.returncode == 0, run.stderr[-3000:]
    assert "hang" not in run.summary()["reason"]


def test_collective_timeout_makes_a_stuck_collective_raise(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", "--hang-timeout", "off",
                         "--collective-timeout", "3", HANG, "stall")
    assert run.returncode == 1, run.stderr[-3000:]
    summary = run.summary()
    assert summary["root_cause_rank"] == 0
    assert "timed out" in run.rank_log(0).lower() or "timeout" in run.rank_log(0).lower()
