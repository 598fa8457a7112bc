"""The values torchrun only looks at once it is running, checked before anything starts.

torchrun accepts ``--rdzv-endpoint 127.0.0.1:99999``, ``--rdzv-conf join_timeout=-5``,
``--signals-to-handle SIGKILL`` or ``--event-log-handler nope`` on its command line and fails
later with a traceback (an internal error or a failed start for safelaunch), or, for
``--local-addr 'x y'``, waits forever.  Each check here applies torch's own rule (its
endpoint parser, its rendezvous timeouts, its handler table) to the ``LaunchConfig`` torch's
parser made, and raises ``UsageError``: one line, exit 2.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable
from typing import Any

from torch.distributed.elastic.events.handlers import get_logging_handler
from torch.distributed.elastic.rendezvous import RendezvousParameters
from torch.distributed.elastic.rendezvous.utils import parse_rendezvous_endpoint
from torch.distributed.run import determine_local_world_size

from safelaunch.errors import UsageError

ADDRESS = re.compile(r"\[?[\w.:%-]{1,255}\]?")
"""A host name, IPv4 or IPv6 address (torch's rule for an endpoint's host, and ``[]``, ``%``)."""
CANNOT_HANDLE = frozenset({"SIGKILL", "SIGSTOP"})
POSITIVE_WHOLE = {
    # rdzv-conf key: what torch does with a value that is not a whole number above 0
    "join_timeout": "fails when the rendezvous starts",
    "last_call_timeout": "fails when the rendezvous starts",
    "close_timeout": "fails when the rendezvous starts",
    "read_timeout": "fails when the rendezvous starts",
    "keep_alive_interval": "waits forever",
}


def check_nproc(nproc: str) -> int:
    """The ranks per node ``--nproc-per-node`` means here, by torch's rule (a device word
    needs that device); ``UsageError`` when torch would refuse it."""
    try:
        return int(determine_local_world_size(nproc))
    except ValueError as exc:
        raise UsageError(f"--nproc-per-node {nproc}: {exc}") from exc


def _endpoint(config: Any, args: Any) -> None:
    endpoint = config.rdzv_endpoint
    which = "--rdzv-endpoint" if getattr(args, "rdzv_endpoint", "") else "--master-addr"
    try:
        _, port = parse_rendezvous_endpoint(endpoint, default_port=-1)
    except ValueError as exc:
        raise UsageError(f"{which}: {exc}") from None
    if config.rdzv_backend == "static" and endpoint.strip() and port == -1:
        raise UsageError(f"{which} {endpoint!r} has no port; the static rendezvous needs "
                         "HOST:PORT (or --master-addr and --master-port)")


def _rdzv_conf(config: Any, args: Any) -> None:
    params = RendezvousParameters(config.rdzv_backend, config.rdzv_endpoint, config.run_id,
                                  config.min_nodes, config.max_nodes, **config.rdzv_configs)
    for key, consequence in POSITIVE_WHOLE.items():
        if key not in config.rdzv_configs:
            continue
        try:
            value = params.get_as_int(key)
        except ValueError:
            value = None
        if value is None or value <= 0:
            raise UsageError(f"--rdzv-conf {key}={str(config.rdzv_configs[key])[:40]!r}: must "
                             f"be a whole number of seconds above 0 (torch {consequence})")


def _signals(config: Any, args: Any) -> None:
    names = str(getattr(args, "signals_to_handle", "") or "").split(",")
    for name in (n.strip() for n in names):
        if name in CANNOT_HANDLE:
            raise UsageError(f"--signals-to-handle {name}: {name} cannot be caught, so no "
                             "handler can be set for it (torch fails at start); drop it")


def _event_log_handler(config: Any, args: Any) -> None:
    name = getattr(args, "event_log_handler", "null")
    try:
        get_logging_handler(name)
    except KeyError:
        raise UsageError(f"--event-log-handler {str(name)[:60]!r} is not one of torch's "
                         "event handlers (console, dynamic_rendezvous, null)") from None


def _local_addr(config: Any, args: Any) -> None:
    addr = getattr(args, "local_addr", None)
    if addr is None:
        return
    if not ADDRESS.fullmatch(addr):
        raise UsageError(f"--local-addr {addr[:80]!r} is not a host name or an IP address "
                         "(torch would wait for it forever)")
    try:
        socket.getaddrinfo(addr.strip("[]"), None)
    except (OSError, UnicodeError) as exc:
        raise UsageError(f"--local-addr {addr!r} cannot be resolved "
                         f"({getattr(exc, 'strerror', None) or exc}); torch would wait for it "
                         "forever") from None


CHECKS: tuple[Callable[[Any, Any], None], ...] = (
    _endpoint, _rdzv_conf, _signals, _event_log_handler, _local_addr)


def check_launch_config(config: Any, args: Any) -> None:
    """Refuse, in one line, a value torch would only fail on (or wait on) once running:
    ``config`` is the ``LaunchConfig`` torch's parser made of ``args``."""
    for check in CHECKS:
        check(config, args)
