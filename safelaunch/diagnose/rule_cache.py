"""A cache of ``rules.yaml`` as read: its plain data and each pattern's keyword, as JSON.

Reading the rule file took about a quarter of a diagnosis of a 1 MB log (parsing the YAML,
then finding the literal keyword of each of its two thousand patterns), the same work at
every ``safelaunch diagnose`` and at the end of every failed run.  The cache is one file in
the user's cache folder, named by the SHA-256 of the rule file's text and of the code that
reads it (``version``): an edited or upgraded rule file, or a new way of finding keywords,
never meets an old entry.  An entry is read only where it is a plain file of the user's own
that no one else may write, and only whole (it holds the SHA-256 of its own content);
whatever is read back is checked again by the same loader (``kb.parse_data``) as the YAML
would be.  A cache that cannot be read, written or trusted is simply not used: it never
changes a diagnosis, only its speed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any

CACHE_DIR_ENV = "SAFELAUNCH_CACHE_DIR"
"""Where the cache lives (default: ``$XDG_CACHE_HOME/safelaunch``, else
``~/.cache/safelaunch``); an empty value turns the cache off."""
FORMAT = 1
"""Bumped when an entry's layout changes (a change in how keywords are found or rules are
built names new entries by itself: its reader's ``version``)."""
PREFIX = "rules-"
NAME_DIGITS = 32
ENTRY_NAME = re.compile(re.escape(PREFIX) + f"[0-9a-f]{{{NAME_DIGITS}}}\\.json")
"""The names this cache gives its entries (no other file of the folder is ever removed)."""
MAX_BYTES = 16 << 20
"""A cache file larger than this is not ours to read (the rule file is about 0.4 MB)."""
MAX_ENTRIES = 1000
"""How many entries of the folder are looked at for older cache files."""


def folder() -> Path | None:
    """The cache's folder, or None where it is turned off or no home is known."""
    configured = os.environ.get(CACHE_DIR_ENV)
    if configured is not None:
        return Path(configured) if configured.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or ""
    try:
        root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    except RuntimeError:  # no home directory to be found
        return None
    return root / "safelaunch"


def _name(text: str, version: str) -> str:
    digest = hashlib.sha256(f"{FORMAT}\n{version}\n{text}".encode()).hexdigest()[:NAME_DIGITS]
    return f"{PREFIX}{digest}.json"


def _digest(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()


def _own_file(fd: int) -> bool:
    """A plain file of this user's that neither its group nor others may write (not a FIFO,
    which would block the read; not a file someone else could have put there)."""
    info = os.fstat(fd)
    owner = getattr(os, "getuid", None)
    return (stat.S_ISREG(info.st_mode) and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
            and (owner is None or info.st_uid == owner()))


def _read_entry(path: Path) -> bytes | None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    try:
        if not _own_file(fd):
            return None
        with os.fdopen(fd, "rb") as handle:
            fd = -1  # closed with the handle
            blob = handle.read(MAX_BYTES + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    return blob if len(blob) <= MAX_BYTES else None


def read(text: str, version: str) -> tuple[Any, dict[str, str | None]] | None:
    """The rule file's data and keywords cached for exactly ``text`` and ``version``, or
    None."""
    where = folder()
    if where is None:
        return None
    try:
        blob = _read_entry(where / _name(text, version))
        if blob is None:
            return None
        digest, _, payload = blob.partition(b"\n")
        if digest.decode("ascii") != _digest(payload):
            return None
        cached = json.loads(payload)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(cached, dict):
        return None
    data, keywords = cached.get("rules"), cached.get("keywords")
    if not isinstance(keywords, dict) or not all(
            isinstance(key, str) and (value is None or isinstance(value, str))
            for key, value in keywords.items()):
        return None
    return data, keywords


def write(text: str, version: str, data: Any, keywords: dict[str, str | None]) -> None:
    """Keep ``data`` and ``keywords`` for ``text`` and ``version`` (atomically, readable by
    the user only; older entries removed); silently nothing where the folder cannot be
    written."""
    where = folder()
    if where is None:
        return
    with contextlib.suppress(OSError, TypeError, ValueError, RecursionError):
        payload = json.dumps({"rules": data, "keywords": keywords}).encode()
        where.mkdir(parents=True, exist_ok=True)
        name = _name(text, version)
        fd, tmp = tempfile.mkstemp(prefix=".rules-", suffix=".tmp", dir=where)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_digest(payload).encode("ascii") + b"\n" + payload)
            os.replace(tmp, where / name)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _remove_others(where, name)


def _remove_others(where: Path, keep: str) -> None:
    """Entries of other rule files (an older release's): few, and each one ours by name."""
    with os.scandir(where) as entries:
        for looked, entry in enumerate(entries):
            if looked >= MAX_ENTRIES:  # a folder someone filled: leave it as it is
                return
            if (ENTRY_NAME.fullmatch(entry.name) and entry.name != keep
                    and entry.is_file(follow_symlinks=False)):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
