"""The rules file as the diagnosis loads it (``diagnose/kb.py``): facts are members of
``Fact``, and a rules file that names anything else is refused in one line."""

from __future__ import annotations

import re

import pytest

from safelaunch.diagnose.kb import (
    KNOWN_FACTS,
    Fact,
    check_patterns,
    keyword,
    load_rules,
    parse_rules,
)
from safelaunch.errors import ConfigError

RULE = """
- id: made-up
  title: A made-up cause
  facts: {facts}
  explain: for the test
  fixes: [none]
"""


def test_the_shipped_rules_name_facts_by_their_members():
    named = {fact for rule in load_rules() for fact in (*rule.facts, *rule.unless)}
    assert named and all(isinstance(fact, Fact) for fact in named)
    assert named <= set(Fact)
    assert Fact.HANG == "hang" and "hang" in {Fact.HANG} and str(Fact.GPU_WAIT) == "gpu_wait"
    assert {fact.value for fact in Fact} == KNOWN_FACTS


def test_facts_are_read_as_members_from_a_list_or_one_name():
    assert parse_rules(RULE.format(facts="[hang, gpu_wait]"))[0].facts == [Fact.HANG,
                                                                            Fact.GPU_WAIT]
    assert parse_rules(RULE.format(facts="hang"))[0].facts == [Fact.HANG]


@pytest.mark.parametrize("facts", ["[hang, hung]", "[Hang]", "nothing_known"])
def test_an_unknown_fact_is_refused_in_one_line(facts):
    with pytest.raises(ConfigError) as err:
        parse_rules(RULE.format(facts=facts))
    assert "unknown fact(s)" in err.value.message and "\n" not in err.value.message


WARNED_RULE = """
- id: warned
  title: t
  explain: e
  fixes: [f]
{body}
- id: other
  title: t
  explain: e
  fixes: [f]
  patterns: ["other failure"]
"""


def test_a_rules_warning_comes_with_the_rules_it_needs():
    rule = parse_rules(WARNED_RULE.format(body='  warnings: ["a warning"]\n  with: [other]'))[0]
    assert [p.regex.pattern for p in rule.warnings] == ["a warning"] and not rule.patterns
    assert rule.with_rules == ("other",) and not rule.alone
    alone = WARNED_RULE.format(body='  warnings: ["a warning"]\n  with: [other]\n  alone: true')
    assert parse_rules(alone)[0].alone


@pytest.mark.parametrize(("body", "says"), [
    ('  warnings: ["a warning"]', "'warnings' and 'with' go together"),
    ('  patterns: ["x failed"]\n  with: [other]', "'warnings' and 'with' go together"),
    ('  warnings: ["a warning"]\n  with: [nothing]', "'with' names no rule ['nothing']"),
    ('  patterns: ["x failed"]\n  alone: true', "'alone' is about its 'warnings'"),
    ('  patterns: ["x failed"]\n  progress: true', "'progress' is about its 'warnings'"),
    ('  warnings: ["a warning"]\n  with: [other]\n  alone: true\n  progress: true',
     "'alone' and 'progress' or 'repeats' say opposite things"),
    ('  patterns: ["x failed"]\n  repeats: true', "'repeats' is about its 'warnings'"),
])
def test_a_warning_without_its_rules_is_refused_in_one_line(body, says):
    with pytest.raises(ConfigError) as err:
        parse_rules(WARNED_RULE.format(body=body))
    assert says in err.value.message and "\n" not in err.value.message


def test_a_paired_line_comes_with_the_lines_it_needs_near():
    rule = parse_rules(WARNED_RULE.format(body='  paired: ["Bus error"]\n  near: ["ncclX"]'))[0]
    assert [p.regex.pattern for p in rule.paired] == ["Bus error"] and not rule.patterns
    assert [p.regex.pattern for p in rule.near] == ["ncclX"]
    assert len(rule.every_pattern) == 2


@pytest.mark.parametrize("body", ['  paired: ["Bus error"]', '  near: ["ncclX"]'])
def test_a_paired_line_without_its_neighbour_is_refused_in_one_line(body):
    with pytest.raises(ConfigError) as err:
        parse_rules(WARNED_RULE.format(body=body))
    assert "'paired' and 'near' go together" in err.value.message
    assert "\n" not in err.value.message


def test_a_rules_cuda_errors_become_a_pattern_for_each_form_they_are_reported_in():
    rule = parse_rules(WARNED_RULE.format(body="  cuda_errors: [cudaErrorMisalignedAddress]"))[0]
    sources = [p.source for p in rule.patterns]
    assert "cudaErrorMisalignedAddress\\b" in sources
    # the driver's name only as a failure reports it, not as an allocator's retried try
    assert "CUDA_ERROR_MISALIGNED_ADDRESS\\b" not in sources
    assert "results in CUDA_ERROR_MISALIGNED_ADDRESS\\b" in sources
    # a short message counts only in a CUDA error's own words, never alone
    assert "misaligned address" not in sources
    assert "(?:CUDA|HIP) [Ee]rror: misaligned address" in sources
    # a message that names the error alone is one pattern
    plain = parse_rules(WARNED_RULE.format(body="  cuda_errors: [cudaErrorIllegalAddress]"))[0]
    assert "an illegal memory access was encountered" in [p.source for p in plain.patterns]
    assert "CUDA_ERROR_ILLEGAL_ADDRESS\\b" in [p.source for p in plain.patterns]


@pytest.mark.parametrize(("value", "says"), [
    ("[cudaErrorWidget]", "unknown CUDA error(s) ['cudaErrorWidget']"),
    ("[{a: 1}]", "unknown CUDA error(s)"),
    ("cudaErrorAssert", "'cuda_errors' must be a list of CUDA error names"),
])
def test_an_unknown_cuda_error_is_refused_in_one_line(value, says):
    with pytest.raises(ConfigError) as err:
        parse_rules(WARNED_RULE.format(body=f"  cuda_errors: {value}"))
    assert says in err.value.message and "\n" not in err.value.message


def test_how_near_a_paired_line_must_be_is_a_number_of_lines():
    pair = '  paired: ["Bus error"]\n  near: ["ncclX"]'
    assert parse_rules(WARNED_RULE.format(body=pair))[0].near_lines == 30
    assert parse_rules(WARNED_RULE.format(body=pair + "\n  near_lines: 3"))[0].near_lines == 3
    for bad in ("0", "31", "three", "true"):
        with pytest.raises(ConfigError) as err:
            parse_rules(WARNED_RULE.format(body=pair + f"\n  near_lines: {bad}"))
        assert "near_lines must be a whole number from 1 to 30" in err.value.message


@pytest.mark.parametrize(("pattern", "literal"), [
    # groups that may be absent, or offer alternatives, are not required literally
    (r"(?:bash|sh)(?:: line \d{1,6})?: (?:torchrun|python3?): (?:command )?not found",
     "not found"),
    (r"invalid usage(?: \(run with NCCL_DEBUG=WARN for details\))?, NCCL version",
     ", NCCL version"),
    (r"abc(?:def)*ghij", "ghij"),
    (r"(?:x(?:yz)?w)?Message truncated", "Message truncated"),
    (r"plain words here", "plain words here"),
])
def test_a_patterns_keyword_is_a_literal_it_requires(pattern, literal):
    assert keyword(pattern) == literal


def test_every_rules_keyword_is_in_what_its_case_matches():
    from test_rules import CASES

    for rule in load_rules():
        if rule.id not in CASES:
            continue
        text = CASES[rule.id][0]
        for pattern in rule.every_pattern:
            for match in pattern.regex.finditer(text):
                found = match.group(0).lower() if pattern.ignore_case else match.group(0)
                wanted = pattern.keyword or ""
                assert (wanted.lower() if pattern.ignore_case else wanted) in found, (
                    rule.id, pattern.regex.pattern)


@pytest.mark.parametrize(("pattern", "expected"), [
    # what a lookaround asserts, or rules out, is no text the line must hold
    ("(?<!killed by signal: )Bus error", "Bus error"),
    ("(?<!Failed to initialize NumPy: )_ARRAY_API not found", "_ARRAY_API not found"),
    ("Exceeded (?:job|step) memory limit(?! at some point)", " memory limit"),
    ("(?<=torch/)nn/modules", "nn/modules"),
    (r"a\(?<!escaped\)", "<!escaped)"),  # escaped parentheses: no group at all
])
def test_a_keyword_is_text_the_pattern_matches(pattern, expected):
    assert keyword(pattern) == expected


def test_every_shipped_pattern_compiles():
    rules = load_rules()
    check_patterns(rules)
    assert all(isinstance(p.regex, re.Pattern) for rule in rules for p in rule.every_pattern)


def test_a_pattern_is_compiled_when_first_used_and_a_bad_one_is_refused_in_one_line():
    rules = parse_rules(WARNED_RULE.format(body='  patterns: ["(unclosed"]'))
    assert rules[0].patterns[0].source == "(unclosed"  # read, not compiled yet
    with pytest.raises(ConfigError) as err:
        check_patterns(rules)
    assert "bad pattern '(unclosed'" in err.value.message and "\n" not in err.value.message
    with pytest.raises(ConfigError):
        parse_rules(WARNED_RULE.format(body="  patterns: [[a, list]]"))


@pytest.mark.parametrize("text", ["- just a line\n", "- [a, list]\n", "- 7\n"])
def test_a_rule_that_is_not_a_mapping_is_refused_in_one_line(text):
    with pytest.raises(ConfigError) as err:
        parse_rules(text)
    assert str(err.value) == "rules.yaml rule 1: expected a mapping of keys"
