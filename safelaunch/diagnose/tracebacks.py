"""The Python exceptions in a log: which rank raised what, and where in the user's code.

A traceback is ``Traceback (most recent call last):``, indented frame lines, then the
exception line (``TypeError: ...``); rich's boxed tracebacks (accelerate, Lightning) are read
by dropping the box's borders, and IPython's (a notebook's) by its own frame lines.
Exceptions a launcher raises only to report its ranks' failure (``ChildFailedError``,
``CalledProcessError``) are not the ranks' errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from safelaunch.diagnose.launchers import (
    LOWERCASE_EXCEPTIONS,
    TRACEBACK,
    WRAPPED_TYPE,
    ignored_spans,
    inside,
    last_lines_start,
    strip_prefixes,
)

HEAD = TRACEBACK
RAISED_AT = "   (raised at "
"""What follows an exception's text where it is quoted with the user's frame it came from."""
MAX_TRACEBACKS = 200
MAX_FRAME_LINES = 400
EXCEPTION = re.compile(r"^([A-Za-z_][\w.]{0,200}(?:Error|Exception|Exit|Interrupt|Failure"
                       r"|Warning)|[A-Za-z_][\w.]{0,200}\.[A-Z]\w{0,100}|KeyError"
                       r"|StopIteration|AssertionError|Exception|" + LOWERCASE_EXCEPTIONS + ")"
                       + WRAPPED_TYPE + r"(?::|$)")
"""An exception line; Ray's ``RayTaskError(ValueError):`` names the worker's own type too."""
FRAME = re.compile(r'File "([^"\n]{1,500})", line (\d+), in ([^\s]{1,200})'
                   r"|^([^\s:]{1,500}\.py):(\d+) in ([^\s]{1,200})"
                   r"|^File ((?:[A-Za-z]:)?[^:\n]{1,500}\.py):(\d{1,7}), in ([^\s(]{1,200})"
                   r"|^(Cell In\[\d{1,6}\]), line (\d{1,7})(?:, in ([^\s(]{1,200}))?"
                   r"|^(Input In \[\d{1,6}\]), in ([^\s(]{1,200})"
                   r"|^(<ipython-input-\d{1,6}-[0-9a-f]{1,40}>) in ([^\s(]{1,200})"
                   r"|^((?:[A-Za-z]:)?[^\s:<]{1,500}\.py) in ([^\s(]{1,200})\(")
"""A frame line: Python's own, rich's boxed one (``train.py:56 in fail``), IPython's and
Jupyter's: 8.5 on ``File ~/lib/python3.10/site-packages/x.py:123, in f(a, b)`` and a
notebook's cell, the user's own code, ``Cell In[7], line 1``; 8.0 to 8.4 ``Input In [2], in
run()``; 7 ``<ipython-input-2-ba63a9f59e67> in run()`` and ``/path/x.py in f(a, b)``, without
line numbers."""
FRAME_FORMS = ((1, True), (4, True), (7, True), (10, True), (13, False), (15, False),
               (17, False))
"""Each of ``FRAME``'s forms: its first group (the path) and whether a line number follows."""
BOX = re.compile(r"^[ \t]*[│|╭╰][ \t]?|[ \t]?[│|╮╯][ \t]*$")
LAUNCHER_ECHOES = ("ChildFailedError", "CalledProcessError", "SignalException")
LIBRARY_PATHS = ("site-packages", "dist-packages", "<frozen", "/lib/python")


@dataclass
class Raised:
    rank: int | None
    offset: int
    """Where the exception line starts in the text."""
    exception: str
    where: str | None
    """The innermost frame in the user's own code: ``train.py:56 in fail``."""

    @property
    def name(self) -> str:
        return self.exception.split(":", 1)[0].rsplit(".", 1)[-1]


def find(text: str, labels: bool) -> list[Raised]:
    found: list[Raised] = []
    ignored = ignored_spans(text)
    start = 0
    while len(found) < MAX_TRACEBACKS:
        at = text.find(HEAD, start)
        if at < 0:
            break
        start = at + len(HEAD)
        line_start = text.rfind("\n", 0, at) + 1
        rank, _ = strip_prefixes(text[line_start:at + len(HEAD)], labels)
        if inside(ignored, line_start, rank):
            continue  # Python printed it and went on (``Exception ignored in``)
        raised = _read_one(text, text.find("\n", at), rank, labels)
        if raised is not None and raised.name not in LAUNCHER_ECHOES:
            found.append(raised)
    return found


def _read_one(text: str, pos: int, rank: int | None, labels: bool) -> Raised | None:
    """The exception ending the traceback whose frames start after ``pos``."""
    where: str | None = None
    for _ in range(MAX_FRAME_LINES):
        if pos < 0:
            return None
        end = text.find("\n", pos + 1)
        line_rank, line = _traceback_line(text[pos + 1:end if end >= 0 else len(text)], labels)
        if _another_rank(rank, line_rank):
            pos = end
            continue  # another rank's line interleaved with this traceback
        if frame := FRAME.search(line.strip()):
            where = _user_frame(frame) or where
        elif _exception_line(line):
            if HEAD in line:
                return None
            return Raised(rank if rank is not None else line_rank, pos + 1,
                          line.strip()[:300], where)
        elif line.startswith(HEAD):
            return None  # a new traceback began: this one had no exception line
        pos = end
    return None


@dataclass
class Stopped:
    rank: int | None
    offset: int
    """Where the source line of the traceback's innermost call starts in the text."""
    call: str


def stopped_in(text: str, labels: bool) -> Stopped | None:
    """The innermost call of the text's last traceback when the text ends inside it, before
    its exception line (an excerpt cut short): the source line of its last frame that has
    one, with nothing of its rank after it but the marks under it, whole or cut frame lines
    without a source (``<frozen os>``) and blank lines, and at most ``MAX_OTHER_LINES`` lines
    of other ranks.  A log whose head was cut too ends in two frames or more, after whatever
    came before them, unless a logger printed them at a quiet level."""
    start = _reading_start(text, labels)
    if start is None:
        return None
    begin, rank, headed = start
    tail = _Tail()
    for _ in range(MAX_FRAME_LINES):
        if begin >= len(text):
            return tail.call if headed or _headless_stop(text, tail) else None
        end = text.find("\n", begin)
        end = len(text) if end < 0 else end
        line_rank, line = _traceback_line(text[begin:end], labels)
        if _another_rank(rank, line_rank):
            tail.another_rank()
        elif line.strip():
            tail.read(line, begin, rank if rank is not None else line_rank)
        begin = end + 1
    return None


MAX_OTHER_LINES = 20
"""Other ranks' lines after a call that still leave the log cut there (interleaved output
of ranks that stopped too); more, and the run went on."""
QUIET_LOGGED = re.compile(r"\[?[VIDW]\d{4} \d\d:")
"""glog's verbose, info, debug and warning levels: frames a logger reported (torch's graph
break reports) from a run that went on."""


def _headless_stop(text: str, tail: _Tail) -> bool:
    """Frames with no head show a stop where there are enough of them and no logger printed
    them at a quiet level."""
    call = tail.call
    return (call is not None and tail.frames >= MIN_HEADLESS_FRAMES
            and not QUIET_LOGGED.match(text, call.offset))


def _reading_start(text: str, labels: bool) -> tuple[int, int | None, bool] | None:
    """Where to read a cut traceback from: the line after the text's last ``Traceback`` head
    (with that head's rank), else the text's last lines; None for a head Python or a logger
    printed and went on from."""
    at = text.rfind(HEAD)
    if at < 0:
        # the loop reading them stops at MAX_FRAME_LINES
        return last_lines_start(text, MAX_FRAME_LINES // 2), None, False
    line_start = text.rfind("\n", 0, at) + 1
    rank, _ = strip_prefixes(text[line_start:at + len(HEAD)], labels)
    if inside(ignored_spans(text), line_start, rank):
        return None
    return text.find("\n", at) + 1 or len(text), rank, True


@dataclass
class _Tail:
    """What the lines read so far leave: the call the text would stop in, and how many
    frames came since the last line that was not a traceback's."""

    call: Stopped | None = None
    frames: int = 0
    after_frame: bool = False
    others: int = 0
    """Other ranks' lines since the call."""

    def read(self, line: str, begin: int, rank: int | None) -> None:
        code = line.strip()
        framed = _plain_frame(code)
        marks = _marks(code)
        if self.after_frame and not framed and not marks and not _exception_line(line):
            self.call = Stopped(rank, begin, code[:300])
            self.others = 0
        elif not (framed or 'File "' in code or marks):
            self.forget()  # an exception line or other output: not where the text was cut
        self.frames += framed
        self.after_frame = framed

    def another_rank(self) -> None:
        self.others += 1
        if self.call is not None and self.others > MAX_OTHER_LINES:
            self.forget()

    def forget(self) -> None:
        self.call = None
        self.frames = 0


MIN_HEADLESS_FRAMES = 2
"""Frames a log must end in to be a traceback cut at both ends (one may be a quoted line)."""


def _marks(code: str) -> bool:
    """Python 3.11's marks under the failing part of a frame's source line (after whatever
    prefix the log's lines carry): the line ends in a run of ``~`` and ``^`` alone."""
    bare = code.rstrip("~^ \t")
    marks = code[len(bare):]
    return ("~" in marks or "^" in marks) and (not bare or marks[0] in " \t")


def _plain_frame(code: str) -> bool:
    """A frame line of Python's own traceback (``File "...", line N, in f``): the line after
    it is its source (rich's boxed frames show context lines instead)."""
    frame = FRAME.search(code)
    return frame is not None and frame.group(1) is not None


def _traceback_line(raw: str, labels: bool) -> tuple[int | None, str]:
    """The rank a line belongs to and the line without its prefixes and rich's box."""
    line_rank, line = strip_prefixes(raw, labels)
    return line_rank, BOX.sub("", line)


def _another_rank(rank: int | None, line_rank: int | None) -> bool:
    return rank is not None and line_rank is not None and line_rank != rank


def _user_frame(frame: re.Match[str]) -> str | None:
    """``train.py:56 in fail`` for a frame in the user's own code; None for a library's."""
    first, numbered = next(form for form in FRAME_FORMS if frame.group(form[0]) is not None)
    path = frame.group(first)
    if any(part in path for part in LIBRARY_PATHS):
        return None
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if not numbered:
        return f"{name} in {frame.group(first + 1)}"
    number, function = frame.group(first + 1, first + 2)
    return f"{name}:{number} in {function or '<cell>'}"


def _exception_line(line: str) -> bool:
    """An unindented ``SomeError: ...`` line (a Windows line end after it too)."""
    line = line.rstrip("\r")
    return bool(line) and not line[0].isspace() and EXCEPTION.match(line) is not None
