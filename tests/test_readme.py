"""The README stays true: its exit-code table and its test command."""

from __future__ import annotations

import re
from pathlib import Path

from safelaunch.exit_codes import EXIT_CODE_TABLE

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_exit_code_table_matches_the_code():
    section = README.split("### Exit codes", 1)[1]
    rows = re.findall(r"^\| (.+?) \| (.+?) \|$", section, re.MULTILINE)
    rows = [r for r in rows if r[0] not in ("code", "---")]
    assert rows[: len(EXIT_CODE_TABLE)] == EXIT_CODE_TABLE


def test_ci_runs_the_readme_test_command():
    commands = re.findall(r"```bash\n(.+?)\n```", README)
    test_command = next(c for c in commands if "pytest" in c)
    assert test_command in (ROOT / ".ci" / "run").read_text().splitlines()
    assert any("examples/train_ddp.py" in c for c in commands)
