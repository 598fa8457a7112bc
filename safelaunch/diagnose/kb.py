"""The knowledge base: ``rules.yaml`` loaded into ``Rule`` objects and checked on load.

Each pattern also gets a literal "keyword" (its longest run of plain characters): a rule is
only searched for in a log that contains its keyword, which keeps a 100 MB log fast.  A
pattern is compiled the first time a log holds its keyword: most logs hold few of them, and
compiling every pattern took about a third of a short diagnosis.  ``check_patterns`` compiles
them all (the tests, and anyone who edits the rules).  The file's data and its keywords are
kept in a cache between runs (``rule_cache``), checked again on every load.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from safelaunch import __version__
from safelaunch.diagnose import cuda_errors, rule_cache
from safelaunch.errors import ConfigError


class Fact(str, Enum):
    """What a run's records establish beside its log lines (the summary, the hang analysis,
    the flight recorder, a launcher's report); the rules' ``facts:`` and ``unless:`` name
    them.  A ``str``: it compares, prints and serializes as its value."""

    HANG = "hang"
    UNEVEN_STEPS = "uneven_steps"
    COLLECTIVE_DESYNC = "collective_desync"
    COLLECTIVE_NOT_ENTERED = "collective_not_entered"
    GPU_WAIT = "gpu_wait"
    SHM_SMALL = "shm_small"
    MINIMAL_TEST_FAILED = "minimal_test_failed"
    OOM_RECORD = "oom_record"
    SIGKILL_NOT_OOM = "sigkill_not_oom"
    EXITED_NONZERO = "exited_nonzero"
    PREFLIGHT_FAILED = "preflight_failed"
    NOT_STARTED = "not_started"
    REMOTE_ROOT = "remote_root"
    ROOT_LOST_PEER = "root_lost_peer"
    LAUNCHER_DIED = "launcher_died"
    ROOT_RAISED = "root_raised"
    NO_OTHER_FAILURES = "no_other_failures"
    SRUN_ENDED_STEP = "srun_ended_step"
    ERROR_SHOWN = "error_shown"
    """The log shows an error of the ranks' own: an exception's line (not one a launcher
    raises to report its ranks), or a traceback's frames; not only how a process ended."""

    __hash__ = str.__hash__  # a plain "hang" finds its member in a set

    def __str__(self) -> str:
        return self.value


KNOWN_FACTS = frozenset(fact.value for fact in Fact)
EVIDENCE_SOURCES = ("patterns", "exceptions", "failures")
NEAR_LINES = 30
"""How close a ``near`` line must be to its ``paired`` line by default: a traceback's frames
and its exception, a crash report and its backtrace."""
_SPECIAL = set(".^$*+?{}[]|()")


@dataclass(frozen=True)
class Pattern:
    source: str
    keyword: str | None
    ignore_case: bool

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """The compiled pattern (each line of a log is one line to ``^`` and ``$``)."""
        return re.compile(self.source, re.MULTILINE)


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    explain: str
    fixes: list[str]
    patterns: list[Pattern] = field(default_factory=list)
    signals: list[str] = field(default_factory=list)
    exit_codes: list[int] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    unless: list[Fact] = field(default_factory=list)
    """Facts that rule this cause out (the OOM killer, when no OOM record exists)."""
    consequence: bool = False
    pattern_optional: bool = False
    fallback: bool = False
    """Only when no other cause matched (a plain Python exception, a bare exit code)."""
    from_exceptions: bool = False
    """Evidence is every rank's Python exception (``tracebacks``), not patterns."""
    from_failures: bool = False
    """Evidence is every line that shows a failure by its shape (``launchers.failure_lines``)."""
    needs_failure: bool = False
    """Only in a log that shows a failure or ends at its line: its lines are also printed by
    runs that work and go on."""
    at_exit: bool = False
    """Its lines also count in a traceback Python printed as ignored: a destructor at exit
    that shows its object's set-up failed (elsewhere such tracebacks are not the failure)."""
    symptom: bool = False
    """Also what another rank's failure produces (a timeout waiting for it): named only when
    no other cause is found, and its lines are never taken for another rank's failure."""
    warnings: list[Pattern] = field(default_factory=list)
    """Patterns of a warning that is evidence only beside one of ``with_rules``' evidence or
    where the log ends at it: a cause beside the failure it leads to, noise before another."""
    with_rules: tuple[str, ...] = ()
    alone: bool = False
    """Its warning counts as a log's only line too: no line working runs print once (a
    connect that timed out), so one quoted alone is the failure someone saw."""
    progress: bool = False
    """Its warning is a line every working run prints on its way (each rank joining): a log
    that stops at it is an excerpt as often as a run stuck there, so it counts only beside
    one of ``with_rules``' evidence, or where the run is known to have failed (a run
    directory's summary, a launcher's report) and no rank shows it went past its start (the
    ranks met, or a rank raised an error of its own)."""
    repeats: bool = False
    """Its warning shows a stop only where the log stops at it said more than once (every
    rank waiting, or a retry): once, it is a line every run prints on its way."""
    passed: list[Pattern] = field(default_factory=list)
    """Patterns of a line that shows the step its warning is about was passed (an extension
    built and loaded): between the warning and a ``with`` rule's failure, the failure is the
    run's own."""
    paired: list[Pattern] = field(default_factory=list)
    """Patterns of a line that is evidence only with a line of ``near`` close to it in the same
    log: an exception and the frame it was raised from, a signal and the library it hit."""
    near: list[Pattern] = field(default_factory=list)
    near_lines: int = NEAR_LINES
    """How close the ``near`` line must be (the frame an exception was raised in is the
    traceback's last: two or three lines above it)."""
    stopped_in: list[Pattern] = field(default_factory=list)
    """Patterns of a call whose failures have one cause far more common than the others:
    evidence, as a likely cause, where a log ends in a traceback cut before its exception
    line, inside that call."""

    @property
    def every_pattern(self) -> list[Pattern]:
        """Its patterns, its warnings', its pairs' and its calls' (every regex it searches
        with)."""
        return (self.patterns + self.warnings + self.paired + self.near + self.stopped_in
                + self.passed)


ALTERNATIVES_GROUP = re.compile(r"(?<!\\)\((?:[^()\\|]|\\.)*\|(?:[^()\\]|\\.)*(?<!\\)\)")
"""An innermost group with alternatives, ``(a|b)``: not required literally."""
OPTIONAL_GROUP = re.compile(r"(?<!\\)\((?:[^()\\]|\\.)*(?<!\\)\)(?:\?|\*|\{0(?:,\d{0,6})?\})")
"""An innermost group that may be absent, ``(?:command )?``: not required literally."""
LOOKAROUND_GROUP = re.compile(r"(?<!\\)\(\?<?[=!](?:[^()\\]|\\.)*(?<!\\)\)")
"""A lookahead or lookbehind: what it asserts (or rules out) is not matched text."""


def keyword(pattern: str) -> str | None:
    """The longest run of characters the pattern matches literally (None below 3)."""
    runs: list[str] = []
    run = ""
    i = 0
    text = re.sub(r"^\(\?[a-z]+\)", "", pattern)
    # Groups with alternatives, groups that may be absent and lookarounds (a negative one
    # names text that must be absent) are not required literally: drop them (innermost first).
    while True:
        reduced = OPTIONAL_GROUP.sub(".", LOOKAROUND_GROUP.sub(".", ALTERNATIVES_GROUP.sub(
            ".", text)))
        if reduced == text:
            break
        text = reduced
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt.isalnum():
                runs.append(run)
                run = ""
            else:
                run += nxt
            i += 2
            continue
        if ch in _SPECIAL:
            if ch in "*?{" and run:
                run = run[:-1]
            runs.append(run)
            run = ""
            if ch == "|":  # an alternation: no single literal is required
                return None
            if ch in "[{":  # a character class or a repeat count: nothing literal inside
                close = text.find("]" if ch == "[" else "}", i + 2)
                i = len(text) if close < 0 else close + 1
                continue
        else:
            run += ch
        i += 1
    runs.append(run)
    best = max(runs, key=len)
    return best if len(best) >= 3 else None


RULE_KEYS = {"id", "title", "patterns", "signals", "exit_codes", "facts", "consequence",
             "explain", "fixes", "pattern_optional", "unless", "fallback", "evidence",
             "symptom", "needs_failure", "warnings", "with", "alone", "progress", "repeats",
             "passed", "paired", "near", "near_lines", "stopped_in", "cuda_errors", "at_exit"}
REQUIRED_KEYS = ("id", "title", "explain", "fixes")


def _rule(raw: dict[str, Any], index: int, keywords: dict[str, str | None]) -> Rule:
    where = _where(raw, index)
    _check_keys(raw, where)
    patterns = _patterns(raw, where, keywords)
    warnings, paired, near = _conditional_patterns(raw, where, keywords)
    facts = _facts(raw.get("facts"), where)
    unless = _facts(raw.get("unless"), where)
    source = _evidence_source(raw, where)
    stopped_in = _patterns(raw, where, keywords, "stopped_in")
    if not (patterns or warnings or paired or stopped_in or facts or raw.get("signals")
            or raw.get("exit_codes") or source != "patterns"):
        raise ConfigError(f"{where}: needs patterns, facts, signals or exit_codes")
    return Rule(id=str(raw["id"]), title=str(raw["title"]), explain=str(raw["explain"]).strip(),
                fixes=[str(f) for f in raw["fixes"]], patterns=patterns,
                signals=list(raw.get("signals") or []),
                exit_codes=[int(c) for c in raw.get("exit_codes") or []], facts=facts,
                unless=unless,
                consequence=bool(raw.get("consequence", False)),
                pattern_optional=bool(raw.get("pattern_optional", False)),
                fallback=bool(raw.get("fallback", False)),
                from_exceptions=source == "exceptions",
                from_failures=source == "failures",
                symptom=bool(raw.get("symptom", False)),
                needs_failure=bool(raw.get("needs_failure", False)),
                at_exit=bool(raw.get("at_exit", False)),
                warnings=warnings, with_rules=tuple(str(i) for i in raw.get("with") or ()),
                alone=bool(raw.get("alone", False)), progress=bool(raw.get("progress", False)),
                repeats=bool(raw.get("repeats", False)),
                passed=_patterns(raw, where, keywords, "passed"),
                paired=paired, near=near, near_lines=_near_lines(raw, where),
                stopped_in=stopped_in)


def _where(raw: object, index: int) -> str:
    """How the rule at ``index`` is named in errors (a mapping of keys, or refused)."""
    if not isinstance(raw, dict):
        raise ConfigError(f"rules.yaml rule {index + 1}: expected a mapping of keys")
    return f"rules.yaml rule {index + 1} ({raw.get('id', '?')})"


def _near_lines(raw: dict[str, Any], where: str) -> int:
    value = raw.get("near_lines", NEAR_LINES)
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= NEAR_LINES:
        raise ConfigError(f"{where}: near_lines must be a whole number from 1 to {NEAR_LINES}")
    return value


def _conditional_patterns(raw: dict[str, Any], where: str, keywords: dict[str, str | None]
                          ) -> tuple[list[Pattern], list[Pattern], list[Pattern]]:
    """A rule's lines that count only with others: its warnings (with the rules they need) and
    its paired lines (with the lines that must be near them)."""
    warnings = _patterns(raw, where, keywords, "warnings")
    if bool(warnings) != bool(raw.get("with")):
        raise ConfigError(f"{where}: 'warnings' and 'with' go together")
    for key in ("alone", "progress", "repeats", "passed"):
        if raw.get(key) and not warnings:
            raise ConfigError(f"{where}: '{key}' is about its 'warnings'")
    if raw.get("alone") and (raw.get("progress") or raw.get("repeats")):
        raise ConfigError(f"{where}: 'alone' and 'progress' or 'repeats' say opposite things")
    paired = _patterns(raw, where, keywords, "paired")
    near = _patterns(raw, where, keywords, "near")
    if bool(paired) != bool(near):
        raise ConfigError(f"{where}: 'paired' and 'near' go together")
    return warnings, paired, near


def _check_keys(raw: dict[str, Any], where: str) -> None:
    unknown = set(raw) - RULE_KEYS
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {sorted(unknown)}")
    for key in REQUIRED_KEYS:
        if not raw.get(key):
            raise ConfigError(f"{where}: '{key}' is required")


def _patterns(raw: dict[str, Any], where: str, keywords: dict[str, str | None],
              key: str = "patterns") -> list[Pattern]:
    """The patterns under ``key``, each with its keyword: from ``keywords`` where it holds
    the pattern, else found now and added to it."""
    patterns = []
    texts = list(raw.get(key) or [])
    if key == "patterns":
        texts += _cuda_error_patterns(raw, where)
    for text in texts:
        if not isinstance(text, str) or not text:
            raise ConfigError(f"{where}: bad pattern {text!r}: not a piece of text")
        if text not in keywords:
            keywords[text] = keyword(text)
        patterns.append(Pattern(text, keywords[text], text.startswith("(?i)")))
    return patterns


def _cuda_error_patterns(raw: dict[str, Any], where: str) -> list[str]:
    """The patterns of the CUDA errors the rule names (``cuda_errors``), in every form that
    reports them (``cuda_errors.patterns``)."""
    names = raw.get("cuda_errors") or []
    if not isinstance(names, list):
        raise ConfigError(f"{where}: 'cuda_errors' must be a list of CUDA error names")
    if unknown := [name for name in names
                   if not isinstance(name, str) or name not in cuda_errors.CUDA_ERRORS]:
        raise ConfigError(f"{where}: unknown CUDA error(s) {unknown}; known: "
                          f"{', '.join(cuda_errors.CUDA_ERRORS)}")
    return [text for name in names for text in cuda_errors.patterns(name)]


def check_patterns(rules: list[Rule] | tuple[Rule, ...]) -> None:
    """Compile every pattern of ``rules`` now: a bad one is refused in one line."""
    for rule in rules:
        for pattern in rule.every_pattern:
            try:
                pattern.regex  # noqa: B018 - compiled and kept
            except re.error as exc:
                raise ConfigError(f"rules.yaml rule {rule.id}: bad pattern "
                                  f"{pattern.source!r}: {exc}") from exc


def _facts(value: object, where: str) -> list[Fact]:
    """A rule's ``facts:`` or ``unless:`` (a list, or one name)."""
    if isinstance(value, list):
        names = [str(name) for name in value]
    else:
        names = [str(value)] if value else []
    unknown = sorted(set(names) - KNOWN_FACTS)
    if unknown:
        raise ConfigError(f"{where}: unknown fact(s) {unknown}")
    return [Fact(name) for name in names]


def _evidence_source(raw: dict[str, Any], where: str) -> str:
    source = raw.get("evidence", "patterns")
    if source not in EVIDENCE_SOURCES:
        raise ConfigError(f"{where}: evidence must be one of {list(EVIDENCE_SOURCES)}")
    return str(source)


def _yaml_data(text: str) -> Any:
    """The rule file's plain data, read with libyaml's safe loader where PyYAML has it (about
    ten times faster on the rule file), else the pure-Python one; both build plain data only.
    PyYAML is imported here, not with the module: a cached rule file needs none of it."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(text, Loader=loader)  # a safe loader (above)


def parse_rules(text: str) -> list[Rule]:
    return parse_data(_yaml_data(text), {})


def parse_data(data: Any, keywords: dict[str, str | None]) -> list[Rule]:
    """The rules of the rule file's plain data, checked; ``keywords`` holds the patterns'
    keywords already known (a cache's) and is given the ones found."""
    if not isinstance(data, list):
        raise ConfigError("rules.yaml: expected a list of rules")
    rules = [_rule(raw, i, keywords) for i, raw in enumerate(data)]
    ids = [r.id for r in rules]
    duplicates = {i for i, n in Counter(ids).items() if n > 1}
    if duplicates:
        raise ConfigError(f"rules.yaml: duplicate rule id(s) {sorted(duplicates)}")
    for rule in rules:
        if unknown := set(rule.with_rules) - set(ids):
            raise ConfigError(f"rules.yaml rule {rule.id}: 'with' names no rule {sorted(unknown)}")
    return rules


@lru_cache(maxsize=1)
def _reader_version() -> str:
    """This module's own source (how keywords are found, how rules are built), which names
    the cache's entries with the rule file's text: a new reader never meets an old entry."""
    try:
        return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    except OSError:  # no source to hash (a frozen build): the release then names it
        return __version__


def read_rules(text: str) -> tuple[Rule, ...]:
    """The rules of a rule file's ``text``, through the cache of files already read
    (``rule_cache``): a cached entry that fails the loader's checks is read afresh."""
    cached = rule_cache.read(text, _reader_version())
    if cached is not None:
        with contextlib.suppress(ConfigError, AttributeError, TypeError, ValueError, KeyError):
            return tuple(parse_data(*cached))
    data = _yaml_data(text)
    found: dict[str, str | None] = {}
    rules = tuple(parse_data(data, found))
    rule_cache.write(text, _reader_version(), data, found)
    return rules


@lru_cache(maxsize=1)
def load_rules() -> tuple[Rule, ...]:
    text = resources.files("safelaunch.diagnose").joinpath("rules.yaml").read_text("utf-8")
    return read_rules(text)
