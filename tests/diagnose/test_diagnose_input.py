"""What the diagnosis reads is hostile until checked: huge lines, huge logs, FIFOs, stray
files in a run directory, JSON files of the wrong shape, and patterns that could backtrack."""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess

import pytest

from conftest import safelaunch_cmd
from safelaunch.diagnose import diagnose, from_run_dir, from_text, reading
from safelaunch.diagnose.kb import load_rules
from safelaunch.diagnose.sources import from_body

UNBOUNDED = re.compile(r"(?<!\\)(?:\.|\[\])[*+](?!$)")
CLASS = re.compile(r"\[(?:\\.|[^\]\\])*\]")
"""A character class, its content taken out before looking for what follows it (a ``.+``
inside ``[\\w.+-]`` is no repeat)."""


@pytest.mark.parametrize("rule", [r for r in load_rules() if r.every_pattern],
                         ids=lambda r: r.id)
def test_no_pattern_can_backtrack_over_a_line(rule):
    """A wildcard with an unbounded repeat followed by more pattern is quadratic on a long
    line of near-matches; only bounded repeats ({0,300}) or a trailing ``.*`` are allowed."""
    for pattern in rule.every_pattern:
        assert not UNBOUNDED.search(CLASS.sub("[]", pattern.regex.pattern)), pattern.regex.pattern
        assert not re.search(r"\)[*+]", pattern.regex.pattern), pattern.regex.pattern


class Endless(io.RawIOBase):
    """``size`` bytes of one character and no newline, generated on the fly."""

    def __init__(self, size: int) -> None:
        self.left = size

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        n = min(self.left, reading.CHUNK if n < 0 else n)
        self.left -= n
        return b"x" * n


def test_a_line_without_end_is_cut_and_memory_stays_bounded():
    body = reading.read_stream(Endless(256 << 20))  # type: ignore[arg-type]
    assert len(body.text) == reading.LINE_CAP


def test_long_lines_are_cut_across_chunks(monkeypatch):
    monkeypatch.setattr(reading, "CHUNK", 7)
    data = b"short\n" + b"y" * 50 + b"\nnext line\n"
    monkeypatch.setattr(reading, "LINE_CAP", 20)
    body = reading.read_stream(io.BytesIO(data))
    assert body.text == "short\n" + "y" * 20 + "\nnext line\n"


def test_a_huge_log_keeps_its_end_with_right_line_numbers(monkeypatch):
    monkeypatch.setattr(reading, "CHUNK", 64)
    monkeypatch.setattr(reading, "HEAD_CHARS", 200)
    monkeypatch.setattr(reading, "TAIL_CHARS", 300)
    lines = [f"step {n} loss 0.5\n" for n in range(1000)]
    lines.append("[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB\n")
    body = reading.read_stream(io.BytesIO("".join(lines).encode()))
    assert len(body.text) < 700 and "lines not read" in body.text
    offset = body.text.index("[rank1]")
    assert body.line_at(offset) == 1001
    assert body.line_at(body.text.index("step 1 ")) == 2


def test_utf8_split_across_chunks_survives(monkeypatch):
    monkeypatch.setattr(reading, "CHUNK", 3)
    assert reading.read_stream(io.BytesIO("größe ✓\n".encode())).text == "größe ✓\n"


def test_windows_line_ends_are_line_ends(monkeypatch):
    monkeypatch.setattr(reading, "CHUNK", 5)  # a \r\n split across two chunks
    data = b"step 1\r\nsrun: error: node1: task 1: Exited with exit code 1\r\n"
    body = reading.read_stream(io.BytesIO(data))
    assert body.text == "step 1\nsrun: error: node1: task 1: Exited with exit code 1\n"
    assert from_text(data.decode(), "x.log").root_rank == 1


def test_a_traceback_after_a_progress_bar_drawn_over_itself_is_read():
    """tqdm redraws its bar with \\r: a thousand redraws are one line of a log file, longer
    than LINE_CAP, and the traceback printed after the last one goes on that line: read as a
    terminal shows it, each redraw is a line of its own and the last one holds the traceback."""
    bar = "".join(f"\r{n:3d}%|{'#' * (n // 10):10s}| {n}/1000 [00:{n % 60:02d}<01:00, 9.1it/s]"
                  for n in range(1000))
    data = (bar + "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n").encode()
    assert len(data) > reading.LINE_CAP
    body = reading.read_stream(io.BytesIO(data))
    assert "9.1it/s]Traceback (most recent call last):\n" in body.text
    assert diagnose(from_body(body, "x.log")).findings[0].id == "cuda-oom"


def test_colours_are_dropped_even_across_chunks(monkeypatch):
    monkeypatch.setattr(reading, "CHUNK", 4)
    data = b"\x1b[1;31m[rank1]: RuntimeError\x1b[0m: CUDA error: an illegal memory access\n"
    text = reading.read_stream(io.BytesIO(data)).text
    assert text == "[rank1]: RuntimeError: CUDA error: an illegal memory access\n"
    assert from_text(data.decode(), "x.log").texts[0].text == text


def test_a_progress_bar_drawn_over_itself_keeps_the_files_line_numbers(monkeypatch):
    """Each redraw of a bar reads as a line, but the line numbers quoted are the file's (an
    editor's, ``grep -n``'s): a lone \\r ends no line there, in the kept end of a huge log
    too, and in the reading with wrapped lines joined."""
    bar = "".join(f"\r{n:3d}%|{'#' * (n // 10):10s}| {n}/100" for n in range(100))
    data = ("step 1\n" + bar + "\nTraceback (most recent call last):\n"
            '  File "train.py", line 9, in <module>\n'
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n").encode()
    monkeypatch.setattr(reading, "CHUNK", 7)
    body = reading.read_stream(io.BytesIO(data))
    assert body.line_at(body.text.index("torch.OutOfMemoryError")) == 5
    assert body.line_at(body.text.index(" 99%")) == 2
    assert diagnose(from_body(body, "x.log")).findings[0].evidence[0].line == 5
    assert diagnose(from_text(data.decode(), "x.log")).findings[0].evidence[0].line == 5
    joined = reading.unwrapped(reading.Text(body.text + "x" * 60 + "\nwrapped on\n",
                                            lines=body.lines))
    assert joined is not None and joined.line_at(joined.text.index("torch.Out")) == 5
    monkeypatch.setattr(reading, "HEAD_CHARS", 10)
    monkeypatch.setattr(reading, "TAIL_CHARS", 150)
    body = reading.read_stream(io.BytesIO(data))
    assert "lines not read" in body.text
    assert body.line_at(body.text.index("torch.OutOfMemoryError")) == 5


def test_a_carriage_return_is_a_line_end_whatever_the_chunks(monkeypatch):
    """A lone \\r ends a line even where it is longer than LINE_CAP, and a \\r before an
    escape sequence and a \\n is one line end, wherever the chunks are cut."""
    data = b"a\r\x1b[0m\nb\r\x1b[Kc\r\n" + b"x" * 50 + b"\r" + b"y" * 50 + b"\nz\n"
    monkeypatch.setattr(reading, "LINE_CAP", 20)
    for chunk in range(1, 12):
        monkeypatch.setattr(reading, "CHUNK", chunk)
        body = reading.read_stream(io.BytesIO(data))
        assert body.text == "a\nb\nc\n" + "x" * 20 + "\n" + "y" * 20 + "\nz\n", chunk
        assert body.line_at(body.text.index("z")) == 4


def test_a_long_hyperlink_split_across_chunks_is_dropped(monkeypatch):
    """rich's tracebacks link their files (OSC 8): a sequence longer than 64 characters."""
    link = ("\x1b]8;id=1;file:///home/user/project/src/models/transformer/attention.py\x1b\\"
            "attention.py\x1b]8;;\x1b\\")
    data = ("x" * 40 + "\n" + link + ":12 RuntimeError: boom\n").encode()
    for chunk in (60, 90, 110, 115):
        monkeypatch.setattr(reading, "CHUNK", chunk)
        text = reading.read_stream(io.BytesIO(data)).text
        assert text == "x" * 40 + "\nattention.py:12 RuntimeError: boom\n", chunk


def test_a_long_log_of_varied_lines_still_finds_its_failure():
    """A long log whose lines do not repeat is read by the set of its words: a rule whose
    keyword holds a word the log lacks is skipped, the others are still looked for."""
    rng = random.Random(7)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
             for _ in range(3000)]
    lines = [" ".join(rng.choice(words) for _ in range(rng.randint(3, 14)))
             for _ in range(6000)]
    middle = len(lines) // 2
    failure = ("[rank1]: torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL"
               ".cpp:1691, invalid usage, NCCL version 2.19.3 ncclInvalidUsage: Duplicate GPU "
               "detected : rank 1 and rank 0 both on CUDA device 1000")
    text = "\n".join([*lines[:middle], failure, *lines[middle:]]) + "\n"
    assert len(text) >= 1 << 18
    finding = diagnose(from_text(text, "x.log")).findings[0]
    assert (finding.id, finding.rank) == ("nccl-duplicate-gpu", 1)
    assert diagnose(from_text("\n".join(lines) + "\n", "x.log")).status == "no_failure"


def _diagnose_cli(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(safelaunch_cmd("diagnose", *args), capture_output=True, text=True,
                          timeout=60, **kwargs)  # type: ignore[call-overload]


@pytest.mark.usefixtures("spawn")  # real processes
def test_fifo_and_device_are_refused_in_one_line(tmp_path):
    fifo = tmp_path / "pipe.log"
    os.mkfifo(fifo)
    for target in (str(fifo), "/dev/zero"):
        out = _diagnose_cli(target)
        assert out.returncode == 2, out
        assert out.stderr.count("\n") == 1 and "not a regular file" in out.stderr
        assert "Traceback" not in out.stderr


@pytest.mark.usefixtures("spawn")  # real processes
def test_kernel_files_are_refused_before_a_byte_is_read(tmp_path):
    """/proc/kmsg looks like a regular file; reading it blocks forever and takes the kernel's
    messages away from whoever reads them."""
    link = tmp_path / "rank0.log"
    link.symlink_to("/proc/self/status")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "rank0.log").symlink_to("/proc/self/status")
    targets = ["/proc/self/status", str(link), str(run_dir), "/sys/kernel/mm/transparent_hugepage/enabled"]
    if os.access("/proc/kmsg", os.R_OK):
        targets.append("/proc/kmsg")
    for target in targets:
        if not os.path.exists(target):
            continue
        out = _diagnose_cli(target)
        assert out.returncode == 2, (target, out)
        assert out.stderr.count("\n") == 1 and "is a kernel file under /" in out.stderr, target
        assert "Traceback" not in out.stderr


def test_unreadable_file_is_one_line(tmp_path):
    log = tmp_path / "secret.log"
    log.write_text("x\n")
    log.chmod(0)
    if os.access(log, os.R_OK):  # root reads anything: use a directory we cannot list
        pytest.skip("running as root")
    out = _diagnose_cli(str(log))
    assert out.returncode == 2 and out.stderr.count("\n") == 1


@pytest.mark.usefixtures("spawn")  # real processes
def test_run_dir_with_stray_files_and_wrong_shapes(tmp_path):
    (tmp_path / "rank1.log").write_text(
        "2026-01-01T00:00:00.000Z err [rank1]: ModuleNotFoundError: No module named 'x'\n")
    (tmp_path / "rankX.log").write_text("not a rank\n")
    (tmp_path / "rank.log").write_text("nor this\n")
    (tmp_path / "rank2.log").mkdir()
    (tmp_path / "rank3.log.bak").write_text("old\n")
    shapes: list[object] = [
        [], "text", {"ranks": {"0": 1}, "hang": ["x"], "root_cause_rank": "1"},
        {"ranks": [1, None, {"global_rank": 1, "returncode": "9"}], "hang": {"findings": 3},
         "exit_code": 1, "root_cause_rank": 1},
    ]
    for shape in shapes:
        (tmp_path / "summary.json").write_text(json.dumps(shape))
        (tmp_path / "minimal_test.json").write_text(json.dumps({"passed": False,
                                                                "attempts": "nope"}))
        (tmp_path / "preflight.json").write_text(json.dumps({"results": [1, "x", None]}))
        logs = from_run_dir(tmp_path)
        assert [log.rank for log in logs.texts] == [1]
        result = diagnose(logs)
        assert result.findings and result.findings[0].id in ("minimal-test-failed",
                                                             "module-not-found")
    (tmp_path / "summary.json").write_text("[" * 100_000)
    out = _diagnose_cli(str(tmp_path))
    assert out.returncode == 0 and "Traceback" not in out.stderr


@pytest.mark.usefixtures("spawn")  # real processes
def test_non_utf8_and_nul_bytes(tmp_path):
    log = tmp_path / "binary.log"
    log.write_bytes(b"\xff\xfe\x00\x00[rank1]: RuntimeError: CUDA error: an illegal memory "
                    b"access was encountered\x00\n\xc3")
    out = _diagnose_cli(str(log))
    assert out.returncode == 0 and "illegal memory access" in out.stdout


def test_a_job_that_never_started_is_diagnosed_from_its_summary(tmp_path):
    reason = "rendezvous failed (c10d at 10.0.0.2:29400): connection refused"
    (tmp_path / "summary.json").write_text(json.dumps(
        {"status": "failed", "exit_code": 125, "reason": reason, "ranks": []}))
    result = diagnose(from_run_dir(tmp_path))
    assert [f.id for f in result.findings] == ["not-started"]
    assert result.findings[0].evidence[0].text == reason
    (tmp_path / "preflight.json").write_text(json.dumps({"results": [
        {"name": "disk", "status": "fail", "message": "12 MiB free", "advice": "free space"}]}))
    result = diagnose(from_run_dir(tmp_path))
    assert [f.id for f in result.findings] == ["preflight-failed"]
    assert result.findings[0].evidence[0].text == "disk: 12 MiB free -> free space"
