"""A run's ``summary.json`` as the diagnosis reads it: typed, every value checked.

The file is input like any log (it may come from another machine, an older safelaunch, or a
hand edit): a value of the wrong type is read as missing, never trusted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from safelaunch.supervisor.result import RunStatus

MAX_REASON_CHARS = 600
MAX_HOST_CHARS = 100
MAX_TEXT_CHARS = 2000
MAX_FINDING_RANKS = 64
FAILED_STATUSES = tuple(status.value for status in RunStatus if status.failed)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: object, limit: int) -> str | None:
    return value[:limit] if isinstance(value, str) else None


def _ranks(value: object) -> tuple[int, ...]:
    """A finding's ranks: the integers of a JSON list, at most ``MAX_FINDING_RANKS``."""
    if not isinstance(value, list):
        return ()
    return tuple(r for r in value[:MAX_FINDING_RANKS] if _int(r) is not None and r >= 0)


def dicts(value: object) -> list[dict[str, Any]]:
    """The objects of a JSON list (anything else: none)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


@dataclass(frozen=True)
class RankRecord:
    global_rank: int | None
    state: str | None
    returncode: int | None
    """Exit code, or minus the signal number."""
    sigkill: str | None
    """``oom`` or ``not-oom`` when the rank was SIGKILLed and the kernel log was read."""
    sigkill_evidence: str

    @classmethod
    def read(cls, data: dict[str, Any]) -> RankRecord:
        return cls(_int(data.get("global_rank")), _str(data.get("state"), 40),
                   _int(data.get("returncode")), _str(data.get("sigkill"), 40),
                   _str(data.get("sigkill_evidence"), MAX_REASON_CHARS) or "")


@dataclass(frozen=True)
class GlobalRoot:
    """The rank that failed first anywhere in a job of several nodes."""

    rank: int
    returncode: int | None
    host: str


@dataclass(frozen=True)
class HangFinding:
    kind: str
    text: str
    ranks: tuple[int, ...] = ()
    """The ranks the finding holds responsible (the flight recorder's culprits)."""


@dataclass(frozen=True)
class SummaryRecord:
    status: str | None
    exit_code: int | None
    reason: str | None
    root_cause_rank: int | None
    ranks: list[RankRecord] = field(default_factory=list)
    global_root: GlobalRoot | None = None
    hang_findings: list[HangFinding] | None = None
    """None when the run did not hang."""

    @property
    def failed(self) -> bool:
        return self.exit_code not in (0, None) or self.status in FAILED_STATUSES

    @property
    def root_record(self) -> RankRecord | None:
        if self.root_cause_rank is None:
            return None
        return next((r for r in self.ranks if r.global_rank == self.root_cause_rank), None)

    @classmethod
    def read(cls, data: dict[str, Any]) -> SummaryRecord:
        first = data.get("global_root")
        root = None
        if isinstance(first, dict) and (rank := _int(first.get("rank"))) is not None:
            root = GlobalRoot(rank, _int(first.get("returncode")),
                              _str(first.get("host"), MAX_HOST_CHARS) or "?")
        hang = data.get("hang")
        findings = None
        if isinstance(hang, dict):
            findings = [HangFinding(str(f.get("kind"))[:40], str(f.get("text"))[:MAX_TEXT_CHARS],
                                    _ranks(f.get("ranks")))
                        for f in dicts(hang.get("findings"))]
        return cls(_str(data.get("status"), 40), _int(data.get("exit_code")),
                   _str(data.get("reason"), MAX_REASON_CHARS),
                   _int(data.get("root_cause_rank")),
                   [RankRecord.read(rank) for rank in dicts(data.get("ranks"))], root, findings)
