"""A failure line a rule's pattern matches once letter case is ignored.

Messages reach logs re-cased: another release capitalises them otherwise (vLLM's ``CUDA Error:
out of memory``), another program prints them in lower case (uvicorn's ``address already in
use``), a logger or a forum post shouts them.  Rules match with case, which keeps healthy
logs quiet: a working run's own words in another case are often no failure at all.  So only
where a failing log has no cause but a fallback's are its failure lines matched again without
case; the first rule (in the rules' order) whose pattern matches one is its likely cause.

Not matched without case: a pattern that tells a type from a word by its case (a class such
as ``[A-Z]``), one that rules text out (a negative lookaround: its meaning lies in what it
excludes), and the rules that need more than their own lines (facts, a neighbouring line).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from safelaunch.diagnose.kb import Pattern, Rule

CASED = re.compile(r"A-Z|a-z|\[[A-Z][a-z]\]|\[[a-z][A-Z]\]|\(\?<?!|\\[pP]\{"
                   r"|'[A-Z][A-Z0-9_]{1,40}'|\b[A-Z][A-Z0-9]{0,40}_[A-Z0-9_]{1,40}\b"
                   r"|\b(?:FAILED|ERROR|WARN|WARNING|FATAL|CRITICAL)\b")
"""What makes a pattern's meaning depend on case or on what it rules out: a class of
capitals or of small letters, a letter it already takes in both cases (``[Ii]nput``: the
others it meant to refuse), a negative lookaround, a variable's name in capitals
(``'RANK'``, ``MASTER_ADDR``: a key of that name in small letters is another), a tool's
marker in capitals (ninja's ``FAILED:``)."""
MAX_LINE = 2000
"""Only a line's first characters are read."""


def _speaks_for_itself(rule: Rule) -> bool:
    """A rule its own lines prove: not a fallback, an echo of another rank's failure, nor a
    cause that needs a fact or a neighbouring line beside its words."""
    return bool(rule.patterns) and not (rule.fallback or rule.consequence or rule.facts
                                        or rule.from_exceptions or rule.from_failures)


def _caseless(pattern: Pattern) -> bool:
    """A pattern worth matching again without case (with a keyword to find it by)."""
    return (not pattern.ignore_case and bool(pattern.keyword)
            and not CASED.search(pattern.source))


@lru_cache(maxsize=1024)
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source, re.IGNORECASE | re.MULTILINE)


def recased(lines: Iterable[str], rules: tuple[Rule, ...]) -> Iterator[tuple[int, Rule]]:
    """Each line (by its index) that a rule's pattern matches without case, with the first
    such rule.  A pattern is compiled only for a line that holds its keyword in any case."""
    candidates = [(rule, (p.keyword or "").lower(), p.source) for rule in rules
                  if _speaks_for_itself(rule) for p in rule.patterns if _caseless(p)]
    for number, line in enumerate(lines):
        line = line[:MAX_LINE]
        lowered = line.lower()
        for rule, keyword, source in candidates:
            if keyword in lowered and _compiled(source).search(line):
                yield number, rule
                break
