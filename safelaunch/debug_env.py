"""Debug environment profiles, kept as a table: what ``--debug-level`` exports to the ranks.

Each entry is (variable, value, why).  ``{run_dir}`` in a value is replaced with the run
directory.  A variable the user already set is never overridden: ``resolve`` reports it as
kept, and safelaunch prints and records both lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

LEVELS = ("off", "basic", "detail")

BASIC: list[tuple[str, str, str]] = [
    ("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1",
     "a failed or timed-out NCCL collective aborts the rank instead of hanging"),
    ("TORCH_NCCL_TRACE_BUFFER_SIZE", "2000", "NCCL flight recorder on (last 2000 collectives)"),
    ("TORCH_FR_BUFFER_SIZE", "2000", "flight recorder on (newer torch name)"),
    ("TORCH_NCCL_DUMP_ON_TIMEOUT", "1", "dump the flight recorder when a collective times out"),
    ("TORCH_NCCL_DEBUG_INFO_TEMP_FILE", "{run_dir}/nccl_flight_recorder/rank_",
     "flight recorder dumps go to the run directory"),
    ("TORCH_FR_DUMP_TEMP_FILE", "{run_dir}/nccl_flight_recorder/rank_",
     "flight recorder dumps go to the run directory (newer torch name)"),
    ("PYTHONFAULTHANDLER", "1", "a Python traceback on SIGSEGV, SIGABRT and SIGBUS"),
    ("NCCL_DEBUG", "WARN", "NCCL prints its warnings and errors"),
]

DETAIL: list[tuple[str, str, str]] = [
    ("NCCL_DEBUG", "INFO", "NCCL prints its setup: transports, rings, network interfaces"),
    ("NCCL_DEBUG_SUBSYS", "INIT,NET,ENV,GRAPH", "the NCCL subsystems worth reading at start"),
    ("TORCH_DISTRIBUTED_DEBUG", "DETAIL", "torch checks that ranks issue matching collectives"),
    ("TORCH_SHOW_CPP_STACKTRACES", "1", "C++ stack traces in torch errors"),
    ("TORCH_CPP_LOG_LEVEL", "INFO", "torch's C++ log messages"),
    ("CUDA_LAUNCH_BLOCKING", "1",
     "CUDA errors are reported at the kernel that caused them (slows training a lot)"),
]

SLOW_VARIABLES = {"CUDA_LAUNCH_BLOCKING": "it makes every CUDA kernel launch synchronous",
                  "TORCH_DISTRIBUTED_DEBUG": "it checks every collective across ranks"}


def profile(level: str) -> list[tuple[str, str, str]]:
    """The entries of a level; later entries win (detail's NCCL_DEBUG=INFO over WARN)."""
    if level == "off":
        return []
    entries = {name: (name, value, why) for name, value, why in BASIC}
    if level == "detail":
        entries.update({name: (name, value, why) for name, value, why in DETAIL})
    return list(entries.values())


@dataclass
class DebugEnv:
    level: str
    set: dict[str, str] = field(default_factory=dict)
    """Variables safelaunch sets for the ranks."""
    kept: dict[str, str] = field(default_factory=dict)
    """Variables of the profile the user had already set: their value stays."""
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"level": self.level, "set": self.set, "kept": self.kept,
                "warnings": self.warnings}


def resolve(level: str, environ: Mapping[str, str], run_dir: str) -> DebugEnv:
    result = DebugEnv(level)
    for name, value, _ in profile(level):
        if name in environ:
            result.kept[name] = environ[name]
            continue
        result.set[name] = value.replace("{run_dir}", run_dir)
        if name in SLOW_VARIABLES:
            result.warnings.append(f"{name}={result.set[name]} slows training: "
                                   f"{SLOW_VARIABLES[name]}; use --debug-level detail only "
                                   "to find a bug")
    return result
