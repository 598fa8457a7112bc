"""A minimal-test rank's own record (``safelaunch/minimal_test/rank.py``)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from safelaunch.minimal_test import rank as mt_rank


def test_a_ranks_results_are_its_users_only_whatever_the_umask(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("RANK", "1")
    monkeypatch.setenv(mt_rank.RESULTS_ENV, str(tmp_path))
    before = os.umask(0o022)
    try:
        record = mt_rank.Rank()
        record.save()
    finally:
        os.umask(before)
    path = tmp_path / "rank1.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text())["rank"] == 1
    assert not (tmp_path / "rank1.tmp").exists()
