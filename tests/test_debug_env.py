"""Debug environment profiles: what is set, what the user's own values keep."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from conftest import safelaunch_cmd
from safelaunch import debug_env

NEW, OLD = (2, 13), (2, 4)


def test_basic_on_cpu_keeps_the_flight_recorder_but_not_nccls_dump_file():
    env = debug_env.resolve("basic", {}, "/r", nccl=False, torch_version=NEW)
    assert env.set == {"TORCH_FR_BUFFER_SIZE": "2000", "TORCH_NCCL_ASYNC_ERROR_HANDLING": "1",
                       "PYTHONFAULTHANDLER": "1", "NCCL_DEBUG": "WARN"}


def test_the_flight_recorder_is_on_at_every_level_and_the_users_size_wins():
    for level in debug_env.LEVELS:
        env = debug_env.resolve(level, {}, "/r", nccl=False, torch_version=NEW)
        assert env.set["TORCH_FR_BUFFER_SIZE"] == "2000"
    for mine in ({"TORCH_FR_BUFFER_SIZE": "0"}, {"TORCH_NCCL_TRACE_BUFFER_SIZE": "10"}):
        env = debug_env.resolve("off", mine, "/r", nccl=False, torch_version=NEW)
        assert "TORCH_FR_BUFFER_SIZE" not in env.set and env.kept == mine
    # before torch 2.11 only NCCL reads the old name: gloo-only jobs get nothing
    assert "TORCH_NCCL_TRACE_BUFFER_SIZE" not in debug_env.resolve(
        "off", {}, "/r", nccl=False, torch_version=OLD).set
    assert debug_env.resolve("off", {}, "/r", nccl=True,
                             torch_version=OLD).set["TORCH_NCCL_TRACE_BUFFER_SIZE"] == "2000"


def test_basic_with_nccl_names_follow_the_torch_version():
    env = debug_env.resolve("basic", {}, "/r", nccl=True, torch_version=NEW)
    assert env.set["TORCH_FR_BUFFER_SIZE"] == "2000"
    assert env.set["TORCH_FR_DUMP_TEMP_FILE"] == "/r/nccl_flight_recorder/rank_"
    assert "TORCH_NCCL_TRACE_BUFFER_SIZE" not in env.set
    old = debug_env.resolve("basic", {}, "/r", nccl=True, torch_version=OLD)
    assert old.set["TORCH_NCCL_TRACE_BUFFER_SIZE"] == "2000"
    assert old.set["TORCH_NCCL_DEBUG_INFO_TEMP_FILE"] == "/r/nccl_flight_recorder/rank_"
    assert "TORCH_FR_BUFFER_SIZE" not in old.set


def test_dump_on_timeout_by_the_name_the_running_torch_reads():
    assert debug_env.resolve("basic", {}, "/r", nccl=True,
                             torch_version=(2, 15)).set["TORCH_FR_DUMP_ON_TIMEOUT"] == "1"
    for version in (NEW, OLD):
        env = debug_env.resolve("basic", {}, "/r", nccl=True, torch_version=version)
        assert env.set["TORCH_NCCL_DUMP_ON_TIMEOUT"] == "1"
        assert "TORCH_FR_DUMP_ON_TIMEOUT" not in env.set


def test_a_users_value_under_an_alias_is_kept():
    env = debug_env.resolve("basic", {"TORCH_NCCL_DUMP_ON_TIMEOUT": "0",
                                      "TORCH_NCCL_TRACE_BUFFER_SIZE": "50"},
                            "/r", nccl=True, torch_version=(2, 15))
    assert "TORCH_FR_DUMP_ON_TIMEOUT" not in env.set and "TORCH_FR_BUFFER_SIZE" not in env.set
    assert env.kept == {"TORCH_NCCL_DUMP_ON_TIMEOUT": "0", "TORCH_NCCL_TRACE_BUFFER_SIZE": "50"}


def test_dump_folders_are_those_of_the_dump_paths_safelaunch_set():
    assert debug_env.resolve("basic", {}, "/r", nccl=True,
                             torch_version=NEW).dump_folders() == ["/r/nccl_flight_recorder"]
    assert debug_env.resolve("basic", {}, "/r", nccl=False, torch_version=NEW).dump_folders() == []
    mine = debug_env.resolve("basic", {"TORCH_FR_DUMP_TEMP_FILE": "/mine/fr_"}, "/r", nccl=True,
                             torch_version=NEW)
    assert mine.dump_folders() == []


@pytest.mark.usefixtures("spawn")  # real processes
def test_the_flight_recorder_folder_exists_before_the_ranks_start(tmp_path):
    # torch writes its dumps into the folder named but never creates it (FlightRecorder.cpp)
    script = tmp_path / "show.py"
    script.write_text("import os\n"
                      "print(os.path.isdir(os.path.dirname(os.environ['TORCH_FR_DUMP_TEMP_FILE'])))\n")
    run_dir = tmp_path / "run"
    out = subprocess.run(safelaunch_cmd("run", "--no-minimal-test", "--no-preflight",
                                        "--minimal-test-backend", "nccl", "--debug-level", "off",
                                        "--run-dir", str(run_dir), str(script)),
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "[rank0] True" in out.stdout
    assert (run_dir / "nccl_flight_recorder").is_dir()


def test_detail_adds_and_warns_about_slow_variables():
    env = debug_env.resolve("detail", {}, "/r", nccl=False, torch_version=NEW)
    assert env.set["NCCL_DEBUG"] == "INFO" and env.set["TORCH_DISTRIBUTED_DEBUG"] == "DETAIL"
    assert env.set["CUDA_LAUNCH_BLOCKING"] == "1"
    assert any("CUDA_LAUNCH_BLOCKING" in w and "slows" in w for w in env.warnings)


def test_user_values_are_never_overridden():
    env = debug_env.resolve("detail", {"NCCL_DEBUG": "TRACE", "CUDA_LAUNCH_BLOCKING": "0"},
                            "/r", nccl=False, torch_version=NEW)
    assert "NCCL_DEBUG" not in env.set and env.kept["NCCL_DEBUG"] == "TRACE"
    assert env.kept["CUDA_LAUNCH_BLOCKING"] == "0"
    assert not any("CUDA_LAUNCH_BLOCKING" in w for w in env.warnings)


def test_off_only_keeps_the_flight_recorder_with_nccl_dumps_in_the_run_dir():
    assert debug_env.resolve("off", {}, "/r", nccl=False, torch_version=NEW).set == {
        "TORCH_FR_BUFFER_SIZE": "2000"}
    assert sorted(debug_env.resolve("off", {}, "/r", nccl=True, torch_version=NEW).set) == [
        "TORCH_FR_BUFFER_SIZE", "TORCH_FR_DUMP_TEMP_FILE"]


@pytest.mark.usefixtures("spawn")  # real processes
def test_ranks_get_the_profile_and_it_is_recorded(tmp_path):
    script = tmp_path / "show.py"
    script.write_text("import os\nprint(os.environ.get('NCCL_DEBUG'), "
                      "os.environ.get('TORCH_DISTRIBUTED_DEBUG'))\n")
    env = {**os.environ, "NCCL_DEBUG": "TRACE"}
    out = subprocess.run(safelaunch_cmd("run", "--no-minimal-test", "--debug-level", "detail",
                                        str(script)), cwd=tmp_path, capture_output=True,
                         text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert "[rank0] TRACE DETAIL" in out.stdout
    assert "kept your NCCL_DEBUG=TRACE" in out.stderr
    assert "WARNING: CUDA_LAUNCH_BLOCKING=1 slows training" in out.stderr
    run_dir = next((tmp_path / "safelaunch_runs").glob("2*"))
    recorded = json.loads((run_dir / "debug_env.json").read_text())
    assert recorded["kept"] == {"NCCL_DEBUG": "TRACE"}
    assert recorded["set"]["TORCH_DISTRIBUTED_DEBUG"] == "DETAIL"


def test_a_timed_out_nccl_rank_is_not_kept_waiting_a_minute_for_its_dumps():
    # torch sleeps 4 x TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC (15 s by default) after a watchdog
    # timeout before it aborts; the dumps themselves took under a second on an H200.
    env = debug_env.resolve("basic", {}, "/r", nccl=True, torch_version=NEW)
    assert env.set["TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC"] == "5000"
    assert "TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC" not in debug_env.resolve(
        "basic", {}, "/r", nccl=False, torch_version=NEW).set
    mine = debug_env.resolve("basic", {"TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC": "60000"}, "/r",
                             nccl=True, torch_version=NEW)
    assert mine.kept == {"TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC": "60000"}
    assert "TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC" not in mine.set
