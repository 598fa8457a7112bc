"""The run's verdict: a pure function of what the supervisor observed.

Observe, then decide.  When the job has ended, the supervisor describes what happened in one
frozen ``Observation`` (each rank's exit with its time and signal, the hang report, a signal
safelaunch received, an error that stopped the launch, the time limit, the first failure
another node claimed, whether torch's engine succeeded); ``verdict`` turns it into the
``RunOutcome``: status, exit code, reason, root cause, notes.  Nothing here reads a live
object or changes its input, so every outcome is tested by building observations in memory
(``tests/supervisor/test_verdict.py``).

Precedence, first that applies:

    a rank failed on its own        -> FAILED, its code (the first to fail is the root cause)
    a hang was found                -> HUNG, 124
    safelaunch received a signal    -> INTERRUPTED, 128 + signal
    an error stopped the launch     -> its own code (125 start, 2 usage, ...)
    the engine failed, a rank lost  -> FAILED, 1
    otherwise                       -> SUCCEEDED, 0

and, on a job of several nodes, a failure another node claimed first (no hang, no signal
here) makes this node report that rank and its code.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from safelaunch.supervisor.hangs import HangReport
from safelaunch.supervisor.jobview import Failure
from safelaunch.supervisor.result import (
    RankOutcome,
    RunOutcome,
    RunStatus,
    decide,
    early_exit_note,
    exit_code_for,
    returncode_label,
    solo_ranks_note,
)


@dataclass(frozen=True)
class LaunchError:
    """An error of safelaunch's own that ended the launch (its exit code and message)."""

    exit_code: int
    message: str


@dataclass(frozen=True)
class Observation:
    """Everything the verdict depends on, collected once as the job ends."""

    run_id: str
    run_dir: str
    command: tuple[str, ...]
    started_at: float
    duration_s: float
    attempts: int
    ranks: tuple[RankOutcome, ...]
    engine_succeeded: bool = False
    signal_received: int | None = None
    error: LaunchError | None = None
    hang: HangReport | None = None
    deadline_s: float | None = None
    """Set when the job was stopped by its time limit (``deadline_s`` of the config)."""
    first_failure: Failure | None = None
    """Several nodes: the first failure claimed in the shared view (any node)."""
    first_failure_remote: bool = False
    """Whether that failure is another node's."""
    stragglers: tuple[dict[str, object], ...] = ()
    """Every straggler the monitor named while the job ran (``stragglers.Straggler``)."""


def hang_reason(report: HangReport) -> str:
    who = ", ".join(str(r) for r in report.culprits)
    return f"hang: rank(s) {who} held up the job (see the hang analysis); safelaunch stopped it"


@dataclass(frozen=True)
class _Call:
    """The verdict before it is written out as a ``RunOutcome``."""

    status: RunStatus
    exit_code: int
    reason: str
    root: RankOutcome | None
    """The rank that failed first on this node, if that is the root cause."""
    root_rank: int | None = None
    note: str | None = None


def verdict(seen: Observation) -> RunOutcome:
    """The outcome of the run that ``seen`` describes."""
    ranks = list(seen.ranks)
    call = _this_nodes_call(seen, ranks)
    call = replace(call, root_rank=_root_rank(seen, call.root), note=_note(seen, ranks, call))
    call = _blame_another_nodes_first_failure(seen, call)
    first = seen.first_failure
    marked = [replace(r, root_cause=call.root is not None and r is call.root) for r in ranks]
    return RunOutcome(
        status=call.status, exit_code=call.exit_code, reason=call.reason, run_id=seen.run_id,
        run_dir=seen.run_dir, ranks=marked,
        hang=seen.hang.to_json() if seen.hang is not None else None,
        root_cause_rank=call.root_rank, attempts=seen.attempts, duration_s=seen.duration_s,
        started_at=seen.started_at, command=list(seen.command),
        notes=[call.note] if call.note else [],
        global_root=first.to_json() if first is not None else None,
        stragglers=[dict(s) for s in seen.stragglers],
    )


def _this_nodes_call(seen: Observation, ranks: list[RankOutcome]) -> _Call:
    """Status, code, reason and root cause from what this node saw (its ranks, its hang
    report, a signal, its own launch error, the time limit)."""
    if seen.error is not None and not ranks:
        return _Call(RunStatus.FAILED, seen.error.exit_code, seen.error.message, None)
    decision = decide(ranks, interrupted_by=seen.signal_received,
                      engine_failed=not seen.engine_succeeded,
                      hang=hang_reason(seen.hang) if seen.hang is not None else None)
    code, reason, root = decision.exit_code, decision.reason, decision.root_cause
    if seen.error is not None and root is None and seen.hang is None:
        code, reason = seen.error.exit_code, seen.error.message
    elif seen.deadline_s is not None and root is None:
        reason = f"stopped after the {seen.deadline_s:g}s time limit"
    return _Call(decision.status, code, reason, root)


def _note(seen: Observation, ranks: list[RankOutcome], call: _Call) -> str | None:
    if seen.error is not None and seen.hang is not None:
        # stopping a hung job can make torch's engine fail (another node took the
        # rendezvous store with it): the hang stays the verdict
        return f"while the hung job was being stopped, torch's engine failed: {seen.error.message}"
    if call.status is RunStatus.SUCCEEDED:
        return solo_ranks_note(ranks)
    return early_exit_note(ranks, call.root)


def _root_rank(seen: Observation, root: RankOutcome | None) -> int | None:
    """The root cause's global rank; else the culprit of a hang, when there is only one."""
    if root is not None:
        return root.global_rank
    culprits = seen.hang.culprits if seen.hang is not None else []
    return culprits[0] if len(culprits) == 1 else None


def _blame_another_nodes_first_failure(seen: Observation, call: _Call) -> _Call:
    """Several nodes: when another node's rank failed first (and this node neither hung nor
    got a signal), every node names that rank and exits with its code."""
    first = seen.first_failure
    if (first is None or not seen.first_failure_remote or call.status is RunStatus.SUCCEEDED
            or seen.signal_received is not None or seen.hang is not None):
        return call
    reason = (f"global rank {first.rank} on {first.host} failed first "
              f"({returncode_label(first.returncode)}); this node's ranks failed or were "
              "stopped after it")
    return _Call(RunStatus.FAILED, exit_code_for(first.returncode), reason, root=None,
                 root_rank=first.rank, note=None)
