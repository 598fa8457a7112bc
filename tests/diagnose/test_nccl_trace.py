"""NCCL's collective trace (NCCL_DEBUG_SUBSYS=COLL) read for a desync: lines in enqueue.cc's
format, one communicator's ranks compared at each opCount."""

from __future__ import annotations

from safelaunch.diagnose import diagnose, from_text, nccl_trace

HOSTS = ("node-a", "node-b")


def _line(rank: int, seq: int, op: str = "AllReduce", count: int = 1024, dtype: int = 7,
          nranks: int = 2, comm: str = "", dev: int | None = None) -> str:
    host, pid = HOSTS[rank % 2], 4100 + rank
    dev = rank // 2 if dev is None else dev
    comm = comm or f"0x55d{rank}0a000"
    return (f"{host}:{pid}:{pid + 50} [{dev}] NCCL INFO {op}: opCount {seq:x} sendbuff "
            f"0x7f{rank}a00000 recvbuff 0x7f{rank}b00000 count {count} datatype {dtype} op 0 "
            f"root 0 comm {comm} [nranks={nranks}] stream 0x55e{rank}0b000\n")


def _steps(ranks: int, steps: int, **odd: int) -> str:
    """``steps`` all-reduces of every rank, the last one of rank 1 with ``odd`` values."""
    lines = []
    for seq in range(steps):
        for rank in range(ranks):
            change = odd if rank == 1 and seq == steps - 1 else {}
            lines.append(_line(rank, seq, nranks=ranks, **change))
    return "".join(lines)


def test_ranks_that_issued_different_collectives_are_a_desync() -> None:
    text = _steps(4, 6, count=512)
    result = diagnose(from_text(text, "nccl.log"))
    assert result.findings[0].id == "hang-collective-desync"
    quoted = result.findings[0].evidence[0].text
    assert "opCount 5 of a 4-rank communicator" in quoted
    assert "node-b:4101 [0] AllReduce count 512" in quoted
    assert "other 3 in the log issued AllReduce count 1024" in quoted


def test_an_excerpt_of_some_ranks_is_read_too() -> None:
    text = _line(0, 0, "Broadcast", 25503912, 6, nranks=8) + "".join(
        _line(rank, 0, "Broadcast", 53, 4, nranks=8) for rank in range(1, 5))
    assert nccl_trace.desyncs(text)[0].startswith("NCCL's collective trace, opCount 0 of a "
                                                  "8-rank communicator: node-a:4100 [0]")


def test_a_trace_whose_ranks_agree_is_no_failure() -> None:
    text = "".join(_line(rank, seq, op, count)
                   for seq, (op, count) in enumerate([("Broadcast", 9), ("AllReduce", 1024),
                                                      ("AllGather", 64), ("AllReduce", 8)])
                   for rank in range(2))
    assert nccl_trace.desyncs(text) == []
    assert diagnose(from_text(text, "nccl.log")).status == "no_failure"


def test_two_communicators_of_one_size_in_a_process_are_not_compared() -> None:
    # tensor and data parallel groups of 2 in a 4-rank job: rank 0 has one of each
    text = (_line(0, 0, count=4096, comm="0xaaa") + _line(0, 0, count=77, comm="0xbbb")
            + _line(1, 0, count=4096, comm="0xccc"))
    assert nccl_trace.desyncs(text) == []


def test_more_members_than_the_size_are_several_groups() -> None:
    text = "".join(_line(rank, 0, count=100 + rank % 2) for rank in range(4))
    assert nccl_trace.desyncs(text) == []


def test_point_to_point_calls_differ_by_design() -> None:
    text = _line(0, 0, "Send", 10) + _line(1, 0, "Recv", 99)
    assert nccl_trace.desyncs(text) == []


def test_lines_that_only_look_like_the_trace_are_ignored() -> None:
    text = ("NCCL INFO AllReduce: opCount what sendbuff\n" + "opCount " * 5000 + "\n"
            + "x" * 100_000 + " opCount 1\n")
    assert nccl_trace.desyncs(text) == []


def test_a_long_trace_is_read_at_its_start_and_its_end() -> None:
    steps = 2 * nccl_trace.WINDOW // 300 + 100  # two ranks' lines run past both windows
    text = _steps(2, steps, count=5)
    assert len(text) > 2 * nccl_trace.WINDOW
    assert f"opCount {steps - 1:x} of a 2-rank" in nccl_trace.desyncs(text)[0]


def _timeout(rank: int, seq: int, op: str, numel: int = 1, pg: str = "") -> str:
    """ProcessGroupNCCL's watchdog line (its format from torch 2.3 on; ``pg``: the process
    group's name before the rank, as torch 2.4 and later print it)."""
    who = f"[PG {pg} Rank {rank}]" if pg else f"[Rank {rank}]"
    return (f"[rank{rank}]:[E420 19:44:35.569754537 ProcessGroupNCCL.cpp:632] {who} Watchdog "
            f"caught collective operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, "
            f"NumelIn={numel}, NumelOut={numel}, Timeout(ms)=1800000) ran for 1800051 "
            "milliseconds before timing out.\n")


def test_ranks_that_timed_out_in_different_collectives_at_one_sequence_number_desynced():
    text = _timeout(0, 4832284, "ALLREDUCE") + _timeout(5, 4832284, "BROADCAST")
    result = diagnose(from_text(text, "desync.log"))
    assert result.findings[0].id == "hang-collective-desync", result
    assert "rank 0 ALLREDUCE" in result.findings[0].evidence[0].text
    # one all-reduce of different sizes is a desync too
    sizes = _timeout(0, 12, "ALLREDUCE", 4096) + _timeout(1, 12, "ALLREDUCE", 1024)
    assert nccl_trace.watchdog_desyncs(sizes)


def test_timeouts_in_one_collective_or_in_two_groups_are_no_desync():
    same = _timeout(0, 7, "ALLREDUCE") + _timeout(1, 7, "ALLREDUCE")
    assert not nccl_trace.watchdog_desyncs(same)
    assert diagnose(from_text(same, "same.log")).findings[0].id == "collective-timeout"
    groups = (_timeout(0, 7, "ALLREDUCE", pg="0 PG GUID 0(default_pg)")
              + _timeout(1, 7, "BROADCAST", pg="1 PG GUID 1(tp)"))
    assert not nccl_trace.watchdog_desyncs(groups)
    # the two ends of a send and a receive, and gathers whose sizes differ by design
    assert not nccl_trace.watchdog_desyncs(_timeout(0, 3, "SEND") + _timeout(1, 3, "RECV"))
    assert not nccl_trace.watchdog_desyncs(_timeout(0, 3, "GATHER", 8) + _timeout(1, 3, "GATHER", 4))


def test_a_watchdog_line_without_its_group_is_compared_only_in_a_log_of_one_group():
    """torch 2.3-2.6 name the group on the next line only: two groups' works share sequence
    numbers, so such lines are not compared where the log shows two groups."""
    two = (_timeout(0, 1, "ALLREDUCE") + "[rank0]:[E1124 ProcessGroupNCCL.cpp:1] [PG ID 1 PG "
           "GUID 1(tp) Rank 0] Exception (either an error or timeout) detected by watchdog at "
           "work: 1\n" + _timeout(2, 1, "BROADCAST") + "[rank2]:[E1124 ProcessGroupNCCL.cpp:1] "
           "[PG ID 0 PG GUID 0(default_pg) Rank 2] Exception (either an error or timeout) "
           "detected by watchdog at work: 1\n")
    assert not nccl_trace.watchdog_desyncs(two)


def test_the_watchdogs_lines_before_torch_2_1_have_no_sizes():
    old = "".join(
        f"[E ProcessGroupNCCL.cpp:475] [Rank {rank}] Watchdog caught collective operation "
        f"timeout: WorkNCCL(SeqNum=37, OpType={op}, Timeout(ms)=1800000) ran for 1800123 "
        "milliseconds before timing out.\n" for rank, op in ((0, "BROADCAST"), (1, "ALLREDUCE")))
    found = nccl_trace.watchdog_desyncs(old)
    assert found and "rank 0 BROADCAST, rank 1 ALLREDUCE" in found[0]
