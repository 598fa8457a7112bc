"""Deciding that a job hangs, and who is at fault.  Pure: tested by replaying readings.

A rank progresses when it steps (an optimizer step or ``safelaunch.heartbeat``), finishes a
collective, runs a DDP forward pass, finishes ``init_process_group`` or leaves a phase.
A rank *stalls* when, since its last progress, more time passed than its current limit:

- before its first step (or DDP pass, or a loop's worth of completed collectives: a loop
  with no optimizer is past start-up too): ``--startup-timeout`` from the rank's start
  (imports, rendezvous, data loading);
- inside ``safelaunch.phase(name, timeout)``: that phase's own timeout;
- otherwise ``--hang-timeout``; in ``auto`` mode, after a warm-up of a few steps, a safety
  factor times the longest step interval seen so far, never below a floor (before the
  warm-up ends the startup timeout still applies).

A rank left alone (every other rank exited 0) that is neither inside a collective nor ahead
in DDP forward passes is doing rank-0-only work, not waiting: it gets the startup timeout.

When a rank stalls, ``analyze`` names the culprits, most specific rule first: a rank that is
stopped or exited while the others wait for it; what torch's flight recorder shows (a desync,
the ranks that never entered the collective the others wait in); a rank outside any
collective while others wait in one; a rank that never reached ``init_process_group``; the
rank(s) behind in a collective mismatch; the rank(s) behind in DDP forward passes; else every
stalled rank.  The stacks overrule the counters' guesses, never the recorder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from safelaunch.plan import HangPolicy
from safelaunch.runtime.beatfile import EXIT_PHASE, INIT_DONE, INIT_ENTERED, Snapshot
from safelaunch.supervisor.collectives import CollectiveReport
from safelaunch.supervisor.findings import OBSERVATIONS, FindingKind, HangFinding

UNEVEN_HINT = ("ranks ran different numbers of steps: usually an uneven number of batches per "
               "rank. Use DistributedSampler(dataset, drop_last=True) (and drop_last=True in "
               "the DataLoader), or make every rank run the same number of steps.")


class StepIntervals:
    """The longest interval between two steps of any rank, after each rank's warm-up."""

    def __init__(self, warmup_steps: int) -> None:
        self._warmup = warmup_steps
        self._last: dict[int, tuple[int, float]] = {}
        self.longest: float | None = None

    def observe(self, rank: int, step: int, step_time: float) -> None:
        last = self._last.get(rank)
        if (last is not None and step > last[0] and step_time > last[1]
                and last[0] >= self._warmup):
            interval = (step_time - last[1]) / (step - last[0])
            if self.longest is None or interval > self.longest:
                self.longest = interval
        if last is None or step != last[0]:
            self._last[rank] = (step, step_time)

    def reset(self) -> None:
        self._last.clear()


def step_limit(policy: HangPolicy, longest: float | None) -> float | None:
    """The hang limit once warmed up; None while auto mode is still warming up."""
    if policy.hang_timeout is not None:
        return policy.hang_timeout
    if longest is None:
        return None
    return max(policy.floor, policy.factor * longest)


@dataclass
class RankView:
    """What the launcher knows of one rank at the moment of a check."""

    rank: int
    alive: bool
    started_at: float
    beat: Snapshot | None = None
    exit_code: int | None = None

    @property
    def step(self) -> int:
        return self.beat.step if self.beat else 0

    @property
    def in_collective(self) -> bool:
        return bool(self.beat and self.beat.in_coll)

    def last_progress(self) -> float:
        """The rank's last beat, or its start before its first one: a record read between
        the rank's two stores of its first beat has a count and no time yet (each field is
        stored on its own), which is no beat."""
        if self.beat is None or self.beat.beats == 0 or self.beat.beat_time <= 0.0:
            return self.started_at
        return self.beat.beat_time

    def describe(self) -> str:
        beat = self.beat
        if not self.alive:
            return f"rank {self.rank} exited ({self.exit_code}) at step {self.step}"
        if beat is None or not beat.started:
            return f"rank {self.rank} has not loaded the safelaunch runtime"
        if beat.init_state == INIT_ENTERED:
            return f"rank {self.rank} is inside init_process_group"
        where = (f"in {beat.coll_name} #{beat.coll_count} (issued at step {beat.coll_step})"
                 if beat.in_coll else
                 f"not in a collective (last: {beat.coll_name or 'none'} #{beat.coll_count})")
        phase = f", in phase '{beat.phase_name}'" if beat.phase_name else ""
        return f"rank {self.rank} at step {beat.step}, {where}{phase}"


LOOP_COLLECTIVES = 3
"""Collectives a rank must have completed to be past start-up without an optimizer step: a
loop (evaluation, inference, a custom update rule) has done several; a setup has done one or
two (a barrier while rank 0 downloads, DDP's parameter broadcast)."""


def past_startup(beat: Snapshot) -> bool:
    """Whether a rank is training: it stepped, ran a DDP pass, or completed a loop's worth
    of collectives after joining its group.  Before that only ``--startup-timeout`` applies."""
    completed = beat.coll_count - (1 if beat.in_coll else 0)
    return (beat.step > 0 or beat.forwards > 0 or beat.backwards > 0
            or (beat.init_state == INIT_DONE and completed >= LOOP_COLLECTIVES))


def rank_limit(view: RankView, policy: HangPolicy, warm_limit: float | None,
               others_done: bool) -> tuple[float, str]:
    """(seconds allowed since the rank's last progress, what that limit is)."""
    beat = view.beat
    if beat is not None and beat.phase_name == EXIT_PHASE:
        return max(beat.phase_timeout, warm_limit or 0.0), "exit timeout (the script had ended)"
    if beat is not None and beat.phase_name:
        return beat.phase_timeout, f"phase '{beat.phase_name}' timeout"
    if beat is None or not past_startup(beat) or warm_limit is None:
        return policy.startup_timeout, "startup timeout"
    if others_done and not beat.in_coll:
        return policy.startup_timeout, "startup timeout (the other ranks have finished)"
    return warm_limit, "hang timeout"


def _silent_since(view: RankView) -> float:
    """Since when the rank has been silent: a phase counts from its start, the exit phase
    from its start or the rank's last progress (a thread of the script may still work)."""
    beat = view.beat
    if beat is None or not beat.phase_name:
        return view.last_progress()
    if beat.phase_name == EXIT_PHASE:
        return max(beat.phase_start, view.last_progress())
    return beat.phase_start


@dataclass
class Stall:
    rank: int
    silent_s: float
    limit_s: float
    limit_name: str


def find_stalls(views: list[RankView], policy: HangPolicy, warm_limit: float | None,
                now: float, not_before: float = float("-inf")) -> list[Stall]:
    """``not_before``: silence before this moment does not count (the launcher was paused)."""
    alive = [v for v in views if v.alive]
    exited_ok = [v for v in views if not v.alive and v.exit_code == 0]
    most_forwards = max((v.beat.forwards for v in exited_ok if v.beat), default=0)
    stalls = []
    for view in alive:
        others_done = len(alive) == 1 and bool(exited_ok)
        if others_done and view.beat is not None and view.beat.forwards > most_forwards > 0:
            others_done = False  # it ran a DDP forward the others never ran: it waits in backward
        limit, name = rank_limit(view, policy, warm_limit, others_done)
        silent = now - max(_silent_since(view), not_before)
        if silent > limit:
            stalls.append(Stall(view.rank, silent, limit, name))
    return stalls


UNEVEN_KINDS = (FindingKind.DDP_FORWARDS_AHEAD, FindingKind.WORK_DIFFERS)


@dataclass
class HangReport:
    stalled: list[int]
    culprits: list[int]
    findings: list[HangFinding]
    hint: str | None
    ranks: list[str]
    stacks: dict[int, list[str]] = field(default_factory=dict)
    stack_method: str = ""
    stack_files: dict[int, str] = field(default_factory=dict)
    stack_missing: dict[int, str] = field(default_factory=dict)
    """Ranks whose stack could not be read, and why."""
    native_stack_files: dict[int, str] = field(default_factory=dict)
    """Dumps with C/C++ frames (py-spy --native), where py-spy could pause the rank."""
    native_stack_missing: dict[int, str] = field(default_factory=dict)
    """Ranks with a Python stack but no native dump, and why."""
    stack_hosts: dict[int, str] = field(default_factory=dict)
    """Ranks of other nodes whose top frames are in ``stacks``, and their host (the whole
    dump stays in that node's run directory)."""
    collectives: dict[str, Any] | None = None
    """What torch's flight recorder showed (``CollectiveReport.to_json``), where it could."""
    flight_recorder_files: dict[int, str] = field(default_factory=dict)
    flight_recorder_missing: dict[int, str] = field(default_factory=dict)
    """Ranks without a flight-recorder dump, and why."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def headline(self) -> str:
        who = ", ".join(str(r) for r in self.culprits) or "?"
        return f"hang detected: rank(s) {who} at fault"


@dataclass
class Verdict:
    culprits: list[RankView]
    findings: list[HangFinding]
    uneven: bool = False


@dataclass
class Evidence:
    """Everything known at the moment of a hang, split the ways the rules need it."""

    views: list[RankView]
    states: dict[int, str]
    places: dict[int, tuple[str, str]]
    alive: list[RankView] = field(init=False)
    waiting: list[RankView] = field(init=False)
    outside: list[RankView] = field(init=False)
    exited: list[RankView] = field(init=False)

    def __post_init__(self) -> None:
        self.alive = [v for v in self.views if v.alive]
        self.waiting = [v for v in self.alive if v.in_collective]
        self.outside = [v for v in self.alive if not v.in_collective]
        self.exited = [v for v in self.views if not v.alive]


def _finding(kind: FindingKind, ranks: list[RankView], text: str) -> HangFinding:
    return HangFinding(kind, sorted(v.rank for v in ranks), text)


def _names(ranks: list[RankView]) -> str:
    return ", ".join(str(v.rank) for v in ranks)


def _forwards(view: RankView) -> int:
    return view.beat.forwards if view.beat else 0


def _backwards(view: RankView) -> int:
    return view.beat.backwards if view.beat else 0


def _counts(views: list[RankView]) -> str:
    return ", ".join(f"rank {v.rank}: {v.step} steps, {_forwards(v)} DDP forwards, "
                     f"{_backwards(v)} DDP backwards, "
                     f"{v.beat.coll_count if v.beat else 0} collectives" for v in views)


STATE_WORDS = {"T": "stopped (state T: SIGSTOP, Ctrl-Z, a paused container or a debugger)",
               "t": "stopped by a debugger (state t)",
               "D": "in uninterruptible sleep (state D: blocked in the kernel, usually on I/O "
                    "such as a network filesystem or a failing disk)",
               "Z": "a zombie (state Z: it has exited and was not reaped yet)"}


def process_letter(status: str | None) -> str | None:
    """psutil's status word as the kernel's one-letter process state (T, t, D, Z...)."""
    return {"stopped": "T", "tracing-stop": "t", "disk-sleep": "D", "zombie": "Z",
            "running": "R", "sleeping": "S", "idle": "I"}.get(status or "")


def _state_rule(ev: Evidence) -> Verdict | None:
    """Ranks that cannot progress whatever the others do: stopped, stuck in the kernel, or
    dead but not reaped; the evidence is the kernel's own process state."""
    for letters in (("T", "t"), ("Z",), ("D",)):
        stuck = [v for v in ev.alive if ev.states.get(v.rank) in letters]
        if stuck and len(stuck) < len(ev.alive):
            word = STATE_WORDS[ev.states[stuck[0].rank]]
            one = len(stuck) == 1
            return Verdict(stuck, [_finding(
                FindingKind.PROCESS_STATE, stuck,
                f"{'rank' if one else 'ranks'} {_names(stuck)} {'is' if one else 'are'} "
                f"{word}; the other rank(s) wait for {'it' if one else 'them'}")])
    return None


def _exited_rule(ev: Evidence) -> Verdict | None:
    if not (ev.exited and ev.alive):
        return None
    work = {(v.step, _forwards(v), _backwards(v), v.beat.coll_count if v.beat else 0)
            for v in ev.views}
    return Verdict(ev.exited, [_finding(
        FindingKind.EXITED_EARLY, ev.exited, f"rank(s) {_names(ev.exited)} exited while rank(s) "
        f"{_names(ev.alive)} still needed them")], uneven=len(work) > 1)


def _outside_rule(ev: Evidence) -> Verdict | None:
    if not (ev.waiting and ev.outside):
        return None
    coll = ev.waiting[0].beat
    assert coll is not None
    ahead = [v for v in ev.outside
             if _forwards(v) > max(_forwards(w) for w in ev.waiting)
             or _backwards(v) > max(_backwards(w) for w in ev.waiting)]
    if ahead:
        passes = ("forward" if any(_forwards(v) > max(_forwards(w) for w in ev.waiting)
                                   for v in ahead) else "backward")
        return Verdict(ahead, [_finding(
            FindingKind.DDP_FORWARDS_AHEAD, ahead,
            f"rank(s) {_names(ahead)} ran more DDP {passes} passes than rank(s) "
            f"{_names(ev.waiting)}, which already wait in {coll.coll_name} #{coll.coll_count}: "
            f"rank(s) {_names(ahead)} wait in the gradient all_reduce of an extra step")],
            uneven=True)
    return Verdict(ev.outside, [_finding(
        FindingKind.OUTSIDE_COLLECTIVE, ev.outside,
        f"rank(s) {_names(ev.outside)} are not in a collective while rank(s) "
        f"{_names(ev.waiting)} wait in {coll.coll_name} #{coll.coll_count}")])


def _init_rule(ev: Evidence) -> Verdict | None:
    never = [v for v in ev.alive if v.beat is None or v.beat.init_state < INIT_ENTERED]
    inside = [v for v in ev.alive if v.beat is not None and v.beat.init_state == INIT_ENTERED]
    if not (never and inside):
        return None
    return Verdict(never, [_finding(
        FindingKind.NEVER_INITIALIZED, never, f"rank(s) {_names(never)} never reached "
        f"init_process_group while rank(s) {_names(inside)} wait inside it")])


def _mismatch_rule(ev: Evidence) -> Verdict | None:
    if not ev.waiting or ev.outside:
        return None
    counts = {v.beat.coll_count for v in ev.waiting if v.beat}
    names = {v.beat.coll_name for v in ev.waiting if v.beat}
    if len(counts) < 2 and len(names) < 2:
        return None
    low = min(counts)
    behind = [v for v in ev.waiting if v.beat and v.beat.coll_count == low]
    return Verdict(behind, [_finding(FindingKind.COLLECTIVE_MISMATCH, behind,
                                     "collective mismatch: "
                                     + "; ".join(f"rank {v.rank} in {v.beat.coll_name} "
                                                 f"#{v.beat.coll_count}"
                                                 for v in ev.waiting if v.beat))])


def _uneven_passes(ev: Evidence, count: Callable[[RankView], int]
                   ) -> tuple[list[RankView], list[RankView], str] | None:
    """With no rank inside a Python collective: the ranks with the most and with the fewest
    DDP passes by ``count``, and every rank's count as text; None when they all agree."""
    if not ev.outside or ev.waiting:
        return None
    counts = {v.rank: count(v) for v in ev.alive}
    high, low = max(counts.values()), min(counts.values())
    if high == low:
        return None
    ahead = [v for v in ev.alive if counts[v.rank] == high]
    behind = [v for v in ev.alive if counts[v.rank] == low]
    return ahead, behind, ", ".join(f"rank {r}: {n}" for r, n in sorted(counts.items()))


def _backward_rule(ev: Evidence) -> Verdict | None:
    """Ranks that entered backward pass #N wait in its gradient all_reduce (DDP's reducer,
    in C++) for the ranks that never reached it."""
    uneven = _uneven_passes(ev, _backwards)
    if uneven is None:
        return None
    ahead, behind, counts = uneven
    return Verdict(behind, [_finding(
        FindingKind.DDP_BACKWARDS_BEHIND, behind,
        f"rank(s) {_names(ahead)} wait in DDP's gradient all_reduce of backward pass "
        f"#{_backwards(ahead[0])}; rank(s) {_names(behind)} never reached it (backward "
        f"passes: {counts})")])


def _fewer_forwards_rule(ev: Evidence) -> Verdict | None:
    uneven = _uneven_passes(ev, _forwards)
    if uneven is None:
        return None
    _, behind, counts = uneven
    return Verdict(behind, [_finding(
        FindingKind.DDP_FORWARDS_BEHIND, behind,
        f"rank(s) {_names(behind)} ran fewer DDP forward passes ({counts}); the others wait "
        "for them in the gradient all_reduce inside backward")])


def _stack_rule(ev: Evidence) -> Verdict | None:
    """Stacks of every live rank: the ranks that are not inside torch.distributed or a
    backward pass while the others wait there are holding the others up."""
    places = ev.places
    if not ev.alive or any(v.rank not in places for v in ev.alive):
        return None
    waiting = [v for v in ev.alive if places[v.rank][0] == "waiting"]
    if not waiting:
        # NCCL is asynchronous: on a GPU the ranks that wait for a collective wait for their
        # GPU (in .item(), a synchronize), not in torch.distributed
        waiting = [v for v in ev.alive if places[v.rank][0] == "gpu"]
    away = [v for v in ev.alive if v not in waiting]
    if not waiting or not away:
        return None
    whats = sorted({places[v.rank][1] for v in waiting})
    return Verdict(away, [_finding(
        FindingKind.STACK_ELSEWHERE, away,
        "; ".join(f"rank {v.rank} is in {places[v.rank][1]}" for v in away)
        + f" (its stack), while rank(s) {_names(waiting)} wait in " + " / ".join(whats))])


# Facts no other evidence can overturn: the kernel's process state, a rank that is gone.
DECISIVE_RULES = (_state_rule, _exited_rule)
# What the heartbeat counters suggest, most specific first; the stacks overrule them.
COUNTER_RULES = (_outside_rule, _init_rule, _mismatch_rule, _backward_rule,
                 _fewer_forwards_rule)


def _flight_rule(ev: Evidence, flight: CollectiveReport | None) -> Verdict | None:
    """torch's flight recorder: the ranks that never entered the collective the others wait
    in, or that issued a different one at the same sequence number."""
    culprits = flight.culprits if flight is not None else []
    if flight is None or not culprits:
        return None
    named = [v for v in ev.views if v.rank in culprits]
    kinds = (FindingKind.COLLECTIVE_DESYNC, FindingKind.COLLECTIVE_NOT_ENTERED)
    return Verdict(named, [f for f in flight.findings if f.kind in kinds and f.ranks])


def _by_evidence(ev: Evidence, flight: CollectiveReport | None) -> Verdict | None:
    """The counters' guess, the flight recorder and the stacks: the recorder (it names the
    collective) overrules the counters; the stacks overrule what remains; agreeing evidence
    is kept side by side."""
    recorded = _flight_rule(ev, flight)
    counted = next((v for rule in COUNTER_RULES if (v := rule(ev))), None)
    if recorded is not None:
        if counted is not None and _ranks(counted) <= _ranks(recorded):
            # the counters agree, or choose among the ranks of a desync that the recorder
            # alone cannot split (two ranks, two ops): both findings are kept
            recorded = Verdict(counted.culprits, recorded.findings + counted.findings,
                               recorded.uneven or counted.uneven)
        counted = recorded
    by_stack = _stack_rule(ev)
    if by_stack is None:
        return counted
    if counted is not None and (recorded is not None or _ranks(counted) == _ranks(by_stack)):
        # the stacks agree (or the recorder saw the collectives): keep the first finding, it
        # names the collective
        return _joined(counted, by_stack)
    return by_stack  # where they disagree, the counters' guess is dropped


def _ranks(verdict: Verdict) -> set[int]:
    return {v.rank for v in verdict.culprits}


def _joined(first: Verdict, then: Verdict) -> Verdict:
    return Verdict(first.culprits, first.findings + then.findings, first.uneven or then.uneven)


def analyze(views: list[RankView], stalls: list[Stall],
            states: dict[int, str] | None = None,
            places: dict[int, tuple[str, str]] | None = None,
            flight: CollectiveReport | None = None) -> HangReport:
    """``states``: the kernel's process state letter of each live rank (T, D, Z, R, S);
    ``places``: where each live rank's stack is (``stacks.place``); ``flight``: what the
    ranks' flight-recorder dumps say."""
    ev = Evidence(views, states or {}, places or {})
    verdict = _verdict(ev, stalls, flight)
    findings = [HangFinding(FindingKind.NO_PROGRESS, [], f"rank {s.rank} made no progress for "
                            f"{s.silent_s:.0f}s ({s.limit_name} {s.limit_s:.0f}s)")
                for s in stalls] + verdict.findings
    if flight is not None:  # what the recorder saw, when it is not the verdict's own finding
        findings += [f for f in flight.findings if f not in verdict.findings]
    findings += _gpu_waits(ev, verdict)
    if verdict.uneven:
        findings.append(HangFinding(FindingKind.WORK_DIFFERS, [],
                                    "work done differs: " + _counts(views)))
    return HangReport(
        stalled=[s.rank for s in stalls],
        culprits=sorted(v.rank for v in verdict.culprits),
        findings=findings,
        hint=UNEVEN_HINT if verdict.uneven else None,
        ranks=[_described(v, ev.states) for v in views],
        collectives=flight.to_json() if flight is not None else None,
    )


def _gpu_waits(ev: Evidence, verdict: Verdict) -> list[HangFinding]:
    """Culprits whose main thread waits for their own GPU: what holds them is on the GPU."""
    return [_finding(FindingKind.GPU_WAIT, [v], f"rank {v.rank} waits for its GPU in "
                     f"{ev.places[v.rank][1]}: a kernel that does not end, a GPU that stopped, "
                     "or an NCCL collective on its stream whose peers never came")
            for v in verdict.culprits if ev.places.get(v.rank, ("", ""))[0] == "gpu"]


def _verdict(ev: Evidence, stalls: list[Stall], flight: CollectiveReport | None) -> Verdict:
    """The first decisive rule's verdict, else the evidence's, else the stalled ranks."""
    verdict = next((v for rule in DECISIVE_RULES if (v := rule(ev))), None)
    if verdict is None:
        verdict = _by_evidence(ev, flight)
    if verdict is None:
        stalled_ranks = {s.rank for s in stalls}
        verdict = Verdict([v for v in ev.alive if v.rank in stalled_ranks], [])
    return verdict


def _described(view: RankView, states: dict[int, str]) -> str:
    state = states.get(view.rank) if view.alive else None
    return view.describe() + (f" (process state {state})" if state is not None else "")


def is_specific(kinds: list[str]) -> bool:
    """Whether a node's findings name who holds the others up (not only who is waiting)."""
    return any(kind not in OBSERVATIONS for kind in kinds)


MAX_REMOTE_RANKS = 1024
MAX_FRAMES = 8
MAX_FRAME_CHARS = 300


def _adopt_stacks(report: HangReport, other: dict[str, Any]) -> None:
    """Another node's ranks' top frames (bounded: the record comes over the network)."""
    stacks = other.get("stacks")
    if not isinstance(stacks, dict):
        return
    host = str(other.get("host"))[:100]
    for key, frames in list(stacks.items())[:MAX_REMOTE_RANKS]:
        if not (isinstance(key, str) and key.isdigit() and isinstance(frames, list)):
            continue
        rank = int(key)
        if rank in report.stacks:
            continue
        report.stacks[rank] = [str(f)[:MAX_FRAME_CHARS] for f in frames[:MAX_FRAMES]]
        report.stack_hosts[rank] = host


def merge_reports(report: HangReport, others: list[dict[str, Any]]) -> HangReport:
    """This node's hang report in the light of the other nodes' (the job's shared view): a
    node whose own evidence names nobody adopts the culprits another node's evidence names."""
    for other in others:
        _adopt_stacks(report, other)
    if is_specific([f.kind for f in report.findings]):
        return report
    named: list[int] = []
    for other in others:
        finding = _other_node_finding(other)
        if finding is not None:
            named += finding.ranks
            report.findings.append(finding)
    if named:
        report.culprits = sorted(set(named))
    return report


def _other_node_finding(other: dict[str, Any]) -> HangFinding | None:
    """What another node's record says, when its own evidence names who holds the job up."""
    kinds = [str(k) for k in other.get("kinds") or [] if isinstance(k, str)]
    culprits = sorted(r for r in other.get("culprits") or [] if isinstance(r, int))
    if not culprits or not is_specific(kinds):
        return None
    return HangFinding(
        FindingKind.OTHER_NODE, culprits,
        f"on {str(other.get('host'))[:100]}: rank(s) {', '.join(map(str, culprits))} hold the "
        f"job up ({', '.join(k for k in kinds if k != 'no_progress')}); this node's ranks "
        "wait for them")
