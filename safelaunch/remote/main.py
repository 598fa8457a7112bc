"""The whole ``safelaunch remote`` command as one library call: find the machine (an SSH host
or a VastAI instance), start or attach, and end the instance afterwards if asked; or, with
several hosts, one job over all of them (``several``)."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from safelaunch import defaults
from safelaunch.console import Console
from safelaunch.errors import RemoteError, UsageError
from safelaunch.remote.calls import LINK_ERRORS
from safelaunch.remote.runner import Launch, RemoteJob, RemoteOutcome, RemoteSession
from safelaunch.remote.ssh import resolve_target

if TYPE_CHECKING:
    from safelaunch.remote.vast import VastClient

VAST_SSH_WAIT = 180.0


@dataclass(frozen=True)
class RemoteRequest:
    host: str | None
    vast_instance: int | None
    launch: Launch | None
    """None for ``--attach``."""
    attach_id: str | None = None
    tail: int | None = None
    """With ``--attach``: start from the last N lines of the console instead of the first."""
    run_id: str = ""
    identity: tuple[str, ...] = ()
    ssh_config: Path | None = None
    accept_new_host_key: bool = False
    python: str = "auto"
    remote_dir: str = "~/safelaunch"
    reconnect_timeout: float = defaults.RECONNECT_TIMEOUT_S
    vast_wait: float = defaults.VAST_WAIT_S
    stop_after: bool = False
    destroy_after: bool = False
    local_runs: Path = field(default_factory=lambda: Path(defaults.RUNS_ROOT))
    hosts: tuple[str, ...] = ()
    """Several hosts, one job (``host`` is then None)."""
    vast_instances: tuple[int, ...] = ()
    """Several VastAI instances, one job (``vast_instance`` is then None)."""
    rdzv_endpoint: str | None = None
    """With several hosts: the rendezvous address the user chose."""


def run_several(request: RemoteRequest, console: Console) -> int:
    """One job over ``request.hosts`` (or ``request.vast_instances``); the exit code."""
    from safelaunch.remote.several import SeveralHosts

    if request.hosts and request.vast_instances:
        raise UsageError("give several hosts with --host/--hostfile or several "
                         "--vast-instance, not both")
    if request.launch is None:
        raise UsageError("--attach follows one node of a job on several hosts: --host HOST "
                         "--attach RUN_ID-nodeN")
    client = None
    places: list[tuple[str, str, float]] = [(host, f"--host {shlex.quote(host)}", 0.0)
                                            for host in request.hosts]
    if request.vast_instances:
        from safelaunch.remote import vast

        client = vast.VastClient(vast.find_api_key())
        places = [(_vast_spec(client, instance, request.vast_wait, console),
                   f"--vast-instance {instance}", VAST_SSH_WAIT)
                  for instance in request.vast_instances]
    jobs = [RemoteJob(resolve_target(spec, request.ssh_config, identity=request.identity),
                      request.python, request.remote_dir, request.accept_new_host_key,
                      request.reconnect_timeout, request.local_runs, option, wait)
            for spec, option, wait in places]
    several = SeveralHosts(jobs, request.launch, request.run_id, console,
                           request.rdzv_endpoint)
    try:
        code = several.run()
    except LINK_ERRORS as exc:  # the link broke where no retry applies
        raise RemoteError(f"lost a connection: {exc or type(exc).__name__}") from exc
    if client is not None and several.ended:
        for instance in request.vast_instances:
            _end_instance(client, instance, request, console)
    return code


def _vast_spec(client: VastClient, instance_id: int, wait: float, console: Console) -> str:
    """``user@host:port`` of a running instance's SSH, saying which address and why."""
    from safelaunch.remote import vast

    instance = client.wait_running(instance_id, wait, notice=console.notice)
    choice = vast.ssh_choice(instance)
    address = vast.first_reachable(choice, vast.accepts_connections)
    spec = f"{address.user}@{address.host}:{address.port}"
    why = (choice.why if address == choice.address else
           f"{choice.address.host}:{choice.address.port} ({choice.why}) refused the "
           "connection; trying the other address")
    console.notice(f"VastAI instance {instance_id} is running; SSH {spec}: {why}")
    return spec


def _end_instance(client: VastClient, instance_id: int, request: RemoteRequest,
                  console: Console) -> None:
    if request.destroy_after:
        client.destroy(instance_id)
        console.notice(f"destroyed VastAI instance {instance_id}")
    elif request.stop_after:
        client.stop(instance_id)
        console.notice(f"stopped VastAI instance {instance_id} (its disk still bills until it "
                       "is destroyed)")


def run_remote(request: RemoteRequest, console: Console) -> int:
    """Run (or attach to) the remote job; the exit code for the command line."""
    if (request.host is None) == (request.vast_instance is None):
        raise UsageError("give exactly one of --host and --vast-instance")
    client = None
    ssh_wait = 0.0
    if request.vast_instance is not None:
        from safelaunch.remote import vast

        client = vast.VastClient(vast.find_api_key())
        spec = _vast_spec(client, request.vast_instance, request.vast_wait, console)
        host_option = f"--vast-instance {request.vast_instance}"
        ssh_wait = VAST_SSH_WAIT  # "running" comes before the container's sshd is up
    else:
        spec = str(request.host)
        host_option = ""
    target = resolve_target(spec, request.ssh_config, identity=request.identity)
    job = RemoteJob(target, request.python, request.remote_dir, request.accept_new_host_key,
                    request.reconnect_timeout, request.local_runs, host_option, ssh_wait)
    session = RemoteSession(job, console)
    outcome: RemoteOutcome
    try:
        if request.launch is None:
            outcome = session.attach(request.attach_id, request.tail)
        else:
            outcome = session.launch(request.launch, request.run_id)
    except LINK_ERRORS as exc:  # the link broke where no retry applies
        raise RemoteError(f"lost the connection to {target.name}: "
                          f"{exc or type(exc).__name__}") from exc
    if client is not None and request.vast_instance is not None and outcome.ended:
        _end_instance(client, request.vast_instance, request, console)
    return outcome.exit_code
