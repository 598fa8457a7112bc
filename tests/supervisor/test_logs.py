"""LineSplitter: whole lines out of arbitrary chunks."""

from __future__ import annotations

import random

from safelaunch.supervisor.logs import LineSplitter


def _split(chunks: list[bytes]) -> list[bytes]:
    splitter = LineSplitter()
    out: list[bytes] = []
    for chunk in chunks:
        out += splitter.feed(chunk)
    return out + splitter.flush()


def test_lines_across_chunks():
    assert _split([b"ab", b"c\nde", b"f\n", b"g"]) == [b"abc", b"def", b"g"]


def test_blank_lines_are_kept():
    assert _split([b"a\n\nb\n"]) == [b"a", b"", b"b"]


def test_carriage_return_updates_and_crlf():
    assert _split([b"x\r\n", b"\r 10%", b"\r 20%", b"\r 30%\n", b"done\r\n"]) == [
        b"x", b" 10%", b" 20%", b" 30%", b"done"]


def test_crlf_split_between_chunks_is_one_line_end():
    assert _split([b"abc\r", b"\ndef\n"]) == [b"abc", b"def"]


def test_any_chunking_gives_the_same_lines():
    data = b"".join(random.Random(1).choice([b"a", b"bb", b"\n", b"\r", b"\r\n", b"\xff"])
                    for _ in range(5000))
    whole = _split([data])
    rng = random.Random(2)
    for _ in range(50):
        cuts = sorted(rng.sample(range(1, len(data)), 40))
        chunks = [data[i:j] for i, j in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        assert _split(chunks) == whole


def test_huge_line_in_many_chunks():
    chunks = [b"x" * 65536 for _ in range(64)] + [b"\n"]
    assert _split(chunks) == [b"x" * 65536 * 64]


def _updates(chunks: list[bytes]) -> list[tuple[bytes, bool]]:
    """Every line with whether it is a '\\r' update a terminal would draw over."""
    splitter = LineSplitter()
    out: list[tuple[bytes, bool]] = []
    for chunk in chunks:
        lines = splitter.feed(chunk)
        if splitter.crlf_after_update:
            out[-1] = (out[-1][0], False)
        out += [(line, i in splitter.updates) for i, line in enumerate(lines)]
    return out + [(line, False) for line in splitter.flush()]


def test_carriage_return_segments_are_marked_as_updates():
    assert _updates([b"\r 10%\r 20%", b"\r 30%\nnext\n"]) == [
        (b" 10%", True), (b" 20%", True), (b" 30%", False), (b"next", False)]


def test_trailing_carriage_return_style_bars():
    # bars that write 'text\r' and end with '\r\n'
    assert _updates([b" 10%\r", b" 20%\r", b"100%\r\n"]) == [
        (b" 10%", True), (b" 20%", True), (b"100%", False)]


def test_crlf_cut_between_reads_is_not_an_update():
    assert _updates([b"abc\r", b"\ndef\n"]) == [(b"abc", False), (b"def", False)]
