"""The cache of the rule file as read: the same rules as the YAML gives, and a cache that is
missing, stale, corrupt, hostile or unwritable only costs time."""

from __future__ import annotations

import hashlib
import json
import os
from importlib import resources
from pathlib import Path

import pytest

from safelaunch.diagnose import kb, rule_cache
from safelaunch.diagnose.kb import parse_rules, read_rules

TEXT = resources.files("safelaunch.diagnose").joinpath("rules.yaml").read_text("utf-8")
SMALL = """
- id: widget-broke
  title: The widget broke
  patterns: ["widget \\\\d+ is frobnicated", "Frob(?:nicated)?Error: widget"]
  explain: A widget.
  fixes: ["Unfrobnicate it"]
"""


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(rule_cache.CACHE_DIR_ENV, str(folder))
    return folder


def _entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def _payload(entry: Path) -> dict[str, object]:
    digest, _, payload = entry.read_bytes().partition(b"\n")
    assert digest.decode() == hashlib.sha256(payload).hexdigest()
    return json.loads(payload)  # type: ignore[no-any-return]


def _signed(payload: bytes) -> bytes:
    """An entry whose digest is right for what it holds (what the cache checks first)."""
    return hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def test_cached_rules_are_the_rules_the_yaml_gives(cache_dir: Path) -> None:
    fresh = read_rules(TEXT)  # writes the entry
    [entry] = _entries(cache_dir)
    assert entry.startswith(rule_cache.PREFIX)
    cached = read_rules(TEXT)  # reads it back
    assert cached == fresh == tuple(parse_rules(TEXT))
    assert [p.keyword for r in cached for p in r.every_pattern] == [
        p.keyword for r in fresh for p in r.every_pattern]


def test_another_rule_file_gets_its_own_entry_and_old_ones_go(cache_dir: Path) -> None:
    read_rules(TEXT)
    [old] = _entries(cache_dir)
    # the user's own files, even named like the cache's, are not the cache's to remove
    for name in ("notes.txt", "rules-prod.json", "rules-firewall.json"):
        cache_dir.joinpath(name).write_text("not the cache's")
    rules = read_rules(SMALL)
    assert [r.id for r in rules] == ["widget-broke"]
    assert rules[0].patterns[0].keyword == " is frobnicated"
    names = _entries(cache_dir)
    assert old not in names
    assert {"notes.txt", "rules-prod.json", "rules-firewall.json"} <= set(names)
    assert len([n for n in names if rule_cache.ENTRY_NAME.fullmatch(n)]) == 1


def test_a_new_reader_of_the_same_rule_file_gets_a_new_entry(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read_rules(SMALL)
    [before] = _entries(cache_dir)
    monkeypatch.setattr(kb, "_reader_version", lambda: "another way to find keywords")
    read_rules(SMALL)
    assert _entries(cache_dir) != [before]


@pytest.mark.parametrize("content", [
    b"{not json", b"[]", b"\xff\xfe", b"", b"\n", b"0" * 64 + b"\n{}",
    # whole (the digest holds) but not what the loader accepts
    _signed(b'{"rules": 7, "keywords": {}}'), _signed(b'{"rules": [], "keywords": []}'),
    _signed(b'{"rules": [{"id": 1}], "keywords": {}}'), _signed(b'{"rules": [3], "keywords": {}}'),
    _signed(b'{"rules": [], "keywords": {"a": 5}}'), _signed(b"[" * 200_000),
])
def test_a_corrupt_entry_is_read_afresh_and_replaced(cache_dir: Path, content: bytes) -> None:
    read_rules(SMALL)
    [entry] = cache_dir.iterdir()
    entry.write_bytes(content)
    assert [r.id for r in read_rules(SMALL)] == ["widget-broke"]
    assert _payload(entry)["rules"][0]["id"] == "widget-broke"  # type: ignore[index]


def test_a_cut_entry_is_not_read(cache_dir: Path) -> None:
    read_rules(SMALL)
    [entry] = cache_dir.iterdir()
    whole = entry.read_bytes()
    entry.write_bytes(whole[: len(whole) // 2])
    assert rule_cache.read(SMALL, kb._reader_version()) is None


def test_an_entry_others_may_write_is_not_read(cache_dir: Path) -> None:
    read_rules(SMALL)
    [entry] = cache_dir.iterdir()
    assert entry.stat().st_mode & 0o777 == 0o600
    entry.chmod(0o622)
    assert rule_cache.read(SMALL, kb._reader_version()) is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_an_entrys_place_is_not_read(cache_dir: Path) -> None:
    read_rules(SMALL)
    [entry] = cache_dir.iterdir()
    entry.unlink()
    os.mkfifo(entry, 0o600)
    assert rule_cache.read(SMALL, kb._reader_version()) is None  # returns: no writer waited for
    assert [r.id for r in read_rules(SMALL)] == ["widget-broke"]


def test_an_entry_larger_than_any_rule_file_is_not_read(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read_rules(SMALL)
    monkeypatch.setattr(rule_cache, "MAX_BYTES", 10)
    assert rule_cache.read(SMALL, kb._reader_version()) is None
    assert [r.id for r in read_rules(SMALL)] == ["widget-broke"]


def test_an_unwritable_cache_costs_nothing_but_time(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("in the cache folder's place")
    monkeypatch.setenv(rule_cache.CACHE_DIR_ENV, str(blocked / "cache"))
    assert [r.id for r in read_rules(SMALL)] == ["widget-broke"]
    assert blocked.read_text() == "in the cache folder's place"


def test_an_empty_setting_turns_the_cache_off(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(rule_cache.CACHE_DIR_ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert rule_cache.folder() is None
    assert [r.id for r in read_rules(SMALL)] == ["widget-broke"]
    assert list(tmp_path.iterdir()) == []


def test_the_default_folder_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(rule_cache.CACHE_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert rule_cache.folder() == tmp_path / "xdg" / "safelaunch"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/not/allowed")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert rule_cache.folder() == tmp_path / ".cache" / "safelaunch"
