"""A failure line no rule's pattern matches, in the words of a message a rule knows (another
release's wording, a re-cased or re-punctuated copy): its rule is named as the likely cause,
only where nothing else explains a failing log (``resemblance``)."""

from __future__ import annotations

import pytest

from safelaunch.diagnose import diagnose, from_text, render, resemblance
from safelaunch.diagnose.kb import load_rules, parse_rules

RECASED = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 12, in <module>\n'
    "    dist.all_reduce(loss)\n"
    "RuntimeError: tensors must be cuda and dense\n")
"""nccl-cpu-tensor's message as another build words it: every word, other letters' case."""


def _rule(patterns: list[str], rule_id: str = "made-up") -> str:
    quoted = "".join(f"    - {p!r}\n" for p in patterns)
    return (f"- id: {rule_id}\n  title: t\n  explain: e\n  fixes: [f]\n"
            f"  patterns:\n{quoted}")


@pytest.mark.parametrize(("pattern", "wordings"), [
    ("Tensors must be CUDA and dense", [{"tensor", "must", "cuda", "dense"}]),
    # each way through the alternatives; an optional part is not required
    ("(?:NCCL|Gloo) backend (?:does not )?support(?:s)? \\w+ reductions",
     [{"nccl", "backend", "support", "reduction"}, {"gloo", "backend", "support", "reduction"}]),
    # a class of a few letters is read as its first; a wider one parts words
    ("[Ee]ngine world size \\(\\d{1,6}\\) != [Rr]untime world size",
     [{"engine", "world", "size", "runtime"}]),
    ("watchdog[^\\n]{0,200}timeout", []),  # two words: said by too many failures
    ("terminate called after throwing(?! an instance of 'gloo::IoException')", []),
    ("unbalanced (parenthesis", []),
])
def test_a_patterns_wordings_are_the_words_each_way_requires(pattern, wordings):
    assert [set(w) for w in resemblance.pattern_wordings(pattern)] == wordings


def test_words_are_read_without_case_or_plural():
    assert resemblance.words_of("Tensors MUST be on the GPU: 3 tensors") == {
        "tensor", "must", "gpu"}
    assert resemblance.words_of("x" * 10_000 + " tensors") == {"x" * 2000}


def test_a_line_in_a_rules_words_names_that_rule():
    rules = load_rules()
    lines = ["loss 0.31", "RuntimeError: tensors must be cuda and dense",
             "Only dense CUDA tensors are supported for NCCL"]
    assert [(n, r.id) for n, r in resemblance.resembled(lines, rules)] == [
        (1, "nccl-cpu-tensor"), (2, "nccl-cpu-tensor")]


def test_wordings_of_common_words_or_of_two_rules_name_nothing():
    rules = tuple(parse_rules(
        _rule(["Loading a checkpoint for MP=[1-9] but world size is \\d+"], "one")
        + _rule(["world size is \\d+ but loading a \\w+ checkpoint"], "two")
        + _rule(["process exited with error code"], "common")
        + _rule(["error code process exited"], "common-too")
        + _rule(["process exited unexpectedly with error"], "common-three")
        + _rule(["process exited with code \\d+ error"], "common-four")))
    line = "Loading a checkpoint for MP=0 but world size is 1"  # one, or two?
    assert list(resemblance.resembled([line], rules)) == []
    assert list(resemblance.resembled(["error: process exited with code 1"], rules)) == []


def test_a_failure_no_rule_matches_is_named_by_its_words_as_likely():
    result = diagnose(from_text(RECASED, "recased.log"))
    first = result.findings[0]
    assert (first.id, first.likely) == ("nccl-cpu-tensor", True)
    assert first.evidence[0].text.startswith("RuntimeError: tensors must be cuda and dense")
    assert first.evidence[0].resembles
    assert len(result.findings) == 1  # the exception, quoted once: under the likely cause
    assert result.last_lines[-1] == "RuntimeError: tensors must be cuda and dense"
    shown = render(result)
    assert shown.startswith("diagnosis (likely): A CPU tensor was passed to an NCCL collective")
    assert "it has every word of one of this cause's messages" in shown
    assert "  last lines of the log:" in shown


def test_a_matched_cause_or_a_healthy_log_is_left_as_it_is():
    matched = RECASED.replace("tensors must be cuda", "Tensors must be CUDA")
    first = diagnose(from_text(matched, "matched.log")).findings[0]
    assert (first.id, first.likely) == ("nccl-cpu-tensor", False)
    # another rule explains the failure: the line's words add nothing
    oom = RECASED + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    assert diagnose(from_text(oom, "oom.log")).findings[0].id == "cuda-oom"
    # the words in a line that shows no failure: a healthy log stays quiet
    healthy = "step 10 loss 0.2\nnote: tensors must be cuda and dense for NCCL\nstep 11\n"
    assert diagnose(from_text(healthy, "ok.log")).status == "no_failure"
