"""The failure zoo: real failures caused by real torch under every launcher, recorded by
``scripts/zoo/record.py`` (and ``built/`` logs in the exact formats of GPU and fabric
failures).  The first finding must be the case's cause; healthy runs get nothing."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from safelaunch.diagnose import diagnose, load

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "zoo"))
import score

TABLE = score.expectations()
CASES = score.cases()


def test_the_zoo_is_all_there():
    launchers = {launcher for launcher, _, _ in CASES}
    assert {"torchrun", "launch", "accelerate", "deepspeed", "safelaunch", "srun-label",
            "plain", "built"} <= launchers
    assert len(CASES) >= 150


@pytest.mark.parametrize(("launcher", "case", "path"), CASES,
                         ids=[f"{launcher}/{case}" for launcher, case, _ in CASES])
def test_zoo_case(launcher, case, path):
    want = score.expected_for(launcher, case, TABLE)
    result = diagnose(load(str(path)))
    if want is None:
        assert result.status == "no_failure" and not result.findings, result.findings
        return
    assert result.findings and result.findings[0].id == want, (
        [f.id for f in result.findings], result.status)


@pytest.mark.parametrize("launcher", ["torchrun", "launch", "accelerate", "deepspeed",
                                      "safelaunch", "srun-label"])
def test_the_failing_rank_is_named(launcher):
    result = diagnose(load(str(score.ZOO / launcher / "user-typeerror.log")))
    assert result.root_cause_rank == 1
    evidence = result.findings[0].evidence[0]
    assert "TypeError: unsupported operand" in evidence.text
    assert "failures.py:56 in fail" in evidence.text
