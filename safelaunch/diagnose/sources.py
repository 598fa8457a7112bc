"""What a diagnosis reads: a safelaunch run directory, any log file, or stdin.

A run directory gives one text per global rank plus the facts safelaunch recorded (root-cause
rank and exit code, the hang analysis, pre-flight warnings).  Any other log is one text;
its lines are attributed to ranks by their prefix (``[rank1]:`` from torch, ``[default1]:``
from torchrun's ``--tee``, ``[rank1] `` from safelaunch's console), and torchrun's
``ChildFailedError`` block gives the root cause.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from safelaunch.errors import UsageError

RANK_PREFIX = re.compile(r"^\[(?:rank|default)(\d+)\]:?\s?")
RUN_LINE_HEAD = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+Z (?:out|err|---) ", re.MULTILINE)
ROOT_CAUSE_BLOCK = re.compile(
    r"Root Cause \(first observed failure\):\s*\n\[\d+\]:\s*\n(?P<body>(?:[ \t]+.*\n?)+)")
FIELD = re.compile(r"^\s*(\w+)\s*:\s*(.*)$", re.MULTILINE)
SIGNAL_NAMES = {"1": "SIGHUP", "2": "SIGINT", "6": "SIGABRT", "7": "SIGBUS", "9": "SIGKILL",
                "11": "SIGSEGV", "15": "SIGTERM"}


@dataclass
class LogText:
    text: str
    path: str
    rank: int | None
    """The rank of every line, or None when lines carry their own prefix."""


@dataclass
class LogSet:
    texts: list[LogText]
    source: str
    root_rank: int | None = None
    root_returncode: int | None = None
    """Exit code, or minus the signal number."""
    failed: bool | None = None
    """From safelaunch's summary: True/False; None when unknown (a raw log)."""
    facts: set[str] = field(default_factory=set)
    fact_evidence: dict[str, list[str]] = field(default_factory=dict)

    @property
    def root_signal(self) -> str | None:
        rc = self.root_returncode
        return SIGNAL_NAMES.get(str(-rc), f"signal {-rc}") if rc is not None and rc < 0 else None


def _read(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from exc


def _json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def from_run_dir(run_dir: Path) -> LogSet:
    texts = []
    for path in sorted(run_dir.glob("rank*.log"), key=lambda p: int(p.stem[4:] or 0)):
        if path.stem[4:].isdigit():
            texts.append(LogText(RUN_LINE_HEAD.sub("", _read(path)), str(path),
                                 int(path.stem[4:])))
    logs = LogSet(texts, str(run_dir))
    summary = _json(run_dir / "summary.json")
    if summary is not None:
        logs.failed = summary.get("exit_code") not in (0, None) or summary.get("status") in (
            "failed", "hung", "launcher_died")
        logs.root_rank = summary.get("root_cause_rank")
        for rank in summary.get("ranks") or []:
            if not isinstance(rank, dict) or rank.get("global_rank") != logs.root_rank:
                continue
            if rank.get("state") == "stopped":
                continue  # safelaunch's own signal (a hang's teardown): not a cause
            returncode = rank.get("returncode")
            logs.root_returncode = returncode if isinstance(returncode, int) else None
            fact = {"oom": "oom_record", "not-oom": "sigkill_not_oom"}.get(
                str(rank.get("sigkill")))
            if fact:
                logs.facts.add(fact)
                logs.fact_evidence[fact] = [str(rank.get("sigkill_evidence") or "")]
        hang = summary.get("hang")
        if hang:
            logs.facts.add("hang")
            logs.fact_evidence["hang"] = list(hang.get("findings") or [])
            if hang.get("hint"):
                logs.facts.add("uneven_steps")
                logs.fact_evidence["uneven_steps"] = [
                    f for f in hang.get("findings") or [] if "differ" in f or "more DDP" in f]
    minimal = _json(run_dir / "minimal_test.json")
    if minimal is not None and minimal.get("passed") is False:
        logs.facts.add("minimal_test_failed")
        attempts = minimal.get("attempts") or [{}]
        logs.fact_evidence["minimal_test_failed"] = [
            f"minimal test ({minimal.get('backend')}): {attempts[0].get('first_failure')}"]
        logs.failed = True
    preflight = _json(run_dir / "preflight.json")
    for result in (preflight or {}).get("results", []):
        if result.get("name") == "/dev/shm" and result.get("status") in ("warn", "fail"):
            logs.facts.add("shm_small")
            logs.fact_evidence["shm_small"] = [result.get("message", "")]
    return logs


def from_text(text: str, source: str) -> LogSet:
    logs = LogSet([LogText(text, source, None)], source)
    blocks = list(ROOT_CAUSE_BLOCK.finditer(text))
    if blocks:
        match = blocks[-1]
        fields = dict(FIELD.findall(match.group("body")))
        rank = re.match(r"(\d+)", fields.get("rank", ""))
        code = re.match(r"(-?\d+)", fields.get("exitcode", ""))
        logs.root_rank = int(rank.group(1)) if rank else None
        logs.root_returncode = int(code.group(1)) if code else None
        logs.failed = True
    return logs


def load(target: str) -> LogSet:
    """A run directory, a log file, or ``-`` for stdin."""
    if target == "-":
        return from_text(sys.stdin.buffer.read().decode("utf-8", "replace"), "<stdin>")
    path = Path(target)
    if path.is_dir():
        if not any(path.glob("rank*.log")) and (path / "latest").is_dir():
            path = path / "latest"
        if not any(path.glob("rank*.log")) and not (path / "summary.json").exists():
            raise UsageError(f"{target} is not a safelaunch run directory (no rank*.log)")
        return from_run_dir(path)
    if not path.exists():
        raise UsageError(f"{target} does not exist")
    return from_text(_read(path), str(path))
