"""The job's shared view across nodes, through the rendezvous store every node already uses.

A multi-node job's nodes each run their own safelaunch; each sees only its own ranks.  This
module gives them one view through torch's own TCPStore (the c10d rendezvous endpoint, or
``MASTER_ADDR:MASTER_PORT`` for the static rendezvous), under keys of its own
(``safelaunch/<rdzv id>/a<attempt>/...``):

- the first failure of an attempt is claimed with ``compare_set``: every node agrees on the
  global root-cause rank and its exit code without synchronised clocks, and a node that sees
  another node's claim stops its own ranks at once instead of waiting for its collectives to
  time out;
- every node publishes a small progress record of its ranks every second; a hang report is
  published too, and a node that detects a hang waits a few seconds for the others' reports
  so that the culprit is a global rank on whichever node holds the evidence.

If the store cannot be reached (the node hosting it is gone, a firewall), the node says so
once and decides alone.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

POLL_S = 0.2
LINGER_S = 3.0
PUBLISH_S = 1.0
CONNECT_TIMEOUT_S = 10.0
OP_TIMEOUT_S = 5.0
HANG_GATHER_S = 4.0
MAX_RECORD_BYTES = 64 << 10
CLAIM_GRACE_S = 1.0
"""How long a node waits for another node's claim before claiming a failure that may only be
a consequence of it: an exit code (a rank that raised "Connection closed by peer" when a rank
on another node died) or any signal but those below (gloo aborting at exit after that).  The
store's ``compare_set`` settles two claims by arrival alone, and a peer's lost connection
often arrives before the launcher of the rank that died has seen it die."""
CLAIM_AT_ONCE = frozenset(-int(s) for s in (signal.SIGKILL, signal.SIGSEGV, signal.SIGBUS,
                                            signal.SIGILL, signal.SIGFPE))
"""Deaths that are causes, never a lost peer's consequence: claimed at once."""


@dataclass(frozen=True)
class Failure:
    """A rank's failure as claimed in the store."""

    rank: int
    returncode: int
    host: str
    node: str
    """Which safelaunch process claimed it (host:pid)."""
    cause: bool = False
    """A death that is never a lost peer's consequence (``CLAIM_AT_ONCE``): it replaces
    another node's claim that is not, whenever it reaches the store."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def parse(cls, raw: bytes) -> Failure | None:
        """A record another node wrote: checked field by field, None when malformed."""
        try:
            data = json.loads(raw[:MAX_RECORD_BYTES].decode("utf-8"))
            rank, code = data["rank"], data["returncode"]
            if not (isinstance(rank, int) and isinstance(code, int)):
                return None
            return cls(rank, code, str(data["host"])[:200], str(data["node"])[:200],
                       data.get("cause") is True and code in CLAIM_AT_ONCE)
        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
            return None


def store_address(rdzv_backend: str, endpoint: str) -> tuple[str, int] | None:
    """Where the rendezvous store listens, as every node reaches it."""
    from torch.distributed.elastic.rendezvous.utils import parse_rendezvous_endpoint

    if rdzv_backend not in ("c10d", "static") or not endpoint:
        return None
    try:
        host, port = parse_rendezvous_endpoint(endpoint, default_port=29400)
    except ValueError:
        return None
    return host, port


class JobView:
    """One node's window on the job: claims, progress records, hang reports."""

    def __init__(self, address: tuple[str, int], job_key: str,
                 notice: Callable[[str], None],
                 on_remote_failure: Callable[[Failure], None],
                 on_remote_hang: Callable[[str], None] = lambda host: None,
                 min_nodes: int = 1) -> None:
        self.address = address
        self._min_nodes = max(1, min(min_nodes, 256))
        """How many nodes the job has at least: a node whose claim must be read by the others
        waits for that many to have joined the view, not only for those that did."""
        self.node = f"{socket.gethostname()}:{os.getpid()}"
        self.host = socket.gethostname()
        self._job_key = job_key.replace("/", "_")[:200]
        self._notice = notice
        self._on_remote_failure = on_remote_failure
        self._on_remote_hang = on_remote_hang
        self._hang_seen = False
        self._lock = threading.Lock()
        self._store: Any = None
        self._attempt: int | None = None
        self._first: Failure | None = None
        self._pending: threading.Thread | None = None
        """A claim waiting out ``CLAIM_GRACE_S``."""
        self._reported_remote = False
        self._acked: str | None = None
        """The claim this node last acknowledged (``_claim_id``)."""
        self._final = False
        """The stored claim is a cause, acknowledged and followed: nothing can replace it
        any more."""
        self._unpublished: Failure | None = None
        """A claim made before the store was reached: published as soon as it is."""
        self._lost = False
        self._lingered = False
        self._progress: Callable[[], dict[str, Any]] = dict
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="safelaunch-jobview",
                                        daemon=True)

    # -- called by the supervisor -----------------------------------------------------------

    def start(self, progress: Callable[[], dict[str, Any]]) -> None:
        self._progress = progress
        self._thread.start()

    def attempt_started(self, attempt: int) -> None:
        """The rendezvous is done (so the store exists): connect and follow this attempt."""
        with self._lock:
            self._attempt = attempt
            self._first = None
            self._unpublished = None
            self._reported_remote = False
            self._acked = None
            self._final = False
            self._hang_seen = False
            self._lingered = False
        self._wake.set()

    def claim_failure_soon(self, rank: int, returncode: int) -> None:
        """Claim a failure: a cause at once; one that may be a consequence after
        ``CLAIM_GRACE_S`` unless another node's claim came first, from a thread of its own
        (the caller, the exit watcher, times the other ranks' exits)."""
        if returncode in CLAIM_AT_ONCE:
            self.claim_failure(rank, returncode)
            return
        with self._lock:
            if self._first is not None or self._pending is not None:
                return
            self._pending = threading.Thread(target=self._claim_after_grace,
                                             args=(rank, returncode),
                                             name="safelaunch-claim", daemon=True)
            self._pending.start()

    def _claim_after_grace(self, rank: int, returncode: int) -> None:
        deadline = time.monotonic() + CLAIM_GRACE_S
        while time.monotonic() < deadline and not self._lost:
            with self._lock:
                if self._first is not None:
                    return
            time.sleep(POLL_S / 4)
        self.claim_failure(rank, returncode)

    def _settle(self) -> None:
        """Wait for a claim waiting out its grace (from any thread but its own)."""
        pending = self._pending
        if pending is not None and pending is not threading.current_thread():
            pending.join(timeout=CLAIM_GRACE_S + OP_TIMEOUT_S + 1)

    def claim_failure(self, rank: int, returncode: int) -> Failure:
        """Claim the attempt's first failure; the winner (ours or an earlier one elsewhere).

        ``compare_set`` settles two claims by arrival alone, so a claim that is a cause
        (``Failure.cause``) replaces another node's claim that is not, whenever it arrives:
        a peer's lost connection can reach the store before the death that caused it (the
        dead rank's node was slower to see it, or had not reached the store yet)."""
        mine = Failure(rank, returncode, self.host, self.node, returncode in CLAIM_AT_ONCE)
        with self._lock:
            if self._first is not None and not _replaces(mine, self._first):
                return self._first
            if self._store is None or self._attempt is None:
                self._first = mine
                self._unpublished = None if self._lost else mine
                return mine
            if self._get(self._key("hang_detected")) is not None:
                return mine  # ranks failing while a hang is being stopped are not its cause
            self._first = self._publish_claim(mine)
            return self._first

    def _publish_claim(self, mine: Failure) -> Failure:
        """Write ``mine`` as the attempt's first failure unless an earlier claim stands
        (the lock held); the claim that stands."""
        key = self._key("first_failure")
        raw = self._op(lambda s: s.compare_set(key, "", json.dumps(mine.to_json())))
        winner = Failure.parse(raw) if isinstance(raw, bytes) else None
        if winner is not None and _replaces(mine, winner):
            raw = self._op(lambda s: s.compare_set(key, raw, json.dumps(mine.to_json())))
            winner = Failure.parse(raw) if isinstance(raw, bytes) else None
        return winner or mine

    def first_failure(self) -> Failure | None:
        """The attempt's first failure; one that may be a consequence is read from the store
        once more, since another node's cause can replace it there until the end."""
        self._settle()
        with self._lock:
            if self._first is not None and not self._first.cause and self._attempt is not None:
                stored = self._read_claim()
                if stored is not None and _replaces(stored, self._first):
                    self._take(stored)
            return self._first

    def is_remote(self, failure: Failure) -> bool:
        return failure.node != self.node

    def announce_hang(self) -> None:
        """Tell every node a hang was detected, so that each dumps its ranks' stacks now."""
        with self._lock:
            self._hang_seen = True
            key = self._key("hang_detected")
            self._op(lambda s: s.compare_set(key, "", self.host))

    def publish_hang(self, culprits: list[int], kinds: list[str],
                     stacks: dict[int, list[str]] | None = None) -> None:
        """This node's hang verdict, with the top frames of its ranks' stacks (so that every
        node's report shows every rank's stack, not only its own)."""
        record = json.dumps({"node": self.node, "host": self.host, "culprits": culprits,
                             "kinds": kinds, "stacks": {str(r): f for r, f in
                                                        (stacks or {}).items()}})
        with self._lock:
            self._op(lambda s: s.set(self._key(f"hang/{self.node}"), record))

    def gather_hangs(self, wait_s: float = HANG_GATHER_S) -> list[dict[str, Any]]:
        """The hang reports every node published, waiting up to ``wait_s`` for the nodes
        whose progress records exist to report too."""
        deadline = time.monotonic() + wait_s
        while True:
            nodes = self._nodes()
            reports = [r for node in nodes if (r := self._read_json(f"hang/{node}")) is not None]
            if len(reports) >= len(nodes) or time.monotonic() > deadline or self._lost:
                with self._lock:  # this node needs the store no more for the hang
                    self._op(lambda s: s.set(self._key(f"hang_done/{self.node}"), "1"))
                return reports
            time.sleep(0.2)

    def await_acks(self) -> None:
        """A node whose rank failed first waits (up to LINGER_S, once) until every other node
        has read its claim; after a hang, every node waits until the others have gathered
        the nodes' verdicts.  The store may live in this very process and end with torch's
        engine, so the supervisor calls this while it stops the ranks, before the engine
        returns."""
        first = self.first_failure()
        claimed = first is not None and not self.is_remote(first)
        if self._lingered or self._lost or not (claimed or self._hang_seen):
            return
        self._lingered = True
        deadline = time.monotonic() + LINGER_S
        while time.monotonic() < deadline and not self._lost:
            if self._read_by_all(claimed):
                break
            time.sleep(0.1)

    def _read_by_all(self, claimed: bool) -> bool:
        """Whether every other node read this node's claim (or, after a hang, gathered the
        nodes' verdicts); true too once another node's cause has replaced the claim."""
        claim = self.first_failure() if claimed else None
        if claimed and (claim is None or self.is_remote(claim)):
            return True
        others = [n for n in self._nodes() if n != self.node]
        with self._lock:
            acked = [n for n in others if self._acknowledged(n, claim)]
        return len(acked) >= max(len(others), self._min_nodes - 1)

    def _acknowledged(self, node: str, claim: Failure | None) -> bool:
        """Whether ``node`` read ``claim`` (gathered the hang verdicts when None); the lock
        held."""
        if claim is None:
            return self._get(self._key(f"hang_done/{node}")) is not None
        raw = self._get(self._key(f"ack/{node}"))
        return isinstance(raw, bytes) and raw.decode("utf-8", "replace") == _claim_id(claim)

    def stop(self) -> None:
        """Stop following the job (after ``await_acks``)."""
        self.await_acks()
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=OP_TIMEOUT_S + 1)

    # -- the thread --------------------------------------------------------------------------

    def _run(self) -> None:
        self._wake.wait()
        if self._stopping.is_set() or not self._connect():
            return
        last_publish = 0.0
        registered = self._attempt
        self._publish_unpublished()
        while not self._stopping.is_set() and not self._lost:
            if self._attempt != registered:  # a restart: join the new attempt's view
                with self._lock:
                    self._register()
                registered = self._attempt
                self._publish_unpublished()
            now = time.monotonic()
            if now - last_publish >= PUBLISH_S:
                self._publish()
                last_publish = now
            self._poll_failure()
            self._poll_hang()
            self._stopping.wait(POLL_S)

    def _connect(self) -> bool:
        import torch.distributed as dist

        host, port = self.address
        deadline = time.monotonic() + CONNECT_TIMEOUT_S
        while not self._stopping.is_set():
            try:
                store = dist.TCPStore(host, port, is_master=False,
                                      timeout=timedelta(seconds=OP_TIMEOUT_S),
                                      wait_for_workers=False)
                with self._lock:
                    self._store = store
                    self._register()
                return not self._lost
            except Exception as exc:  # torch raises several types for a store it cannot reach
                if time.monotonic() > deadline:
                    self._lose(exc)
                    return False
                time.sleep(0.5)
        return False

    def _register(self) -> None:
        """Take a number among the nodes of this attempt and file this node's name under it."""
        index = self._op(lambda s: s.add(self._key("node_count"), 1))
        name_key = self._key(f"node_name/{index}")
        self._op(lambda s: s.set(name_key, self.node))

    def _publish(self) -> None:
        record = json.dumps({"node": self.node, "host": self.host, "time": time.time(),
                             **self._progress()})
        with self._lock:
            self._op(lambda s: s.set(self._key(f"node/{self.node}"), record))

    def _poll_hang(self) -> None:
        with self._lock:
            if self._hang_seen or self._attempt is None:
                return
            raw = self._get(self._key("hang_detected"))
            if not isinstance(raw, bytes):
                return
            self._hang_seen = True
        self._on_remote_hang(raw[:200].decode("utf-8", "replace"))

    def _publish_unpublished(self) -> None:
        with self._lock:
            mine, self._unpublished = self._unpublished, None
            if mine is None or self._store is None or self._attempt is None:
                return
            if self._first is mine:
                self._first = self._publish_claim(mine)

    def _poll_failure(self) -> None:
        """Read the attempt's claim: acknowledge it, take another node's as this node's
        first failure, and keep reading while it may still be replaced by a cause."""
        with self._lock:
            if self._attempt is None or self._final:
                return
            stored = self._read_claim()
            if stored is None:
                return
            first = self._take(stored)
            report = self.is_remote(first) and not self._reported_remote
            self._reported_remote = self._reported_remote or report
            self._final = stored.cause
        if report:
            self._on_remote_failure(first)

    def _take(self, stored: Failure) -> Failure:
        """The claim read from the store becomes this node's first failure unless this node
        knows an earlier one that stands, and is acknowledged (the lock held); the first
        failure."""
        first = self._first
        if first is None or _replaces(stored, first):
            self._first = first = stored
        if self._acked != _claim_id(stored):
            self._op(lambda s: s.set(self._key(f"ack/{self.node}"), _claim_id(stored)))
            self._acked = _claim_id(stored)
        return first

    def _read_claim(self) -> Failure | None:
        """The claim in the store (the lock held)."""
        raw = self._get(self._key("first_failure"))
        return Failure.parse(raw) if isinstance(raw, bytes) else None

    # -- store access --------------------------------------------------------------------------

    def _key(self, name: str) -> str:
        return f"safelaunch/{self._job_key}/a{self._attempt or 0}/{name}"

    def _nodes(self) -> list[str]:
        """Every node that joined this attempt's view (each registered itself by number)."""
        with self._lock:
            count = self._op(lambda s: s.add(self._key("node_count"), 0))
            if not isinstance(count, int):
                return [self.node]
            names = []
            for index in range(1, min(count, 256) + 1):
                raw = self._get(self._key(f"node_name/{index}"))
                if isinstance(raw, bytes):
                    names.append(raw[:300].decode("utf-8", "replace"))
        return sorted(set(names)) or [self.node]

    def _read_json(self, name: str) -> dict[str, Any] | None:
        with self._lock:
            raw = self._get(self._key(name))
        if not isinstance(raw, bytes):
            return None
        try:
            data = json.loads(raw[:MAX_RECORD_BYTES].decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return None
        return data if isinstance(data, dict) else None

    def _get(self, key: str) -> Any:
        """The value of ``key``, None when it is not set (the lock held)."""
        return self._op(lambda s: s.get(key) if s.check([key]) else None)

    def _op(self, call: Callable[[Any], Any]) -> Any:
        """One store operation (the lock held); a failure loses the view, never the run."""
        if self._store is None or self._lost:
            return None
        try:
            return call(self._store)
        except Exception as exc:  # DistStoreError, DistNetworkError, RuntimeError...
            self._lose(exc)
            return None

    def _lose(self, exc: BaseException) -> None:
        if self._lost:
            return
        self._lost = True
        self._store = None
        if self._first is not None or self._stopping.is_set():
            return  # the job has its verdict: the store ending with its host is expected
        host, port = self.address
        text = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        self._notice(f"the job's shared view (the rendezvous store at {host}:{port}) is "
                     f"unreachable ({text}); this node decides alone")


def _replaces(claim: Failure, standing: Failure) -> bool:
    """Whether ``claim``, a cause, takes the place of another node's ``standing`` claim that
    may be a consequence of it."""
    return claim.cause and not standing.cause and claim.node != standing.node


def _claim_id(claim: Failure) -> str:
    """What a node writes to acknowledge a claim: which node claimed which rank."""
    return f"{claim.node}|{claim.rank}|{claim.returncode}"
