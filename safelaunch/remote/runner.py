"""``safelaunch remote``: run a job on another machine over SSH and see it through.

    connect -> upload safelaunch itself (same version, under REMOTE_DIR/.safelaunch/lib)
    -> check the remote Python (install click/psutil/pyyaml if missing; torch must be there)
    -> sync the code -> start ``safelaunch run`` detached from SSH (remote/agent.py)
    -> follow its console across dropped connections (remote/stream.py)
    -> copy the run directory back -> the remote run's exit code

Remote layout, all under REMOTE_DIR: the synced code, ``safelaunch_runs/<id>`` (the run
directories, as with a local run) and ``.safelaunch/runs/<id>`` (the job's console, pid, exit
code and spec, which is what ``--attach`` finds).

Ctrl-C (or SIGTERM) stops the remote job and waits for its cleanup; a second Ctrl-C leaves
it stopping.  SIGHUP (the terminal went away) leaves the job running.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import tarfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import Any

import safelaunch
from safelaunch import __version__, defaults
from safelaunch.console import Console
from safelaunch.errors import LinkLost, RemoteError, StartError, UsageError
from safelaunch.redact import mask_argv_tail
from safelaunch.remote import replies
from safelaunch.remote.agent import extract
from safelaunch.remote.calls import LINK_ERRORS, Agent, ChannelReader, run, shell_command
from safelaunch.remote.ssh import (
    CONNECT_TIMEOUT,
    SshConnection,
    SshTarget,
    connect,
    keep_connecting,
)
from safelaunch.remote.stream import Follower, reconnect
from safelaunch.remote.sync import sync_tree
from safelaunch.signals import handlers_installed

PACKAGE_DIR = Path(safelaunch.__file__).parent
DEPENDENCIES = {"click": "click>=8.1", "psutil": "psutil>=5.9", "yaml": "pyyaml>=6.0"}
DEFAULT_REMOTE_DIR = "~/safelaunch"
AUTO_PYTHON = "auto"
HANDSHAKE_RETRY_S = 15.0
"""How long a first connection cut during the SSH handshake is tried again."""
# Where `--remote-python auto` looks, in order, for a Python that has torch: SSH sessions often
# lack the image's PATH (conda, VastAI's /venv/main), so plain python3 may be the system one.
PYTHON_CANDIDATES = ("python3", "/venv/main/bin/python", "/opt/conda/bin/python",
                     "~/miniconda3/bin/python", "~/anaconda3/bin/python", "~/.venv/bin/python",
                     "/usr/local/bin/python3", "python")
PYTHONS_ENV = "SAFELAUNCH_REMOTE_PYTHONS"
# Prints "torch PATH" for the first candidate with torch, else "bare PATH" for the first that
# exists; candidates come as arguments, so nothing in them is read as shell.
_PROBE = r"""for p in "$@"; do
  case $p in "~/"*) p="$HOME/${p#"~/"}";; esac
  command -v "$p" >/dev/null 2>&1 || continue
  [ -n "${bare:-}" ] || bare=$p
  if "$p" -c 'import importlib.util as u, sys; sys.exit(u.find_spec("torch") is None)' \
      2>/dev/null; then echo "torch $p"; exit 0; fi
done
[ -n "${bare:-}" ] && echo "bare $bare"
exit 0"""
MIN_PYTHON = (3, 10)


class Interrupted(BaseException):
    """SIGTERM or SIGHUP while following the remote job (SIGINT stays KeyboardInterrupt)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@dataclass(frozen=True)
class RemoteJob:
    """Where and how: one remote machine and directory."""

    target: SshTarget
    python: str = "auto"
    remote_dir: str = DEFAULT_REMOTE_DIR
    accept_new_host_key: bool = False
    reconnect_timeout: float = defaults.RECONNECT_TIMEOUT_S
    local_runs: Path = Path(defaults.RUNS_ROOT)
    host_option: str = ""
    """How the user named the machine (``--host X`` / ``--vast-instance N``), for hints."""
    ssh_wait: float = 0.0
    """Seconds to keep retrying the first connection (a cloud instance whose SSH starts)."""

    def attach_hint(self, run_id: str) -> str:
        parts = ["safelaunch", "remote", *shlex.split(self.host_option or
                                                       f"--host {shlex.quote(self.target.name)}"),
                 "--remote-dir", self.remote_dir]
        if self.python != AUTO_PYTHON:
            parts += ["--remote-python", self.python]
        return shell_command(*parts, "--attach", run_id)

    def ctl(self, run_id: str) -> str:
        return f"{self.remote_dir}/.safelaunch/runs/{run_id}"


@dataclass(frozen=True)
class Launch:
    """What to run there."""

    script: str
    script_args: tuple[str, ...] = ()
    run_args: tuple[str, ...] = ()
    run_dir: str | None = None
    sync_dir: Path | None = Path(".")
    exclude: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    detach: bool = False


@dataclass(frozen=True)
class RemoteOutcome:
    exit_code: int
    ended: bool
    """The job ended (so the instance may be stopped); False when detached or left running."""
    run_id: str
    local_run_dir: Path | None = None


class RemoteSession:
    def __init__(self, job: RemoteJob, console: Console) -> None:
        self.job = job
        self.console = console
        self.python = job.python
        self.torch_version: str | None = None
        """The remote torch's version, once checked."""

    def agent(self, conn: SshConnection) -> Agent:
        """The agent, run by the chosen Python (``auto``: found on the first connection)."""
        if self.python == AUTO_PYTHON:
            self.python = self._find_python(conn)
        return Agent(conn, self.python)

    def _find_python(self, conn: SshConnection) -> str:
        extra = [p for p in os.environ.get(PYTHONS_ENV, "").split(os.pathsep) if p]
        candidates = [*extra, *PYTHON_CANDIDATES]
        _, out, _ = run(conn, shell_command("sh", "-c", _PROBE, "sh", *candidates), timeout=60.0)
        kind, _, path = out.decode(errors="replace").strip().partition(" ")
        if not path:
            raise StartError(f"no Python on {conn.target.name} (looked for "
                             f"{', '.join(candidates)}); pass --remote-python")
        if kind == "torch" and path != candidates[0]:
            self.console.notice(f"using {path} on {conn.target.name}: the first Python there "
                                "with torch (--remote-python chooses another)")
        return path

    def connect(self, timeout: float = CONNECT_TIMEOUT) -> SshConnection:
        return connect(self.job.target, self.job.accept_new_host_key, timeout)

    def first_connect(self) -> SshConnection:
        """The first connection; with ``job.ssh_wait`` (a cloud instance that was just
        started), refusals and failed logins are retried until its SSH is up; without it,
        only a link cut during the handshake is, for ``HANDSHAKE_RETRY_S``."""
        said: list[str] = []

        def waiting(exc: RemoteError) -> None:
            if said[-1:] != [exc.message]:
                self.console.notice(f"waiting for SSH on {self.job.target.name}: "
                                    f"{exc.message}")
                said.append(exc.message)

        if self.job.ssh_wait > 0:
            return keep_connecting(self.connect, time.monotonic() + self.job.ssh_wait, 1.0,
                                   5.0, on_failure=waiting)
        # a link cut during the handshake is a drop like any other: tried again, briefly
        return keep_connecting(self.connect, time.monotonic() + HANDSHAKE_RETRY_S, 0.5, 2.0,
                               on_failure=waiting, retry=(LinkLost,))

    def launch(self, launch: Launch, run_id: str) -> RemoteOutcome:
        job, notice = self.job, self.console.notice
        conn = self.first_connect()
        try:
            while True:
                try:
                    agent = self.agent(conn)
                    run_dir = self._start(agent, launch, run_id)
                    break
                except (LinkLost, *LINK_ERRORS):
                    pass
                # the link dropped while setting up: sync again (only what is missing) and
                # start (at most once: the agent knows the run id)
                conn.close()
                conn = reconnect(self.connect, job.target.name, job.reconnect_timeout,
                                 self.console, resumed="setting up again",
                                 left="run the same command again")
            if launch.detach:
                notice(f"detached; reattach with: {job.attach_hint(run_id)}")
                return RemoteOutcome(0, False, run_id)
            return self._see_through(agent, run_id, run_dir, 0, announce=(
                "Ctrl-C stops the remote job; closing the terminal leaves it running"))
        finally:
            conn.close()

    def _start(self, agent: Agent, launch: Launch, run_id: str) -> str:
        """Upload, check and start; the remote run directory."""
        executable = self.set_up(agent, launch)
        return self.start_job(agent, launch, run_id, executable)

    def set_up(self, agent: Agent, launch: Launch) -> str:
        """safelaunch uploaded and importable, the code synced; the remote Python's path."""
        job, notice = self.job, self.console.notice
        executable = self._prepare(agent)
        if launch.sync_dir is not None:
            result = sync_tree(agent, launch.sync_dir, job.remote_dir, launch.exclude, notice)
            notice(f"sync: {result.files} file(s) in {job.remote_dir} on {job.target.name}, "
                   f"{result.sent} sent ({result.seconds:.1f}s)")
        return executable

    def start_job(self, agent: Agent, launch: Launch, run_id: str, executable: str,
                  extra_args: tuple[str, ...] = ()) -> str:
        """Start ``safelaunch run`` there as ``run_id`` (its own run directory unless
        ``--run-dir``), ``extra_args`` before the user's run options; the run directory."""
        job, notice = self.job, self.console.notice
        run_dir = launch.run_dir or f"{defaults.RUNS_ROOT}/{run_id}"
        argv = [executable, "-m", "safelaunch", "run", "--run-dir", run_dir,
                *extra_args, *launch.run_args, launch.script, *launch.script_args]
        spec = {
            "ctl": job.ctl(run_id), "workdir": job.remote_dir, "run_id": run_id,
            "lib": self._lib(), "env": launch.env,
            "run_dir": str(PurePosixPath(job.remote_dir) / run_dir),
            "argv": argv, "shown_argv": mask_argv_tail(argv, launch.script_args),
            "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        }
        answer = agent.call("start", stdin=json.dumps(spec).encode())
        if "pid" not in answer:
            raise StartError(f"the job did not start on {job.target.name}: "
                             f"{replies.quoted(answer.get('error', answer))}")
        notice(f"started run {run_id} on {job.target.name} in {job.remote_dir} "
               f"(pid {replies.quoted(answer['pid'])})")
        return str(spec["run_dir"])

    def attach(self, run_id: str | None, tail: int | None = None) -> RemoteOutcome:
        job = self.job
        if run_id is not None and not replies.is_run_id(run_id):
            raise UsageError(f"--attach takes a run id like 20261123T142158Z-b7cb7d, got "
                             f"{run_id[:40]!r}")
        conn = self.first_connect()
        try:
            agent = self.agent(conn)
            host = job.target.name
            jobs, invalid = replies.run_list(agent.call("list", job.remote_dir), host)
            where = f"{host}:{job.remote_dir}"
            if invalid:
                self.console.notice(f"ignored {invalid} run(s) with an invalid id or spec "
                                    f"in the answer of {host}")
            if not jobs:
                raise UsageError(f"no safelaunch remote runs in {where}")
            chosen = jobs[-1] if run_id is None else next(
                (j for j in jobs if j.get("id") == run_id), None)
            if chosen is None:
                known = ", ".join(str(j.get("id")) for j in jobs[-5:])
                raise UsageError(f"no run {run_id} in {where}; the latest there: {known}")
            ended = chosen.get("ended") or {}
            state = (f"ended with exit code {replies.exit_code(ended['exit_code'], host)}"
                     if "exit_code" in ended else "running")
            self.console.notice(f"attaching to run {chosen['id']} on {job.target.name} "
                                f"({state})")
            offset = 0
            if tail is not None:
                offset = replies.offset(agent.call("tail", job.ctl(str(chosen["id"])),
                                                   str(tail)).get("offset", 0), host)
            return self._see_through(agent, str(chosen["id"]),
                                     str(chosen["spec"]["run_dir"]), offset)
        finally:
            conn.close()

    def _lib(self) -> str:
        return f"{self.job.remote_dir}/.safelaunch/lib/{__version__}"

    def _prepare(self, agent: Agent) -> str:
        """safelaunch of this version importable remotely, its needs met; the Python path."""
        host = self.job.target.name
        sync_tree(agent, PACKAGE_DIR, f"{self._lib()}/safelaunch", (), self.console.notice,
                  label=f"upload safelaunch {__version__}")
        info = agent.call("check", self._lib())
        torch = info.get("torch")
        self.torch_version = torch[:60] if isinstance(torch, str) else None
        version = tuple(int(p) for p in str(info.get("python", "0.0")).split(".")[:2]
                        if p.isdigit())
        if version < MIN_PYTHON:
            raise StartError(f"{info.get('executable')} on {host} is Python "
                             f"{info.get('python')}; safelaunch needs "
                             f"{'.'.join(map(str, MIN_PYTHON))} or newer (--remote-python)")
        if info.get("safelaunch") != __version__:
            raise StartError(f"safelaunch {__version__} is not importable on {host} after "
                             f"the upload (found {info.get('safelaunch')})")
        missing = list(info.get("missing") or [])
        executable = str(info.get("executable") or self.python)
        if "torch" in missing:
            raise StartError(f"{executable} on {host} cannot import torch; pass "
                             "--remote-python with the Python of your training environment")
        wanted = [DEPENDENCIES[m] for m in missing if m in DEPENDENCIES]
        if wanted:
            self.console.notice(f"installing {' '.join(wanted)} for {executable} on {host}")
            status, _, err = run(agent.conn, shell_command(
                executable, "-m", "pip", "install", "-q", *wanted), timeout=600.0)
            agent.check_status("pip install", status, err)
        return executable

    def _see_through(self, agent: Agent, run_id: str, run_dir: str,
                     offset: int, announce: str | None = None) -> RemoteOutcome:
        job = self.job
        follower = Follower(agent, job.ctl(run_id), self.console, self.connect,
                            job.reconnect_timeout, job.attach_hint(run_id), offset=offset)
        try:
            end, override = self._follow(follower, run_id, announce)
            if end is None:
                return RemoteOutcome(override or 0, False, run_id)
            local = self.fetch(follower, run_id, run_dir)
        finally:
            if follower.agent.conn is not agent.conn:
                follower.agent.conn.close()
        if "exit_code" not in end:
            raise RemoteError(f"the remote job {run_id} ended without an exit code (was the "
                              "machine restarted?)" + (f"; what it left is in {local}"
                                                       if local else ""))
        code = replies.exit_code(end["exit_code"], job.target.name)
        self.console.notice(f"remote run {run_id} on {job.target.name} exited with code {code}"
                            + (f"; its run directory is in {local}" if local else ""))
        return RemoteOutcome(override if override is not None else code, True, run_id, local)

    def _follow(self, follower: Follower, run_id: str, announce: str | None = None
                ) -> tuple[dict[str, Any] | None, int | None]:
        """Follow to the end; ``announce`` is said once the signals are handled, so a
        SIGHUP or Ctrl-C right after it does what it says (seen: a SIGHUP sent on the
        announcement, before the handlers, killed the command with no exit code of its own)."""
        notice = self.console.notice
        with _signals_raise():
            try:
                if announce:
                    notice(announce)
                return follower.run(), None
            except KeyboardInterrupt:
                code = 130
            except Interrupted as stop:
                if stop.signum == signal.SIGHUP:
                    return None, 129
                code = 128 + stop.signum
            notice("stopping the remote job (press Ctrl-C again to leave it stopping)")
            try:
                self._stop(follower)
                return follower.run(), code
            except (KeyboardInterrupt, Interrupted):
                notice(f"left run {run_id} stopping; reattach with: "
                       f"{self.job.attach_hint(run_id)}")
                return None, code

    def _stop(self, follower: Follower) -> None:
        try:
            answer = follower.agent.call("stop", follower.ctl, timeout=30)
        except (RemoteError, *LINK_ERRORS):
            follower.reconnect()
            answer = follower.agent.call("stop", follower.ctl, timeout=30)
        if not answer.get("stopped"):
            self.console.notice(f"nothing to stop: {answer.get('why', 'unknown')}")

    def fetch(self, follower: Follower, run_id: str, run_dir: str,
              name: str | None = None) -> Path | None:
        """Copy the remote run directory (and the console) to ``local_runs/<name>`` (the run
        id by default; ``<name>.2``... when an earlier copy is there: nothing local is
        overwritten).  The copy is unpacked aside and moved into place whole; a tar that
        tries to leave it is refused (``RemoteError``) and nothing of it is kept."""
        if not replies.is_run_id(run_id):
            raise RemoteError(f"refusing the run id {run_id[:40]!r}: not a safelaunch run id")
        name = name or run_id
        self.job.local_runs.mkdir(parents=True, exist_ok=True)
        for attempt in (1, 2):
            staging = self.job.local_runs / f".{name}.partial-{os.getpid()}"
            try:
                chan = follower.agent.open("send", run_dir, f"{follower.ctl}/console.log")
                try:
                    chan.shutdown_write()
                    extract(ChannelReader(chan, 60.0), str(staging))  # type: ignore[arg-type]
                finally:
                    chan.close()
                return _move_into_place(staging, self.job.local_runs / name)
            except (tarfile.TarError, ValueError) as exc:
                raise RemoteError(f"refused the run directory {self.job.target.name} sent "
                                  f"back ({exc}); nothing of it was kept") from exc
            except (RemoteError, *LINK_ERRORS) as exc:
                error: BaseException = exc
                if attempt == 2:
                    break
                try:
                    follower.reconnect()
                except RemoteError:
                    break
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        self.console.notice(f"could not copy the run directory {run_dir} back: {error}")
        return None


def _move_into_place(staging: Path, destination: Path) -> Path:
    """Rename ``staging`` to ``destination``, or to the first free ``destination.N``."""
    for n in range(1, 1000):
        target = destination if n == 1 else destination.with_name(f"{destination.name}.{n}")
        try:
            staging.rename(target)  # fails on an existing non-empty directory or a file
        except OSError:
            if target.exists() or target.is_symlink():
                continue
            raise
        return target
    raise RemoteError(f"too many copies of {destination.name} already")


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    """SIGTERM and SIGHUP raise ``Interrupted`` in the main thread while following."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise Interrupted(signum)

    with handlers_installed(handler, (signal.SIGTERM, signal.SIGHUP)):
        yield
