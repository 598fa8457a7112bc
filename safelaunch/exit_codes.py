"""Exit codes of ``safelaunch run`` and what each one means, kept as data.

The README's table is generated from ``EXIT_CODE_TABLE`` (see tests/test_readme.py), so the
two never drift apart.
"""

from __future__ import annotations

import signal

SUCCESS = 0
FAILED = 1
"""The job failed and no rank is to blame (torchrun's own code in that case)."""
USAGE = 2
HANG = 124
START_FAILED = 125
NOT_EXECUTABLE = 126
NOT_FOUND = 127
INTERNAL = 70
"""A bug of safelaunch's own (EX_SOFTWARE of sysexits.h), never a rank's exit code 1."""
SIGNAL_BASE = 128
REMOTE = 255
"""``safelaunch remote``: the host, its key, the VastAI API or the link failed."""
MAX = 255

EXIT_CODE_TABLE: list[tuple[str, str]] = [
    ("0", "every rank succeeded"),
    ("N", "the root-cause rank (the first to fail) exited with code N"),
    ("128+S", "the root-cause rank died from signal S: 134 SIGABRT, 137 SIGKILL (often the "
              "kernel OOM killer), 139 SIGSEGV"),
    ("2", "usage or configuration error (bad option, config file, run directory)"),
    ("70", "internal error of safelaunch itself (a bug: the message names a report file)"),
    ("124", "safelaunch detected a hang and stopped the job"),
    ("125", "safelaunch could not start the job (port in use, rendezvous failed, pre-flight)"),
    ("126", "the script or program is not executable"),
    ("127", "the script, module or program was not found"),
    ("130 / 143 / 129", "safelaunch was stopped by SIGINT / SIGTERM / SIGHUP (after cleanup)"),
    ("255", "safelaunch remote only: the host cannot be reached or refuses the key, its host "
            "key is unknown or changed, the VastAI API failed, the link stayed down past "
            "--reconnect-timeout, or the remote agent's console stream kept ending without its "
            "end record"),
]


def signal_name(signum: int) -> str:
    """``9`` -> ``"SIGKILL"``; unknown numbers become ``"signal 42"``."""
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


def for_signal(signum: int) -> int:
    """The shell convention for a process that died from ``signum``."""
    return SIGNAL_BASE + signum
