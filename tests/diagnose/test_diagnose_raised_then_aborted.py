"""A rank that raised a Python exception and then aborted on its way out (gloo's threads torn
down with the process group alive): the exception is the cause, not the abort.  The run
directory is a real one: both ranks of a gloo job raised a TypeError at once and rank 0
aborted in the teardown (``tests/fixtures/user_error.py collective``, 1 run in 10 here)."""

from __future__ import annotations

import shutil
from pathlib import Path

from safelaunch.diagnose import diagnose, from_run_dir

RUN = Path(__file__).parents[1] / "fixtures" / "runs" / "raised-then-aborted"


def test_the_exception_before_the_abort_is_the_cause():
    logs = from_run_dir(RUN)
    assert (logs.root_rank, logs.root_signal) == (0, "SIGABRT")
    assert "root_raised" in logs.facts
    result = diagnose(logs)
    first = result.findings[0]
    # a float passed to a collective: the exception, named by its own rule
    assert (first.id, first.rank) == ("collective-not-a-tensor", 0)
    assert first.evidence[0].text.startswith("TypeError: Invalid function argument.")
    assert "gloo-exit-abort" not in [f.id for f in result.findings]


def test_an_abort_long_after_an_exception_stays_the_teardown_abort(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    log = run / "rank0.log"
    lines = log.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "terminate called" in line)
    stamp = lines[at].split(" err ", 1)[0]
    work = [f"{stamp} out step {n} done\n" for n in range(20)]  # it went on after the error
    log.write_text("".join(lines[:at] + work + lines[at:]))
    logs = from_run_dir(run)
    assert "root_raised" not in logs.facts
    assert diagnose(logs).findings[0].id == "gloo-exit-abort"
