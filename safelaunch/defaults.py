"""Every default that more than one part of safelaunch relies on, written once.

Option defaults of ``safelaunch run`` live on ``config.RunConfig`` (the command-line options
take theirs from it); the numbers and names they share with other commands are here.
"""

from __future__ import annotations

RUNS_ROOT = "safelaunch_runs"
"""Where run directories go, under the working directory (locally and on a remote)."""
GRACE_PERIOD_S = 10.0
"""Seconds between SIGTERM and SIGKILL when ranks are stopped (torchrun's own default)."""
STARTUP_TIMEOUT_S = 900.0
"""Seconds a rank may take to its first step."""
MONITOR_INTERVAL_S = 0.1
"""torchrun's default --monitor-interval."""
STATUS_INTERVAL_S = 30.0
MINIMAL_TEST_TIMEOUT_S = 120.0
SIGNALS_TO_HANDLE = "SIGTERM,SIGINT,SIGHUP,SIGQUIT"
"""torchrun's default --signals-to-handle."""
RDZV_JOIN_TIMEOUT_S = 600.0
"""torch's c10d rendezvous ``join_timeout`` when --rdzv-conf does not set one."""
RECONNECT_TIMEOUT_S = 600.0
"""Seconds ``safelaunch remote`` keeps reconnecting after a link drops."""
VAST_WAIT_S = 600.0
"""Seconds ``safelaunch remote`` waits for a VastAI instance to be running."""
