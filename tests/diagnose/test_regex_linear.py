"""Every regular expression in safelaunch runs in time linear in the line it reads.

A rank's output line can be megabytes long and is masked on the live path; diagnose reads
whatever logs it is given.  A backtracking engine turns a pattern such as ``ibv_\\w+ failed``
quadratic on ``'ibv_' * 25000``.  Rather than timing patterns (``scripts/bench_regex.py`` does
that), these tests check each pattern's *shape* with a rule under which a search is linear:

every unbounded repeat (``*``, ``+``, ``{n,}``) repeats one character class S and is fenced:
the item just before it must match one character outside S (or be ``^`` / the lookbehind of a
character outside S), and the item just after it must match one character outside S, or be
``$``, or nothing (the repeat ends the pattern).  Then each repeat can only take the whole
run of S it starts on, the runs different attempts start on are different runs, and the
work of all attempts adds up to a constant times the line.  Bounded repeats cost a constant
per attempt.  The few patterns that are linear for a reason this rule cannot see are listed
in ``LINEAR_BY_ARGUMENT`` with the reason.

Then every pattern is run on raw adversarial lines, and masking is checked on a 1 MB line.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from safelaunch.redact import REDACTED, mask_shapes, mask_shapes_bytes

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import bench_regex

try:  # Python 3.11+
    from re import _constants as sre_c  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as sre_c  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

PATTERNS = bench_regex.all_patterns()
ALPHABET = [chr(c) for c in range(0x250)] + ["│", "╭", "╰", "╮", "╯", "\u3000", "\u2028"]
SINGLE = (sre_c.LITERAL, sre_c.NOT_LITERAL, sre_c.IN, sre_c.ANY, sre_c.CATEGORY)
REPEATS = (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT)
JWT = ("an attempt starts only where a run of [A-Za-z0-9_-] starts; its prefix stops at the "
       "run's first 'eyJ' word; every segment ends at a '.' outside it")
LINEAR_BY_ARGUMENT = {
    # where: (the unfenced repeats the rule reports, why the pattern is linear all the same)
    "safelaunch.redact._JWT": (3, JWT),
    "safelaunch.redact._JWT_BYTES": (3, JWT),
    "safelaunch.diagnose.launchers.ROOT_CAUSE_BLOCK": (2, (
        "one attempt per 'Root Cause (first observed failure):' and the body ends the "
        "pattern: each body line is taken whole and nothing after it can fail")),
    "safelaunch.diagnose.reading.ESCAPES": (2, (
        "every attempt starts on an ESC; a CSI's parameter and intermediate runs are disjoint "
        "ranges ended by a final byte outside both, a string sequence's body stops at the next "
        "ESC, BEL or newline: the runs attempts take never overlap")),
    "safelaunch.diagnose.kb.OPTIONAL_GROUP": (1, (
        "the body's repeat stops at a parenthesis and what follows it is fixed; attempts "
        "start on unescaped '(' only")),
    "safelaunch.diagnose.kb.ALTERNATIVES_GROUP": (2, (
        "the alternatives of each repeat start with different characters, the first stops "
        "at a '|', the second at a parenthesis; attempts start on unescaped '(' only")),
    "safelaunch.diagnose.kb.LOOKAROUND_GROUP": (1, (
        "the repeat's alternatives start with different characters and it stops at any "
        "parenthesis; attempts start on unescaped '(?=', '(?!', '(?<=' or '(?<!' only")),
}


def _category_set(code: Any) -> set[str]:
    tests = {
        sre_c.CATEGORY_DIGIT: str.isdecimal, sre_c.CATEGORY_UNI_DIGIT: str.isdecimal,
        sre_c.CATEGORY_SPACE: str.isspace, sre_c.CATEGORY_UNI_SPACE: str.isspace,
        sre_c.CATEGORY_WORD: lambda c: c.isalnum() or c == "_",
        sre_c.CATEGORY_UNI_WORD: lambda c: c.isalnum() or c == "_",
    }
    negated = {sre_c.CATEGORY_NOT_DIGIT: sre_c.CATEGORY_DIGIT,
               sre_c.CATEGORY_UNI_NOT_DIGIT: sre_c.CATEGORY_DIGIT,
               sre_c.CATEGORY_NOT_SPACE: sre_c.CATEGORY_SPACE,
               sre_c.CATEGORY_UNI_NOT_SPACE: sre_c.CATEGORY_SPACE,
               sre_c.CATEGORY_NOT_WORD: sre_c.CATEGORY_WORD,
               sre_c.CATEGORY_UNI_NOT_WORD: sre_c.CATEGORY_WORD}
    if code in negated:
        return set(ALPHABET) - _category_set(negated[code])
    return {c for c in ALPHABET if tests[code](c)}


def char_set(op: Any, av: Any) -> set[str]:
    """The characters one single-character item matches (over ALPHABET)."""
    if op == sre_c.LITERAL:
        return {chr(av)}
    if op == sre_c.NOT_LITERAL:
        return set(ALPHABET) - {chr(av)}
    if op == sre_c.ANY:
        return set(ALPHABET) - {"\n"}
    if op == sre_c.CATEGORY:
        return _category_set(av)
    chars: set[str] = set()
    negate = False
    for sub_op, sub_av in av:
        if sub_op == sre_c.NEGATE:
            negate = True
        elif sub_op == sre_c.RANGE:
            chars |= {chr(c) for c in range(sub_av[0], sub_av[1] + 1)}
        else:
            chars |= char_set(sub_op, sub_av)
    return set(ALPHABET) - chars if negate else chars


def flat(items: Any) -> list[tuple[Any, Any]]:
    """The items of a sequence with groups opened up (a group does not change matching)."""
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op == sre_c.SUBPATTERN:
            out.extend(flat(av[-1]))
        else:
            out.append((op, av))
    return out


WORD = _category_set(sre_c.CATEGORY_WORD)


def _fence(items: list[tuple[Any, Any]], index: int, step: int, run: set[str]) -> bool | None:
    """Whether the neighbours of items[index] on one side make it start (step -1) or end
    (step 1) where the run of its characters starts or ends; None: the sequence ends first.

    Looked through: a repeat of other characters that may match nothing and, on the left,
    single characters of the run itself (``SIG\\w+`` after a ``(``: the run starts at the
    ``(``)."""
    i = index + step
    while 0 <= i < len(items):
        op, av = items[i]
        if op in SINGLE:
            chars = char_set(op, av)
            if not chars & run:
                return True
            if step < 0 and chars <= run:
                i += step
                continue
            return False
        if op == sre_c.AT:
            if step > 0:
                return av in (sre_c.AT_END, sre_c.AT_END_STRING)
            if av == sre_c.AT_BOUNDARY:
                return run <= WORD
            return "\n" not in run and av in (sre_c.AT_BEGINNING, sre_c.AT_BEGINNING_STRING)
        if op == sre_c.ASSERT_NOT and step < 0 and av[0] == -1 and len(av[1]) == 1:
            inner_op, inner_av = next(iter(av[1]))
            return inner_op in SINGLE and run <= char_set(inner_op, inner_av)
        body = list(av[2]) if op in REPEATS else []
        if len(body) == 1 and body[0][0] in SINGLE and not char_set(*body[0]) & run:
            if av[0] >= 1:
                return True
            i += step
            continue
        return False
    return None


def anchored(items: Any, flags: int) -> str:
    """'string': the pattern starts with ``^`` (or ``\\A``), one attempt per string; 'line':
    with MULTILINE, one attempt per line; '' for neither."""
    seq = flat(items)
    if not seq or seq[0][0] != sre_c.AT:
        return ""
    if seq[0][1] == sre_c.AT_BEGINNING_STRING or (
            seq[0][1] == sre_c.AT_BEGINNING and not flags & re.MULTILINE):
        return "string"
    return "line" if seq[0][1] == sre_c.AT_BEGINNING else ""


def unfenced(items: Any, ends_pattern: bool = True, one_attempt: str = "") -> list[str]:
    """The unbounded repeats of a sequence (and of everything nested in it) that are not
    fenced.  ``ends_pattern``: nothing follows the sequence in the pattern; ``one_attempt``:
    the pattern is tried once per string or per line (``anchored``), so where a repeat (that
    stays in its line) starts needs no fence."""
    seq = flat(items)
    bad: list[str] = []
    for i, (op, av) in enumerate(seq):
        last = ends_pattern and i == len(seq) - 1
        if op in REPEATS:
            low, high, body = av
            body = flat(body)
            single = len(body) == 1 and body[0][0] in SINGLE
            if high == sre_c.MAXREPEAT and not (single and last):
                run = char_set(*body[0]) if single else set()
                right = _fence(seq, i, 1, run)
                free = one_attempt == "string" or (one_attempt == "line" and "\n" not in run)
                if not (single and (free or _fence(seq, i, -1, run))
                        and (right or (right is None and ends_pattern))):
                    bad.append(f"{low}..inf of {body}"[:120])
            bad += unfenced(body, ends_pattern=False, one_attempt=one_attempt)
        elif op == sre_c.BRANCH:
            for branch in av[1]:
                bad += unfenced(branch, ends_pattern=last, one_attempt=one_attempt)
        elif op in (sre_c.ASSERT, sre_c.ASSERT_NOT):
            bad += unfenced(av[1], ends_pattern=False, one_attempt=one_attempt)
    return bad


def check(regex: re.Pattern[Any]) -> list[str]:
    parsed = _parsed(regex)
    return unfenced(parsed, one_attempt=anchored(parsed, regex.flags))


def _parsed(regex: re.Pattern[Any]) -> Any:
    pattern = regex.pattern
    if isinstance(pattern, bytes):
        return sre_parse.parse(pattern.decode("latin-1"), re.ASCII | (regex.flags & ~re.UNICODE))
    return sre_parse.parse(pattern, regex.flags)


def test_the_collection_finds_the_patterns_of_every_kind() -> None:
    where = " ".join(f.where for f in PATTERNS)
    assert "rules.yaml nccl-network" in where
    assert "safelaunch.redact._JWT" in where
    assert "safelaunch/supervisor/oom.py" in where  # built per call, from an f-string
    assert len(PATTERNS) > 150


def test_the_rule_sees_a_quadratic_pattern() -> None:
    for text in (r"ibv_\w+ failed", r"[A-Za-z][A-Za-z0-9+.-]*://", r"^\s+(\S.*?) \((.+?):(\d+)\)",
                 r"oom-kill:.*\bpid=1234\b", r"a\d*\d*b"):
        assert check(re.compile(text)), text
    for text in (r"Received \d+ death signal", r"ibv_\w{1,64} failed", r"x[^\s]+",
                 r"^oom_kill (\d+)$", r"exit (-?\d+)\)", r"\(SIG\w+\)", r"\bnccl\w*::",
                 r"^\s+File (.+)$"):
        assert not check(re.compile(text)), text


@pytest.mark.parametrize("found", PATTERNS, ids=[f.where for f in PATTERNS])
def test_every_pattern_is_linear_by_construction(found: bench_regex.Found) -> None:
    expected = LINEAR_BY_ARGUMENT.get(found.where, (0, ""))[0]
    assert len(check(found.regex)) == expected, (found.regex.pattern, check(found.regex))


@pytest.mark.parametrize("found", PATTERNS, ids=[f.where for f in PATTERNS])
def test_every_pattern_gets_through_raw_adversarial_lines(found: bench_regex.Found) -> None:
    """A quadratic pattern would take minutes here (pytest's timeout fails it)."""
    lines = 0
    for _, line in bench_regex.adversarial_lines(found.regex, 20_000, thorough=False):
        bench_regex.run_once(found.regex, line)
        lines += 1
    assert lines > 20


def test_masking_a_1_mb_line() -> None:
    filler = "a://b:" * 20_000 + "eyJ-" * 50_000 + "://" + "x" * 100_000 + ":" * 100_000
    token = "ghp_" + "A" * 36
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    line = (f"{filler} postgres://alice:s3cr3tpass@db:5432/x {filler} token={token} "
            f"x-{jwt} {filler}")
    assert len(line) > 1_000_000
    masked = mask_shapes(line)
    assert masked == line.replace("s3cr3tpass", REDACTED).replace(token, REDACTED).replace(
        jwt, REDACTED)
    assert mask_shapes_bytes(line.encode()) == masked.encode()


def test_url_passwords_with_at_signs_on_a_1_mb_line() -> None:
    """A password runs to the last '@' (issue 29 item 3): segments of ':' and '@', '@' after
    '://' repeated, and a password never closed stay linear."""
    import time

    line = (" a://u:" + ":@" * 100_000 + " a://u:" + "@:" * 100_000 + "//" + " "
            + "a://b:c@" * 50_000 + " a://u:" + "x/" * 100_000 + ":" * 100_000)
    assert len(line) > 1_000_000
    # CPU seconds of this process, not the wall clock: a backtracking pattern takes minutes
    # of CPU on this line, a linear one a fraction of a second, however busy the machine is
    started = time.process_time()
    masked = mask_shapes(line)
    assert mask_shapes_bytes(line.encode()) == masked.encode()
    assert time.process_time() - started < 2.0
    assert masked.startswith(f" a://u:{REDACTED}@ a://u:{REDACTED}@://")
    assert masked.count(REDACTED) == 2 + 50_000


def test_the_kernel_log_reader_still_finds_its_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """oom.kernel_record lost its 'oom-kill:.*\\bpid=N' pattern (quadratic on a line of many
    'oom-kill:'); the lines it finds stay the same."""
    import subprocess

    from safelaunch.supervisor import oom

    def fake_dmesg(log: str) -> None:
        done = subprocess.CompletedProcess(["dmesg"], 0, log.encode(), b"")
        monkeypatch.setattr(oom.subprocess, "run", lambda *a, **k: done)

    listed = ("[  9.1] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),task=python,"
              "pid=4321,uid=0")
    fake_dmesg(f"noise\n{listed}\nmore noise pid=4321\n")
    assert oom.kernel_record(4321) == listed
    fake_dmesg("[ 9.2] Out of memory: Killed process 4321 (python) total-vm:1kB\n")
    assert oom.kernel_record(4321) == "[ 9.2] Out of memory: Killed process 4321 (python) total-vm:1kB"
    fake_dmesg("pid=4321 oom-kill:task=python,pid=43210\noom-kill:x,pid=4321x\n"
               + "oom-kill:" * 20_000 + "\n")
    assert oom.kernel_record(4321) is False


def _anchored(items: Any) -> bool:
    """Whether a parsed pattern can match only at the string's start."""
    if not len(items):
        return False
    op, arg = items[0]
    if op is sre_c.AT:
        return arg is sre_c.AT_BEGINNING
    if op is sre_c.BRANCH:
        return all(_anchored(branch) for branch in arg[1])
    if op is sre_c.SUBPATTERN:
        return _anchored(arg[-1])
    return False


def test_failure_shapes_that_start_with_a_caret_are_anchored_in_every_alternative():
    # launchers tries them as one pattern with match(): an alternative that could match
    # further along the line would be lost
    from safelaunch.diagnose import launchers

    starting = [shape for shape in launchers.SHAPES if shape.pattern.startswith("^")]
    assert starting and all(_anchored(sre_parse.parse(shape.pattern)) for shape in starting)
    assert not _anchored(sre_parse.parse(r"^Killed$|Segmentation fault"))
    assert _anchored(sre_parse.parse(r"^FAILED: x|^nvcc fatal"))
