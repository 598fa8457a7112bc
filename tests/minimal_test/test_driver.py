"""The minimal test's text report, rendered from a report built in memory."""

from __future__ import annotations

from typing import Any

from safelaunch.minimal_test.driver import Attempt, MinimalTestReport, render


def _ok(step: str, seconds: float = 0.0123) -> dict[str, Any]:
    return {"step": step, "status": "passed", "seconds": seconds}


def _row(size: int, seconds: float, algbw: float, busbw: float, wrong: int = 0
         ) -> dict[str, Any]:
    """One size of the bandwidth sweep, as a rank reports it."""
    return {"bytes": size, "seconds": seconds, "algbw_gbps": algbw, "busbw_gbps": busbw,
            "wrong": wrong}


def test_the_report_shows_steps_by_rank_bandwidth_and_remedies():
    sweep = [_row(1024, 0.0001, 0.01, 0.01), _row(4 << 20, 0.002, 2.1, 2.1, wrong=1)]
    rank0 = {"rank": 0, "steps": [
        _ok("environment"), _ok("init_process_group"),
        {"step": "bandwidth", "status": "passed", "seconds": 1.5, "detail": sweep},
        {"step": "all_reduce", "status": "failed", "error": "boom"}]}
    rank1 = {"rank": 1, "steps": [
        _ok("environment"), {"step": "init_process_group", "status": "running"},
        {"step": "all_reduce", "status": "odd"}]}
    first = Attempt("test", "nccl", {}, False, 1, {1: rank1, 0: rank0},
                    "rank 0 failed all_reduce: boom", "/r")
    report = MinimalTestReport("nccl", "a GPU each", 2, 3.21, [
        first,
        Attempt("NCCL_P2P_DISABLE=1", "nccl", {}, False, 1, {}, "x", "/r2"),
        Attempt("gloo", "gloo", {}, True, 0, {}, None, "/r3")])
    assert render(report) == [
        "minimal test: nccl (a GPU each) on 2 rank(s): FAILED in 3.2s",
        "  step                        rank 0        rank 1",
        "  environment                ok 12ms       ok 12ms",
        "  init_process_group         ok 12ms         stuck",
        "  all_reduce                  FAILED           odd",
        "  bandwidth                ok 1500ms             -",
        "  first failure: rank 0 failed all_reduce: boom",
        "        size       time  algbw GB/s  busbw GB/s  wrong",
        "       1 KiB     0.10ms       0.010       0.010      0",
        "       4 MiB     2.00ms       2.100       2.100      1",
        "  remedy NCCL_P2P_DISABLE=1: fails (x)",
        "  remedy gloo: passes",
    ]


def test_a_test_whose_ranks_never_reported_is_one_line():
    report = MinimalTestReport("gloo", "no GPU", None, 0.5,
                               [Attempt("test", "gloo", {}, False, 125, {}, None, "/r")])
    assert render(report) == ["minimal test: gloo (no GPU) on ? rank(s): FAILED in 0.5s"]


def test_one_rank_says_its_bus_bandwidth_means_nothing():
    # Rows as an H200 measured them with --nproc 1 (tests/fixtures/gpu/real/README.md).
    sweep = [_row(1024, 0.00005, 0.022, 0.0), _row(64 << 20, 0.00003, 1992.603, 0.0)]
    rank0 = {"rank": 0, "steps": [
        _ok("environment"), {"step": "bandwidth", "status": "passed", "seconds": 0.073,
                             "detail": sweep}]}
    report = MinimalTestReport("nccl", "a GPU for each of the 1 rank(s)", 1, 4.4, [
        Attempt("test", "nccl", {}, True, 0, {0: rank0}, None, "/r")])
    lines = render(report)
    assert lines[-1] == ("  one rank: all_reduce moves no data between GPUs (busbw 0); the bus "
                         "bandwidth needs --nproc 2 or more")
    assert "      64 MiB     0.03ms    1992.603       0.000      0" in lines
