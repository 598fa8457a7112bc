"""NCCL's trace of each collective in a pasted log (``NCCL_DEBUG=INFO`` with
``NCCL_DEBUG_SUBSYS=COLL`` or ``ALL``, enqueue.cc's ``"%s: opCount %lx sendbuff %p recvbuff %p
count %zu datatype %d op %d root %d comm %p [nranks=%d] stream %p"``).

The ranks of one communicator issue the same collective with the same count, datatype,
reduction and root at each ``opCount``; where they differ, they desynchronised, and each waits
for a partner that never comes (the text-log twin of the flight recorder's desync).  A
communicator is only known by its size here (its address differs in each process): a size is
read only where no more members than that printed lines for it (an excerpt may show fewer)
and no process holds two communicators of that size on one GPU, so two groups of one size
(tensor and data parallel of 2 in a 4-rank job) are not compared with each other.

ProcessGroupNCCL's watchdog says the same of its own timeouts (``watchdog_desyncs``): ranks of
one process group that timed out at one sequence number in different collectives."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass

MARK = " opCount "
CALL = re.compile(
    r" NCCL INFO (?P<op>[A-Za-z]{1,40}): opCount (?P<seq>[0-9a-fA-F]{1,16}) sendbuff \S{1,40} "
    r"recvbuff \S{1,40} count (?P<count>\d{1,20}) datatype (?P<dtype>\d{1,4}) op "
    r"(?P<redop>\d{1,4}) root (?P<root>-?\d{1,9}) comm (?P<comm>\S{1,40}) "
    r"\[nranks=(?P<nranks>\d{1,7})\]")
"""The call, from its literal start (the engine then skips to it at memchr speed)."""
WHO_MAX = 300
"""How far before the call NCCL's prefix of the line (host:pid:tid [cudaDev]) is looked for."""
POINT_TO_POINT = frozenset({"Send", "Recv"})
"""Their counts and peers differ between the two ends by design."""
MAX_LINES = 100_000
WINDOW = 4 << 20
MAX_MEMBERS = 4096
MAX_SEQS = 100_000
MAX_DESYNCS = 8


@dataclass(frozen=True)
class Call:
    op: str
    count: str
    dtype: str
    redop: str
    root: str

    def __str__(self) -> str:
        return (f"{self.op} count {self.count} datatype {self.dtype} op {self.redop} "
                f"root {self.root}")


Member = tuple[str, str, str, str]
"""One rank of one communicator: host, pid, CUDA device and the communicator's address."""


def _windows(text: str) -> list[str]:
    """The log's start and its end, where it is long: a desync shows at the start (ranks
    that set out apart) or at the end (the collective the run hangs in)."""
    if len(text) <= 2 * WINDOW:
        return [text]
    return [text[:WINDOW], text[-WINDOW:]]


def _calls(text: str) -> dict[int, dict[Member, dict[int, Call]]]:
    """Each communicator size's members and what each issued at each opCount (the first
    line of an opCount kept; bounded in lines, members and opCounts)."""
    sizes: dict[int, dict[Member, dict[int, Call]]] = {}
    matches = (match for window in _windows(text) for match in CALL.finditer(window))
    for match in itertools.islice(matches, MAX_LINES):
        window = match.string
        who = _who(window[max(0, match.start() - WHO_MAX):match.start()])
        if who is None or match["op"] in POINT_TO_POINT:
            continue
        members = sizes.setdefault(int(match["nranks"]), {})
        member = (*who, match["comm"])
        if member not in members and len(members) >= MAX_MEMBERS:
            continue
        seqs = members.setdefault(member, {})
        seq = int(match["seq"], 16)
        if seq not in seqs and len(seqs) < MAX_SEQS:
            seqs[seq] = Call(match["op"], match["count"], match["dtype"], match["redop"],
                             match["root"])
    return sizes


def _who(head: str) -> tuple[str, str, str] | None:
    """Host, pid and CUDA device from NCCL's prefix at the end of ``head``
    (``host:pid:tid [dev]``, after whatever a launcher or a grep put before it)."""
    bracket = head.rfind(" [")
    dev = head[bracket + 2:-1]
    if bracket < 0 or not head.endswith("]") or not dev.isdigit():
        return None
    parts = head[:bracket].rsplit(":", 2)
    if len(parts) != 3 or not (parts[1].isdigit() and parts[2].isdigit()):
        return None
    words = parts[0].rsplit(":", 1)[-1].split()
    return (words[-1], parts[1], dev) if words else None


def _name(member: Member) -> str:
    host, pid, dev, _ = member
    return f"{host}:{pid} [{dev}]"


def desyncs(text: str) -> list[str]:
    """One sentence per communicator whose members issued different collectives at the same
    opCount (the first such opCount), naming the members that differ from the most."""
    if MARK not in text or "NCCL INFO" not in text:
        return []
    found = []
    for nranks, members in sorted(_calls(text).items()):
        places = Counter(member[:3] for member in members)
        if not 2 <= len(members) <= nranks or max(places.values()) > 1:
            continue  # several groups of one size
        common = set.intersection(*(set(seqs) for seqs in members.values()))
        for seq in sorted(common):
            calls = {member: seqs[seq] for member, seqs in members.items()}
            counts = Counter(calls.values())
            if len(counts) < 2:
                continue
            usual, _ = counts.most_common(1)[0]
            odd = [member for member, call in calls.items() if call != usual]
            shown = ", ".join(f"{_name(m)} {calls[m]}" for m in odd[:4])
            more = f" and {len(odd) - 4} more" if len(odd) > 4 else ""
            found.append(f"NCCL's collective trace, opCount {seq:x} of a {nranks}-rank "
                         f"communicator: {shown}{more}, where the other "
                         f"{len(members) - len(odd)} in the log issued {usual}")
            break
    return found


WATCHDOG_MARK = "Watchdog caught collective operation timeout: WorkNCCL("
WATCHDOG = re.compile(
    r"\[(?:PG (?P<pg>[^\]\n]{1,120}?) )?Rank (?P<rank>\d{1,7})\] Watchdog caught collective "
    r"operation timeout: WorkNCCL\(SeqNum=(?P<seq>\d{1,20}), OpType=(?P<op>[A-Z_]{1,40})"
    r"(?:, NumelIn=(?P<numel_in>-?\d{1,20}), NumelOut=(?P<numel_out>-?\d{1,20}))?")
"""ProcessGroupNCCL's watchdog on the collective a rank timed out in (torch 1.13 and later:
the sizes from torch 2.1; the process group's name before the rank in some releases only)."""
GROUP = re.compile(r"\[PG (?:ID )?(\d{1,6})\b")
"""A process group's number in ProcessGroupNCCL's own lines (``[PG ID 0 PG GUID 0(default_pg)
Rank 1]``, ``[PG 1 Rank 0]``)."""
MAX_GROUP_LINES = 10_000
UNPAIRED_OPS = frozenset({"SEND", "RECV", "COALESCED", "_COALESCED", "UNKNOWN", "BARRIER"})
"""Point-to-point and coalesced work: its two ends differ by design (and a barrier is an
all-reduce of one element that torch names apart)."""
SAME_SIZE_OPS = frozenset({"ALLREDUCE", "BROADCAST", "REDUCE", "ALLGATHER", "_ALLGATHER_BASE",
                           "ALLGATHER_INTO_TENSOR_COALESCED", "REDUCE_SCATTER",
                           "_REDUCE_SCATTER_BASE"})
"""Collectives every rank calls with tensors of one size (gather, scatter and all-to-all sizes
differ between ranks by design)."""


Work = tuple[str, str, str]
"""A watchdog's timed-out work: its collective and its input and output sizes ("?": torch
before 2.1 prints none)."""


def watchdog_desyncs(text: str) -> list[str]:
    """One sentence per process group whose ranks timed out at the same sequence number in
    different collectives (or one collective of different sizes), from the watchdog's lines:
    each waited for a partner that would never come."""
    if WATCHDOG_MARK not in text:
        return []
    found = [_desync_sentence(group, seq, ranks)
             for (group, seq), ranks in sorted(_timed_out_works(text).items())
             if _desynced(set(ranks.values()))]
    return found[:MAX_DESYNCS]


def _timed_out_works(text: str) -> dict[tuple[str, int], dict[int, Work]]:
    """What each rank timed out in, by process group and sequence number.  A line without its
    group's name is kept only where the log shows one process group: two groups' works share
    sequence numbers."""
    groups = {match.group(1) for match in itertools.islice(GROUP.finditer(text),
                                                            MAX_GROUP_LINES)}
    seen: dict[tuple[str, int], dict[int, Work]] = {}
    for match in itertools.islice(WATCHDOG.finditer(text), MAX_LINES):
        if match["op"] in UNPAIRED_OPS or (not match["pg"] and len(groups) > 1):
            continue
        ranks = seen.setdefault((match["pg"] or "", int(match["seq"])), {})
        if len(ranks) < MAX_MEMBERS:
            ranks.setdefault(int(match["rank"]), (match["op"], match["numel_in"] or "?",
                                                  match["numel_out"] or "?"))
    return seen


def _desynced(works: set[Work]) -> bool:
    """Different collectives, or one that every rank calls with one size at different sizes."""
    ops = {op for op, _, _ in works}
    return len(ops) > 1 or (len(works) > 1 and ops <= SAME_SIZE_OPS)


def _desync_sentence(group: str, seq: int, ranks: dict[int, Work]) -> str:
    shown = ", ".join(f"rank {rank} {op}" + (f" of {numel_in} elements" if numel_in != "?"
                                              else "")
                      for rank, (op, numel_in, _) in sorted(ranks.items())[:6])
    more = f" and {len(ranks) - 6} more" if len(ranks) > 6 else ""
    where = f" of process group {group}" if group else ""
    return f"the watchdog's timeouts at sequence number {seq}{where}: {shown}{more}"
