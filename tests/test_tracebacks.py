"""The user's traceback reads as it does under torchrun: no safelaunch frame in it, on the
console, in the rank file or in torch's ``@record`` error file."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES

SCRIPT = str(FIXTURES / "user_error.py")
FRAME = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')
PREFIX = re.compile(r"^(\d{4}-\d\d-\d\dT\S+ (out|err) )?(\[rank\d+\]:? ?)?")


def first_traceback(text: str) -> list[str]:
    """The frames of the first traceback in ``text``, whatever prefixes its lines carry."""
    frames: list[str] = []
    inside = False
    for raw in text.splitlines():
        line = PREFIX.sub("", raw)
        if line.startswith("Traceback (most recent call last):"):
            inside = True
            continue
        if not inside:
            continue
        match = FRAME.search(line)
        if match:
            frames.append(f"{Path(match[1]).name}:{match[2]}:{match[3]}")
        elif line and not line.startswith(" "):
            break
    return frames


def torchrun(tmp_path: Path, *args: str) -> str:
    proc = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--nproc-per-node",
                           "1", SCRIPT, *args], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1, proc.stderr[-2000:]
    return proc.stderr


@pytest.mark.parametrize("args", [["init"], ["collective"], ["thread"], ["collective", "--record"],
                                  ["init", "--record"]])
def test_traceback_matches_torchrun(run_safelaunch, tmp_path, args):
    expected = first_traceback(torchrun(tmp_path, *args))
    assert any(f.startswith("user_error.py") for f in expected), expected
    run = run_safelaunch("run", "--nproc", "1", "--no-minimal-test", SCRIPT, *args)
    assert run.returncode == (3 if args[0] == "thread" else 1), run.stderr[-2000:]
    assert first_traceback(run.stderr) == expected
    assert first_traceback(run.rank_log(0)) == expected
    assert "safelaunch/runtime" not in run.stderr + run.rank_log(0)
    for error_file in (run.run_dir / "errors").glob("*.json"):
        callstack = json.loads(error_file.read_text())["message"]["extraInfo"]["py_callstack"]
        assert "safelaunch" not in callstack
        assert first_traceback(callstack)[-len(expected) + 1:] == expected[-len(expected) + 1:]
