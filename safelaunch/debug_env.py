"""Debug environment profiles, kept as a table: what ``--debug-level`` exports to the ranks.

Each ``Entry`` is a variable, its value and why; some apply only to NCCL jobs or to a range
of torch versions.  ``{run_dir}`` in a value is replaced with the run
directory.  A variable the user already set is never overridden: ``resolve`` reports it as
kept, and safelaunch prints and records both lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

LEVELS = ("off", "basic", "detail")
FR_RENAMED_IN = (2, 11)  # torch's flight recorder variables lost their NCCL_ prefix here
FR_DUMP_ON_TIMEOUT_IN = (2, 15)  # TORCH_FR_DUMP_ON_TIMEOUT, read by ProcessGroupNCCL2 too


@dataclass(frozen=True)
class Entry:
    name: str
    value: str
    why: str
    nccl_only: bool = False
    """Only when the ranks use NCCL (torch's NCCL dump file and dump-on-timeout settings)."""
    torch_min: tuple[int, int] | None = None
    torch_before: tuple[int, int] | None = None
    aliases: tuple[str, ...] = ()
    """Other names torch reads for the same setting: one the user set keeps theirs."""

    def applies(self, nccl: bool, torch_version: tuple[int, int]) -> bool:
        if self.nccl_only and not nccl:
            return False
        if self.torch_min is not None and torch_version < self.torch_min:
            return False
        return self.torch_before is None or torch_version < self.torch_before


FR_DUMP_PATH = "{run_dir}/nccl_flight_recorder/rank_"
FLIGHT_RECORDER_DUMP = [
    Entry("TORCH_FR_DUMP_TEMP_FILE", FR_DUMP_PATH, "flight recorder dumps go to the run "
          "directory", nccl_only=True, torch_min=FR_RENAMED_IN,
          aliases=("TORCH_NCCL_DEBUG_INFO_TEMP_FILE",)),
    Entry("TORCH_NCCL_DEBUG_INFO_TEMP_FILE", FR_DUMP_PATH, "flight recorder dumps go to the run "
          "directory", nccl_only=True, torch_before=FR_RENAMED_IN,
          aliases=("TORCH_FR_DUMP_TEMP_FILE",)),
]

FR_BUFFER_SIZE = "2000"
"""Entries of torch's flight recorder (torch 2.15's own default for NCCL): a few hundred
kilobytes per rank, dumped at a hang (see scripts/bench_flight_recorder.py for its cost)."""
FLIGHT_RECORDER_ON = [
    Entry("TORCH_FR_BUFFER_SIZE", FR_BUFFER_SIZE, "flight recorder on (the last collectives of "
          "every process group, read at a hang)", torch_min=FR_RENAMED_IN,
          aliases=("TORCH_NCCL_TRACE_BUFFER_SIZE",)),
    # Before the rename only NCCL reads it, and gloo-only jobs were seen to abort at exit
    # with the flight-recorder variables set: NCCL jobs only.
    Entry("TORCH_NCCL_TRACE_BUFFER_SIZE", FR_BUFFER_SIZE, "NCCL flight recorder on (the last "
          "collectives, read at a hang)", nccl_only=True, torch_before=FR_RENAMED_IN,
          aliases=("TORCH_FR_BUFFER_SIZE",)),
]

DUMP_WAIT_MS = "5000"
"""After a watchdog timeout torch's ProcessGroupNCCL gives the flight-recorder dumps this long
and then sleeps four times as long before it aborts the rank, whatever the dumps took (15 s by
default: a minute).  On an H200 both ranks' dumps were written within a second of the timeout
(tests/fixtures/gpu/real), and the rank died 60 s after it."""

BASIC: list[Entry] = [
    Entry("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1",
          "a failed or timed-out NCCL collective aborts the rank instead of hanging"),
    Entry("TORCH_FR_DUMP_ON_TIMEOUT", "1", "dump the flight recorder when a collective times "
          "out (both NCCL backends of torch >= 2.15)", nccl_only=True,
          torch_min=FR_DUMP_ON_TIMEOUT_IN, aliases=("TORCH_NCCL_DUMP_ON_TIMEOUT",)),
    Entry("TORCH_NCCL_DUMP_ON_TIMEOUT", "1", "dump the flight recorder when a collective times "
          "out", nccl_only=True, torch_before=FR_DUMP_ON_TIMEOUT_IN,
          aliases=("TORCH_FR_DUMP_ON_TIMEOUT",)),
    Entry("TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC", DUMP_WAIT_MS, "a rank whose NCCL collective "
          "timed out dies about 20 s later instead of 60 s", nccl_only=True),
    *FLIGHT_RECORDER_DUMP,
    Entry("PYTHONFAULTHANDLER", "1", "a Python traceback on SIGSEGV, SIGABRT and SIGBUS"),
    Entry("NCCL_DEBUG", "WARN", "NCCL prints its warnings and errors"),
]

DETAIL: list[Entry] = [
    Entry("NCCL_DEBUG", "INFO", "NCCL prints its setup: transports, rings, network interfaces"),
    Entry("NCCL_DEBUG_SUBSYS", "INIT,NET,ENV,GRAPH", "the NCCL subsystems worth reading at "
          "start"),
    Entry("TORCH_DISTRIBUTED_DEBUG", "DETAIL", "torch checks that ranks issue matching "
          "collectives"),
    Entry("TORCH_SHOW_CPP_STACKTRACES", "1", "C++ stack traces in torch errors"),
    Entry("TORCH_CPP_LOG_LEVEL", "INFO", "torch's C++ log messages"),
    Entry("CUDA_LAUNCH_BLOCKING", "1", "CUDA errors are reported at the kernel that caused them "
          "(slows training a lot)"),
]

SLOW_VARIABLES = {"CUDA_LAUNCH_BLOCKING": "it makes every CUDA kernel launch synchronous",
                  "TORCH_DISTRIBUTED_DEBUG": "it checks every collective across ranks"}


def profile(level: str) -> list[Entry]:
    """The entries of a level; later entries win (detail's NCCL_DEBUG=INFO over WARN).  At
    every level the flight recorder is on (safelaunch dumps it at a hang) and NCCL's own
    flight-recorder dumps are pointed into the run directory."""
    entries = {e.name: e for e in (*FLIGHT_RECORDER_ON, *FLIGHT_RECORDER_DUMP)}
    if level in ("basic", "detail"):
        entries.update({e.name: e for e in BASIC})
    if level == "detail":
        entries.update({e.name: e for e in DETAIL})
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

    def dump_folders(self) -> list[str]:
        """Folders of the flight-recorder dump paths safelaunch set: torch creates only its
        own default folder and, where the one named is missing, logs "Error opening file for
        writing Flight Recorder debug info" and writes nothing."""
        names = {e.name for e in FLIGHT_RECORDER_DUMP}
        return sorted({value.rsplit("/", 1)[0] for name, value in self.set.items()
                       if name in names and "/" in value})


def resolve(level: str, environ: Mapping[str, str], run_dir: str, *, nccl: bool,
            torch_version: tuple[int, int]) -> DebugEnv:
    result = DebugEnv(level)
    for entry in profile(level):
        if not entry.applies(nccl, torch_version):
            continue
        name, value = entry.name, entry.value
        mine = [n for n in (name, *entry.aliases) if n in environ]
        if mine:
            result.kept.update({n: environ[n] for n in mine})
            continue
        result.set[name] = value.replace("{run_dir}", run_dir)
        if name in SLOW_VARIABLES:
            result.warnings.append(f"{name}={result.set[name]} slows training: "
                                   f"{SLOW_VARIABLES[name]}; use --debug-level detail only "
                                   "to find a bug")
    return result
