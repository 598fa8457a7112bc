"""torchrun is the oracle: each case runs ``python -m torch.distributed.run ARGS`` and
``safelaunch run ARGS`` on the same script and compares what every rank saw (environment,
argv, cwd, sys.path[0], __name__), which of its lines reached the console, the files of
torchrun's --log-dir layout and the exit status (mapped through the README's table: a failed
rank's own code instead of torchrun's 1; exit 2 with one line for input torchrun answers with
a traceback)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from differential import Case, compare, payload_lines, prefixed, run_launcher

from safelaunch.supervisor.engine import torchrun_options

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

N2 = ["--nproc-per-node", "2"]
# The cases where the ranks meet in another way (a port, a store, an endpoint, a restart)
# keep safelaunch's minimal test in front, as by default: it meets the same way first.  The
# others run without it (tests run it only where it matters: see conftest.clean_env).
MT = ["--minimal-test"]

CASES = [
    Case("two ranks", [*N2, "envdump.py", "a", "--b", "c"], safelaunch_args=MT),
    Case("default one rank", ["envdump.py"], safelaunch_args=MT),
    Case("standalone", ["--standalone", "--nproc_per_node=2", "envdump.py"], safelaunch_args=MT),
    Case("static with a master port", [*N2, "--master-port", "{port}", "--master_addr",
                                       "127.0.0.1", "envdump.py"], safelaunch_args=MT),
    Case("elastic c10d", ["--nnodes", "1:2", "--rdzv-backend", "c10d", "--rdzv-endpoint",
                          "localhost:{port}", "--rdzv-conf", "last_call_timeout=1",
                          "--rdzv-id", "job7", *N2, "envdump.py"], safelaunch_args=MT),
    Case("module", [*N2, "-m", "envdump_mod", "x"]),
    Case("no python", [*N2, "--no-python", "./envdump.sh", "x"]),
    Case("run path", [*N2, "--run-path", "envdump.py", "x"]),
    Case("PET forms", ["envdump.py"], env={"PET_NPROC_PER_NODE": "2", "PET_STANDALONE": "1"},
         safelaunch_args=MT),
    Case("PET_NO_PYTHON", [*N2, "./envdump.sh"], env={"PET_NO_PYTHON": "1"}),
    Case("PET_RUN_PATH", [*N2, "envdump.py"], env={"PET_RUN_PATH": "1"}),
    Case("PET_MAX_RESTARTS and role", [*N2, "envdump.py", "--fail-once"],
         env={"PET_MAX_RESTARTS": "1", "PET_ROLE": "trainer"}, safelaunch_args=MT),
    Case("a rank that fails once, one restart", ["--max-restarts", "1", *N2, "envdump.py",
                                                 "--fail-once"], safelaunch_args=MT),
    Case("ranks that always fail", [*N2, "envdump.py", "--exit", "3"], torchrun_code=1,
         outcome="rank:3", safelaunch_args=MT),
    Case("log dir and tee", ["--log-dir", "{logs}", "-t", "3", *N2, "envdump.py"]),
    Case("log dir and redirects", ["--log_dir", "{logs}", "--redirects", "1", *N2,
                                   "envdump.py"]),
    Case("redirects per local rank", ["--log-dir", "{logs}", "-r", "0:3,1:2", *N2,
                                      "envdump.py"]),
    Case("local ranks filter", ["--local-ranks-filter", "1", *N2, "envdump.py"]),
    Case("duplicate filters", ["--log-dir", "{logs}", "--tee", "3", "--duplicate-stdout-filters",
                               "rank 1", "--duplicate_stderr_filters", "err from", *N2,
                               "envdump.py"],
         needs=("--duplicate-stdout-filters", "--duplicate-stderr-filters")),
    Case("abbreviations", ["--stand", "--nproc_per", "2", "--redirect", "2", "--log-d",
                           "{logs}", "envdump.py"]),
    Case("signals, shutdown timeout, events, start method", [
        "--signals-to-handle", "SIGTERM,SIGINT,SIGUSR1", "--shutdown-timeout", "5",
        "--event-log-handler", "console", "--start-method", "fork", *N2, "envdump.py"],
        needs=("--signals-to-handle", "--shutdown-timeout", "--event-log-handler")),
    Case("virtual local rank", ["--virtual-local-rank", *N2, "envdump.py"],
         needs=("--virtual-local-rank",)),
    Case("OMP_NUM_THREADS of the user", [*N2, "envdump.py"], env={"OMP_NUM_THREADS": "3"}),
    Case("line prefix template", ["-t", "3", *N2, "envdump.py"],
         env={"TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE": "<${role_name}|${rank}|${local_rank}> "}),
    Case("line prefix template option", ["--log-line-prefix-template",
                                         "<${hostname}|${rank}> ", "-t", "3", *N2, "envdump.py"],
         needs=("--log-line-prefix-template",)),
    # PET_ wins over TORCHELASTIC_ where torchrun reads it; an older torchrun ignores it
    Case("PET line prefix template", ["-t", "3", *N2, "envdump.py"],
         env={"PET_LOG_LINE_PREFIX_TEMPLATE": "<${local_rank}|${hostname}> ",
              "TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE": "<${rank}> "}),
    # an option an older torch lacks, set only through PET_: ignored as that torchrun does
    Case("PET of a newer option", [*N2, "envdump.py"], env={"PET_VIRTUAL_LOCAL_RANK": "1",
                                                          "PET_SHUTDOWN_TIMEOUT": "4"}),
    Case("bad start method", ["--start-method", "bogus", "envdump.py"], torchrun_code=2,
         outcome="usage"),
    Case("bad redirects", ["--redirects", "x", "envdump.py"], torchrun_code=1, outcome="usage"),
    Case("bad local ranks filter", ["--local-ranks-filter", "a", "envdump.py"],
         torchrun_code=1, outcome="usage"),
    Case("ambiguous abbreviation", ["--st", "envdump.py"], torchrun_code=2, outcome="usage"),
    Case("unknown device word", ["--nproc-per-node", "tpu", "envdump.py"], torchrun_code=1,
         outcome="usage"),
    Case("NUMA binding without a GPU", ["--numa-binding", "node", *N2, "envdump.py"],
         torchrun_code=1, outcome="start", needs=("--numa-binding",)),
    Case("xpu without one", ["--nproc-per-node", "xpu", "envdump.py"], torchrun_code=1,
         outcome="usage"),
]


PREFIXES = {
    "line prefix template": "<default|1|1> ",
    "line prefix template option": f"<{socket.gethostname()}|1> ",
    "PET line prefix template": (f"<1|{socket.gethostname()}> "
                                 if "--log-line-prefix-template" in torchrun_options()
                                 else "<1> "),
}
"""What both launchers write before a rank's line where the case sets a prefix template."""


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_same_as_torchrun(case: Case, tmp_path: Path) -> None:
    case = case.for_this_torch()
    launch_env = dict(os.environ)
    torch_result = run_launcher("torchrun", case, tmp_path / "torchrun", launch_env)
    ours = run_launcher("safelaunch", case, tmp_path / "safelaunch", launch_env)
    compare(case, torch_result, ours, {**launch_env, **case.env})
    if case.outcome == "usage":
        errors = [line for line in ours.console.splitlines() if line.strip()]
        assert len(errors) == 1 and errors[0].startswith("safelaunch: error: "), ours.console
    elif case.name in PREFIXES:  # the template's prefix itself, before the same line
        line = "out from rank 1 attempt 0"
        assert (prefixed(torch_result.console, line) == prefixed(ours.console, line)
                == PREFIXES[case.name])


def test_every_prefix_template_case_is_checked() -> None:
    assert set(PREFIXES) <= {case.name for case in CASES}


def test_redirected_streams_stay_off_the_console_but_in_the_run_dir(tmp_path: Path) -> None:
    case = Case("redirects", ["--log-dir", "{logs}", "-r", "3", *N2, "envdump.py"])
    ours = run_launcher("safelaunch", case, tmp_path / "s", dict(os.environ))
    assert ours.code == 0 and not payload_lines(ours.console), ours.console
    run_dir = next((ours.cwd / "safelaunch_runs").glob("2*"))
    assert "out from rank 1 attempt 0" in (run_dir / "rank1.log").read_text()
