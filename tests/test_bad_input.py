"""Bad input: one line, the documented exit code, never a traceback, nothing overwritten."""

from __future__ import annotations

import os
import socket

import pytest

from conftest import FAULT

pytestmark = pytest.mark.usefixtures("spawn")  # real processes


def _one_line_error(run, code: int, *needles: str) -> None:
    assert run.returncode == code, (run.returncode, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("safelaunch: error: ")
    for needle in needles:
        assert needle in lines[0]
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5"])
def test_bad_nproc(run_safelaunch, value):
    _one_line_error(run_safelaunch("run", "--nproc", value, FAULT), 2, "--nproc", value)


def test_bad_values_name_the_option(run_safelaunch):
    _one_line_error(run_safelaunch("run", "--master-port", "99999", FAULT), 2, "--master-port")
    _one_line_error(run_safelaunch("run", "--nnodes", "3:1", FAULT), 2, "--nnodes")
    _one_line_error(run_safelaunch("run", "--console-ranks", "x", FAULT), 2, "--console-ranks")
    _one_line_error(run_safelaunch("run", "--no-such-flag", FAULT), 2, "--no-such-flag")
    _one_line_error(run_safelaunch("run"), 2, "SCRIPT")
    _one_line_error(run_safelaunch("run", "--nnodes", "2", FAULT), 2, "--master-addr")
    _one_line_error(run_safelaunch("run", "--rdzv-backend", "nonexist", FAULT), 2,
                    "--rdzv-backend 'nonexist'", "c10d, etcd, etcd-v2, static")
    _one_line_error(run_safelaunch("run", "--st", FAULT), 2, "ambiguous option: --st",
                    "'safelaunch run --help'")


# Values torchrun takes on its command line and only fails on once running (a traceback, an
# internal error or a 13-line diagnosis from safelaunch), or waits on forever: `python -m
# torch.distributed.run` with the same arguments is the oracle that each is invalid.
LATE_FAILURES = [
    (("--master-addr", "host\nname", "--nnodes", "2"), ["--master-addr", "host^Jname"]),
    (("--rdzv-backend", "static", "--rdzv-endpoint", "123"), ["--rdzv-endpoint '123'",
                                                              "no port"]),
    (("--rdzv-endpoint", "::::"), ["--rdzv-endpoint", "port number"]),
    (("--rdzv-endpoint", "127.0.0.1:99999"), ["--rdzv-endpoint", "between 0 and 65536"]),
    (("--rdzv-conf", "join_timeout=-5"), ["--rdzv-conf join_timeout='-5'", "above 0"]),
    (("--rdzv-conf", "read_timeout=abc"), ["--rdzv-conf read_timeout='abc'"]),
    (("--rdzv-conf", "keep_alive_interval=0"), ["keep_alive_interval", "waits forever"]),
    (("--signals-to-handle", "SIGTERM,SIGKILL"), ["--signals-to-handle SIGKILL",
                                                  "cannot be caught"]),
    (("--event-log-handler", "nope"), ["--event-log-handler 'nope'", "console"]),
    (("--local-addr", "x y"), ["--local-addr 'x y'", "not a host name"]),
    (("--local-addr", "no-such-host.invalid"), ["--local-addr", "cannot be resolved"]),
]


@pytest.mark.parametrize(("args", "needles"), LATE_FAILURES,
                         ids=[" ".join(a) for a, _ in LATE_FAILURES])
def test_values_torchrun_fails_on_late_are_one_line_usage_errors(run_safelaunch, tmp_path, args,
                                                                 needles):
    _one_line_error(run_safelaunch("run", *args, FAULT, timeout=60), 2, *needles)
    assert not (tmp_path / "safelaunch_runs").exists()


@pytest.mark.parametrize("value", ["x", "tpu"])
def test_preflight_refuses_the_nproc_run_refuses(run_safelaunch, value):
    _one_line_error(run_safelaunch("preflight", "--nproc", value), 2, f"--nproc-per-node {value}",
                    "Unsupported nproc_per_node value")


def test_missing_script_is_127(run_safelaunch, tmp_path):
    _one_line_error(run_safelaunch("run", "nope.py"), 127, "nope.py")
    _one_line_error(run_safelaunch("run", "-m", "no_such_module_xyz"), 127, "no_such_module_xyz")
    _one_line_error(run_safelaunch("run", "--no-python", "no-such-program"), 127)
    assert not (tmp_path / "safelaunch_runs").exists()


def test_not_executable_is_126(run_safelaunch, tmp_path):
    prog = tmp_path / "prog.sh"
    prog.write_text("#!/bin/sh\necho hi\n")
    prog.chmod(0o644)
    _one_line_error(run_safelaunch("run", "--no-python", "./prog.sh"), 126, "chmod +x")


def test_port_in_use_is_125(run_safelaunch):
    with socket.socket() as sock:
        sock.bind(("", 0))
        sock.listen()
        port = sock.getsockname()[1]
        run = run_safelaunch("run", "--nproc", "2", "--master-port", str(port), FAULT)
    _one_line_error(run, 125, f"master port {port} is already in use", "--master-port")


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_run_dir_as_user(run_safelaunch, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    _one_line_error(run_safelaunch("run", "--run-dir", str(locked / "x"), FAULT), 2)


def test_run_dir_on_read_only_filesystem(run_safelaunch):
    _one_line_error(run_safelaunch("run", "--run-dir", "/proc/1/safelaunch-run", FAULT), 2,
                    "cannot write run directory", "--run-dir")


def test_run_dir_that_is_a_file(run_safelaunch, tmp_path):
    (tmp_path / "afile").write_text("mine")
    _one_line_error(run_safelaunch("run", "--run-dir", "afile/run", FAULT), 2,
                    "cannot write run directory")
    assert (tmp_path / "afile").read_text() == "mine"


def test_config_file_errors(run_safelaunch, tmp_path):
    cfg = tmp_path / "safelaunch.yaml"
    cfg.write_text("nproc: 2\nnprocs: 3\n")
    _one_line_error(run_safelaunch("run", FAULT), 2, "line 2", "'nprocs'", "did you mean 'nproc'")
    cfg.write_text("nproc: 2\ngrace-period: soon\n")
    _one_line_error(run_safelaunch("run", FAULT), 2, "line 2", "grace-period")
    cfg.write_text("nproc: [1\n")
    _one_line_error(run_safelaunch("run", FAULT), 2, "invalid YAML", "line")
    _one_line_error(run_safelaunch("run", "--config", "missing.yaml", FAULT), 2, "missing.yaml")


def test_node_rank_outside_the_node_count(run_safelaunch):
    _one_line_error(run_safelaunch("run", "--nproc", "2", "--node-rank", "1", FAULT), 2,
                    "--node-rank 1 is out of range for --nnodes 1", "needs --nnodes")
    _one_line_error(run_safelaunch("run", "--nnodes", "1:2", "--rdzv-backend", "c10d",
                                   "--rdzv-endpoint", "localhost:1", "--node-rank", "2", FAULT),
                    2, "--node-rank 2 is out of range")


def test_missing_ssh_config_is_a_usage_error(run_safelaunch, tmp_path):
    _one_line_error(run_safelaunch("remote", "--host", "nowhere", "--ssh-config",
                                   str(tmp_path / "nope"), FAULT), 2, "--ssh-config")


def _claim_run_dir(path: str, start: float) -> str:
    import time
    from pathlib import Path

    from safelaunch.errors import RunDirError
    from safelaunch.supervisor.rundir import create_run_dir

    time.sleep(max(0.0, start - time.time()))
    try:
        create_run_dir(Path(path), None)
    except RunDirError as exc:
        return str(exc)
    return "ok"


def test_two_runs_racing_for_one_run_dir_never_share_it(tmp_path):
    """Runs started at the same instant with the same --run-dir: exactly one gets it, the
    others a one-line error, in every round."""
    import multiprocessing
    import time

    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(6) as pool:
        for round_ in range(30):
            target = str(tmp_path / f"race{round_}")
            start = time.time() + 0.05
            answers = pool.starmap(_claim_run_dir, [(target, start)] * 6)
            assert answers.count("ok") == 1, answers
            assert all("choose a new --run-dir" in a for a in answers if a != "ok"), answers
