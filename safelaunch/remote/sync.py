"""Upload a directory tree to the remote machine, sending only what changed.

Which files: everything under the directory except ``.git``, run directories
(``safelaunch_runs``, ``.safelaunch``), ``__pycache__``, virtual environments (a directory
with ``pyvenv.cfg``), what ``.gitignore`` files (at any depth, with git's precedence: the
deeper file and the later pattern win, a negation re-includes) and ``.git/info/exclude``
ignore, and the caller's extra patterns.  A symbolic link to a file inside the tree is sent as
the file it points to; a link that leads out of the tree (``secrets -> ~/.aws/credentials``,
``passwd -> /etc/passwd``) is never sent, and the sync says which it left out; links to
directories are not followed.

What changed: the remote agent lists size, whole-second mtime and permission bits of what is
there (one round trip); a file is sent when any of them differs.  Changed files travel as
one tar stream, and the agent writes each to a temporary name and renames it into place, so
a reader never sees half a file.  Nothing on the remote side is ever deleted.
"""

from __future__ import annotations

import os
import stat
import tarfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paramiko
import pathspec

from safelaunch.errors import StartError, UsageError
from safelaunch.remote import replies
from safelaunch.remote.calls import Agent, ChannelWriter

ALWAYS_SKIPPED = (".git/", "safelaunch_runs/", ".safelaunch/", "__pycache__/", "*.pyc")
GITIGNORE = ".gitignore"
Progress = Callable[[str], None]


@dataclass(frozen=True)
class LocalFile:
    rel: str
    path: Path
    size: int
    mtime: int
    mode: int

    def same_as(self, remote: Sequence[Any] | None) -> bool:
        return remote is not None and list(remote) == [self.size, self.mtime, self.mode]


@dataclass(frozen=True)
class SyncResult:
    files: int
    sent: int
    bytes_sent: int
    seconds: float


def _spec(lines: Sequence[str]) -> pathspec.GitIgnoreSpec | None:
    kept = [line for line in lines if line.strip() and not line.startswith("#")]
    return pathspec.GitIgnoreSpec.from_lines(kept) if kept else None


def _read_spec(path: Path) -> pathspec.GitIgnoreSpec | None:
    try:
        return _spec(path.read_text(errors="replace").splitlines())
    except OSError:
        return None


class IgnoreRules:
    """git's ignore precedence over a stack of (directory, spec) pairs, deepest last."""

    def __init__(self, root: Path, extra: Sequence[str]) -> None:
        self._layers: list[tuple[str, pathspec.GitIgnoreSpec]] = []
        base = _spec(ALWAYS_SKIPPED)
        assert base is not None
        self._fixed = [base]
        user = _spec(list(extra))
        if user is not None:
            self._fixed.append(user)
        exclude = _read_spec(root / ".git" / "info" / "exclude")
        if exclude is not None:
            self._layers.append(("", exclude))

    def enter(self, rel_dir: str, directory: Path) -> int:
        """Push the ``.gitignore`` of ``directory`` (if any); returns the depth to pop to."""
        depth = len(self._layers)
        spec = _read_spec(directory / GITIGNORE)
        if spec is not None:
            self._layers.append((rel_dir, spec))
        return depth

    def pop_to(self, depth: int) -> None:
        del self._layers[depth:]

    def ignored(self, rel: str, is_dir: bool) -> bool:
        name = rel + "/" if is_dir else rel
        for spec in self._fixed:
            if spec.match_file(name):
                return True
        for base, spec in reversed(self._layers):
            inner = name[len(base) + 1:] if base else name
            verdict = spec.check_file(inner).include
            if verdict is not None:
                return bool(verdict)
        return False


def local_files(root: Path, exclude: Sequence[str] = (),
                outside: list[str] | None = None) -> list[LocalFile]:
    """The files under ``root`` that a sync sends, sorted by path; the links that lead out
    of the tree are added to ``outside`` instead."""
    if not root.is_dir():
        raise UsageError(f"--sync {root}: not a directory")
    rules = IgnoreRules(root, exclude)
    found: list[LocalFile] = []
    top = os.path.realpath(root)

    def walk(directory: Path, rel_dir: str) -> None:
        depth = rules.enter(rel_dir, directory)
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as exc:
            raise UsageError(f"cannot read {directory}: {exc.strerror}") from exc
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if entry.is_dir(follow_symlinks=False):
                if not rules.ignored(rel, True) and not (Path(entry.path) / "pyvenv.cfg").exists():
                    walk(Path(entry.path), rel)
                continue
            if rules.ignored(rel, False):
                continue
            if entry.is_symlink() and os.path.commonpath(
                    [top, os.path.realpath(entry.path)]) != top:
                if outside is not None:
                    outside.append(rel)
                continue
            try:
                st = os.stat(entry.path)
            except OSError:
                continue  # a dangling link
            if stat.S_ISREG(st.st_mode):
                found.append(LocalFile(rel, Path(entry.path), st.st_size, int(st.st_mtime),
                                       st.st_mode & 0o777))
        rules.pop_to(depth)

    walk(root, "")
    return found


def sync_tree(agent: Agent, root: Path, remote_dir: str, exclude: Sequence[str] = (),
              progress: Progress | None = None, label: str = "sync") -> SyncResult:
    """Make ``remote_dir`` hold every file of ``local_files(root)``, sending only changes."""
    started = time.monotonic()
    outside: list[str] = []
    files = local_files(root, exclude, outside)
    if outside and progress is not None:
        shown = ", ".join(outside[:5]) + (f" and {len(outside) - 5} more" if len(outside) > 5
                                          else "")
        progress(f"{label}: not sent: {len(outside)} symbolic link(s) that lead out of "
                 f"{root}: {shown}")
    remote = replies.manifest(agent.call("manifest", remote_dir), agent.conn.target.name)
    changed = [f for f in files if not f.same_as(remote.get(f.rel))]
    total = sum(f.size for f in changed)
    if not changed:
        return SyncResult(len(files), 0, 0, time.monotonic() - started)
    if progress is not None:
        progress(f"{label}: sending {len(changed)} of {len(files)} file(s) "
                 f"({_size(total)}) to {remote_dir}")
    _send(agent, changed, remote_dir, total, progress, label)
    return SyncResult(len(files), len(changed), total, time.monotonic() - started)


def _send(agent: Agent, changed: list[LocalFile], remote_dir: str, total: int,
          progress: Progress | None, label: str) -> None:
    last = [time.monotonic()]

    def tick(count: int) -> None:
        now = time.monotonic()
        if progress is not None and now - last[0] >= 1.0:
            last[0] = now
            progress(f"{label}: {_size(min(count, total))} of {_size(total)}")

    def write_tar(chan: paramiko.Channel) -> None:
        writer = ChannelWriter(chan, tick)
        with tarfile.open(fileobj=writer, mode="w|", format=tarfile.PAX_FORMAT) as tar:  # type: ignore[call-overload]
            for item in changed:
                info = tarfile.TarInfo(item.rel)
                info.size, info.mtime, info.mode = item.size, item.mtime, item.mode
                try:
                    with item.path.open("rb") as handle:
                        tar.addfile(info, handle)
                except OSError as exc:
                    raise StartError(f"cannot read {item.path}: {exc.strerror or exc}") from exc

    agent.call("receive", remote_dir, stdin=write_tar, timeout=600.0)


def _size(count: int) -> str:
    value = float(count)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{value:.1f} GB"
