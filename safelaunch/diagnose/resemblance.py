"""A failure no rule's pattern matches, said in the words of a message a rule knows.

Libraries reword their messages between releases, and logs reach us re-cased, re-punctuated
or with words between a message's words (``CUDA Error: out of memory`` for ``CUDA error: out
of memory``; ``error while attempting to bind on address ...: address already in use``).  A
rule's pattern misses those; its words do not.  Each pattern is read once as its *wordings*:
for each way through its alternatives, the words it requires (optional parts left out).  A
failure line no rule matched, which holds every word of one wording (each word whole, in any
case, order or punctuation, a plural as its singular), is named as that rule's likely cause.

Only wordings of three or more words, at least one of them rare among the rules' words, are
kept: "process exited with error" is said by every failure.  The wording with the most weight
wins (a rare word weighs more than a common one; ties go to the earlier rule).  This is only
read for a failing log that no rule explains: a healthy log is never made loud by it.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from safelaunch.diagnose.kb import Rule

if sys.version_info >= (3, 11):
    import re._parser as _sre_parse
    from re import _constants as _sre
else:
    import sre_constants as _sre
    import sre_parse as _sre_parse

WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")
MIN_WORDS = 3
"""A wording of fewer words is said by too many failures."""
RARE = 3
"""A word that at most this many rules' wordings hold is rare; every wording needs one."""
MANY_WORDS = 5
"""A wording of this many words needs no rare word."""
MAX_WAYS = 24
"""The most ways through one pattern's alternatives that are read."""
MAX_LINE = 2000
"""Only a line's first characters are read."""
UNSAID = frozenset({
    "the", "and", "for", "not", "with", "this", "that", "was", "are", "has", "have", "been",
    "from", "you", "your", "its", "into", "can", "cannot", "could", "should", "will", "than",
    "then", "there", "which", "when"})
"""Words that say nothing of a cause."""
FEW_LITERALS = 4
"""A character class of at most this many letters (``[Ee]``) is read as its first."""


def norm(word: str) -> str:
    """The word in lower case, a plural as its singular (``tensors`` as ``tensor``)."""
    word = word.lower()
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def words_of(text: str) -> frozenset[str]:
    """The words of a text that may say something of a cause (three letters or more)."""
    return frozenset(norm(w) for w in WORD.findall(text[:MAX_LINE])) - UNSAID


class _Excludes(Exception):
    """The pattern rules some text out (a negative lookaround): its words alone are not its
    meaning ("terminate called" is an abort, but not after a peer's IoException)."""


def _ways(items: Iterable[tuple[Any, Any]]) -> list[str]:
    """The texts a parsed pattern requires, one per way through its alternatives (at most
    ``MAX_WAYS``): what it matches literally, a space for anything else, an optional part
    left out, a repeated part once."""
    ways = [""]
    for op, arg in items:
        ways = [way + part for way in ways for part in _parts(op, arg)][:MAX_WAYS]
    return ways


_GROUPS = (_sre.SUBPATTERN, getattr(_sre, "ATOMIC_GROUP", None))
_REPEATS = (_sre.MAX_REPEAT, _sre.MIN_REPEAT, getattr(_sre, "POSSESSIVE_REPEAT", None))


def _parts(op: Any, arg: Any) -> list[str]:
    if op is _sre.LITERAL:
        return [chr(arg)]
    if op is _sre.IN:
        return [_class_letter(arg)]
    if op in _GROUPS:
        return _ways(arg[-1] if op is _sre.SUBPATTERN else arg)
    if op is _sre.BRANCH:
        return [way for branch in arg[1] for way in _ways(branch)][:MAX_WAYS]
    if op in _REPEATS:
        low, _, repeated = arg
        return [" "] if low == 0 else [way + " " for way in _ways(repeated)]
    if op is _sre.ASSERT_NOT:
        raise _Excludes
    if op in (_sre.ASSERT, _sre.AT):
        return [""]  # asserts something of the text around; matches none of it
    return [" "]


def _class_letter(items: list[tuple[Any, Any]]) -> str:
    """A class of a few letters (``[Ee]``) as its first; any other class as a space."""
    letters = [chr(arg) for op, arg in items if op is _sre.LITERAL]
    if letters and len(letters) == len(items) <= FEW_LITERALS and all(c.isalpha() for c in letters):
        return letters[0]
    return " "


@lru_cache(maxsize=2048)
def pattern_wordings(pattern: str) -> tuple[frozenset[str], ...]:
    """The word sets of a regular expression's ways (``MIN_WORDS`` words or more each)."""
    try:
        ways = _ways(_sre_parse.parse(pattern).data)
    except (re.error, RecursionError, OverflowError, _Excludes):
        return ()
    found: list[frozenset[str]] = []
    for way in ways:
        words = words_of(way)
        if len(words) >= MIN_WORDS and words not in found:
            found.append(words)
    return tuple(found)


def _speaks_for_itself(rule: Rule) -> bool:
    """A rule its own lines prove: not a fallback, an echo of another rank's failure, nor a
    cause that needs a fact or a neighbouring line beside its words."""
    return bool(rule.patterns) and not (rule.fallback or rule.consequence or rule.facts
                                        or rule.from_exceptions or rule.from_failures)


@dataclass(frozen=True)
class _Index:
    """The rules that speak for themselves, read cheaply: how many of them say each word
    (in their patterns' text), and each pattern under its keyword's rarest word.  A
    pattern's ways all hold its keyword, so only a line with the keyword's words may hold
    one of them: the few such patterns are read into wordings when a line needs them."""

    rules: tuple[Rule, ...]
    holders: Counter[str]
    by_word: dict[str, list[tuple[int, str]]]
    """A keyword's rarest word -> (the rule's place in ``rules``, the pattern's text)."""

    def telling(self, words: frozenset[str]) -> bool:
        """A wording that tells a cause: a rare word, or many words."""
        return len(words) >= MANY_WORDS or any(self.holders[w] <= RARE for w in words)


def _required_words(keyword: str) -> frozenset[str]:
    """The words a pattern's keyword holds whole: its first and last may be the ends of
    longer words (``ddress`` of ``[Aa]ddress``), unless it has no others."""
    pieces = re.findall(r"\w+", keyword)
    return words_of(" ".join(pieces[1:-1])) or words_of(keyword)


_READ: dict[int, _Index] = {}
"""The index of each rule set read, by its identity (rules hold lists: no hash)."""


def _index(rules: tuple[Rule, ...]) -> _Index:
    known = _READ.get(id(rules))
    if known is not None and known.rules is rules:
        return known
    if len(_READ) >= 4:
        _READ.clear()
    holders: Counter[str] = Counter()
    by_word: dict[str, list[tuple[int, str]]] = {}
    keyed = []
    for place, rule in enumerate(rules):
        if not _speaks_for_itself(rule):
            continue
        holders.update(set().union(*(words_of(p.source) for p in rule.patterns)))
        keyed += [(place, p.source, _required_words(p.keyword or "")) for p in rule.patterns]
    for place, source, words in keyed:
        if words:
            rarest = min(words, key=lambda w: (holders[w], w))
            by_word.setdefault(rarest, []).append((place, source))
    index = _READ[id(rules)] = _Index(rules, holders, by_word)
    return index


def resembled(lines: Iterable[str], rules: tuple[Rule, ...]) -> Iterator[tuple[int, Rule]]:
    """Each line (by its index) that holds every word of a wording of one rule, with that
    rule.  A line that holds wordings of two rules names neither: their words do not tell
    them apart (one of them is told by what its words leave out, a number or a name)."""
    index = _index(rules)
    for number, line in enumerate(lines):
        words = words_of(line)
        held = {place for word in words for place, source in index.by_word.get(word, ())
                if any(w <= words and index.telling(w) for w in pattern_wordings(source))}
        if len(held) == 1:
            yield number, rules[held.pop()]
