"""A failure line a rule's pattern matches only without letter case (another release's
capitals, a re-cased copy): its rule is the likely cause, only where nothing else explains a
failing log (``recased``)."""

from __future__ import annotations

import pytest

from safelaunch.diagnose import diagnose, from_text, recased, render
from safelaunch.diagnose.kb import load_rules, parse_rules

RECASED = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 12, in <module>\n'
    "    dist.all_reduce(loss)\n"
    "RuntimeError: tensors must be cuda and dense\n")
"""nccl-cpu-tensor's message (``Tensors must be CUDA and dense``) in other capitals."""


def _rules(*patterns: str) -> tuple:
    text = "".join(f"- id: rule-{n}\n  title: t\n  explain: e\n  fixes: [f]\n"
                   f"  patterns:\n    - {p!r}\n" for n, p in enumerate(patterns))
    return tuple(parse_rules(text))


def test_a_line_in_other_capitals_names_the_first_rule_that_matches_it():
    rules = _rules("Widget refused", "widget REFUSED by frobnicator", "frobnicator")
    lines = ["step 1", "WIDGET REFUSED BY FROBNICATOR", "widget refused by frobnicator"]
    assert [(n, r.id) for n, r in recased.recased(lines, rules)] == [
        (1, "rule-0"), (2, "rule-0")]


@pytest.mark.parametrize("pattern", [
    "[A-Z]\\w{1,40}Error: widget refused",  # tells a type from a word by its case
    "[Ww]idget refused",  # takes the letter in both cases already: the others it refuses
    "widget refused(?! by the frobnicator)",  # its meaning is what it rules out
    "(?i)widget refused",  # already without case: it matched, or it does not
])
def test_patterns_whose_meaning_holds_case_are_not_matched_without_it(pattern):
    assert list(recased.recased(["WIDGET REFUSED"], _rules(pattern))) == []


@pytest.mark.parametrize("line", [
    "KeyError: 'rank'",  # not-launched's 'RANK': a variable's name is its case
    "RuntimeError: Kernel load failed: fused_adam.so",  # ninja's FAILED: is its case
    "ValueError: Failed to resolve interpolation '${model.dim}': key not found",
])
def test_words_whose_case_is_their_meaning_name_nothing(line):
    assert list(recased.recased([line], load_rules())) == []


def test_only_the_last_failure_line_of_a_log_is_matched_without_case():
    """An early error the run went on after names no cause for the failure it ended with."""
    text = ("ERROR: only cuda dense tensor is supported for nccl (metrics disabled)\n"
            "step 100 loss 3.2\n"
            "F1127 12:00:00.000000 1234 widget.cc:88] Check failed: n > 0 (0 vs. 0)\n")
    assert diagnose(from_text(text, "early.log")).findings[0].id == "failure-shown"


def test_the_real_rules_name_recased_messages():
    rules = load_rules()
    lines = ["RuntimeError: no space left on device",  # a torch C++ string, lower case
             "ONLY CUDA DENSE TENSOR IS SUPPORTED FOR NCCL",
             "loss 0.31"]
    assert [(n, r.id) for n, r in recased.recased(lines, rules)] == [
        (0, "disk-full"), (1, "nccl-cpu-tensor")]


def test_a_failure_no_rule_matches_as_written_is_named_as_likely():
    result = diagnose(from_text(RECASED, "recased.log"))
    first = result.findings[0]
    assert (first.id, first.likely) == ("nccl-cpu-tensor", True)
    assert first.evidence[0].text.startswith("RuntimeError: tensors must be cuda and dense")
    assert first.evidence[0].recased
    assert len(result.findings) == 1  # the exception, quoted once: under the likely cause
    assert result.last_lines[-1] == "RuntimeError: tensors must be cuda and dense"
    shown = render(result)
    assert shown.startswith("diagnosis (likely): A CPU tensor was passed to an NCCL collective")
    assert "this cause's message in other letter case" in shown
    assert "  last lines of the log:" in shown


def test_a_matched_cause_or_a_healthy_log_is_left_as_it_is():
    matched = RECASED.replace("tensors must be cuda", "Tensors must be CUDA")
    first = diagnose(from_text(matched, "matched.log")).findings[0]
    assert (first.id, first.likely) == ("nccl-cpu-tensor", False)
    # another rule explains the failure as written: a re-cased line adds nothing
    oom = RECASED + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
    assert diagnose(from_text(oom, "oom.log")).findings[0].id == "cuda-oom"
    # a re-cased message in a line that shows no failure: a healthy log stays quiet
    healthy = "step 10 loss 0.2\nnote: TENSORS MUST BE CUDA AND DENSE for nccl\nstep 11\n"
    assert diagnose(from_text(healthy, "ok.log")).status == "no_failure"
