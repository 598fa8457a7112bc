"""Reading a log of any size in bounded memory and time.

A log is read in chunks and decoded incrementally.  Every line is cut at ``LINE_CAP``
characters (error messages sit at the start of their line, and the rules' patterns then
never see a line long enough to make them slow), and a log larger than ``HEAD_CHARS`` +
``TAIL_CHARS`` keeps its beginning and its end, where failures are reported, with the line
numbers of the end still right.  Typographic dashes, quotes and non-breaking spaces, which
a log copied from a web page or a chat carries instead of ``--`` and ``"`` (``–local_rank``),
are read as their ASCII originals, one character for one, so offsets and lines stay right.
A log a terminal's program wrote is read as the terminal showed it: its escape sequences
(colours, cursor moves) are dropped, Windows' ``\\r\\n`` ends a line like ``\\n``, and a lone
``\\r`` (a progress bar drawn over itself, tqdm's) ends a line too, so a traceback printed after
a thousand redraws of a bar starts a line of its own instead of being cut at ``LINE_CAP``.  Such
a line is not counted: the line numbers stay those an editor, ``grep -n`` and ``sed -n`` give.
A message that a terminal or a web page wrapped onto the next line (``killed by signal: Bus`` /
``error. It is possible ...``) can be read joined again (``unwrapped``).
"""

from __future__ import annotations

import bisect
import codecs
import os
import re
import stat
import sys
from collections import Counter, deque
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import BinaryIO

from safelaunch.errors import UsageError
from safelaunch.terminal import ESCAPES

LINE_CAP = 4096
HEAD_CHARS = 16 << 20
TAIL_CHARS = 112 << 20
CHUNK = 1 << 20
COUNTED_MAX = 1024
TYPOGRAPHIC = {"\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-",
               "\u2015": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'", "\u201a": "'",
               "\u201b": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00a0": " ",
               "\u202f": " "}
MAX_UNWRAP_CHARS = 4 << 20
"""Logs pasted from a terminal or a web page are small; a larger log is not unwrapped."""
UNWRAP_MIN_WIDTH = 40
"""A line shorter than this was ended on purpose, not wrapped."""
WRAP_WIDTH_MIN = 60
"""The narrowest terminal width a log is taken to have been cut at."""
TERMINAL_WIDTHS = (80, 100, 120, 132, 160, 200)
"""Widths terminals open at: one line cut there is enough to say so."""
FILL_WIDTH_MAX = 160
"""The widest a mail, an editor or a forum fills a paragraph at: a log whose longest line is
longer was not filled."""
RECORD_START = 4
"""How many first characters two lines of one kind of record share (a level, a prefix)."""
WRAP_POINT = re.compile(r"\n[a-z]")
SENTENCE_ENDS = " \t:.;!?)]}>"
"""What a line that was ended on purpose ends with: a sentence's end, a field's colon."""
FILL_GOES_ON = re.compile(r"[\w'\"(`/~<]|-\w")
"""How a line a fill broke goes on: a word, a quote, a bracket it opens, a path, a minus sign
or a flag (not a separator, a comment, a list's mark or a logger's bracketed prefix)."""
EXCEPTION_START = re.compile(r"[A-Za-z_][\w.]{0,200}(?:Error|Exception|Exit|Interrupt|Warning)"
                             r"\b")
"""A line that starts as an exception's does (``ValueError: ...``): a record of its own."""
FILL_RUN_MAX = 40
"""The most lines one fill is read joined over: a message longer than that is not one line."""
RECORD_ENDS = ".;!?"
"""What a record (a log line, a sentence) ends with: a fill broke a line there far less often
than the line was one record (a fill breaks at a bracket as at any word)."""
TYPOGRAPHIC_CHARS = re.compile("[" + "".join(TYPOGRAPHIC) + "]")
LINE_ENDS = re.compile("[\r\n]")
ESCAPE_MAX = LINE_CAP
"""An escape sequence this long (a hyperlink's) may be split across two chunks: held back."""


def without_escapes(text: str) -> str:
    """``text`` without escape sequences, each ``\\r\\n`` a ``\\n``; a lone ``\\r`` is kept."""
    if "\x1b" in text:
        text = ESCAPES.sub("", text)
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    return text


def shown(text: str, tail_start: int = -1, tail_first_line: int = 0) -> Text:
    """``text`` (without escape sequences) with each lone ``\\r`` a line end, its lines
    counted as the file's: by its ``\\n`` only."""
    if "\r" not in text:
        return Text(text, tail_start, tail_first_line)
    return Text(text.replace("\r", "\n"), tail_start, tail_first_line, text)


class _Unescaper:
    """``without_escapes`` for a text read in chunks: a ``\\r`` or an escape sequence at the
    end of a chunk may go on in the next one, so it waits for it."""

    def __init__(self) -> None:
        self.held = ""

    def feed(self, chunk: str, final: bool) -> str:
        chunk = self.held + chunk
        self.held = ""
        if final:
            return without_escapes(chunk)
        cut = len(chunk)
        escape = chunk.rfind("\x1b", max(0, cut - ESCAPE_MAX))
        if escape >= 0 and "\n" not in chunk[escape:]:
            cut = escape  # maybe a sequence not yet ended
        chunk, self.held = without_escapes(chunk[:cut]), chunk[cut:]
        if chunk.endswith("\r"):  # maybe the start of a \r\n, once escapes between are gone
            chunk, self.held = chunk[:-1], "\r" + self.held
        return chunk


def plain_punctuation(text: str) -> str:
    """``text`` with typographic dashes, quotes and spaces made ASCII, same length."""
    if text.isascii():
        return text
    return TYPOGRAPHIC_CHARS.sub(lambda match: TYPOGRAPHIC[match.group()], text)


@dataclass
class Text:
    text: str
    tail_start: int = -1
    """Where the kept end begins in ``text`` (-1: nothing was skipped)."""
    tail_first_line: int = 0
    lines: str | None = None
    """The text whose newlines count the lines, where ``text`` has some of them joined, or
    has a line end where the log has a lone ``\\r``."""
    joined: Text | None = field(default=None, init=False, compare=False, repr=False)
    """``unwrapped(self)``, once ``unwrapped`` has made it (``joined_made``)."""
    joined_made: bool = field(default=False, init=False, compare=False, repr=False)
    spaced: Text | None = field(default=None, init=False, compare=False, repr=False)
    """Where ``unwrapped`` read lines cut at a terminal's width: the same cuts read as a fill's
    breaks at words instead, each newline a space (``unwrapped`` makes it:
    ``cut_lines_spaced``)."""
    at_width: str | None = field(default=None, init=False, compare=False, repr=False)
    """``text`` with only the lines a terminal cut at its width joined, where two or more
    were (``unwrapped`` makes it; None: fewer, and one line of a terminal's width may simply
    be that long)."""

    counted: list[tuple[int, int]] = field(default_factory=list, init=False, compare=False,
                                           repr=False)
    """Offsets whose line ``line_at`` has counted, in order, with their lines: the next count
    starts at the nearest one before it (a 100 MB log is counted once, not once a finding;
    once ``COUNTED_MAX`` are kept, a new one takes the place of the one it was counted from)."""

    def line_at(self, offset: int) -> int:
        """The 1-based line number in the original log of the character at ``offset``."""
        text = self.text if self.lines is None else self.lines
        start, line = ((self.tail_start, self.tail_first_line)
                       if 0 <= self.tail_start <= offset else (0, 1))
        at = bisect.bisect_right(self.counted, (offset, sys.maxsize))
        if at and self.counted[at - 1][0] >= start:
            start, line = self.counted[at - 1]
        line += text.count("\n", start, offset)
        if len(self.counted) < COUNTED_MAX:
            self.counted.insert(at, (offset, line))
        elif at and self.counted[at - 1][0] >= start:
            self.counted[at - 1] = (offset, line)  # full: the nearer start, order kept
        return line


def unwrapped(body: Text) -> Text | None:
    """``body`` with each wrapped line joined to the one it continues, or None when no line
    looks wrapped.  Two kinds of wrap are seen:

    * a terminal's, at a fixed width: the log's longest lines (``WRAP_WIDTH_MIN`` or more,
      not a separator of one repeated character) all have one length, at least twice (once
      for a usual terminal width, ``TERMINAL_WIDTHS``, or where the one cut looks like a
      word cut in two: ``_splits_a_word``); each line of that length goes on, without a
      space, on the next.  The newlines it held become spaces at the end of the joined line.
    * a web page's or a chat's, at a word: a long line (``UNWRAP_MIN_WIDTH``) that does not
      end a sentence or a field, and a next line that goes on in lower case; the newline
      becomes a space.
    * a mail's, an editor's or a forum's fill, at a word: every line at most the log's longest
      (``FILL_WIDTH_MAX`` at most), and a long line broken where the next line's first word
      would not have fitted on it (``_fill_breaks``); the newline becomes a space.
    Lines of one width may also be a short paragraph a mail or an editor filled at words
    (``is not`` / ``available.``): the same cuts are read as spaces too, a reading of its own
    (``Text.spaced``).

    Either way the text keeps its length, so offsets, and the line numbers ``line_at``
    gives, stay those of the log."""
    if not body.joined_made:
        body.joined, body.joined_made = _unwrapped(body), True
    return body.joined


def cut_lines_joined(body: Text) -> str:
    """``body``'s text with the lines a terminal cut at its width joined, same length (not
    the lines joined at a word: a page's wrap is told by case alone, and a log of lines that
    begin in lower case, a host name's, looks wrapped everywhere)."""
    unwrapped(body)
    return body.text if body.at_width is None else body.at_width


def cut_lines_spaced(body: Text) -> Text | None:
    """``body`` with the lines a terminal's width cut read as a fill's breaks at words instead
    (each newline a space), where ``unwrapped`` found such cuts; None else."""
    unwrapped(body)
    return body.spaced


def _unwrapped(body: Text) -> Text | None:
    text = body.text
    if len(text) > MAX_UNWRAP_CHARS:
        return None
    joined, cut_at = _joined_at_width(text)
    if len(cut_at) >= 2:
        body.at_width = joined
    lines = text if body.lines is None else body.lines
    if joined is not None:
        # lines of one width may also be a short log's paragraph filled at words ("is not" /
        # "available."): the cuts read as spaces too, a reading of its own
        body.spaced = Text(_spaced(text, _page_wraps(text) | set(cut_at)), body.tail_start,
                           body.tail_first_line, lines)
    words = joined if joined is not None else text
    joins = _page_wraps(words) | _fill_breaks(words, _longest(text))
    if not joins and joined is None:
        return None
    return Text(_spaced(words, joins), body.tail_start, body.tail_first_line, lines)


def _page_wraps(text: str) -> set[int]:
    """The newlines a page or a chat wrapped a long line at, before a word in lower case."""
    return {at for match in WRAP_POINT.finditer(text)
            if (at := match.start()) - text.rfind("\n", 0, at) > UNWRAP_MIN_WIDTH
            and text[at - 1] not in SENTENCE_ENDS}


def _longest(text: str) -> int:
    return max(map(len, text.split("\n")))


def _fill_breaks(text: str, width: int) -> set[int]:
    """The newlines a fill at ``width`` (the log's longest line) broke a long line at: the
    next line's first word would not have fitted on it.  A fill leaves no space at either side
    of its break and does not indent the rest of a line.  A line of its own is: one that ends
    a record (``RECORD_ENDS``) or is indented (a traceback's source line), a separator, a next
    line that starts as other lines of the log do (records of one kind: a logger's level or
    time stamp, a rank's tag, a progress log's next step), as a record does (``FILL_GOES_ON``)
    or as an exception's line does; and one fill is joined over ``FILL_RUN_MAX`` lines at
    most."""
    if not UNWRAP_MIN_WIDTH < width <= FILL_WIDTH_MAX:
        return set()
    breaks: set[int] = set()
    at = 0
    lines = text.split("\n")
    starts = Counter(line[:RECORD_START] for line in lines)
    run = 0
    for line, after in pairwise(lines):
        at += len(line) + 1
        word = _first_word(after)
        if (UNWRAP_MIN_WIDTH < len(line) <= width < len(line) + 1 + len(word)
                and run < FILL_RUN_MAX and FILL_GOES_ON.match(after)
                and not line[0].isspace() and line[-1] not in RECORD_ENDS
                and not line[-1].isspace() and starts[after[:RECORD_START]] < 2
                and _not_a_separator(line) and not EXCEPTION_START.match(after)):
            breaks.add(at - 1)
            run += 1
        else:
            run = 0
    return breaks


def _spaced(text: str, newlines: set[int]) -> str:
    """``text`` with the newlines at ``newlines`` made spaces (same length)."""
    chars = list(text)
    for at in newlines:
        chars[at] = " "
    return "".join(chars)


def _cuts(lines: list[str]) -> set[int]:
    """The numbers of the lines a terminal cut at its width, if the log's longest lines (not
    separators of one repeated character) say so; none else."""
    by_length: dict[int, list[int]] = {}
    for number, line in enumerate(lines[:-1]):
        if len(line) >= WRAP_WIDTH_MIN:
            by_length.setdefault(len(line), []).append(number)
    for width in sorted(by_length, reverse=True):
        numbers = by_length[width]
        if any(_not_a_separator(lines[number]) for number in numbers):
            cut = {number for number in numbers if _goes_on(lines[number], lines[number + 1])
                   and _not_a_separator(lines[number])}
            if len(cut) >= 2 or (cut and width in TERMINAL_WIDTHS):
                return cut
            # one line cut at a width of the window's own: where it cut a word in two
            return {number for number in cut if _splits_a_word(lines[number], lines[number + 1])}
    return set()


def _splits_a_word(line: str, after: str) -> bool:
    """A line that ends in a letter, and a shorter next line that goes on in lower case with
    no space or tab before its first word ends: likely the two halves of one word (``Unabl``
    / ``e to find address``), not a line and the next record (``hellaswag\tacc\t0.79``)."""
    return (line[-1:].isalpha() and after[:1].islower() and len(after) < len(line)
            and "\t" not in after[:len(_first_word(after)) + 1])


def _first_word(line: str) -> str:
    """What the line starts with up to its first space or tab ("" for a blank line)."""
    return line.split(maxsplit=1)[0] if line.strip() else ""


def _not_a_separator(line: str) -> bool:
    """More than two characters in the line (a separator repeats one or two); its start
    nearly always tells."""
    return len(set(line[:64])) > 2 or len(set(line)) > 2


def _goes_on(line: str, after: str) -> bool:
    """Whether the line after one cut at the width goes on with it: not another record of
    its kind (a repeated warning, the next step of a progress log), which starts as it does."""
    return bool(after) and after[:RECORD_START] != line[:RECORD_START]


def _joined_at_width(text: str) -> tuple[str | None, list[int]]:
    """The text with the lines a terminal cut joined (None: none was), and where the newlines
    it joined were."""
    lines = text.split("\n")
    cut = _cuts(lines)
    if not cut:
        return None, []
    out: list[str] = []
    group: list[str] = []
    offsets: list[int] = []
    at = 0
    for number, line in enumerate(lines):
        group.append(line)
        at += len(line) + 1
        if number in cut:
            offsets.append(at - 1)
            continue  # the next line goes on with it
        out.append("".join(group) + " " * (len(group) - 1))
        group = []
    return "\n".join(out), offsets


class _Capper:
    """Cuts lines longer than LINE_CAP across chunk boundaries; a lone ``\\r`` ends a line."""

    def __init__(self) -> None:
        self.column = 0  # characters of the current line seen so far

    def feed(self, chunk: str) -> str:
        pieces = LINE_ENDS.split(chunk) if "\r" in chunk else chunk.split("\n")
        longest = max(map(len, pieces))
        if self.column + longest <= LINE_CAP:
            self.column = len(pieces[-1]) + (self.column if len(pieces) == 1 else 0)
            return chunk
        ends = LINE_ENDS.findall(chunk)
        out = []
        for number, piece in enumerate(pieces):
            if number:
                self.column = 0
                out.append(ends[number - 1])
            room = max(0, LINE_CAP - self.column)
            out.append(piece[:room])
            self.column += len(piece)
        return "".join(out)


def read_stream(stream: BinaryIO) -> Text:
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    unescaper = _Unescaper()
    capper = _Capper()
    head: list[str] = []
    head_size = 0
    tail: deque[str] = deque()
    tail_size = 0
    skipped_lines = 0
    skipped = False
    while True:
        raw = stream.read(CHUNK)
        chunk = capper.feed(unescaper.feed(decoder.decode(raw, final=not raw), final=not raw))
        if chunk and head_size < HEAD_CHARS:
            head.append(chunk)
            head_size += len(chunk)
        elif chunk:
            tail.append(chunk)
            tail_size += len(chunk)
            while tail_size > TAIL_CHARS:
                dropped = tail.popleft()
                tail_size -= len(dropped)
                skipped_lines += dropped.count("\n")
                skipped = True
        if not raw:
            break
    head_text = plain_punctuation("".join(head))
    if not skipped:
        return shown(head_text + plain_punctuation("".join(tail)))
    marker = f"\n[... {skipped_lines} lines not read ...]\n"
    first = head_text.count("\n") + skipped_lines + 1
    return shown(head_text + marker + plain_punctuation("".join(tail)),
                 len(head_text) + len(marker), first)


KERNEL_FILESYSTEMS = ("/proc", "/sys", "/sys/kernel/debug", "/sys/kernel/tracing")
"""Where the kernel makes a file's content as it is read: some reads block forever or consume
what they read (``/proc/kmsg``, ``trace_pipe``), though the files look regular."""


def _kernel_filesystem(device: int) -> str | None:
    for root in KERNEL_FILESYSTEMS:
        try:
            if os.stat(root).st_dev == device:
                return root
        except OSError:
            continue
    return None


def read_path(path: Path) -> Text:
    """A regular file's text; anything else (a FIFO, a device, a directory, a kernel file
    under /proc or /sys) is refused before a byte is read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from exc
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{path} is not a regular file (a FIFO or device? "
                             "pipe it in with: safelaunch diagnose - < FILE)")
        if (root := _kernel_filesystem(info.st_dev)) is not None:
            raise UsageError(f"{path} is a kernel file under {root}: reading it can block "
                             "forever or consume it; copy the text into a file first")
        os.set_blocking(fd, True)
        try:
            return read_stream(stream)
        except OSError as exc:
            raise UsageError(f"cannot read {path}: {exc.strerror}") from exc
