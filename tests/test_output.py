"""Rank output: every line kept whole in the rank file and on the console."""

from __future__ import annotations

import re

import pytest

from conftest import FAULT, FIXTURES

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

STAMP = re.compile(rb"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (out|err) ")


def _payloads(raw: bytes) -> list[bytes]:
    lines = raw.split(b"\n")
    assert lines[-1] == b""
    out = []
    for line in lines[:-1]:
        match = STAMP.match(line)
        assert match, line[:80]
        out.append(line[match.end():])
    return out


def test_flood_keeps_every_line_in_order(run_safelaunch):
    n = 50_000
    run = run_safelaunch("run", "--nproc", "2", FAULT, "--mode", "flood", "--rank", "-1",
                         "--lines", str(n))
    assert run.returncode == 0, run.stderr[-2000:]
    for rank in (0, 1):
        expected = [f"rank {rank} line {i} " + "x" * 40 for i in range(n)]
        console = [line[len(f"[rank{rank}] "):] for line in run.stdout.splitlines()
                   if line.startswith(f"[rank{rank}] ")]
        assert console == expected
        file_lines = [p.decode() for p in _payloads((run.run_dir / f"rank{rank}.log")
                                                     .read_bytes())]
        assert file_lines == expected


def test_progress_bar_updates_are_collapsed_on_the_console(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "1", FAULT, "--mode", "progress", "--rank", "0")
    assert run.returncode == 0
    err_lines = [line for line in run.stderr.splitlines() if line.startswith("[rank0]")]
    # the first update at once, then the final state; the updates between come faster than
    # one per PROGRESS_INTERVAL
    assert err_lines == ["[rank0] progress 0%", "[rank0] progress 100%"]
    assert "[rank0] after progress" in run.stdout
    in_file = [line.split(" err ", 1)[1] for line in run.rank_log(0).splitlines()
               if " err progress" in line]
    assert in_file == [f"progress {p}%" for p in range(0, 101, 10)]


def test_real_tqdm_bar_floods_neither_console_nor_loses_updates(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "2", str(FIXTURES / "tqdm_loop.py"), "40")
    assert run.returncode == 0, run.stderr[-2000:]
    for rank in (0, 1):
        bars = [line for line in run.stderr.splitlines() if line.startswith(f"[rank{rank}] train:")]
        assert 2 <= len(bars) <= 3, bars  # 2 s of updates: the first, at most one more, the last
        assert "40/40" in bars[-1]
        assert "0/40" in bars[0]
        in_file = [line for line in run.rank_log(rank).splitlines() if " err train:" in line]
        assert len(in_file) >= 41 and "40/40" in in_file[-1]
        assert f"[rank{rank}] training done" in run.stdout


def test_megabyte_line_stays_whole(run_safelaunch):
    run = run_safelaunch("run", "--nproc", "1", FAULT, "--mode", "bigline", "--rank", "0",
                         "--lines", "3000000")
    assert run.returncode == 0
    assert run.stdout == "[rank0] " + "B" * 3_000_000 + "\n"
    assert _payloads((run.run_dir / "rank0.log").read_bytes()) == [b"B" * 3_000_000]


def test_bytes_that_are_not_utf8_pass_through(run_safelaunch, tmp_path):
    import subprocess

    from conftest import safelaunch_cmd

    proc = subprocess.run(safelaunch_cmd("run", FAULT, "--mode", "binary", "--rank", "0"),
                          cwd=tmp_path, capture_output=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout == b"[rank0] bytes \xff\xfe not utf-8 \x80\n"
    run_dir = next((tmp_path / "safelaunch_runs").glob("2*"))
    assert _payloads((run_dir / "rank0.log").read_bytes()) == [b"bytes \xff\xfe not utf-8 \x80"]


def test_last_line_without_newline_is_kept(run_safelaunch):
    run = run_safelaunch("run", FAULT, "--mode", "partial", "--rank", "0")
    assert run.returncode == 0
    assert run.stdout == "[rank0] no newline at the end\n"
    assert run.summary()["ranks"][0]["last_line"] == "no newline at the end"


def test_torchs_own_rank_prefix_is_not_doubled(run_safelaunch, tmp_path):
    # torch writes an uncaught exception of a rank as "[rank1]: Traceback ..." itself
    script = tmp_path / "boom.py"
    script.write_text("import torch.distributed as dist\n"
                      "dist.init_process_group('gloo')\n"
                      "print('plain line', flush=True)\n"
                      "raise ValueError(f'boom on rank {dist.get_rank()}')\n")
    run = run_safelaunch("run", "--no-preflight", "--no-minimal-test", "--nproc", "2",
                         str(script))
    assert run.returncode == 1, run.stderr[-2000:]
    console = run.stdout + run.stderr
    assert "[rank1]: ValueError: boom on rank 1" in console
    assert "[rank1] [rank1]:" not in console and "[rank0] [rank0]:" not in console
    assert "[rank1] plain line" in console  # lines without torch's prefix still get ours
    assert "[rank1]: ValueError: boom on rank 1" in run.rank_log(1)


def test_terminal_controls_stay_in_the_rank_file_and_never_reach_the_terminal(run_safelaunch,
                                                                               tmp_path):
    hostile = (b"\x1b]0;owned\x07\x1b[2J\x1b[3J\x1b[?1049h\x1b[31mred\x1b[0m step\rover"
               b"\x08\x08 \x1bP1$qm\x1b\\done")
    script = tmp_path / "hostile.py"
    script.write_text("import sys\n"
                      f"sys.stdout.buffer.write({hostile!r} + b'\\n')\n"
                      "sys.stdout.flush()\n"
                      f"sys.stderr.buffer.write({hostile!r} + b'\\n')\n"
                      "sys.exit(3)\n")
    run = run_safelaunch("run", "--nproc", "1", "--no-minimal-test", str(script))
    assert run.returncode == 3, run.stderr[-2000:]
    in_file = (run.run_dir / "rank0.log").read_bytes()
    # the file keeps the bytes whole: the '\r' cuts the line as a terminal would, no more
    assert in_file.count(b"\x1b]0;owned\x07\x1b[2J\x1b[3J\x1b[?1049h\x1b[31mred\x1b[0m step\n") == 2
    assert in_file.count(b" over\x08\x08 \x1bP1$qm\x1b\\done\n") == 2
    # the live console: the colour only, and a reset at the end of the line that used one
    assert "[rank0] \x1b[31mred\x1b[0m step\x1b[0m\n[rank0] over^H^H done\n" in run.stdout
    # the summary and the diagnosis quote the last line without its controls
    console_err = run.stderr.replace("\x1b[31mred\x1b[0m step\x1b[0m", "")
    assert "\x1b" not in console_err and "\x08" not in console_err, console_err[-3000:]
    assert "over^H^H done" in run.stderr.split("safelaunch summary")[1]
