"""Matching the knowledge base against a run's logs: the cause, its proof, its echoes.

The root-cause rank comes from safelaunch's summary or torchrun's ChildFailedError block;
without either, it is the rank of the earliest evidence.  The first rule (in the rule file's
order) with evidence on the root-cause rank is the cause; other matching rules follow, at
most a handful; rules marked ``consequence`` on other ranks are listed as consequences.
A rule's patterns are also tried on the log with its wrapped lines joined again
(``reading.unwrapped``), so a message a terminal, a web page, a mail or an editor broke in
two is still known.
Rules marked ``symptom`` (a collective or store timeout, which a crashed peer produces too)
come after every other cause.  A log that shows a failure by its shape (``launchers``) is
never called healthy: when no rule knows it, the fallback shows the lines that prove it.  A
log with nothing wrong gets "no known failure found", never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any

from safelaunch.diagnose import launchers, recased, tracebacks
from safelaunch.diagnose.kb import Fact, Pattern, Rule, keyword, load_rules
from safelaunch.diagnose.launchers import strip_prefixes
from safelaunch.diagnose.reading import cut_lines_joined, cut_lines_spaced, unwrapped
from safelaunch.diagnose.sources import LogSet, LogText
from safelaunch.terminal import printable

MAX_EVIDENCE = 3
MAX_FINDINGS = 4
MAX_MATCHES = 50
LOCAL_SEARCH_LIMIT = 5000
LAST_LINES = 8
EXIT_REPORT = re.compile(r"exit ?code|exited with code|EXIT CODE|return code|terminated with"
                         r"|[Ss]ignal|Killed|received by"
                         r"|Segmentation fault|core dumped|Aborted|Out Of Memory")
"""A line that reports how a process ended: shown for a cause known by that alone."""
MESSAGE_RANK = re.compile(
    r"\[(?:[^\]\n]{0,80} )?Rank (\d{1,6})\]|\b(?:on|of|from) rank (\d{1,6})\b")


@dataclass
class Evidence:
    rank: int | None
    line: int
    text: str
    file: str
    quoted: bool = False
    """An indented line: a traceback's source context, shown only when nothing else is."""
    inferred: bool = False
    """The call a traceback cut before its exception stops in, or a failure line a rule's
    pattern matches only without case: a cause inferred from it."""
    recased: bool = False
    """Inferred from a line matched without case (``recased``), not from where a traceback
    stops."""
    last: int = 0
    """The last line of the log a joined reading's line holds (0: the line alone)."""

    @property
    def held(self) -> range:
        """The numbers of the log's lines it holds: its own, and those a joined line goes on
        over."""
        return range(self.line, max(self.line, self.last) + 1)


Match = tuple[Rule, list[Evidence]]
"""A rule that holds, with the lines that prove it (none: known by a fact or signal)."""


@dataclass
class Finding:
    id: str
    title: str
    rank: int | None
    explain: str
    fixes: list[str]
    evidence: list[Evidence] = field(default_factory=list)
    likely: bool = False
    """Inferred (from the call a cut traceback stops in, or from a line its patterns match
    only without case), not read from a line its patterns match."""


@dataclass
class Diagnosis:
    status: str
    """``diagnosed``, ``unknown_failure`` or ``no_failure``."""
    source: str
    root_cause_rank: int | None
    root_exit: str | None
    findings: list[Finding] = field(default_factory=list)
    consequences: list[Finding] = field(default_factory=list)
    last_lines: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _evidence(log: LogText, start: int, text: str | None = None) -> Evidence:
    """The evidence of the line starting at ``start``, with the rank it belongs to."""
    end = log.text.find("\n", start)
    line = log.text[start:] if end < 0 else log.text[start:end]
    prefix_rank, line = strip_prefixes(line, log.labels)
    rank = log.rank if log.rank is not None else prefix_rank
    if rank is None and (named := MESSAGE_RANK.search(line)):
        rank = int(named.group(1) or named.group(2))
    return Evidence(rank, log.body.line_at(start), (text or line).strip()[:300], log.path,
                    quoted=text is None and line[:1].isspace())


SHAPES_FROM = 1 << 20
"""A log of at least this many characters is also read as its distinct line shapes."""
DIGITS = str.maketrans("123456789", "000000000")
WORDS_FROM = 1 << 18
"""A log of at least this many characters is also read as the set of its words."""
WORD = re.compile(r"\w+")
_NOT_WORD_BYTES = bytes(b if (chr(b).isalnum() and b < 128) or b == ord("_") or b >= 128 else 32
                        for b in range(256))
"""Every ASCII byte that is not a word character becomes a space; UTF-8's other bytes stay."""


def log_words(text: str) -> set[str]:
    """``set(WORD.findall(text))``, several times faster: the ASCII text is split at bytes
    level, and only the rare pieces with other characters are read by ``WORD`` (one of them
    may hold a letter of another script, or punctuation that is not ASCII)."""
    spaced = text.encode("utf-8", "surrogatepass").translate(_NOT_WORD_BYTES)
    if spaced.isascii():  # most logs: every piece a word, read in one pass
        return set(spaced.decode("ascii").split())
    words: set[str] = set()
    pieces = set(spaced.split())
    for piece in pieces:
        if piece.isascii():
            words.add(piece.decode("ascii"))
        else:
            words.update(WORD.findall(piece.decode("utf-8", "surrogatepass")))
    return words


@lru_cache(maxsize=4096)
def _inner_words(keyword: str) -> tuple[str, ...]:
    """The keyword's words that it holds whole (not its first or last word, which may be
    part of a longer one in the log): each is a word of every line that holds the keyword."""
    return tuple(m.group() for m in WORD.finditer(keyword)
                 if m.start() > 0 and m.end() < len(keyword))


class _Views:
    """What is derived from a reading of a log, once and only when asked: its lower-case
    text, and its distinct line shapes (every digit a 0).  A keyword whose shape is in no line
    shape is in no line: a long log of progress lines is a few hundred characters of shapes,
    so each of the rules' keywords is looked for there, not in every megabyte of the log."""

    def __init__(self) -> None:
        self._lowered: dict[int, str] = {}
        self._shapes: dict[int, str | None] = {}
        self._went_on: dict[tuple[int, bool], list[launchers.Span]] = {}
        self._words: dict[int, set[str] | None] = {}

    def lowered(self, log: LogText) -> str:
        if id(log) not in self._lowered:
            self._lowered[id(log)] = log.text.lower()
        return self._lowered[id(log)]

    def shapes(self, log: LogText) -> str | None:
        """The log's distinct line shapes (None: a short log, or too varied to gain)."""
        if id(log) not in self._shapes:
            self._shapes[id(log)] = _line_shapes(log.text)
        return self._shapes[id(log)]

    def may_hold(self, log: LogText, keyword: str) -> bool:
        shapes = self.shapes(log)
        return shapes is None or "\n" in keyword or keyword.translate(DIGITS) in shapes

    def words(self, log: LogText) -> set[str] | None:
        """The words of a long reading whose lines are too varied for their shapes to gain
        (None: a short one, where counting is cheap, or one read by its shapes)."""
        if id(log) not in self._words:
            varied = len(log.text) >= WORDS_FROM and self.shapes(log) is None
            self._words[id(log)] = log_words(log.text) if varied else None
        return self._words[id(log)]

    def count(self, log: LogText, keyword: str) -> int:
        """How often ``keyword`` occurs in the reading; not counted at all where its shape is
        in no line shape, or a word it holds whole is no word of a long log."""
        if not self.may_hold(log, keyword):
            return 0
        words = self.words(log)
        if words is not None and not all(word in words for word in _inner_words(keyword)):
            return 0
        return log.text.count(keyword)

    def went_on(self, log: LogText, at_exit: bool = False) -> list[launchers.Span]:
        """What the run went on from: the tracebacks Python printed as ignored (a clean-up at
        exit; ``at_exit``: a rule whose lines count there), the failed candidates of
        Inductor's autotuning (never the run's failure), and the tracebacks logged as
        warnings that the log goes on after (where it stops in one, the run stopped there:
        its lines count)."""
        if (id(log), at_exit) not in self._went_on:
            end = _content_end(log.text)
            warned = [span for span in launchers.warned_spans(log.text) if span[1] < end]
            ignored = () if at_exit else launchers.python_ignored_spans(log.text)
            self._went_on[id(log), at_exit] = [
                *ignored, *launchers.skipped_choice_spans(log.text), *warned]
        return self._went_on[id(log), at_exit]


def _line_shapes(text: str) -> str | None:
    """The distinct lines of ``text`` with every digit a 0; None where that saves little."""
    if len(text) < SHAPES_FROM:
        return None
    shapes = "\n".join(dict.fromkeys(text.translate(DIGITS).split("\n")))
    return shapes if len(shapes) * 4 < len(text) else None


def _search(rule: Rule, log: LogText, views: _Views) -> list[Evidence]:
    """The rule's lines in one reading of a log (a line of a joined reading may hold several
    of the log's: ``Evidence.last``)."""
    found: list[Evidence] = []
    text = log.text
    for pattern in rule.patterns:
        if pattern.ignore_case:
            needle = (pattern.keyword or "").lower()
            if needle and needle not in views.lowered(log):
                continue
            starts = _match_lines(pattern.regex.finditer(text), text)
        elif pattern.keyword is None:
            starts = _match_lines(pattern.regex.finditer(text), text)
        else:
            hits = views.count(log, pattern.keyword)
            if not hits:
                continue
            # A rare keyword: try the pattern on the lines that hold it, never on the rest.
            starts = (_keyword_lines(pattern, log) if hits <= LOCAL_SEARCH_LIMIT
                      else _match_lines(pattern.regex.finditer(text), text))
        for start in starts:
            if launchers.inside(views.went_on(log, rule.at_exit), start):
                continue  # an ignored traceback, a logged warning (Dynamo's eager fallback)
            evidence = _evidence(log, start)
            if log.joined:
                evidence.last = _last_line(log, start)
            found.append(evidence)
            if len(found) >= MAX_MATCHES:
                return found
    return found


def _last_line(log: LogText, start: int) -> int:
    end = log.text.find("\n", start)
    return log.body.line_at(len(log.text) if end < 0 else end)


def _match_lines(matches: Iterator[re.Match[str]], text: str) -> Iterator[int]:
    last = -1
    for match in matches:
        start = text.rfind("\n", 0, match.start()) + 1
        if start != last:
            last = start
            yield start


def _keyword_lines(pattern: Pattern, log: LogText) -> Iterator[int]:
    """The lines that hold the pattern's keyword and match it; a pattern anchored at the
    start of a line (``^Killed$``) also matches after the line's rank or host prefixes
    (``[0]<stderr>:Killed``)."""
    assert pattern.keyword is not None
    text = log.text
    anchored = pattern.source.startswith("^")
    # a pattern with a run of white space may go on over a line break (a message wrapped
    # where a space was): its match starts on the keyword's line and may end on the next
    wraps = "\\s" in pattern.source
    at = text.find(pattern.keyword)
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        stop = _next_line_end(text, end) if wraps else end
        match = pattern.regex.search(text, start, stop)
        if (match and match.start() <= end) or (
                anchored and pattern.regex.search(
                    strip_prefixes(text[start:end], log.labels)[1])):
            yield start
        at = text.find(pattern.keyword, end)


def _next_line_end(text: str, end: int) -> int:
    """Where the line after the one ending at ``end`` ends."""
    if end >= len(text):
        return end
    after = text.find("\n", end + 1)
    return len(text) if after < 0 else after


def _echoes(text: str, echoes: list[Rule]) -> bool:
    return any(p.regex.search(text) for rule in echoes for p in rule.patterns)


def _lost_peer(text: str, consequences: list[Rule]) -> bool:
    """A line raised because a peer went away (a consequence, not a symptom such as a
    timeout), not one a level or a retry says the run went on after."""
    return (_echoes(text, consequences)
            and not launchers.QUIET.search(text, 0, launchers.QUIET_READ))


@dataclass
class _Shown:
    """The lines that show a failure by their shape (``_shown``)."""

    lines: list[Evidence] = field(default_factory=list)
    echoed: bool = False
    """An echo of another rank's failure was among them: a rank that failed only because its
    peer went away still failed."""
    own: bool = False
    """A line shows the ranks' own error: an exception (not one a launcher raises to report
    its ranks' exit), or the frames of a traceback cut before its exception."""


def _shown(logs: LogSet, echoes: list[Rule], views: _Views) -> _Shown:
    """The lines that show a failure by their shape, except another rank's echoes; failing
    those, the frames of a traceback cut before its exception."""
    shown = _Shown()
    consequences = [rule for rule in echoes if rule.consequence]
    for log in logs.texts:
        for start in launchers.failure_lines(log.text, log.labels, views.shapes(log)):
            evidence = _evidence(log, start)
            if not _echoes(evidence.text, echoes):
                shown.lines.append(evidence)
                shown.own = shown.own or _own_error(evidence.text)
            else:
                shown.echoed = shown.echoed or _lost_peer(evidence.text, consequences)
            if len(shown.lines) >= MAX_MATCHES:
                return shown
    if not shown.lines:
        for log in logs.texts:
            frames = [_evidence(log, start) for start in launchers.frame_lines(log.text)[-3:]]
            stop = _stop(log)
            shown.lines += frames or ([stop] if stop else [])
            shown.own = shown.own or bool(frames)
    return shown


OWN_ERROR = re.compile(r"(?:[\w.]{1,200}\.)?[A-Z]\w{0,100}(?:Error|Exception) ?:")
"""A Python exception's line, without its traceback where an excerpt cut it."""


def _own_error(line: str) -> bool:
    """Whether a failure line (without its prefixes) is an exception the ranks raised."""
    return bool(OWN_ERROR.match(line)) and not any(
        echo in line for echo in tracebacks.LAUNCHER_ECHOES)


def _stop(log: LogText) -> Evidence | None:
    """The call the log's last traceback stops in, where the log ends before its exception
    line (a traceback's head and one frame: a failure cut short too)."""
    stopped = tracebacks.stopped_in(log.text, log.labels)
    if stopped is None:
        return None
    evidence = _evidence(log, stopped.offset, stopped.call)
    evidence.inferred = True
    if evidence.rank is None:
        evidence.rank = stopped.rank
    return evidence


def _raised(logs: LogSet, echoes: list[Rule]) -> list[Evidence]:
    """The ranks' Python exceptions, except those that only echo another rank's failure."""
    found = []
    for log in logs.texts:
        for raised in tracebacks.find(log.text, log.labels):
            if _echoes(raised.exception, echoes):
                continue
            where = f"{tracebacks.RAISED_AT}{raised.where})" if raised.where else ""
            evidence = _evidence(log, raised.offset, raised.exception + where)
            if evidence.rank is None:
                evidence.rank = raised.rank
            found.append(evidence)
    return found[:MAX_MATCHES]


def _exit_label(returncode: int | None, logs: LogSet) -> str | None:
    if returncode is None:
        return None
    return logs.root_signal if returncode < 0 else f"exit code {returncode}"


def _applies(rule: Rule, logs: LogSet, facts: set[Fact]) -> bool:
    if rule.facts and not set(rule.facts) <= facts:
        return False
    if set(rule.unless) & facts:
        return False
    signal = logs.root_signal
    if rule.signals and signal is not None and signal not in rule.signals:
        return False
    code = logs.root_returncode
    return not (rule.exit_codes and code is not None and code not in rule.exit_codes)


def _readings(logs: LogSet) -> list[LogText]:
    """Each log as written, then as unwrapped where some of its lines were wrapped."""
    readings = list(logs.texts)
    for log in logs.texts:
        if (body := unwrapped(log.body)) is not None:
            readings.append(LogText(body, log.path, log.rank, log.labels, joined=True))
        if (spaced := cut_lines_spaced(log.body)) is not None:
            readings.append(LogText(spaced, log.path, log.rank, log.labels, joined=True))
    return readings


def _patterns_found(rule: Rule, readings: list[LogText], views: _Views) -> list[Evidence]:
    """The rule's lines in every reading; a joined line only where the log's own lines it
    holds showed none (a terminal-wide line joined to the error after it is not evidence
    again)."""
    found: list[Evidence] = []
    seen: set[tuple[str, int]] = set()
    for log in readings:
        for evidence in _search(rule, log, views):
            held = {(evidence.file, line) for line in evidence.held}
            if not held & seen:
                seen |= held
                found.append(evidence)
    return found


def _echo_rules(rules: tuple[Rule, ...]) -> list[Rule]:
    """The rules whose lines may only echo another rank's failure."""
    return [rule for rule in rules if rule.consequence or rule.symptom]


TRACEBACK_HEADS = Rule(id="traceback-heads", title="", explain="", fixes=[], patterns=[
    Pattern(re.escape(launchers.TRACEBACK), launchers.TRACEBACK, False)])
REACHED = Rule(id="ranks-reached", title="", explain="", fixes=[], patterns=[
    Pattern(text, keyword(text), False) for text in (
        # torchrun's agent, Lightning, torch's store-based barrier (torch < 2.3), NCCL's init
        r"Rendezvous complete for workers", r"All distributed processes registered",
        r"Completed store-based barrier", r"NCCL INFO [^\n]{0,300}?Init COMPLETE")])
"""Lines that show the ranks reached each other: a connect warning before one of them was a
retry that then got through, not the cause of a rendezvous failure after it (a store gone at
the job's end)."""


@dataclass
class _EvidenceSources:
    """Where a rule's evidence comes from: the ranks' exceptions, the lines that show a
    failure by their shape, or its own patterns on every reading of the logs."""

    logs: LogSet
    echoes: list[Rule]
    shown: list[Evidence]
    readings: list[LogText]
    views: _Views = field(default_factory=_Views)

    def of(self, rule: Rule) -> list[Evidence]:
        if rule.from_exceptions:
            return self.raised
        if rule.from_failures:
            return self.shown
        return _patterns_found(rule, self.readings, self.views)

    @cached_property
    def raised(self) -> list[Evidence]:
        """The ranks' exceptions, except another rank's echoes (``_raised``), found once a
        diagnosis: the exception rule's evidence, and what tells a run went past its start."""
        return _raised(self.logs, self.echoes)

    @cached_property
    def stops(self) -> list[Evidence]:
        """The call each log's last traceback stops in, where the log ends before its
        exception line: in each reading (a call a terminal wrapped is read joined)."""
        found: list[Evidence] = []
        for log in self.readings:
            stop = _stop(log)
            if stop is not None and not any(stop.file == e.file and stop.line == e.line
                                            for e in found):
                found.append(stop)
        return found

    def stopped_in(self, rule: Rule) -> list[Evidence]:
        return [e for e in self.stops if any(p.regex.search(e.text) for p in rule.stopped_in)]

    @cached_property
    def heads(self) -> list[Evidence]:
        """Where each traceback begins (what no pair of lines may have between them), looked
        for once a diagnosis, not once a paired rule."""
        return self.of(TRACEBACK_HEADS)

    @cached_property
    def reached(self) -> list[Evidence]:
        """Where the ranks showed they reached each other (``REACHED``), looked for once a
        diagnosis, not once a warning rule."""
        return self.of(REACHED)


def _fallback_not_needed(rule: Rule, matches: list[Match], failing: bool) -> bool:
    """A fallback only speaks for a failing log no other cause explains."""
    return rule.fallback and (any(not r.consequence for r, _ in matches) or not failing)


def _where_it_stopped(evidence: list[Evidence], logs: LogSet) -> bool:
    """Whether a line of ``evidence`` is the last line of its log: the run stopped there (an
    excerpt cut in the middle of a copy of the line, repeated, stops there too; a line a
    joined reading holds stops there where any of the log's lines it holds does)."""
    last = {log.path: _stopping_lines(log) for log in logs.texts}
    return any(line in last.get(e.file, ()) for e in evidence for line in e.held)


def _content_end(text: str, end: int | None = None) -> int:
    """Where the text (up to ``end``) ends without the white space after its last line
    (``len(text[:end].rstrip())`` with no copy of a long log)."""
    end = len(text) if end is None else end
    while end and text[end - 1].isspace():
        end -= 1
    return end


CUT_COPY = 20
"""How much of a repeated line a cut last line must hold to be taken for its copy."""


def _stopping_lines(log: LogText) -> tuple[int, ...]:
    """The number of the log's last line; with the one before it where the last line is the
    beginning of that one, cut (a waiting line repeated until the excerpt ends mid-line).
    Lines a terminal cut at its width count as the one line they were (joined, the text keeps
    the offsets of the log)."""
    text = cut_lines_joined(log.body)
    end = _before_native_trace(text, _content_end(text), log.labels)
    start = text.rfind("\n", 0, end) + 1
    last = _lines_of(log, start, end)
    before = text.rfind("\n", 0, max(0, start - 1)) + 1
    cut = strip_prefixes(text[start:end], log.labels)[1]
    if (start and len(cut) >= CUT_COPY
            and strip_prefixes(text[before:start - 1], log.labels)[1].startswith(cut)):
        return last + _lines_of(log, before, start - 1)
    return last


NATIVE_TRACE_LINE = re.compile(
    r"(?:frame #\d{1,4}: |<omitting python frames>$"
    r"|Exception raised from \S{1,300} at \S{1,1000} \(most recent call first\):$)")
"""A line of the C++ backtrace c10 prints under a warning or an error it logs (its "Exception
raised from ..." header, then its frames)."""
NATIVE_TRACE_MAX = 128
"""How many such lines are looked past at a log's end (c10's backtraces hold about 40)."""


def _before_native_trace(text: str, end: int, labels: bool) -> int:
    """Where the log's content ends without the C++ backtrace at its end, if any: the line
    it was printed under (a retry's warning, an error) is where the run stopped."""
    for _ in range(NATIVE_TRACE_MAX):
        start = text.rfind("\n", 0, end) + 1
        line = strip_prefixes(text[start:end], labels)[1].strip()
        if not start or (line and not NATIVE_TRACE_LINE.match(line)):
            return end
        end = _content_end(text, start - 1)
    return end


def _lines_of(log: LogText, start: int, end: int) -> tuple[int, ...]:
    """The numbers of the log's lines from offset ``start`` to ``end`` (one line, or the
    lines a terminal wrapped it onto)."""
    first, last = log.body.line_at(start), log.body.line_at(max(start, end - 1))
    return tuple(range(first, last + 1))


def _known_without_lines(rule: Rule, logs: LogSet) -> bool:
    """The rule holds by the run's facts, or by the root's signal alone."""
    by_fact = rule.facts and set(rule.facts) <= logs.facts
    # the root's signal says nothing about this node's logs when the root is elsewhere
    by_signal = (rule.pattern_optional and rule.signals and logs.root_signal in rule.signals
                 and Fact.REMOTE_ROOT not in logs.facts)
    return bool(by_fact or by_signal)


def _matches(rules: tuple[Rule, ...], logs: LogSet, shown: _Shown,
             views: _Views) -> list[Match]:
    sources = _EvidenceSources(logs, _echo_rules(rules), shown.lines, _readings(logs), views)
    failing = logs.failing or bool(shown.lines) or shown.echoed
    facts = logs.facts | ({Fact.ERROR_SHOWN} if shown.own else set())
    matches: list[Match] = []
    for rule in rules:
        if not _applies(rule, logs, facts) or _fallback_not_needed(rule, matches, failing):
            continue
        evidence = sources.of(rule)
        if rule.warnings:
            evidence = evidence + _warned(rule, rules, sources)
        if rule.paired:
            evidence = evidence + _paired(rule, sources)
        if rule.stopped_in:
            evidence = evidence + sources.stopped_in(rule)
        if rule.needs_failure and not failing and not _where_it_stopped(evidence, logs):
            continue  # lines that working runs print too, and the run went on after them
        if evidence or _known_without_lines(rule, logs):
            matches.append((rule, evidence))
    return matches


GLOG_WARNING = re.compile(r"\[W(?:\d{4})? |(?:^|[\s\]:])W\d{4} \d\d:")
"""A line torch's C++ code logged at its warning level (``[W socket.cpp:558]``,
``[rank0]:[W1123 ...``), after whatever prefixes a logger or a pod put before it."""


ALONE_MAX = 4096
"""A log longer than this is more than one quoted line."""


def _stuck_at(rule: Rule, warned: list[Evidence], sources: _EvidenceSources) -> bool:
    """The log stops at the warning.  Not a log that is one of torch's own logged warnings
    alone, once (c10d's IPv6 lookup and TCPStore's retry, printed by runs that then reach
    their peers): that is a line someone quoted, not a run seen stopping there; a retry that
    never succeeds repeats it, a run that got there shows lines before it.  A rule whose
    warning no working run prints once (``alone``: a connect that timed out) counts there
    too: it is the failure someone quoted.  A rule whose warning every working run prints on
    its way (``progress``) counts there only where the run is known to have failed (a run
    directory's summary, a launcher's report of a failed rank): a pasted excerpt stops there as
    often as a run does, and where no rank went past its start (``_went_past_start``); one
    whose warning every run prints once (``repeats``) only where the log says it again."""
    logs = sources.logs
    if rule.progress and (not logs.failing or _went_past_start(sources)):
        return False
    if rule.repeats and len(warned) < 2:
        return False
    if not _where_it_stopped(warned, logs):
        return False
    return len(warned) > 1 or rule.alone or not any(
        log.path == e.file and len(log.text) <= ALONE_MAX
        and "\n" not in (alone := log.text.strip()) and GLOG_WARNING.search(alone, 0, 300)
        for log in logs.texts for e in warned)


INTERRUPTED = re.compile(r"KeyboardInterrupt|SignalException|SIGINT|SIGTERM")
"""A rank stopped from outside (Ctrl-C, a signal the launcher sent): no error of its own."""


def _went_past_start(sources: _EvidenceSources) -> bool:
    """The ranks met (``REACHED``), or a rank failed with a line of its own (not only a report
    of how it ended): a rank's log that stops at a start-up line (Lightning's joining line,
    which every rank prints, where only rank 0 prints what follows) is not where the run
    stopped.  A rank stopped from outside (Ctrl-C, a signal) raised nothing of its own; the
    frames of a traceback speak through its exception."""
    if sources.reached or any(not INTERRUPTED.search(e.text) for e in sources.raised):
        return True
    return any(not (EXIT_REPORT.search(e.text) or INTERRUPTED.search(e.text)
                    or tracebacks.FRAME.match(e.text)) for e in sources.shown)


def _warned(rule: Rule, rules: tuple[Rule, ...], sources: _EvidenceSources) -> list[Evidence]:
    """The lines of the rule's warning that count: beside the failure it leads to (another
    rule's evidence, ``with``, with no other exception, no sign that the ranks met and no line
    of the rule's ``passed`` between them), or where the log stops at it."""
    warned = sources.of(replace(rule, patterns=rule.warnings, warnings=[]))
    if not warned or _stuck_at(rule, warned, sources):
        return warned
    companions = [other for other in rules if other.id in rule.with_rules]
    beside = [e for other in companions for e in sources.of(other)]
    if not beside:
        return []
    # an exception of its own between the warning and that failure: the warning came before
    # a run that went on and failed apart (its peers' rendezvous then lost the failed rank)
    apart = [e for e in _raised(sources.logs, sources.echoes + companions)
             if not any(e.file == b.file and e.line == b.line for b in beside)]
    apart += sources.reached + sources.of(replace(rule, patterns=rule.passed, warnings=[]))
    if any(_nothing_between(w, b, apart) for w in warned for b in beside):
        return warned
    return []




def _paired(rule: Rule, sources: _EvidenceSources) -> list[Evidence]:
    """The lines of the rule's ``paired`` patterns that have a line of ``near`` within
    ``near_lines`` lines of them, before or after, in the same log, of the same rank, and
    with no traceback begun between them (the frame of an exception chained before it);
    each followed by the closest such neighbour, which the diagnosis quotes too."""
    bare = replace(rule, warnings=[], paired=[], near=[])
    lines = sources.of(replace(bare, patterns=rule.paired))
    if not lines:
        return []
    near = sources.of(replace(bare, patterns=rule.near))
    found: list[Evidence] = []
    for line in lines:
        beside = [n for n in near if _beside(line, n, sources.heads, rule.near_lines)]
        if beside:  # the line, then the closest neighbour that makes it evidence
            closest = min(beside, key=lambda n: abs(n.line - line.line))
            found += [e for e in (line, closest) if e not in found]
    return found


def _same_rank(one: Evidence, other: Evidence) -> bool:
    return one.rank is None or other.rank is None or one.rank == other.rank


def _beside(line: Evidence, near: Evidence, heads: list[Evidence], lines: int) -> bool:
    if near.file != line.file or abs(near.line - line.line) > lines:
        return False
    if not _same_rank(line, near):
        return False  # another rank's lines, interleaved
    low, high = sorted((near.line, line.line))
    return not any(h.file == line.file and low < h.line <= high and _same_rank(h, line)
                   for h in heads)


def _nothing_between(warned: Evidence, failed: Evidence, apart: list[Evidence]) -> bool:
    if warned.file != failed.file:
        return True
    low, high = sorted((warned.line, failed.line))
    return not any(e.file == warned.file and low < e.line < high for e in apart)


def _inferred_last(causes: list[Match]) -> list[Match]:
    """A cause inferred from the call a cut traceback stops in comes after the causes whose
    lines prove them, and before the fallbacks (a fallback whose only line is the call is
    counted as inferred too: it stays behind the rules that name the call's cause)."""
    def inferred(match: Match) -> bool:
        return bool(match[1]) and all(e.inferred for e in match[1])
    read = [m for m in causes if not inferred(m)]
    at = next((i for i, (rule, _) in enumerate(read) if rule.fallback), len(read))
    return read[:at] + [m for m in causes if inferred(m)] + read[at:]


def _recased_first(rules: tuple[Rule, ...], causes: list[Match]) -> list[Match]:
    """Where only a fallback speaks (a failure no rule knows), the rules whose patterns match
    its lines without case (``recased``) come first, as likely causes."""
    if not causes or not causes[0][0].fallback:
        return causes
    lines = [e for rule, evidence in causes if rule.fallback
             for e in (evidence if rule.from_exceptions else _last_of_each_log(evidence))]
    texts = [e.text.split(tracebacks.RAISED_AT, 1)[0] for e in lines]
    found: dict[str, Match] = {}
    for number, rule in recased.recased(texts, rules):
        like = replace(lines[number], inferred=True, recased=True)
        found.setdefault(rule.id, (rule, []))[1].append(like)
    return list(found.values()) + causes


def _last_of_each_log(evidence: list[Evidence]) -> list[Evidence]:
    """The last line of each log: where a log shows failures by their shape alone, an early
    one is often an error the run went on after, its last the one it ended with."""
    last = {e.file: e for e in sorted(evidence, key=lambda e: e.line)}
    return list(last.values())


def _outrank_symptoms(causes: list[Match]) -> list[Match]:
    """A cause its own lines prove comes before a symptom (a timeout waiting for a rank):
    the rank that failed first beats the ranks that waited for it.  Fallbacks and causes
    known by a signal alone (an abort, a bare exit) are the symptom's own end: they stay."""
    def proven(rule: Rule, evidence: list[Evidence]) -> bool:
        return bool(evidence) and not (rule.fallback or rule.symptom or rule.pattern_optional)
    first = next((i for i, (rule, _) in enumerate(causes) if rule.symptom), None)
    if first is None:
        return causes
    promoted = [m for m in causes[first:] if proven(*m)]
    return causes[:first] + promoted + [m for m in causes[first:] if m not in promoted]


def diagnose(logs: LogSet) -> Diagnosis:
    try:
        return _diagnose(logs)
    finally:
        launchers.forget_spans()


def _diagnose(logs: LogSet) -> Diagnosis:
    rules = load_rules()
    views = _Views()
    shown = _shown(logs, _echo_rules(rules), views)
    matches = _matches(rules, logs, shown, views)
    causes = _recased_first(rules, _inferred_last(_outrank_symptoms(
        [(r, ev) for r, ev in matches if not r.consequence])))
    root = _root_rank(logs, causes)
    diagnosis = Diagnosis("no_failure", logs.source, root,
                          _exit_label(logs.root_returncode, logs))
    quoting = _Quoting(logs, root, shown.lines)
    diagnosis.findings = quoting.findings(_root_first(causes, root))
    if diagnosis.findings:
        if diagnosis.findings[0].likely or _fallback_first(diagnosis.findings, causes):
            first = diagnosis.findings[0].rank
            # the rank's own words, unmatched or only read as likely
            diagnosis.last_lines = _last_lines(logs, root if first is None else first)
        diagnosis.consequences = quoting.consequences(matches)
        diagnosis.status = "diagnosed"
    elif logs.failing:
        diagnosis.status = "unknown_failure"
        diagnosis.last_lines = _last_lines(logs, root)
    return diagnosis


def _root_rank(logs: LogSet, causes: list[Match]) -> int | None:
    """The launcher's or the summary's root-cause rank, else the rank of the earliest
    evidence of a cause."""
    if logs.root_rank is not None:
        return logs.root_rank
    firsts = [e for _, ev in causes for e in ev[:1]]
    ranked = [e for e in firsts if e.rank is not None]
    return ranked[0].rank if ranked else None


def _on_rank(evidence: list[Evidence], root: int | None) -> bool:
    return root is None or not evidence or any(e.rank in (root, None) for e in evidence)


def _root_first(causes: list[Match], root: int | None) -> list[Match]:
    """The causes with evidence on the root-cause rank, then the others, each in order."""
    on_root = [(r, ev) for r, ev in causes if _on_rank(ev, root)]
    return on_root + [m for m in causes if m not in on_root]


def _fallback_first(findings: list[Finding], causes: list[Match]) -> bool:
    return any(r.fallback and r.id == findings[0].id for r, _ in causes)


@dataclass
class _Quoting:
    """Turns causes into findings, each log line quoted under one cause only: the first,
    most specific one."""

    logs: LogSet
    root: int | None
    shown: list[Evidence]
    """The lines that show a failure by their shape."""
    quoted: set[tuple[str, int]] = field(default_factory=set)

    def findings(self, ordered: list[Match]) -> list[Finding]:
        found: list[Finding] = []
        for rule, evidence in ordered:
            finding = self._finding(rule, evidence, first=not found)
            if finding is None:
                continue
            found.append(finding)
            if len(found) >= MAX_FINDINGS:
                break
        return found

    def _finding(self, rule: Rule, evidence: list[Evidence], first: bool) -> Finding | None:
        preferred = self._preferred(evidence)
        if evidence and not preferred and not rule.facts:
            return None  # every line of it is already shown under a more specific cause
        by_exit = not evidence and not rule.facts and first
        if by_exit:
            preferred = self._exit_reports()
        self.quoted.update((e.file, e.line) for e in preferred[:MAX_EVIDENCE])
        if rule.facts:
            rank = self._fact_rank(rule)
        else:
            rank = self.root if by_exit or not preferred else preferred[0].rank
        finding = Finding(rule.id, rule.title, rank, rule.explain, rule.fixes,
                          preferred[:MAX_EVIDENCE],
                          likely=bool(preferred) and not rule.fallback
                          and all(e.inferred for e in preferred))
        finding.evidence += self._fact_evidence(rule)
        return finding

    def _fact_rank(self, rule: Rule) -> int | None:
        """The rank a fact names (the rank that never entered a collective), else the root."""
        named = (self.logs.fact_ranks.get(fact) for fact in rule.facts)
        return next((ranks[0] for ranks in named if ranks), self.root)

    def _preferred(self, evidence: list[Evidence]) -> list[Evidence]:
        """The root's lines first, a quoted source line last; none already quoted."""
        root = self.root
        return [e for e in sorted(evidence, key=lambda e: (e.rank != root, e.quoted, e.line))
                if (e.file, e.line) not in self.quoted or not e.line]

    def _exit_reports(self) -> list[Evidence]:
        """Known by the root's exit or signal alone: the lines that report it."""
        return sorted((e for e in self.shown if EXIT_REPORT.search(e.text)),
                      key=lambda e: e.rank != self.root)[:MAX_EVIDENCE]

    def _fact_evidence(self, rule: Rule) -> list[Evidence]:
        return [Evidence(None, 0, text, self.logs.fact_file)
                for fact in rule.facts
                for text in self.logs.fact_evidence.get(fact, [])[:MAX_EVIDENCE]]

    def consequences(self, matches: list[Match]) -> list[Finding]:
        """Other ranks' lines that echo the failure, not quoted under a cause."""
        found = []
        for rule, evidence in matches:
            echoes = [e for e in evidence if rule.consequence and e.rank != self.root
                      and (e.file, e.line) not in self.quoted]
            if echoes:
                found.append(Finding(rule.id, rule.title, echoes[0].rank, rule.explain,
                                     rule.fixes, echoes[:MAX_EVIDENCE]))
        return found


def _last_lines(logs: LogSet, rank: int | None) -> list[str]:
    for log in logs.texts:
        if rank is None or log.rank in (rank, None):
            lines = [line for line in log.text[-200_000:].splitlines()[-400:] if line.strip()]
            if log.rank is None and rank is not None:
                own = [text for r, text in (strip_prefixes(line, log.labels) for line in lines)
                       if r == rank]
                lines = own or lines
            return lines[-LAST_LINES:]
    return []


def render(diagnosis: Diagnosis) -> str:
    """The diagnosis for people; the logs' words are quoted with their terminal controls made
    visible (``terminal.printable``)."""
    return "".join(printable(line) + "\n" for line in _render_lines(diagnosis))


def _render_lines(diagnosis: Diagnosis) -> list[str]:
    if diagnosis.status == "no_failure":
        return ["diagnosis: no known failure found"]
    where = (f"rank {diagnosis.root_cause_rank}" if diagnosis.root_cause_rank is not None
             else "unknown rank")
    if diagnosis.status == "unknown_failure":
        return _unknown_lines(diagnosis, where)
    lines = []
    for number, finding in enumerate(diagnosis.findings):
        lines += _finding_lines(diagnosis, finding, where, first=number == 0)
    for echo in diagnosis.consequences:
        ev = echo.evidence[0]
        lines.append(f"consequence: rank {echo.rank}: {ev.text} (line {ev.line}), caused by "
                     f"{where}'s failure")
    return lines


def _unknown_lines(diagnosis: Diagnosis, where: str) -> list[str]:
    exit_text = f", {diagnosis.root_exit}" if diagnosis.root_exit else ""
    return [f"diagnosis: no known cause; root cause {where}{exit_text}",
            "last lines of that rank:",
            *(f"  {line}" for line in diagnosis.last_lines),
            "Please report it with the output of 'safelaunch env' and these lines."]


def _finding_lines(diagnosis: Diagnosis, finding: Finding, where: str,
                   first: bool) -> list[str]:
    """A finding: the first with its explanation, the rank's last lines and the fixes."""
    rank = (f"rank {finding.rank}" if finding.rank is not None
            else where if diagnosis.root_cause_rank is not None else "")
    lines = [_head_line(diagnosis, finding, rank, first)]
    if finding.likely and any(e.recased for e in finding.evidence):
        lines.append("  no rule matches the line quoted below as written; it is this cause's "
                     "message in other letter case (another release's, or a re-cased copy)")
    elif finding.likely:
        lines.append("  the log ends in a traceback cut before its error line; the call it "
                     "stops in (quoted below) usually fails for this reason")
    if first:
        lines.append(f"  {finding.explain}")
    lines += [_evidence_line(ev) for ev in finding.evidence]
    if first:
        lines += _closing_lines(diagnosis, finding, rank)
    return lines


def _head_line(diagnosis: Diagnosis, finding: Finding, rank: str, first: bool) -> str:
    """``diagnosis: TITLE (rank R, exit)``; ``also:`` for the causes after the first."""
    exit_text = diagnosis.root_exit if first else None
    root = diagnosis.root_cause_rank
    if exit_text and root is not None and finding.rank not in (None, root):
        exit_text = f"rank {root}: {exit_text}"  # not the named rank's own exit
    about = ", ".join(part for part in (rank, exit_text) if part)
    head = ("diagnosis" if first else "also") + (" (likely)" if finding.likely else "")
    return f"{head}: {finding.title}" + (f" ({about})" if about else "")


def _evidence_line(ev: Evidence) -> str:
    loc = (f"rank {ev.rank}, line {ev.line}" if ev.rank is not None and ev.line
           else f"line {ev.line}" if ev.line else ev.file)
    return f"  > {ev.text}   [{loc}]"


def _closing_lines(diagnosis: Diagnosis, finding: Finding, rank: str) -> list[str]:
    lines = []
    if diagnosis.last_lines:
        lines.append(f"  last lines of {rank or 'the log'}:")
        lines += [f"    {line}" for line in diagnosis.last_lines]
    lines.append("  fix:")
    lines += [f"    - {fix}" for fix in finding.fixes]
    return lines
