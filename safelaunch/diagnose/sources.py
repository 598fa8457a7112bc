"""What a diagnosis reads: a safelaunch run directory, any log file, or stdin.

A run directory gives one text per global rank plus the facts safelaunch recorded (root-cause
rank and exit code, the hang analysis, pre-flight warnings).  Any other log is one text whose
lines are attributed to ranks by their prefixes, and whose launcher's failure report gives
the root cause (``launchers``).  Every file is read in bounded memory (``reading``), and
every value of a JSON file is checked before use: a file of the wrong shape is ignored.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from safelaunch.diagnose import launchers, nccl_trace, tracebacks
from safelaunch.diagnose.kb import Fact
from safelaunch.diagnose.reading import (
    Text,
    plain_punctuation,
    read_path,
    read_stream,
    shown,
    unwrapped,
    without_escapes,
)
from safelaunch.diagnose.summary import HangFinding, RankRecord, SummaryRecord, dicts
from safelaunch.errors import UsageError
from safelaunch.supervisor.collectives import TORCH_DUMP_DIRS, analyze_dumps, read_dumps
from safelaunch.supervisor.findings import FindingKind
from safelaunch.supervisor.hangs import UNEVEN_KINDS
from safelaunch.supervisor.result import PEER_GONE, RunStatus
from safelaunch.supervisor.rundir import fallback_summary

RUN_LINE_HEAD = re.compile(r"^\d{4}-\d\d-\d\dT[\d:.]+Z (?:out|err|---) ", re.MULTILINE)
RANK_LOG = re.compile(r"rank(\d{1,6})\.log")
SIGNAL_NAMES = {"1": "SIGHUP", "2": "SIGINT", "4": "SIGILL", "6": "SIGABRT", "7": "SIGBUS",
                "8": "SIGFPE", "9": "SIGKILL", "11": "SIGSEGV", "13": "SIGPIPE", "15": "SIGTERM"}
MAX_JSON_BYTES = 16 << 20
MAX_TAIL_CHARS = 64_000
EVENTS_EDGE_BYTES = 64 << 10
"""How far back from the end of the root rank's log a lost peer counts."""


@dataclass
class LogText:
    body: Text
    path: str
    rank: int | None
    """The rank of every line, or None when lines carry their own prefix."""
    labels: bool = False
    """Lines start with ``srun --label``'s task number."""
    joined: bool = False
    """A reading with its wrapped lines joined again (``reading.unwrapped``): a line of it may
    hold several of the log's."""

    @property
    def text(self) -> str:
        return self.body.text


@dataclass
class LogSet:
    texts: list[LogText]
    source: str
    root_rank: int | None = None
    root_returncode: int | None = None
    """Exit code, or minus the signal number."""
    failed: bool | None = None
    """From safelaunch's summary or a launcher's report; None when nothing says."""
    facts: set[Fact] = field(default_factory=set)
    fact_evidence: dict[Fact, list[str]] = field(default_factory=dict)
    fact_ranks: dict[Fact, tuple[int, ...]] = field(default_factory=dict)
    """The ranks a fact names as responsible, where it names any (the flight recorder's rank
    that never entered a collective, which need not be the rank that failed first)."""
    fact_file: str = "summary.json"
    """Where the facts were read: a run directory's summary, or the pasted log itself."""

    @property
    def failing(self) -> bool:
        """A failure is known: from the summary or a launcher's report, or a bad exit code."""
        return bool(self.failed) or self.root_returncode not in (0, None)

    @property
    def root_signal(self) -> str | None:
        rc = self.root_returncode
        return SIGNAL_NAMES.get(str(-rc), f"signal {-rc}") if rc is not None and rc < 0 else None

    def add_fact(self, fact: Fact, evidence: list[str], ranks: tuple[int, ...] = ()) -> None:
        self.facts.add(fact)
        self.fact_evidence[fact] = [text for text in evidence if text][:5]
        if ranks:
            self.fact_ranks[fact] = ranks


def _json(path: Path) -> dict[str, Any] | None:
    try:
        if not path.is_file() or path.stat().st_size > MAX_JSON_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def rank_logs(run_dir: Path) -> list[tuple[int, Path]]:
    """The run directory's ``rankN.log`` files; anything else in it is ignored."""
    try:
        names = sorted(path.name for path in run_dir.iterdir())
    except OSError as exc:
        raise UsageError(f"cannot read {run_dir}: {exc.strerror}") from exc
    found = []
    for name in names:
        match = RANK_LOG.fullmatch(name)
        if match and (run_dir / name).is_file():
            found.append((int(match.group(1)), run_dir / name))
    return sorted(found)


def from_run_dir(run_dir: Path, run_id: str | None = None,
                 summary: dict[str, Any] | None = None) -> LogSet:
    """A run directory's logs and records.  ``summary``: the run's summary where the caller
    holds it (the run that just ended), else ``summary.json``, else the one safelaunch put
    where ``fallback_summary`` finds it (a full disk, a deleted directory)."""
    if not run_dir.is_dir() and (
            gone := _from_summary_alone(run_dir, run_id, summary)) is not None:
        return gone
    logs = LogSet(_rank_texts(run_dir), str(run_dir))
    if summary is None:
        summary = _stored_summary(run_dir, run_id)
    if summary is not None:
        _read_summary(logs, summary)
    if summary is None or not isinstance(summary.get("status"), str):
        _failure_from_rank_logs(logs)
        _unfinished_record(logs, run_dir / "events.jsonl")
    _flight_recorder(logs, run_dir, summary)
    _minimal_test_fact(logs, _json(run_dir / "minimal_test.json"))
    _preflight_facts(logs, _json(run_dir / "preflight.json"))
    _exit_fact(logs)
    _lost_peer_fact(logs)
    _raised_then_aborted_fact(logs)
    return logs


def _from_summary_alone(run_dir: Path, run_id: str | None,
                        summary: dict[str, Any] | None) -> LogSet | None:
    """A run directory that is gone: what its summary says, if one is known."""
    if summary is None and (elsewhere := fallback_summary(run_dir, run_id)) is not None:
        summary = _json(elsewhere) or {}
    if summary is None:
        return None
    logs = LogSet([], str(run_dir))
    _read_summary(logs, summary)
    _exit_fact(logs)
    return logs


def _rank_texts(run_dir: Path) -> list[LogText]:
    """Each rank's log, without the console's timestamp and stream heads."""
    texts = []
    for rank, path in rank_logs(run_dir):
        body = read_path(path)
        body.text = RUN_LINE_HEAD.sub("", body.text)
        texts.append(LogText(body, str(path), rank))
    return texts


def _stored_summary(run_dir: Path, run_id: str | None) -> dict[str, Any] | None:
    """``summary.json``, else the summary that had to be written elsewhere."""
    summary = _json(run_dir / "summary.json")
    if summary is None and (elsewhere := fallback_summary(run_dir, run_id)) is not None:
        summary = _json(elsewhere)
    return summary


def _minimal_test_fact(logs: LogSet, minimal: dict[str, Any] | None) -> None:
    if minimal is not None and minimal.get("passed") is False:
        first = (dicts(minimal.get("attempts")) or [{}])[0]
        logs.add_fact(Fact.MINIMAL_TEST_FAILED, [
            f"minimal test ({minimal.get('backend')}): {first.get('first_failure')}"])
        logs.failed = True


def _preflight_facts(logs: LogSet, preflight: dict[str, Any] | None) -> None:
    """A small ``/dev/shm``; failed checks, when no rank ever wrote a line."""
    results = dicts((preflight or {}).get("results"))
    for result in results:
        if result.get("name") == "/dev/shm" and result.get("status") in ("warn", "fail"):
            logs.add_fact(Fact.SHM_SMALL, [str(result.get("message", ""))])
    failed_checks = [_failed_check(r) for r in results if r.get("status") == "fail"]
    if failed_checks and not logs.texts:
        logs.add_fact(Fact.PREFLIGHT_FAILED, failed_checks)
        logs.failed = True


def _failed_check(result: dict[str, Any]) -> str:
    return (f"{result.get('name')}: {result.get('message')}"
            + (f" -> {result.get('advice')}" if result.get("advice") else ""))


def _failure_from_rank_logs(logs: LogSet) -> None:
    """No usable summary (the launcher and its reaper killed together, a damaged file): the
    rank logs alone say whether a rank failed, as a plain log file would."""
    for log in logs.texts:
        report = launchers.root_cause(log.text)
        if report.failed:
            logs.failed = True
            if logs.root_rank is None:
                logs.root_rank = log.rank
            return


def _unfinished_record(logs: LogSet, events: Path) -> None:
    """The launcher's events began a run and never finished it, and nothing wrote a summary:
    safelaunch was killed together with its reaper (or the machine went down)."""
    try:
        if not events.is_file():  # never a FIFO or a device
            return
        with open(events, "rb") as fh:
            head = fh.read(EVENTS_EDGE_BYTES)
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - EVENTS_EDGE_BYTES))
            tail = fh.read(EVENTS_EDGE_BYTES)
    except OSError:
        return
    if b'"event": "run_started"' in head and b'"event": "run_finished"' not in tail:
        logs.failed = True
        logs.add_fact(Fact.LAUNCHER_DIED, [
            "events.jsonl shows a run that started and never finished, and there is no "
            "summary.json: safelaunch and its reaper were killed (or the machine stopped)"])


def _root_tail(logs: LogSet) -> tuple[LogText | None, str]:
    """The root-cause rank's own log and its last ``MAX_TAIL_CHARS`` ("" without one); in a
    pasted log of every rank, the lines there that carry the root's rank tag."""
    own = next((log for log in logs.texts if log.rank == logs.root_rank), None)
    if own is not None:
        return own, own.text[-MAX_TAIL_CHARS:]
    pasted = next((log for log in logs.texts if log.rank is None), None)
    if pasted is None or logs.root_rank is None:
        return None, ""
    tagged = (launchers.strip_prefixes(line, pasted.labels)
              for line in pasted.text[-MAX_TAIL_CHARS:].splitlines())
    return pasted, "\n".join(line for rank, line in tagged if rank == logs.root_rank)


def _lost_peer_fact(logs: LogSet) -> None:
    """The root-cause rank's own log says it lost a peer: it is a witness of a failure no
    rank here reported (another node's launcher or host went away)."""
    if logs.root_rank is None or Fact.REMOTE_ROOT in logs.facts:
        return
    _, text = _root_tail(logs)
    found = PEER_GONE.search(text)
    if found is not None:
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.end())
        logs.add_fact(Fact.ROOT_LOST_PEER, [text[start:end if end >= 0 else None][:300]])


ABORT_LINE = re.compile(r"^[^\n]{0,40}?terminate called (?:without an active exception|after "
                        r"throwing an instance of)", re.MULTILINE)
RAISED_BEFORE_ABORT_LINES = 8
"""At most this many lines from the exception line to the abort: nothing ran in between."""


def _raised_then_aborted_fact(logs: LogSet) -> None:
    """The root-cause rank raised a Python exception and aborted on its way out (gloo's
    threads torn down with the process group alive, a C++ exception at exit): the exception
    is the cause, the abort (SIGABRT, exit 134) its echo.  Seen for real when both ranks of a
    gloo job raise at once: either may abort in the teardown, depending on which exits first."""
    if logs.root_signal != "SIGABRT" or logs.root_rank is None:
        return
    own, text = _root_tail(logs)
    abort = ABORT_LINE.search(text)
    if own is None or abort is None:
        return
    raised = tracebacks.find(text[:abort.start()], own.labels)
    if raised and text.count("\n", raised[-1].offset, abort.start()) <= RAISED_BEFORE_ABORT_LINES:
        logs.add_fact(Fact.ROOT_RAISED, [f"rank {logs.root_rank} raised "
                                         f"{raised[-1].exception[:200]}, then aborted on its "
                                         "way out"])


def _read_summary(logs: LogSet, data: dict[str, Any]) -> None:
    summary = SummaryRecord.read(data)
    logs.failed = summary.failed
    logs.root_rank = summary.root_cause_rank
    _status_facts(logs, summary)
    _root_record_facts(logs, summary.root_record)
    _no_other_failures_fact(logs, summary)
    _remote_root_fact(logs, summary)
    if summary.hang_findings is not None:
        _hang_facts(logs, summary.hang_findings)


def _status_facts(logs: LogSet, summary: SummaryRecord) -> None:
    """The launcher died, or the job failed before any rank started."""
    if summary.status == RunStatus.LAUNCHER_DIED.value:
        logs.add_fact(Fact.LAUNCHER_DIED, [summary.reason or ""])
    elif logs.failed and not summary.ranks and summary.reason:
        logs.add_fact(Fact.NOT_STARTED, [summary.reason])


def _root_record_facts(logs: LogSet, root: RankRecord | None) -> None:
    """The root rank's exit, and whether the kernel's OOM killer sent its SIGKILL."""
    if root is None or root.state == "stopped":  # stopped: safelaunch's own signal
        return
    logs.root_returncode = root.returncode
    fact = {"oom": Fact.OOM_RECORD, "not-oom": Fact.SIGKILL_NOT_OOM}.get(str(root.sigkill))
    if fact:
        logs.add_fact(fact, [root.sigkill_evidence])


def _no_other_failures_fact(logs: LogSet, summary: SummaryRecord) -> None:
    """No rank of this node failed but the root cause, and one ended well (exit 0); the
    others safelaunch stopped after it (only stopped ones: they may have lost a peer of
    another node too)."""
    root = summary.root_record
    others = [rank for rank in summary.ranks if rank is not root]
    ended = [str(rank.global_rank) for rank in others if rank.state == "succeeded"]
    if root is None or not ended or any(rank.state == "failed" for rank in others):
        return
    logs.add_fact(Fact.NO_OTHER_FAILURES, [
        f"safelaunch's summary: no rank failed but the root cause; rank(s) "
        f"{', '.join(ended[:8])} exited with code 0"])


def _remote_root_fact(logs: LogSet, summary: SummaryRecord) -> None:
    """A rank on another node failed first: it is the root cause."""
    first = summary.global_root
    if first is None or first.rank in {rank.global_rank for rank in summary.ranks}:
        return
    logs.root_rank, logs.root_returncode = first.rank, first.returncode
    label = logs.root_signal or f"exit {first.returncode}"
    logs.add_fact(Fact.REMOTE_ROOT, [
        f"global rank {first.rank} on {first.host} failed first ({label}); its log is in "
        "that node's run directory"])


def _hang_facts(logs: LogSet, findings: list[HangFinding]) -> None:
    logs.add_fact(Fact.HANG, [f.text for f in findings if f.kind != "no_progress"]
                  or [f.text for f in findings])
    uneven = [f.text for f in findings if f.kind in UNEVEN_KINDS]
    if uneven:
        logs.add_fact(Fact.UNEVEN_STEPS, uneven)
    _naming_facts(logs, [(f.kind, f.text, f.ranks) for f in findings])


NAMING_FACTS = (FindingKind.COLLECTIVE_DESYNC, FindingKind.COLLECTIVE_NOT_ENTERED,
                FindingKind.GPU_WAIT)
"""Hang findings that are facts of their own, with the ranks they name."""


def _naming_facts(logs: LogSet, findings: list[tuple[str, str, Sequence[int]]]) -> None:
    for kind in NAMING_FACTS:
        texts = [text for k, text, _ in findings if k == kind]
        ranks = sorted({r for k, _, named in findings if k == kind for r in named})
        if texts:
            logs.add_fact(Fact(kind.value), texts, tuple(ranks))


def _flight_recorder(logs: LogSet, run_dir: Path, summary: dict[str, Any] | None) -> None:
    """The flight-recorder dumps of the run directory where no hang analysis read them
    (torch's NCCL watchdog dumps on a collective timeout; an older safelaunch)."""
    if summary is not None and SummaryRecord.read(summary).hang_findings is not None:
        return
    for name in TORCH_DUMP_DIRS:
        dumps = read_dumps(run_dir / name)
        if dumps:
            report = analyze_dumps(dumps, {})
            _naming_facts(logs, [(f.kind, f.text, f.ranks) for f in report.findings])
            return


def _exit_fact(logs: LogSet) -> None:
    code = logs.root_returncode
    if code is not None and code > 0:
        logs.add_fact(Fact.EXITED_NONZERO, [f"rank {logs.root_rank} exited with code {code}"
                                         if logs.root_rank is not None
                                         else f"exit code {code}"])


TEXT_FACT_EVIDENCE = {
    Fact.SIGKILL_NOT_OOM: "the summary says: no OOM record in the kernel log or the cgroup",
    Fact.OOM_RECORD: "the log quotes the kernel's or the cgroup's OOM record (an OOM kill)",
    Fact.SRUN_ENDED_STEP: "srun ended the step itself after a task failed (Terminating StepId)",
    Fact.NO_OTHER_FAILURES: "the launcher's report: no rank of this node failed but the root "
                            "cause (torchrun's Failures: <NO_OTHER_FAILURES>, safelaunch's "
                            "summary table)",
}
"""What a fact read from a pasted log rests on (``launchers.root_cause``)."""


def from_text(text: str, source: str) -> LogSet:
    return from_body(shown(plain_punctuation(without_escapes(text))), source)


def from_body(body: Text, source: str) -> LogSet:
    labels = launchers.label_style(body.text)
    logs = LogSet([LogText(body, source, None, labels)], source, fact_file=source)
    report = launchers.root_cause(body.text)
    if report.rank is None and report.returncode is None and (joined := unwrapped(body)):
        rejoined = launchers.root_cause(joined.text)  # a report a terminal wrapped
        # what the log's own lines showed stays (a "Killed" line the join glued to another)
        report.rank, report.returncode = rejoined.rank, rejoined.returncode
        report.failed = report.failed or rejoined.failed
        report.facts |= rejoined.facts
    logs.root_rank, logs.root_returncode = report.rank, report.returncode
    logs.failed = True if report.failed else None
    for fact in report.facts:
        logs.add_fact(fact, [TEXT_FACT_EVIDENCE[fact]])
    if desynced := nccl_trace.desyncs(body.text) + nccl_trace.watchdog_desyncs(body.text):
        logs.add_fact(Fact.COLLECTIVE_DESYNC, desynced)
    _exit_fact(logs)
    _lost_peer_fact(logs)
    return logs


def load(target: str) -> LogSet:
    """A run directory, a log file, or ``-`` for stdin."""
    if target == "-":
        return from_body(read_stream(sys.stdin.buffer), "<stdin>")
    path = Path(target)
    if path.is_dir():
        if not rank_logs(path) and (path / "latest").is_dir():
            path = path / "latest"
        if not rank_logs(path) and not (path / "summary.json").is_file():
            raise UsageError(f"{target} is not a safelaunch run directory (no rank*.log)")
        return from_run_dir(path)
    if not path.exists():
        raise UsageError(f"{target} does not exist")
    return from_body(read_path(path), str(path))
