"""A long log is read through its distinct line shapes (``engine._Views``): the diagnosis of
every rule's own log, buried in progress lines past the length where shapes are used, is the
same as when the whole text is searched for each keyword.  The rules' cases use a lower
threshold than a megabyte (the reading does not depend on it), so that 150 of them cost
seconds, not a minute."""

from __future__ import annotations

import pytest
from test_rules import CASES

from safelaunch.diagnose import diagnose, engine, from_text

PROGRESS = ("[rank{r}]: epoch {e} step {s} loss 0.{s:04d} lr 3.0e-04 grad_norm 0.81 "
            "tok/s 5{s:04d}\n")


def _buried(text: str, lines: int = 14000) -> str:
    head = "".join(PROGRESS.format(r=s % 2, e=s // 1000, s=s) for s in range(lines))
    tail = "".join(PROGRESS.format(r=s % 2, e=s // 1000, s=s)
                   for s in range(lines, lines + lines // 7))
    assert len(head) >= engine.SHAPES_FROM
    return head + text + tail


def _ids(text: str) -> list[str]:
    result = diagnose(from_text(text, "train.log"))
    return [f.id for f in result.findings] + ["|"] + [f.id for f in result.consequences]


@pytest.mark.parametrize("rule_id", sorted(CASES))
def test_a_long_log_is_diagnosed_as_when_searched_whole(rule_id, monkeypatch):
    monkeypatch.setattr(engine, "SHAPES_FROM", 1 << 16)
    text = _buried(CASES[rule_id][0], lines=1000)
    assert engine._line_shapes(text) is not None  # read through its shapes
    through_shapes = _ids(text)
    monkeypatch.setattr(engine, "SHAPES_FROM", 1 << 62)  # every keyword searched in the text
    assert through_shapes == _ids(text)
    assert rule_id in through_shapes


def test_line_shapes_stand_for_every_line_and_digit():
    text = _buried("node-7:812:902 [3] bootstrap.cc:77 NCCL WARN Message truncated : "
                   "received 256 bytes instead of 4\n")
    shapes = engine._line_shapes(text)
    assert shapes is not None and len(shapes) < 1000
    assert "received 000 bytes instead of 0" in shapes
    # a log whose lines are all different is searched whole
    varied = "".join(f"line {chr(65 + i % 26)}{chr(97 + i // 26 % 26)}{i:x}\n"
                     for i in range(100_000))
    assert engine._line_shapes(varied) is None


def test_the_candidate_lines_of_a_long_log_are_found_through_its_shapes():
    # the scan for lines worth a look keeps only the alternatives its line shapes hold, and
    # finds the same lines as the whole alternation
    from safelaunch.diagnose import launchers

    text = _buried("[rank1]: RuntimeError: boom\nE0612 10:20:42.123 99 api.py:9] failed\n")
    shapes = engine._line_shapes(text)
    assert shapes is not None
    reduced = launchers.candidates_in(shapes)
    assert reduced is not None and reduced.pattern.count("|") < 5
    assert launchers.failure_lines(text, False, shapes) == launchers.failure_lines(text, False)
    assert len(launchers.failure_lines(text, False, shapes)) == 2
    quiet = _buried("")
    assert launchers.candidates_in(engine._line_shapes(quiet)) is None
    assert launchers.failure_lines(quiet, False, engine._line_shapes(quiet)) == []


def test_a_diagnosis_keeps_no_log_text_after_it_returns():
    from safelaunch.diagnose import launchers

    diagnose(from_text(_buried("[rank1]: RuntimeError: boom\n"), "train.log"))
    assert launchers.ignored_spans.cache_info().currsize == 0
    assert launchers.warned_spans.cache_info().currsize == 0


@pytest.mark.parametrize("text", [
    "", "plain ascii words_and_digits 123 a.b:c/d\\e\tf\n",
    "caf\u00e9 \u4e2d\u6587\uff1aerror\u2026done \u00a0x\u0660\u00b2 \U0001F600ok naïve_x",
    "RuntimeError\uff1aCUDA out of memory\u3002\u8bf7\u91cd\u8bd5 \ud800lone",
    "tab\tsep;semi,comma(paren)[bracket]{brace}<angle>'q'\"dq\"`bt`|pipe=eq+plus*star",
])
def test_the_words_of_a_log_are_the_regexs_words(text):
    assert engine.log_words(text) == set(engine.WORD.findall(text))


def test_a_long_log_ending_in_a_class_without_error_in_its_name_fails(monkeypatch):
    monkeypatch.setattr(engine, "SHAPES_FROM", 1 << 16)
    text = _buried("pyarrow.lib.ArrowInvalid: Column 1 named widget expected length 5\n",
                   lines=1000)
    assert engine._line_shapes(text) is not None
    result = diagnose(from_text(text, "train.log"))
    assert result.findings[0].id == "failure-shown"
    assert "ArrowInvalid" in result.findings[0].evidence[0].text


def test_line_numbers_are_right_past_the_counted_offsets_kept():
    """``line_at`` keeps ``COUNTED_MAX`` counted offsets; past them a new one takes the place
    of the one it was counted from: every answer stays the plain count's."""
    from safelaunch.diagnose import reading

    text = "".join(f"line {n}\n" for n in range(3 * reading.COUNTED_MAX))
    body = reading.Text(text)
    starts = [n for n, ch in enumerate(text) if ch == "l"]
    for offset in starts + starts[::-7]:
        assert body.line_at(offset) == text.count("\n", 0, offset) + 1
    assert len(body.counted) == reading.COUNTED_MAX


def test_a_logs_words_are_every_word_it_holds():
    from safelaunch.diagnose.engine import WORD, log_words

    ascii_text = "step:12 train_error:0.31 Xyz12Abc key:Value_3\nabs-error 0x7f\n"
    assert log_words(ascii_text) == set(WORD.findall(ascii_text))
    other = ascii_text + "héllo wörld_x — ünï 日本語\n"
    assert log_words(other) == set(WORD.findall(other))
