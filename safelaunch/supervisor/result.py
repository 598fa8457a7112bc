"""The outcome of a run, and the one rule that turns it into an honest exit code.

A rank's state comes from when it exited relative to the moment safelaunch began stopping the
job: before it, a non-zero exit is a real failure; after it, the rank was stopped by us.  The
root cause is the failed rank that exited first.  ``decide`` is pure and unit-tested.

    RankState:  running --exit 0--> succeeded
                running --exit != 0 before teardown--> failed
                running --exit after teardown began--> stopped
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any

from safelaunch import exit_codes
from safelaunch.exit_codes import signal_name


class RankState(str, Enum):
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    STOPPED = "stopped"
    RUNNING = "running"
    UNKNOWN = "unknown"
    """Only in the reaper's summary: the rank had not ended when the launcher died."""


class RunStatus(str, Enum):
    """A run's status in ``summary.json``: the verdict's four, and the reaper's own when
    safelaunch died before it could record the run."""

    SUCCEEDED = "succeeded"
    FAILED = "failed"
    INTERRUPTED = "interrupted"
    HUNG = "hung"
    LAUNCHER_DIED = "launcher_died"

    @property
    def failed(self) -> bool:
        return self in (RunStatus.FAILED, RunStatus.HUNG, RunStatus.LAUNCHER_DIED)


@dataclass(frozen=True)
class RankProgress:
    """How far a rank got, from its heartbeat record as the job ended."""

    runtime_loaded: bool
    """False: the rank never loaded safelaunch's runtime (not Python, or it died first)."""
    step: int = 0
    collectives: int = 0
    last_collective: str | None = None
    in_collective: bool = False
    process_group: str = "unknown"
    """never joined | joining | joined: where the rank got with init_process_group."""
    forward_passes: int = 0
    backward_passes: int = 0
    """Backward passes through a DDP model (each ends in DDP's gradient all_reduce)."""
    heartbeat_age_s: float | None = None
    """Seconds between the rank's last sign of progress and its exit (or the job's end)."""


@dataclass
class RankOutcome:
    global_rank: int
    local_rank: int
    pid: int
    state: RankState
    returncode: int | None
    """Exit code, or minus the signal number; None if it never exited."""
    runtime_s: float | None
    last_line: str = ""
    error: str | None = None
    """The exception message a rank recorded through torch's error file, if any."""
    root_cause: bool = False
    exited_at: float | None = field(default=None, repr=False)
    """Monotonic time of the exit, for ordering only."""
    progress: RankProgress | None = None
    sigkill: str | None = None
    """For a rank that failed of SIGKILL: oom | not-oom | unknown (see ``oom``)."""
    sigkill_evidence: str | None = None

    @property
    def exit_label(self) -> str:
        if self.returncode is None:
            return "still running" if self.state is RankState.RUNNING else "unknown"
        return returncode_label(self.returncode)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("exited_at")
        data["state"] = self.state.value
        data["exit"] = self.exit_label
        rc = self.returncode
        data["signal"] = signal_name(-rc) if rc is not None and rc < 0 else None
        return data


def rank_state(returncode: int | None, exited_at: float | None,
               signalled_at: float | None) -> RankState:
    """``signalled_at``: when safelaunch sent the rank its first signal (None: never).  Only a
    rank that exited after that is "stopped"; one that ended on its own first failed (or
    succeeded) on its own, however close to another rank's failure."""
    if returncode is None or exited_at is None:
        return RankState.RUNNING
    if signalled_at is not None and exited_at >= signalled_at:
        return RankState.STOPPED
    return RankState.SUCCEEDED if returncode == 0 else RankState.FAILED


def returncode_label(returncode: int) -> str:
    """``-9`` -> ``"SIGKILL"``, ``3`` -> ``"exit 3"``."""
    return signal_name(-returncode) if returncode < 0 else f"exit {returncode}"


def exit_code_for(returncode: int) -> int:
    """A rank's returncode as a shell exit code: N, or 128+S for signal S."""
    if returncode < 0:
        return exit_codes.for_signal(-returncode)
    return min(returncode, exit_codes.MAX)


@dataclass
class Decision:
    status: RunStatus
    exit_code: int
    reason: str
    root_cause: RankOutcome | None


def _describe_failure(rank: RankOutcome) -> str:
    rc = rank.returncode or 0
    if rc < 0:
        name = signal_name(-rc)
        if name == "SIGKILL" and rank.sigkill in ("oom", "not-oom"):
            what = ("the kernel's OOM killer" if rank.sigkill == "oom"
                    else "sent from outside safelaunch: no OOM record")
            return f"rank {rank.global_rank} was killed by SIGKILL ({what})"
        hint = {"SIGKILL": " (often the kernel's OOM killer)",
                "SIGSEGV": " (a crash in native code)",
                "SIGABRT": " (an abort, e.g. after an NCCL watchdog timeout)",
                "SIGBUS": " (often a too small /dev/shm)"}.get(name, "")
        return f"rank {rank.global_rank} was killed by {name}{hint}"
    return f"rank {rank.global_rank} exited with code {rc}"


def decide(ranks: list[RankOutcome], interrupted_by: int | None = None,
           engine_failed: bool = False, hang: str | None = None) -> Decision:
    """The run's status, exit code and reason from its ranks' outcomes (left unchanged: the
    root cause is returned, ``verdict`` marks it)."""
    failed = _failed_in_order(ranks)
    stopped = [r for r in ranks if r.state is RankState.STOPPED]
    stopped_note = (f"; {len(stopped)} other rank(s) stopped by safelaunch" if stopped else "")
    if failed:
        return _first_failure_decision(failed, stopped_note)
    if hang is not None:
        return Decision(RunStatus.HUNG, exit_codes.HANG, hang, None)
    if interrupted_by is not None:
        return Decision(
            RunStatus.INTERRUPTED, exit_codes.for_signal(interrupted_by),
            f"safelaunch received {signal_name(interrupted_by)} and stopped "
            f"{len(stopped)} running rank(s)", None)
    if engine_failed or any(r.state is not RankState.SUCCEEDED for r in ranks) or not ranks:
        return Decision(RunStatus.FAILED, exit_codes.FAILED,
                        "the worker group failed without a rank to blame" + stopped_note, None)
    return Decision(RunStatus.SUCCEEDED, exit_codes.SUCCESS,
                    f"all {len(ranks)} rank(s) succeeded", None)


def _failed_in_order(ranks: list[RankOutcome]) -> list[RankOutcome]:
    """The failed ranks, the first to exit first (ties by global rank, unknown times last)."""
    return sorted((r for r in ranks if r.state is RankState.FAILED),
                  key=lambda r: (r.exited_at if r.exited_at is not None else float("inf"),
                                 r.global_rank))


def _first_failure_decision(failed: list[RankOutcome], stopped_note: str) -> Decision:
    """FAILED with the first failed rank's code; that rank is the root cause."""
    root = failed[0]
    others = len(failed) - 1
    also = f"; {others} more rank(s) failed after it" if others else ""
    return Decision(RunStatus.FAILED, exit_code_for(root.returncode or exit_codes.FAILED),
                    f"{_describe_failure(root)} (first failure){also}{stopped_note}", root)


EXIT_TIE_S = 0.5
"""Exits this close count as simultaneous: a rank that leaves closes its sockets before its
interpreter has finished exiting, so the peer it broke can fail and exit first."""
PEER_GONE = re.compile(r"Connection (?:reset|closed) by peer|Broken pipe|ECONNRESET"
                       r"|remote process exited|peer (?:closed|disconnected)", re.IGNORECASE)


def _peer_went_away(rank: RankOutcome) -> bool:
    """The rank's failure reads as a peer leaving (gloo's connection errors)."""
    return any(PEER_GONE.search(text[:4096]) for text in (rank.last_line, rank.error or ""))


def early_exit_note(ranks: list[RankOutcome], root: RankOutcome | None) -> str | None:
    """Ranks that finished (exit 0) before the first failure while the others still ran: a
    rank that leaves a job early makes the others fail in their next collective (gloo:
    'Connection reset by peer'; NCCL: a timeout), so it is the likely trigger."""
    if root is None or root.exited_at is None:
        return None
    # exits this close are only linked when the failure says a peer went away
    window = EXIT_TIE_S if _peer_went_away(root) else -EXIT_TIE_S
    early = [r for r in ranks if r.state is RankState.SUCCEEDED and r.exited_at is not None
             and r.exited_at < root.exited_at + window]
    if not early:
        return None
    names = ", ".join(str(r.global_rank) for r in early)
    gap = root.exited_at - max(r.exited_at or 0.0 for r in early)
    when = (f"{gap:.1f}s before rank {root.global_rank} failed" if gap >= 0.05
            else f"as rank {root.global_rank} failed")
    return (f"note: rank(s) {names} exited with code 0 ({when}) "
            "while the others still ran: a rank that leaves early "
            "makes the others fail in their next collective; check why it stopped early "
            "(a different number of batches or epochs per rank, a condition on the rank, "
            "an early return)")


def solo_ranks_note(ranks: list[RankOutcome]) -> str | None:
    """Several ranks trained (optimizer steps) and none of them ever synchronised with the
    others: no process group, or one that no collective and no DDP forward pass ever used.
    Each trained alone (a framework fell back to one process, or the script never calls
    init_process_group).  None when that is not known to be so."""
    progress = [r.progress for r in ranks]
    known = [p for p in progress if p is not None and p.runtime_loaded and p.step > 0]
    if len(ranks) < 2 or len(known) != len(ranks):
        return None
    if all(p.process_group == "never joined" for p in known):
        how = "none joined a process group"
    elif all(p.collectives == 0 and p.forward_passes == 0 for p in known):
        how = ("none ran a collective or a DDP forward pass (a process group was formed, "
               "then never used)")
    else:
        return None
    return (f"note: {len(ranks)} ranks ran, {how}: each trained alone, on its own copy of "
            "the model. Likely causes: the script never wraps the model in "
            "DistributedDataParallel or calls init_process_group; or its framework fell back "
            "to one process (accelerate without a GPU needs ACCELERATE_USE_CPU=true or "
            "`accelerate launch --cpu`; Lightning needs Trainer(strategy='ddp', devices=N) "
            "with an accelerator this machine has).")


@dataclass
class RunOutcome:
    status: RunStatus
    exit_code: int
    reason: str
    run_id: str
    run_dir: str
    ranks: list[RankOutcome]
    root_cause_rank: int | None
    attempts: int
    duration_s: float
    started_at: float
    command: list[str]
    notes: list[str] = field(default_factory=list)
    hang: dict[str, Any] | None = None
    global_root: dict[str, Any] | None = None
    """Several nodes: the job's first failure as claimed in the shared view (any node)."""
    stragglers: list[dict[str, Any]] = field(default_factory=list)
    """Ranks named as stragglers while the job ran, with their evidence."""

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "exit_code": self.exit_code,
            "reason": self.reason,
            "root_cause_rank": self.root_cause_rank,
            "run_id": self.run_id,
            "run_dir": self.run_dir,
            "attempts": self.attempts,
            "duration_s": round(self.duration_s, 3),
            "started_at": self.started_at,
            "command": self.command,
            "ranks": [r.to_json() for r in self.ranks],
            "notes": self.notes,
            "hang": self.hang,
            "global_root": self.global_root,
            "stragglers": self.stragglers,
        }
