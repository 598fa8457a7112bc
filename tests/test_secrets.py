"""Secrets never reach the console or a file of the run directory, whatever their name."""

from __future__ import annotations

import os
import re
import stat

import pytest

from conftest import FIXTURES
from safelaunch.redact import is_secret_name, mask

SECRETS = {
    "GITHUB_PAT": "pat-value-0123456789",
    "DATABASE_URL": "postgres://trainer:s3cr3t-pw@db.internal:5432/runs",
    "MY_HUB": "hf_" + "Zq8" * 12,  # a name that says nothing: caught by the token's shape
    "SMTP_PASS": "mail-password-42",
    "SERVICE_AUTH": "auth-value-abcdef",
}
NEVER = ["pat-value-0123456789", "s3cr3t-pw", "Zq8Zq8Zq8", "mail-password-42",
         "auth-value-abcdef", "a1B2c3D4e5a1B2c3D4e5"]


@pytest.mark.parametrize("text, expected", [
    ("postgres://u:pw@h/db", "postgres://u:<redacted>@h/db"),
    ("git clone https://x:ghp_" + "a" * 36 + "@github.com/o/r", "git clone https://x:<redacted>@github.com/o/r"),
    ("token=github_pat_" + "A1_" * 20, "token=<redacted>"),
    ("sk-proj-" + "Ab1" * 10 + " end", "<redacted> end"),
    ("AKIA" + "ABCDEFGHIJKLMNOP", "<redacted>"),
    ("xoxb-123456789012-abcdef", "<redacted>"),
    ("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig-nature_value1", "Bearer <redacted>"),
    ("http://localhost:8080/path hf_model a task-list", "http://localhost:8080/path hf_model a task-list"),
])
def test_secret_shapes_are_masked(text, expected):
    assert mask(text, []) == expected


def test_secret_names():
    for name in ("GITHUB_PAT", "SMTP_PASS", "SERVICE_AUTH", "HF_TOKEN", "DB_PASSWD", "API_KEY"):
        assert is_secret_name(name)
    for name in ("PATH", "PASSTHROUGH_MODE", "AUTHOR", "OMP_NUM_THREADS"):
        assert not is_secret_name(name)


def test_secrets_leave_no_trace_in_the_run(run_safelaunch):
    env = {**os.environ, **SECRETS}
    run = run_safelaunch("run", "--nproc", "2", "--no-minimal-test", str(FIXTURES / "leaky.py"),
                         env=env)
    assert run.returncode == 1, run.stderr[-2000:]
    assert re.search(r"rank \d error: RuntimeError: could not log in with <redacted>", run.stderr)
    assert "postgres://trainer:<redacted>@db.internal" in run.stdout
    for secret in NEVER:
        assert secret not in run.stdout + run.stderr, secret
    run_dir = run.run_dir
    assert stat.S_IMODE(run_dir.stat().st_mode) == 0o700
    files = [p for p in run_dir.rglob("*") if p.is_file()]
    assert any(p.parent.name == "errors" for p in files)
    for path in files:
        text = path.read_text(errors="replace")
        for secret in NEVER:
            assert secret not in text, (path, secret)
        if path.parent == run_dir and path.suffix in (".json", ".log"):
            assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path
