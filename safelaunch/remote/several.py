"""``safelaunch remote --host a --host b ...``: one job over several hosts, one console.

    check every host (connect, upload safelaunch, the remote Python and its torch, sync the
    code) -> the same torch everywhere -> every host reaches the first host's rendezvous port
    -> start one detached ``safelaunch run`` per host: c10d rendezvous on the first host, one
    rendezvous id, ``--local-addr`` per host -> follow every console as ``[nodeN rankM]``
    -> copy every run directory back under one local directory with a merged summary

Node N's run is ``<run id>-nodeN`` on its host (runs of several nodes may share a file
system, as a cluster's home directories do), so ``--attach <run id>-nodeN`` follows one node.
Ctrl-C stops every node.  The exit code is the global root cause's: every node agrees on it
through the rendezvous store (``supervisor/jobview``).
"""

from __future__ import annotations

import json
import re
import secrets
import signal
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from safelaunch import exit_codes
from safelaunch.console import Console
from safelaunch.diagnose import Diagnosis, diagnose, from_run_dir, render
from safelaunch.errors import RemoteError, SafelaunchError, StartError, UsageError
from safelaunch.remote import replies
from safelaunch.remote.calls import LINK_ERRORS, Agent
from safelaunch.remote.runner import Interrupted, Launch, RemoteJob, RemoteSession
from safelaunch.remote.ssh import SshConnection
from safelaunch.remote.stream import Follower
from safelaunch.supervisor.rundir import write_summary

MAX_HOSTS = 64
LISTEN_SECONDS = 60
RANK_PREFIX = re.compile(rb"^\[rank(\d{1,6})\](:?) ", re.MULTILINE)
MAX_SUMMARY_BYTES = 16 << 20
MAX_LINE_BYTES = 1 << 16
"""The longest one-line answer read from a listening agent."""
NCCL_IFNAME = "NCCL_SOCKET_IFNAME"
IFNAME = re.compile(r"[A-Za-z0-9_.:@-]{1,15}")
"""A Linux interface name (IFNAMSIZ - 1 characters)."""
TORCH_RDZV_PORT = 29400
"""torch's default c10d rendezvous port (torchrun's --rdzv-endpoint without a port)."""


class NodeConsole(Console):
    """One node's console lines, prefixed ``[nodeN rankM]`` (``[nodeN]`` for the rest)."""

    def __init__(self, console: Console, node: int) -> None:
        super().__init__(muted=True)
        self._console = console
        self._node = node

    def rank_output(self, stream: str, data: bytes) -> None:
        node = f"node{self._node}".encode()
        tagged = RANK_PREFIX.sub(rb"[" + node + rb" rank\1]\2 ", data)
        lines = tagged.split(b"\n")
        out = [line if line.startswith(b"[" + node + b" rank") else b"[" + node + b"] " + line
               for line in lines[:-1]]
        tail = lines[-1]
        if tail:
            out.append(b"[" + node + b"] " + tail)
        self._console.rank_output(stream, b"\n".join(out) + (b"\n" if not tail else b""))

    def notice(self, text: str) -> None:
        self._console.notice(f"node{self._node}: {text}")


@dataclass
class Node:
    index: int
    session: RemoteSession
    conn: SshConnection | None = None
    agent: Agent | None = None
    executable: str = ""
    run_dir: str = ""
    end: dict[str, Any] | None = None
    error: str | None = None
    follower: Follower | None = None
    local: Path | None = None
    env: dict[str, str] = field(default_factory=dict)
    """Variables for this node's job only (the NCCL interface)."""

    @property
    def name(self) -> str:
        return self.session.job.target.name

    @property
    def address(self) -> str:
        """The host as the other nodes reach it."""
        return self.session.job.target.hostname


@dataclass
class SeveralHosts:
    """A job on several hosts: ``jobs`` in node order, the first hosts the rendezvous."""

    jobs: list[RemoteJob]
    launch: Launch
    run_id: str
    console: Console
    rdzv_endpoint: str | None = None
    """HOST:PORT of the rendezvous when the user gave one; else the first host's address and
    a port free there."""
    nodes: list[Node] = field(default_factory=list)
    ended: bool = False
    """Every node's job ended (so cloud instances may be stopped); not when detached or left
    stopping."""
    interrupted: int | None = None
    """The exit code of a stop the user asked for (130 for Ctrl-C, 143 for SIGTERM)."""

    def run(self) -> int:
        if not 2 <= len(self.jobs) <= MAX_HOSTS:
            raise UsageError(f"several hosts means 2 to {MAX_HOSTS}, got {len(self.jobs)}")
        self.nodes = [Node(i, RemoteSession(job, NodeConsole(self.console, i)))
                      for i, job in enumerate(self.jobs)]
        try:
            for node in self.nodes:
                self._set_up(node)
            self._same_torch()
            endpoint = self._rendezvous()
            for node in self.nodes:
                self._start(node, endpoint)
            if self.launch.detach:
                for node in self.nodes:
                    self.console.notice(
                        f"detached; node{node.index}: "
                        f"{node.session.job.attach_hint(self._node_run(node))}")
                return exit_codes.SUCCESS
            self.console.notice("Ctrl-C stops the job on every host")
            self._follow()
            self.ended = all(node.end is not None for node in self.nodes)
            return self._finish()
        finally:
            for node in self.nodes:
                for conn in {id(c): c for c in (node.conn, node.follower and
                                                node.follower.agent.conn) if c}.values():
                    conn.close()

    def _node_run(self, node: Node) -> str:
        return f"{self.run_id}-node{node.index}"

    def _set_up(self, node: Node) -> None:
        node.conn = node.session.first_connect()
        node.agent = node.session.agent(node.conn)
        node.executable = node.session.set_up(node.agent, self.launch)

    def _same_torch(self) -> None:
        versions = {n.name: n.session.torch_version for n in self.nodes}
        if len(set(versions.values())) > 1:
            listed = ", ".join(f"{name}: torch {v or '?'}" for name, v in versions.items())
            raise StartError(f"the hosts run different torch versions ({listed}); every node "
                             "of a job needs the same")

    def _rendezvous(self) -> str:
        """HOST:PORT of the c10d rendezvous, once every host opened a connection to it."""
        first = self.nodes[0]
        assert first.agent is not None
        host, port = first.address, "0"
        if self.rdzv_endpoint:
            host, _, port = self.rdzv_endpoint.rpartition(":")
            if not host:
                host, port = self.rdzv_endpoint, str(TORCH_RDZV_PORT)
        token = secrets.token_hex(8)
        chan = first.agent.open("listen", port, str(LISTEN_SECONDS), token)
        try:
            chan.settimeout(30.0)
            answer = _json_line(chan.makefile("rb").readline(MAX_LINE_BYTES), first.name)
            if "port" not in answer:
                raise StartError(f"cannot listen on port {port} of {first.name} for the "
                                 f"rendezvous: {str(answer.get('error'))[:200]}")
            port = str(replies.port(answer["port"], first.name))
            for node in self.nodes:
                assert node.agent is not None
                reply = node.agent.call("reach", host, port, token, timeout=30.0)
                if reply.get("ok"):
                    self._nccl_interface(node, reply)
                    continue
                if node is first:
                    continue  # a NAT'd address may not loop back to its own host: no verdict
                if not reply.get("ok"):
                    raise StartError(
                        f"{node.name} cannot open a TCP connection to {host}:{port}, where "
                        f"{first.name} holds the rendezvous ({str(reply.get('error'))[:200]}). "
                        "Hosts behind NAT (VastAI instances) cannot reach each other's "
                        "ports: join them in an overlay network (WireGuard, Tailscale) or "
                        "open a direct port on the first host and pass --rdzv-endpoint "
                        "ADDRESS:PORT as the others reach it")
        finally:
            chan.close()
        self.console.notice(f"every host reaches the rendezvous on {first.name} at "
                            f"{host}:{port}")
        return f"{host}:{port}"

    def _nccl_interface(self, node: Node, reply: dict[str, Any]) -> None:
        """NCCL picks its own interface (InfiniBand, then any but docker and lo): when that is
        not the one this host reaches the rendezvous through, the job would hang in NCCL's
        bootstrap.  Set NCCL_SOCKET_IFNAME for that node, unless the user chose one."""
        route = _interface_name(reply.get("interface"))
        names = [n for item in (reply.get("interfaces") or [])[:256]
                 if isinstance(item, list) and item and (n := _interface_name(item[0]))]
        if (route is None or reply.get("nccl_socket_ifname")
                or NCCL_IFNAME in self.launch.env):
            return
        chosen = nccl_default_interface(names)
        if chosen == route:
            return
        node.env[NCCL_IFNAME] = route
        self.console.notice(
            f"node{node.index}: {node.name} reaches the rendezvous through {route}, but NCCL "
            f"would pick {chosen or 'no interface'} by itself: its job gets "
            f"{NCCL_IFNAME}={route} (-e {NCCL_IFNAME}=... chooses another)")

    def _start(self, node: Node, endpoint: str) -> None:
        assert node.agent is not None
        conf = "is_host=1" if node.index == 0 else "is_host=0"
        args = ("--nnodes", str(len(self.nodes)), "--rdzv-backend", "c10d",
                "--rdzv-endpoint", endpoint, "--rdzv-id", self.run_id,
                "--rdzv-conf", conf, "--local-addr", node.address)
        launch = replace(self.launch, env={**node.env, **self.launch.env})
        node.run_dir = node.session.start_job(node.agent, launch, self._node_run(node),
                                              node.executable, args)

    def _follow(self) -> None:
        threads = []
        for node in self.nodes:
            assert node.agent is not None
            session, job = node.session, node.session.job
            run = self._node_run(node)
            node.follower = Follower(node.agent, job.ctl(run), session.console,
                                     session.connect, job.reconnect_timeout,
                                     job.attach_hint(run))
            thread = threading.Thread(target=_follow_node, args=(node,),
                                      name=f"safelaunch-node{node.index}", daemon=True)
            thread.start()
            threads.append(thread)
        stopping = False
        with _stop_signals():
            while any(t.is_alive() for t in threads):
                try:
                    for thread in threads:
                        thread.join(0.2)
                except (KeyboardInterrupt, Interrupted) as stop:
                    signum = stop.signum if isinstance(stop, Interrupted) else signal.SIGINT
                    self.interrupted = exit_codes.SIGNAL_BASE + signum
                    if stopping:
                        self.console.notice("left the nodes stopping")
                        return
                    stopping = True
                    self.console.notice("stopping every node (press Ctrl-C again to leave "
                                        "them stopping)")
                    self._stop_all()

    def _stop_all(self) -> None:
        for node in self.nodes:
            if node.follower is None or node.end is not None:
                continue
            try:
                node.follower.agent.call("stop", node.follower.ctl, timeout=30)
            except (RemoteError, *LINK_ERRORS) as exc:
                self.console.notice(f"could not stop node{node.index} on {node.name}: {exc}")

    def _finish(self) -> int:
        local_root = self.jobs[0].local_runs / self.run_id
        codes = [self._fetch_end(node, local_root) for node in self.nodes]
        summaries = [_summary(node.local) for node in self.nodes]
        code = merged_exit_code(codes, summaries)
        if self.interrupted is not None:
            code = self.interrupted
        root = root_node(codes, summaries)
        diagnosis = _diagnosis_of(self.nodes[root].local) if root is not None and code else None
        merged = NodesSummary(
            self.run_id, code,
            [NodeRecord(n.index, n.name, c, n.local.name if n.local else None, s, n.error)
             for n, c, s in zip(self.nodes, codes, summaries, strict=True)],
            None if diagnosis is None or root is None else {"node": root, **diagnosis.to_json()})
        if local_root.is_dir():
            write_summary(local_root, self.run_id, merged)
        self._tell_ends(codes, None if diagnosis is None else (root, diagnosis))
        where = f"; run directories in {local_root}" if local_root.is_dir() else ""
        self.console.notice(f"job {self.run_id} on {len(self.nodes)} hosts exited with code "
                            f"{code}{where}")
        return code

    def _fetch_end(self, node: Node, local_root: Path) -> int | None:
        """The node's exit code (None where it gave none), its run directory fetched."""
        code = None
        if node.end is not None and "exit_code" in node.end:
            code = replies.exit_code(node.end["exit_code"], node.name)
        if node.follower is not None and node.end is not None:
            node.local = _fetch(node, local_root, self._node_run(node))
        return code

    def _tell_ends(self, codes: list[int | None],
                   diagnosis: tuple[int | None, Diagnosis] | None) -> None:
        for node, node_code in zip(self.nodes, codes, strict=True):
            said = "no exit code" if node_code is None else f"exit code {node_code}"
            self.console.notice(f"node{node.index} ({node.name}): {said}"
                                + (f" ({node.error})" if node.error else ""))
        if diagnosis is not None:
            self.console.notice(f"node{diagnosis[0]}: " + render(diagnosis[1]).splitlines()[0])


def nccl_default_interface(names: list[str]) -> str | None:
    """The interface NCCL's bootstrap takes when NCCL_SOCKET_IFNAME is unset: the first
    InfiniBand one (``ib*``), else the first that is neither ``docker*`` nor ``lo*``, else
    docker, else loopback (``ncclFindInterfaces`` in NCCL's socket code)."""
    for accept in (lambda n: n.startswith("ib"),
                   lambda n: not n.startswith(("docker", "lo")),
                   lambda n: n.startswith("docker"),
                   lambda n: n.startswith("lo")):
        found = next((name for name in names if accept(name)), None)
        if found is not None:
            return found
    return None


def _interface_name(value: object) -> str | None:
    return value if isinstance(value, str) and IFNAME.fullmatch(value) else None


def _diagnosis_of(local: Path | None) -> Diagnosis | None:
    if local is None:
        return None
    try:
        return diagnose(from_run_dir(local))
    except SafelaunchError:
        return None


def _follow_node(node: Node) -> None:
    assert node.follower is not None
    try:
        node.end = node.follower.run()
    except RemoteError as exc:
        node.error = exc.message
    except Exception as exc:  # one node's link must not end the others' consoles
        node.error = f"{type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class NodeRecord:
    """One node of a job over several hosts, as the merged ``summary.json`` lists it."""

    node: int
    host: str
    exit_code: int | None
    run_dir: str | None
    summary: dict[str, Any] | None
    """The node's own ``summary.json``, where it was fetched."""
    error: str | None

    def to_json(self) -> dict[str, Any]:
        own = self.summary or {}
        return {"node": self.node, "host": self.host, "exit_code": self.exit_code,
                "run_dir": self.run_dir, "status": own.get("status"),
                "reason": own.get("reason"), "root_cause_rank": own.get("root_cause_rank"),
                "error": self.error}


@dataclass(frozen=True)
class NodesSummary:
    """The job's ``summary.json`` over several hosts: every node's end, and the diagnosis
    of the node whose rank failed first."""

    run_id: str
    exit_code: int
    nodes: list[NodeRecord]
    diagnosis: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        merged: dict[str, Any] = {"run_id": self.run_id, "exit_code": self.exit_code,
                                  "nodes": [n.to_json() for n in self.nodes]}
        if self.diagnosis is not None:
            merged["diagnosis"] = self.diagnosis
        return merged


def _fetch(node: Node, local_root: Path, run: str) -> Path | None:
    assert node.follower is not None
    session = node.session
    fetcher = RemoteSession(replace(session.job, local_runs=local_root), session.console)
    fetcher.python = session.python
    try:
        return fetcher.fetch(node.follower, run, node.run_dir, f"node{node.index}")
    except RemoteError as exc:
        node.error = exc.message
        return None


def _summary(local: Path | None) -> dict[str, Any] | None:
    if local is None:
        return None
    path = local / "summary.json"
    try:
        with path.open("rb") as handle:
            data = json.loads(handle.read(MAX_SUMMARY_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def merged_exit_code(codes: list[int | None], summaries: list[dict[str, Any] | None]) -> int:
    """The job's exit code from every node's: the global root cause's, which the nodes agree
    on; a node that gave none (its link or host lost) counts as a remote failure."""
    known = [c for c in codes if c is not None]
    if len(known) == len(codes) and not any(known):
        return exit_codes.SUCCESS
    root = root_node(codes, summaries)
    if root is not None:
        return codes[root] or exit_codes.REMOTE
    return next((c for c in known if c), exit_codes.REMOTE)


def root_node(codes: list[int | None], summaries: list[dict[str, Any] | None]) -> int | None:
    """The node whose own rank failed first (its summary's root-cause rank is one of its
    ranks), if one says so."""
    for node, (code, summary) in enumerate(zip(codes, summaries, strict=True)):
        root = (summary or {}).get("root_cause_rank")
        ranks = (summary or {}).get("ranks")
        local = isinstance(ranks, list) and any(
            isinstance(r, dict) and r.get("global_rank") == root for r in ranks)
        if code and root is not None and local:
            return node
    return None


def _json_line(line: bytes, host: str) -> dict[str, Any]:
    try:
        answer = replies.load_json(line)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        raise RemoteError(f"{host} gave an unexpected answer: {replies.quoted(line)}")
    return answer


def _stop_signals() -> Any:
    from safelaunch.signals import handlers_installed

    def handler(signum: int, frame: object) -> None:
        raise Interrupted(signum)

    return handlers_installed(handler, (signal.SIGTERM,))


def parse_hostfile(text: str, source: str) -> list[str]:
    """Host specs from a hostfile: one per line, ``#`` comments and blank lines ignored (an
    MPI-style ``slots=N`` after the host is ignored too)."""
    hosts: list[str] = []
    for number, raw in enumerate(text.splitlines()[:10_000], start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        spec = line.split()[0]
        if len(spec) > 255 or any(ch in spec for ch in "\"'`$;&|<>\\"):
            raise UsageError(f"{source}:{number}: not a host: {spec[:60]!r}")
        hosts.append(spec)
        if len(hosts) > MAX_HOSTS:
            raise UsageError(f"{source}: more than {MAX_HOSTS} hosts")
    return hosts

