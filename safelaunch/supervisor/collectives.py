"""Which collective, which rank: reading torch's flight-recorder dumps.  Pure.

A dump (torch's pickle format, one per rank) lists the last collectives the rank entered, each
with its process group, sequence number in that group, op (``gloo:all_reduce``), input shapes
and dtypes.  For each process group this finds the last collective every rank entered and
completed; the ranks that never entered the collective the others wait in; and the first
desync (the same sequence number with a different op, or different shapes where the op needs
equal ones).  gloo never marks an entry completed, so a collective counts as completed when
torch retired its work, marked it completed, or the rank entered a later one of that group.

Dumps are read with an unpickler that builds nothing but plain data (a run directory may come
from someone else).  Point-to-point entries (send/recv) are left out: their sequence numbers
pair ranks, not the group.
"""

from __future__ import annotations

import ast
import io
import pickle
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from safelaunch.supervisor.findings import FindingKind, HangFinding

DUMP_DIR = "flight_recorder"
"""The run directory's folder of the dumps taken at a hang (``torchfrtrace`` reads it)."""
TORCH_DUMP_DIRS = (DUMP_DIR, "nccl_flight_recorder")
"""Folders ``diagnose`` reads: safelaunch's own, and the one torch's NCCL watchdog writes to
on a collective timeout (the debug profiles point it there)."""
DUMP_PREFIX = "rank_"
MAX_DUMP_BYTES = 64 << 20
MAX_RANKS = 4096

DTYPES = {"Float": "float32", "Double": "float64", "Half": "float16", "BFloat16": "bfloat16",
          "Long": "int64", "Int": "int32", "Short": "int16", "Char": "int8", "Byte": "uint8",
          "Bool": "bool", "ComplexFloat": "complex64", "ComplexDouble": "complex128",
          "Float8_e4m3fn": "float8_e4m3fn", "Float8_e5m2": "float8_e5m2"}
SAME_SHAPES = frozenset({"all_reduce", "allreduce", "broadcast", "reduce", "all_gather",
                         "_allgather_base", "all_gather_into_tensor", "reduce_scatter",
                         "_reduce_scatter_base", "reduce_scatter_tensor",
                         "allreduce_coalesced", "all_reduce_coalesced"})
"""Ops whose every rank passes the same input shapes (scatter, gather and all_to_all may not)."""


class _PlainData(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"not plain data: {module}.{name}")


def load_dump(data: bytes) -> dict[str, Any] | None:
    """A dump's dict, or None when it is not one (cut short, not torch's, not plain data)."""
    try:
        loaded = _PlainData(io.BytesIO(data)).load()
    except Exception:  # a broken file of any sort is "no dump"
        return None
    return loaded if isinstance(loaded, dict) and isinstance(loaded.get("entries"), list) else None


def read_dumps(folder: Path) -> dict[int, dict[str, Any]]:
    """Every ``rank_<N>`` dump of a folder that loads, by rank."""
    dumps: dict[int, dict[str, Any]] = {}
    try:
        files = sorted(folder.iterdir())[:MAX_RANKS]
    except OSError:
        return dumps
    for path in files:
        suffix = path.name[len(DUMP_PREFIX):]
        if not path.name.startswith(DUMP_PREFIX) or not suffix.isdigit():
            continue
        try:
            if path.stat().st_size > MAX_DUMP_BYTES:
                continue
            dump = load_dump(path.read_bytes())
        except OSError:
            continue
        if dump is not None:
            dumps[int(suffix)] = dump
    return dumps


@dataclass(frozen=True)
class Call:
    """One collective a rank entered."""

    seq: int
    op: str
    shapes: str
    """``float32[1048576]``; several tensors joined by ``, ``."""
    completed: bool

    @property
    def signature(self) -> tuple[str, str]:
        return (self.op, self.shapes if self.op in SAME_SHAPES else "")

    def named(self) -> str:
        return f"{self.op} #{self.seq}"


@dataclass
class Group:
    """One process group as the dumps show it."""

    name: str
    """How the summary names it: ``pg 0``, ``pg 1 (my_group)``."""
    members: list[int]
    calls: dict[int, dict[int, Call]] = field(default_factory=dict)
    """Rank -> sequence number -> the collective it entered."""

    def last(self, rank: int) -> Call | None:
        calls = self.calls.get(rank)
        return calls[max(calls)] if calls else None

    def last_completed(self, rank: int) -> int:
        """The last sequence number the rank completed in this group (0: none seen)."""
        calls = self.calls.get(rank) or {}
        top = max(calls, default=0)
        return max((s for s, c in calls.items() if c.completed or s < top), default=0)


def _op(entry: dict[str, Any]) -> str:
    name = str(entry.get("profiling_name") or "?")
    return name.split(":", 1)[1] if ":" in name else name


def _shapes(entry: dict[str, Any]) -> str:
    sizes = entry.get("input_sizes") or []
    dtypes = entry.get("input_dtypes") or []
    parts = []
    for i, size in enumerate(sizes if isinstance(sizes, list) else []):
        dtype = str(dtypes[i]) if isinstance(dtypes, list) and i < len(dtypes) else "?"
        dims = ", ".join(str(d) for d in size) if isinstance(size, list) else str(size)
        parts.append(f"{DTYPES.get(dtype, dtype)}[{dims}]")
    return ", ".join(parts)


def _group_key(entry: dict[str, Any]) -> tuple[str, str]:
    pg = entry.get("process_group")
    if isinstance(pg, (list, tuple)) and pg:
        return str(pg[0]), str(pg[1]) if len(pg) > 1 else ""
    return str(entry.get("pg_id", "?")), ""


def _members(dump: dict[str, Any], name: str) -> list[int]:
    config = dump.get("pg_config")
    ranks = config.get(name, {}).get("ranks") if isinstance(config, dict) else None
    if isinstance(ranks, str):
        try:
            ranks = ast.literal_eval(ranks)
        except (ValueError, SyntaxError):
            ranks = None
    if isinstance(ranks, (list, tuple)) and all(isinstance(r, int) for r in ranks):
        return list(ranks)
    return []


def _completed(entry: dict[str, Any]) -> bool:
    return entry.get("state") == "completed" or entry.get("retired") is True


def groups_of(dumps: dict[int, dict[str, Any]]) -> list[Group]:
    """The process groups of every rank's dump, with each rank's collectives."""
    groups: dict[tuple[str, str], Group] = {}
    for rank, dump in sorted(dumps.items()):
        for entry in dump.get("entries") or []:
            if not isinstance(entry, dict) or entry.get("is_p2p"):
                continue
            seq = entry.get("collective_seq_id")
            if not isinstance(seq, int) or seq <= 0:
                continue
            key = _group_key(entry)
            group = groups.get(key)
            if group is None:
                desc = key[1] if key[1] not in ("", "default_pg", "undefined") else ""
                label = f"pg {key[0]}" + (f" ({desc})" if desc else "")
                group = groups[key] = Group(label, _members(dump, key[0]))
            group.calls.setdefault(rank, {})[seq] = Call(seq, _op(entry), _shapes(entry),
                                                         _completed(entry))
    for group in groups.values():
        if not group.members:
            group.members = sorted(group.calls)
    return sorted(groups.values(), key=lambda g: g.name)


def _ranks(ranks: Iterable[int]) -> str:
    ranks = sorted(ranks)
    word = "rank" if len(ranks) == 1 else "ranks"
    if len(ranks) > 2 and ranks == list(range(ranks[0], ranks[-1] + 1)):
        return f"{word} {ranks[0]}-{ranks[-1]}"
    return f"{word} {', '.join(str(r) for r in ranks)}"


def _desync(group: Group) -> HangFinding | None:
    """The first sequence number at which the ranks' collectives differ."""
    ranks = sorted(group.calls)
    common = sorted({s for r in ranks for s in group.calls[r]})
    for seq in common:
        by_sig: dict[tuple[str, str], list[int]] = {}
        for rank in ranks:
            call = group.calls[rank].get(seq)
            if call is not None:
                by_sig.setdefault(call.signature, []).append(rank)
        if len(by_sig) < 2:
            continue
        sizes = sorted((len(v) for v in by_sig.values()), reverse=True)
        largest = max(by_sig.values(), key=len)
        culprits = (sorted(r for v in by_sig.values() if v is not largest for r in v)
                    if sizes[0] > sizes[1] else sorted(r for v in by_sig.values() for r in v))
        parts = []
        for members in sorted(by_sig.values()):
            call = group.calls[members[0]][seq]
            parts.append(f"{_ranks(members)} {call.op} {call.shapes}".rstrip())
        return HangFinding(FindingKind.COLLECTIVE_DESYNC, culprits,
                           f"desync at #{seq} ({group.name}): " + "; ".join(parts))
    return None


def _verb(ranks: list[int]) -> str:
    return "waits" if len(ranks) == 1 else "wait"


def _not_entered(group: Group, dumped: set[int]) -> HangFinding | None:
    """The ranks behind the collective the others wait in (by the dumps there are)."""
    lasts = {r: c for r in group.members if (c := group.last(r)) is not None}
    if not lasts:
        return None
    top = max(c.seq for c in lasts.values())
    waiting = sorted(r for r, c in lasts.items() if c.seq == top and not c.completed)
    if not waiting:
        return None
    behind = sorted(r for r in group.members
                    if r in dumped and ((c := lasts.get(r)) is None or c.seq < top))
    call = lasts[waiting[0]]
    what = f"{call.op} #{top} ({group.name}, {call.shapes or 'no tensors'})"
    if behind:
        return _behind(behind, waiting, what, lasts)
    return _waiting_without_dumps(group, dumped, waiting, what)


def _behind(behind: list[int], waiting: list[int], what: str,
            lasts: dict[int, Call]) -> HangFinding:
    last = [f"rank {r}: {c.named()}" for r in behind if (c := lasts.get(r)) is not None]
    was = f"; last entered: {', '.join(last)}" if last else ""
    return HangFinding(FindingKind.COLLECTIVE_NOT_ENTERED, behind,
                       f"{_ranks(behind)} never entered {what} that {_ranks(waiting)} "
                       f"{_verb(waiting)} in{was}")


def _waiting_without_dumps(group: Group, dumped: set[int], waiting: list[int],
                           what: str) -> HangFinding | None:
    """Every dumped rank waits; the ranks that would explain it left no dump."""
    absent = [r for r in group.members if r not in dumped]
    if not absent:
        return None
    return HangFinding(FindingKind.COLLECTIVE_WAITING, [],
                       f"{_ranks(waiting)} {_verb(waiting)} in {what}; {_ranks(absent)} left "
                       f"no dump to show where {'it is' if len(absent) == 1 else 'they are'}")


@dataclass
class CollectiveReport:
    """What the flight-recorder dumps of a hang say."""

    groups: list[dict[str, Any]]
    """Per process group: each rank's last entered collective and last completed number."""
    findings: list[HangFinding]
    missing: dict[int, str]
    """Ranks without a dump, and why."""
    dumps: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def culprits(self) -> list[int]:
        """The ranks the dumps hold responsible, desync first."""
        for kind in (FindingKind.COLLECTIVE_DESYNC, FindingKind.COLLECTIVE_NOT_ENTERED):
            ranks = sorted({r for f in self.findings if f.kind == kind for r in f.ranks})
            if ranks:
                return ranks
        return []


def _group_json(group: Group) -> dict[str, Any]:
    ranks = {}
    for rank in group.members:
        call = group.last(rank)
        ranks[str(rank)] = None if call is None else {
            "last_entered": call.seq, "op": call.op, "shapes": call.shapes,
            "last_completed": group.last_completed(rank)}
    return {"group": group.name, "ranks": ranks}


def analyze_dumps(dumps: dict[int, dict[str, Any]], missing: dict[int, str]) -> CollectiveReport:
    """The dumps' verdict; ``missing``: the job's ranks without a dump, and why."""
    groups = groups_of(dumps)
    missing = dict(missing)
    for group in groups:
        for rank in group.members:
            if rank not in dumps:
                missing.setdefault(rank, "no dump in the folder (another node's rank, or "
                                         "not asked)")
    findings: list[HangFinding] = []
    if missing and dumps:
        by_reason: dict[str, list[int]] = {}
        for rank, why in sorted(missing.items()):
            by_reason.setdefault(why, []).append(rank)
        findings.append(HangFinding(
            FindingKind.FLIGHT_RECORDER_MISSING, [],
            "; ".join(f"no flight-recorder dump from {_ranks(ranks)}: {why}"
                      for why, ranks in by_reason.items())
            + f" (the analysis uses {_ranks(dumps)})"))
    for group in groups:
        found = _desync(group) or _not_entered(group, set(dumps))
        if found is not None:
            findings.append(found)
    return CollectiveReport([_group_json(g) for g in groups], findings, dict(missing),
                            len(dumps))
