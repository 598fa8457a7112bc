"""Terminal controls from ranks and remote machines never reach the user's terminal as
controls: not on the live console (colours aside), not in the summary, the diagnosis, the
notices or the error line.  The rank files keep the bytes whole (``test_output``)."""

from __future__ import annotations

import os
import re

import pytest

from safelaunch.console import Console
from safelaunch.diagnose.engine import Diagnosis, Evidence, Finding, render
from safelaunch.remote.stream import Follower
from safelaunch.report import render_summary
from safelaunch.supervisor.result import RankOutcome, RankState, RunOutcome, RunStatus
from safelaunch.terminal import live, printable

# (what a rank writes, what safelaunch shows about it)
HOSTILE = [
    ("\x1b]0;pwned title\x07after", "after"),             # OSC: window title, BEL-ended
    ("\x1b]2;title\x1b\\after", "after"),                 # OSC, ST-ended
    ("\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\", "link"),  # OSC 8 hyperlink
    ("\x1b]52;c;cHduZWQ=\x07after", "after"),             # OSC 52: writes the clipboard
    ("\x1b[2Jafter", "after"),                            # clear the screen
    ("\x1b[3J\x1b[Hafter", "after"),                      # clear scrollback, cursor home
    ("\x1b[?1049hafter", "after"),                        # alternate screen
    ("\x1b[?25lafter", "after"),                          # hide the cursor
    ("\x1b[1Aafter", "after"),                            # cursor up
    ("\x1b[10;20Hafter", "after"),                        # cursor position
    ("\x1b[2Kafter", "after"),                            # erase the line
    ("\x1b[31mred\x1b[0m", "red"),                        # colour (SGR)
    ("\x1b[8mhidden\x1b[0m", "hidden"),                   # SGR conceal
    ("\x1bP1$qm\x1b\\after", "after"),                    # DCS (a terminal query)
    ("\x1b_apc\x1b\\after", "after"),                     # APC
    ("\x1b^pm\x07after", "after"),                        # PM
    ("\x1bcafter", "after"),                              # RIS: full terminal reset
    ("\x1b7\x1b8after", "after"),                         # save and restore the cursor
    ("\x1b(0after", "after"),                             # line-drawing character set
    ("before\rafter", "before^Mafter"),                   # carriage return mid-line
    ("abc\x08\x08\x08xyz", "abc^H^H^Hxyz"),               # backspaces
    ("bell\x07", "bell^G"),
    ("del\x7f", "del^?"),
    ("c1\x9b2J", "c1?2J"),                                # C1 CSI
    ("lone\x1b", "lone^["),
    ("\u202egnp.exe", "?gnp.exe"),                        # bidirectional override
    ("\x1b]0;no end", ""),                                # an OSC never ended
]
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize(("raw", "shown"), HOSTILE)
def test_printable_removes_sequences_and_shows_controls(raw, shown):
    assert printable(raw) == shown
    assert printable(shown) == shown


@pytest.mark.parametrize(("raw", "shown"), HOSTILE)
def test_the_live_console_keeps_colours_only(raw, shown):
    out = live(raw.encode() + b"\n")
    # the same as in the summary, but for the colours and the bidirectional override (text,
    # not a terminal control: the live console shows the rank's text as it is)
    expected = raw if raw.startswith("\u202e") else shown
    assert re.sub(rb"\x1b\[[0-9;]*m", b"", out) == expected.encode() + b"\n"
    assert live(out) == out


def test_live_colour_is_reset_at_the_end_of_its_line():
    assert live(b"\x1b[32mgreen\n") == b"\x1b[32mgreen\x1b[0m\n"
    assert live(b"\x1b[1;31mbold\x1b[0m\nplain\n") == b"\x1b[1;31mbold\x1b[0m\nplain\n"
    assert live(b"\x1b[38;5;200mx\x1b[?1049h\n") == b"\x1b[38;5;200mx\x1b[0m\n"
    text = b"plain text, tabs\tand \xff non-UTF-8 bytes\n"
    assert live(text) is text


def test_printable_newlines_and_a_long_hostile_line():
    assert printable("a\nb") == "a^Jb"
    assert printable("a\nb\x1b[2J", keep_newlines=True) == "a\nb"
    assert printable("\x1b]0;x\nnext line", keep_newlines=True) == "\nnext line"
    line = "\x1b[" + "1;" * 200_000 + "\r" * 100_000 + "\x1b]0;" + "x\r" * 200_000
    # a CSI never ended: its ESC and '[' go, its harmless parameters stay; an OSC never
    # ended takes the rest of its line
    assert printable(line) == "1;" * 200_000 + "^M" * 100_000


def _outcome(last_line: str, error: str | None = None) -> RunOutcome:
    rank = RankOutcome(0, 0, 1, RankState.FAILED, 1, 1.0, last_line=last_line, error=error,
                       root_cause=True)
    return RunOutcome(RunStatus.FAILED, 1, "rank 0 failed", "id", "/tmp/x", [rank], 0, 1, 1.0,
                      0.0, ["safelaunch"], notes=[f"note {last_line}"])


@pytest.mark.parametrize(("raw", "shown"), HOSTILE)
def test_the_summary_quotes_a_last_line_harmlessly(raw, shown):
    text = render_summary(_outcome("step 9 " + raw, error="boom " + raw))
    assert CONTROL.search(text.replace("\n", "")) is None and "\x1b" not in text
    assert ("step 9 " + shown).strip() in text


def test_the_diagnosis_quotes_evidence_and_last_lines_harmlessly():
    finding = Finding("x", "a title", 0, "explained", ["fix it"],
                      [Evidence(0, 3, "RuntimeError: \x1b[2J\x1b]0;t\x07gone\r", "rank0.log")])
    for status, findings in (("diagnosed", [finding]), ("unknown_failure", [])):
        diagnosis = Diagnosis(status, "run", 0, "exit code 1", findings,
                              last_lines=["\x1b[?1049hlast\x08", "\x1bcline"])
        text = render(diagnosis)
        assert "\x1b" not in text and "\r" not in text and "\x08" not in text
        assert "last^H" in text and "line" in text
    assert "RuntimeError: gone^M" in render(Diagnosis("diagnosed", "run", 0, None, [finding]))


def _console() -> tuple[Console, int]:
    read, write = os.pipe()
    return Console(out_fd=write, err_fd=write), read


def _read(console: Console, read: int) -> bytes:
    os.close(console._fds["out"])
    with os.fdopen(read, "rb") as pipe:
        return pipe.read()


def test_console_notices_and_rank_output_are_neutralised():
    console, read = _console()
    console.notice("rank 1 said: \x1b[2J\x1b]0;t\x07hi\rthere")
    console.plain("summary \x1b[?1049h\n")
    console.rank_output("out", b"[rank0] \x1b[2J\x1b[32mok\n")
    assert _read(console, read) == (b"[safelaunch] rank 1 said: hi^Mthere\nsummary \n"
                                    b"[rank0] \x1b[32mok\x1b[0m\n")


def test_a_hostile_remote_console_is_neutralised():
    console, read = _console()
    follower = Follower(agent=None, ctl="c", console=console,  # type: ignore[arg-type]
                        connect=None, reconnect_timeout=1, attach_hint="")  # type: ignore[arg-type]
    follower._take(b"[rank0] \x1b]0;owned\x07\x1b[2J\x1b[?1049hstep\n")
    assert follower.offset == len(b"[rank0] \x1b]0;owned\x07\x1b[2J\x1b[?1049hstep\n")
    assert _read(console, read) == b"[rank0] step\n"


def test_the_error_line_is_one_line_whatever_it_quotes(capsys):
    from safelaunch.cli import _error

    _error("unexpected answer: '\x1b[2J\nsecond line\x1b]0;t\x07'")
    assert capsys.readouterr().err == "safelaunch: error: unexpected answer: '^Jsecond line'\n"
