#!/usr/bin/env python3
"""The whole GPU validation of safelaunch in one command, for one call of a GPU machine.

    OUT=DIR python3 scripts/gpu_check.py [--dry-run] [--budget S] [--only NAME,...]

(usually through ``scripts/gpu_check.sh``).  It installs safelaunch from this tree (and the
wheels in ``.whl/`` that the machine's Python lacks, see ``scripts/gpu_check_wheels.sh``),
records what the machine is (nvidia-smi in the forms ``safelaunch/gpu.py`` parses, torch,
CUDA, NCCL), runs safelaunch's commands (preflight, env, minimal-test, the example job) and
the real failures one GPU allows (out of memory, a device-side assert, two ranks on one GPU,
no visible GPU, a hang in torch.cuda.synchronize, a rank that skips an NCCL collective, an
NCCL watchdog timeout with the flight recorder), and diagnoses every failed run.

Each step runs under coreutils ``timeout`` with its own limit, and under one budget for the
whole check (``--budget``, default 570 s, inside the GPU machine's 10 minutes a command): a
step whose usual time no longer fits is skipped, never half-run.  Every step's expectation is
written down, and each result says whether it met it.

Everything lands in ``$OUT`` as three files within the GPU machine's limits (at most 8
files of 16 MiB, 2 folders deep, names of letters, digits and ``._-``):

- ``results.json``: every step's command, exit code, time, expectation, checks, summary and
  diagnosis (rewritten after each step, so a killed check still leaves it);
- ``gpu_check.log``: this console, every step's command and the end of its output;
- ``runs.tar.gz``: every step's output, run directory (rank logs, summary.json, stacks,
  flight-recorder dumps) and diagnosis, under 15 MiB (long files are cut in the middle).

``--dry-run`` tries it all on a machine without a GPU: the project's fake nvidia-smi (one
GPU) is put first on PATH, and the GPU fault script simulates its failures on the CPU
(``GPU_FAULT_SIMULATE=1``, gloo), so every command line, the checks, the packing and the
result file are exercised; the expectations are then the dry run's own.  Exit status: 0 when
every step that ran met its expectation, 1 otherwise, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FAKE_NVIDIA_SMI = REPO / "tests" / "fixtures" / "fake-nvidia-smi"
GPU_FAULT = REPO / "tests" / "fixtures" / "gpu" / "gpu_fault.py"
EXAMPLE = REPO / "examples" / "train_ddp.py"
WHEELS = REPO / ".whl"
QUERY = "index,name,temperature.gpu,ecc.errors.uncorrected.volatile.total,driver_version"
"""The query of safelaunch/gpu.py (a test keeps them equal)."""
SIMULATE_ENV = "GPU_FAULT_SIMULATE"
NCCL2_ENV = "TORCH_DIST_USE_NCCL2"
NCCL2_SINCE = (2, 15)

MIB = 1 << 20
OUT_MAX_FILES = 8
OUT_MAX_FILE_BYTES = 16 * MIB
OUT_MAX_TOTAL_BYTES = 64 * MIB
OUT_MAX_FOLDERS = 2
OUT_NAME = re.compile(r"^[A-Za-z0-9._-]+$")
ARCHIVE_LIMIT = 15 * MIB
ARCHIVE_CAPS = (4 * MIB, MIB, 256 * 1024, 64 * 1024, 16 * 1024)
"""Largest size of one file in the archive, tried in turn until the archive fits."""
LOG_LIMIT = 8 * MIB
RESERVE_S = 25.0
"""Kept back from the budget for the packing at the end."""
KILL_AFTER_S = 15
TAIL_LINES = 12
GPU_PROCESS_POLLS = 5
RESULTS, LOG, ARCHIVE = "results.json", "gpu_check.log", "runs.tar.gz"
ALWAYS = ("wheels", "install", "nvidia-smi", "nvidia-smi-L", "nvidia-smi-query", "nvidia-smi-q",
          "nvidia-smi-topo", "gpu-parse", "torch-facts")
"""Steps that run even outside --only: the later steps' expectations depend on them."""

FACTS_CODE = r"""
import json, pathlib, re, sys
import torch, torch.distributed as dist
cuda = torch.cuda.is_available()
facts = {"python": sys.version.split()[0], "executable": sys.executable,
         "torch": torch.__version__, "cuda": torch.version.cuda, "cuda_available": cuda,
         "nccl_available": bool(dist.is_available() and dist.is_nccl_available()),
         "device_count": torch.cuda.device_count() if cuda else 0, "devices": [], "nccl": None}
for i in range(facts["device_count"]):
    p = torch.cuda.get_device_properties(i)
    facts["devices"].append({"name": p.name, "capability": f"{p.major}.{p.minor}",
                             "memory_gib": round(p.total_memory / 2**30, 1),
                             "multiprocessors": p.multi_processor_count})
if cuda and facts["nccl_available"]:
    v = torch.cuda.nccl.version()
    facts["nccl"] = ".".join(map(str, v)) if isinstance(v, tuple) else str(v)
facts["torch_version"] = [int(n) for n in re.findall(r"\d+", torch.__version__)[:2]]
root = pathlib.Path(torch.__file__).parent
dist_dir = root / "distributed"
facts["nccl2_mentioned_in"] = [str(p.relative_to(root)) for p in sorted(dist_dir.rglob("*.py"))
                               if "TORCH_DIST_USE_NCCL2" in p.read_text(errors="replace")][:5]
facts["flight_recorder_analyzer"] = (dist_dir / "flight_recorder" / "fr_trace.py").exists()
print(json.dumps(facts))
"""

GPU_PARSE_CODE = r"""
import json, os
from safelaunch import gpu
gpus = gpu.list_gpus()
links = gpu.topology()
print(json.dumps({
    "nvidia_smi": gpu.nvidia_smi(),
    "gpus": None if gpus is None else [vars(g) for g in gpus],
    "visible": None if gpus is None else gpu.visible_indices(
        gpus, os.environ.get("CUDA_VISIBLE_DEVICES")),
    "topology": None if links is None else {f"{a}-{b}": k for (a, b), k in links.items()},
}))
"""


class Stopped(Exception):
    """The check itself got SIGTERM or SIGINT: pack what there is and stop."""


@dataclass
class Expect:
    """What a correct safelaunch does in a step; an empty Expect accepts anything."""

    exit: list[int] | None = None
    """Accepted exit codes; None: any."""
    nonzero: bool = False
    """Any failure code (neither 0 nor safelaunch's 124 hang or 125 start failure)."""
    diagnosis: list[str] = field(default_factory=list)
    """Accepted ids of the diagnosis' first finding."""
    culprits: list[int] | None = None
    """The ranks the hang analysis must name."""
    files: list[str] = field(default_factory=list)
    """Globs in the run directory that must match a file."""
    output: list[str] = field(default_factory=list)
    """Regular expressions the step's output must contain."""
    absent: list[str] = field(default_factory=list)
    """Regular expressions the step's output must not contain."""
    json_stdout: bool = False
    note: str = ""
    """What a correct result looks like, in words."""


@dataclass
class Step:
    name: str
    argv: list[str]
    timeout: float
    typical: float
    """Seconds it usually takes: the step starts only if that much budget is left."""
    expect: Expect
    expect_dry: Expect | None = None
    """The dry run's expectation (None: the same)."""
    env: dict[str, str] = field(default_factory=dict)
    run_dir: Path | None = None
    """A safelaunch run directory to summarise and diagnose afterwards."""
    skip: str | None = None
    """Why this step does not run here."""


@dataclass
class Context:
    work: Path
    out: Path
    dry_run: bool
    deadline: float
    only: set[str] | None
    env: dict[str, str]
    python: str = sys.executable
    facts: dict[str, Any] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    started_utc: str = field(default_factory=lambda: utc_now())
    log_file: io.TextIOBase | None = None
    log_bytes: int = 0

    @property
    def steps_dir(self) -> Path:
        return self.work / "steps"

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def say(self, line: str) -> None:
        print(line, flush=True)
        if self.log_file is not None and self.log_bytes < LOG_LIMIT:
            self.log_file.write(line + "\n")
            self.log_file.flush()
            self.log_bytes += len(line) + 1

    def safelaunch(self, *args: str) -> list[str]:
        return [self.python, "-m", "safelaunch", *args]


def utc_now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- running one command -------------------------------------------------------------------


@dataclass
class Execution:
    exit_code: int | None
    seconds: float
    timed_out: bool
    output: Path
    stdout: Path | None = None


def execute(ctx: Context, argv: list[str], timeout: float, folder: Path, *,
            env: dict[str, str] | None = None, split_stdout: bool = False,
            label: str = "output") -> Execution:
    """Run ``argv`` under coreutils timeout (and a backstop of our own) in its own session;
    stderr (and stdout unless ``split_stdout``) go to ``folder/<label>.txt``."""
    folder.mkdir(parents=True, exist_ok=True)
    output = folder / f"{label}.txt"
    stdout_path = folder / f"{label}.stdout.txt" if split_stdout else None
    full_env = dict(ctx.env)
    full_env.update(env or {})
    limit = max(1, int(timeout))
    prefix = ["timeout", "-k", str(KILL_AFTER_S), str(limit)] if shutil.which("timeout") else []
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        err = stack.enter_context(open(output, "wb"))
        out = stack.enter_context(open(stdout_path, "wb")) if stdout_path else err
        try:
            proc = subprocess.Popen([*prefix, *argv], stdout=out, stderr=err,
                                    stdin=subprocess.DEVNULL, env=full_env, cwd=ctx.work,
                                    start_new_session=True)
        except OSError as exc:
            err.write(f"could not start {argv[0]}: {exc}\n".encode())
            return Execution(None, 0.0, False, output, stdout_path)
        try:
            code: int | None = proc.wait(timeout=limit + KILL_AFTER_S + 10)
        except subprocess.TimeoutExpired:
            stop_group(proc)
            code = None
        except Stopped:
            stop_group(proc)
            raise
    seconds = time.monotonic() - started
    timed_out = code is None or (bool(prefix) and code in (124, 137) and seconds >= limit - 0.5)
    return Execution(code, round(seconds, 2), timed_out, output, stdout_path)


def stop_group(proc: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """Stop the process group this check started for one step (its own only): SIGTERM, so
    safelaunch stops its ranks and writes its summary, then SIGKILL after ``grace``."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def read_text(path: Path, limit: int = 2 * MIB) -> str:
    """The first ``limit`` bytes of a file, as text ('' when it is missing)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(limit).decode(errors="replace")
    except OSError:
        return ""


def tail(path: Path, lines: int = TAIL_LINES) -> list[str]:
    try:
        with open(path, "rb") as fh:
            fh.seek(max(0, os.fstat(fh.fileno()).st_size - 64 * 1024))
            text = fh.read().decode(errors="replace")
    except OSError:
        return []
    return [line[:300] for line in text.splitlines()[-lines:]]


def load_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


# -- evaluating a step ---------------------------------------------------------------------


def check_exit(expect: Expect, code: int | None) -> dict[str, Any] | None:
    if expect.exit is not None:
        return {"what": f"exit code in {expect.exit}", "ok": code in expect.exit,
                "detail": f"exit code {code}"}
    if expect.nonzero:
        return {"what": "exit code of a failure (not 0, 124 or 125)",
                "ok": code not in (None, 0, 124, 125), "detail": f"exit code {code}"}
    return None


def evaluate(expect: Expect, record: dict[str, Any], output_text: str,
             run_dir: Path | None) -> list[dict[str, Any]]:
    """The checks of one finished step against its expectation (pure but for globbing)."""
    checks = [c for c in [check_exit(expect, record.get("exit_code"))] if c]
    if expect.json_stdout:
        checks.append({"what": "stdout is JSON", "ok": record.get("stdout_json") is not None})
    if expect.diagnosis:
        found = (record.get("diagnosis") or {}).get("id")
        checks.append({"what": f"diagnosis in {expect.diagnosis}",
                       "ok": found in expect.diagnosis, "detail": f"diagnosis {found}"})
    if expect.culprits is not None:
        found = (record.get("summary") or {}).get("hang_culprits")
        checks.append({"what": f"hang culprits {expect.culprits}",
                       "ok": found == expect.culprits, "detail": f"culprits {found}"})
    for pattern in expect.files:
        hits = sorted(run_dir.glob(pattern)) if run_dir else []
        checks.append({"what": f"run directory has {pattern}", "ok": bool(hits),
                       "detail": ", ".join(p.name for p in hits[:6])})
    for regex in expect.output:
        checks.append({"what": f"output matches {regex!r}",
                       "ok": re.search(regex, output_text, re.MULTILINE) is not None})
    for regex in expect.absent:
        checks.append({"what": f"output lacks {regex!r}",
                       "ok": re.search(regex, output_text, re.MULTILINE) is None})
    return checks


def summarise_run(run_dir: Path) -> dict[str, Any] | None:
    """The facts of a safelaunch run directory that the results keep."""
    data = load_json(read_text(run_dir / "summary.json"))
    if not isinstance(data, dict):
        return None
    hang = data.get("hang") or {}
    diagnosis = data.get("diagnosis") or {}
    findings = diagnosis.get("findings") or [{}]
    return {
        "status": data.get("status"), "exit_code": data.get("exit_code"),
        "reason": data.get("reason"), "root_cause_rank": data.get("root_cause_rank"),
        "ranks": [{"rank": r.get("global_rank"), "exit": r.get("exit"),
                   "last_line": r.get("last_line")} for r in data.get("ranks") or []],
        "hang_culprits": hang.get("culprits"),
        "stragglers": [x.get("text") for x in data.get("stragglers") or []],
        "hang_findings": [f.get("kind") for f in hang.get("findings") or []],
        "hang_ranks": hang.get("ranks"), "stacks": hang.get("stacks"),
        "stack_method": hang.get("stack_method"), "stack_missing": hang.get("stack_missing"),
        "diagnosis": findings[0].get("id"), "notes": data.get("notes"),
    }


def listing(folder: Path) -> list[dict[str, Any]]:
    if not folder.is_dir():
        return []
    return [{"name": p.name, "bytes": p.stat().st_size}
            for p in sorted(folder.iterdir()) if p.is_file()]


# -- the steps -----------------------------------------------------------------------------


def version_at_least(version: list[int] | None, wanted: tuple[int, int]) -> bool:
    return bool(version) and tuple(version or ())[:2] >= wanted


def gpu_count(ctx: Context) -> int:
    """GPUs the jobs will see: torch's count on a GPU machine, the fake nvidia-smi's here."""
    if ctx.dry_run:
        return len(ctx.facts.get("gpu_parse", {}).get("gpus") or [])
    return int(ctx.facts.get("torch", {}).get("device_count") or 0)


def run_step(ctx: Context, name: str, args: list[str], *, timeout: float, typical: float,
             expect: Expect, expect_dry: Expect | None = None, env: dict[str, str] | None = None,
             skip: str | None = None) -> Step:
    """A ``safelaunch run`` step with its own run directory."""
    run_dir = ctx.steps_dir / name / "run"
    argv = ctx.safelaunch("run", "--run-dir", str(run_dir), "--grace-period", "5", *args)
    return Step(name, argv, timeout, typical, expect, expect_dry, env or {}, run_dir, skip)


def fault(mode: str, *extra: str) -> list[str]:
    return [str(GPU_FAULT), "--mode", mode, *extra]


def fact_steps(ctx: Context) -> list[Step]:
    smi = "nvidia-smi"
    any_dry = Expect(note="the fake nvidia-smi answers only -L, --query-gpu and topo -m")
    ok = Expect(exit=[0])
    return [
        Step("nvidia-smi", [smi], 30, 2, ok, any_dry),
        Step("nvidia-smi-L", [smi, "-L"], 30, 2, ok),
        Step("nvidia-smi-query", [smi, f"--query-gpu={QUERY}", "--format=csv,noheader,nounits"],
             30, 2, Expect(exit=[0], note="the exact query safelaunch/gpu.py parses")),
        Step("nvidia-smi-q", [smi, "-q"], 30, 3, ok, any_dry),
        Step("nvidia-smi-topo", [smi, "topo", "-m"], 30, 2, ok),
        Step("gpu-parse", [ctx.python, "-c", GPU_PARSE_CODE], 60, 3,
             Expect(exit=[0], json_stdout=True,
                    note="safelaunch/gpu.py reads the real nvidia-smi: GPUs and links")),
        Step("torch-facts", [ctx.python, "-c", FACTS_CODE], 180, 20,
             Expect(exit=[0], json_stdout=True, output=[r'"cuda_available": true'],
                    note="torch, CUDA, NCCL, GPUs"),
             Expect(exit=[0], json_stdout=True)),
    ]


def command_steps(ctx: Context) -> list[Step]:
    gpus = gpu_count(ctx)
    more = str(max(gpus, 1) + 1)
    work = str(ctx.work)
    mt_dir = ctx.steps_dir
    too_many = Expect(exit=[125] if gpus < int(more) else [0],
                      note=f"--nproc {more} with {gpus} GPU(s): the GPU check fails")
    return [
        Step("preflight", ctx.safelaunch("preflight", "--run-dir", work), 60, 5,
             Expect(exit=[0], output=[r"gpus\b.*GPU\(s\) visible"],
                    note="every check passes or warns; the GPU line names the GPU")),
        Step("env", ctx.safelaunch("env"), 120, 10,
             Expect(exit=[0], note="torch, CUDA, NCCL, driver and the GPUs")),
        Step("minimal-test", ctx.safelaunch(
            "minimal-test", "--nproc", "1", "--run-dir", str(mt_dir / "minimal-test" / "run")),
             180, 25, Expect(exit=[0], output=[r"nccl.*PASSED"],
                             note="NCCL on the GPU, every step passed"),
             Expect(exit=[0], output=[r"gloo.*PASSED"])),
        Step("minimal-test-bandwidth", ctx.safelaunch(
            "minimal-test", "--nproc", "1", "--bandwidth",
            "--run-dir", str(mt_dir / "minimal-test-bandwidth" / "run")), 240, 35,
             Expect(exit=[0], output=[r"nccl.*PASSED", r"(?i)busbw|GB/s"],
                    note="the all_reduce sweep from 1 KiB to 64 MiB, no wrong results"),
             Expect(exit=[0], output=[r"gloo.*PASSED", r"busbw"])),
        Step("env-json", ctx.safelaunch("env", "--json"), 120, 10,
             Expect(exit=[0], json_stdout=True)),
        Step("preflight-json", ctx.safelaunch("preflight", "--json", "--run-dir", work), 60, 5,
             Expect(exit=[0], json_stdout=True)),
        Step("preflight-more-ranks", ctx.safelaunch(
            "preflight", "--nproc", more, "--run-dir", work), 60, 5, too_many),
    ]


STRAGGLER = r"straggler: rank 1:"
WRONG_RANK = r"straggler: rank 0:"
"""Rank 0 is never slowed: naming it is the wrong rank (per-span GPU timing did, on FSDP2)."""


def straggler_steps(ctx: Context, two: list[str]) -> list[Step]:
    """Two NCCL ranks for 30 s, rank 1 slowed from step 300 on (its peer's GPU waits for it
    in DDP's gradient all_reduce and in a flag all_reduce each step); a steady run; the
    2x run with the GPU timing off (host time only, as before it existed); and the same with
    FSDP2, whose all-gathers and reduce-scatters run on its own streams (the flag only every
    100 steps)."""
    def slow(factor: float, *model: str) -> list[str]:
        return [*two, *fault("slow", "--factor", str(factor), "--fault-step", "300",
                             "--duration", "30", "--step-time", "0.005", *model)]

    fsdp2 = ("--model", "fsdp2")

    named = "rank 1 named a straggler, from its peer's GPU-timed waits"
    # A documented limit, not a check: FSDP2's collectives run on its own streams, which are
    # host-timed (GPU-timing them named stragglers in steady runs), so the slowed rank goes
    # unnamed; the step records whether it is (timing the compute stream's waits would).
    fsdp2_limit = ("a known limit: whether FSDP2's slowed rank is named is an observation "
                   "(on the H200 it is not: its collectives' streams are host-timed); the "
                   "unslowed rank 0 must not be named")
    return [
        run_step(ctx, "nccl-straggler-2x", slow(2), timeout=150, typical=60,
                 expect=Expect(exit=[0], output=[STRAGGLER], note=named)),
        run_step(ctx, "nccl-straggler-1.3x", slow(1.3), timeout=150, typical=60,
                 expect=Expect(exit=[0], output=[STRAGGLER], note=named)),
        run_step(ctx, "nccl-steady", slow(1), timeout=150, typical=60,
                 expect=Expect(exit=[0], absent=[r"straggler: "],
                               note="no rank slowed: no straggler named")),
        run_step(ctx, "nccl-straggler-2x-host-timing", slow(2), timeout=150, typical=60,
                 env={"SAFELAUNCH_GPU_WAIT_TIMING": "0"},
                 expect=Expect(exit=[0], note="an observation, not a check: whether host "
                               "timing alone (before GPU timing) names the straggler")),
        run_step(ctx, "fsdp2-straggler-2x", slow(2, *fsdp2), timeout=150, typical=60,
                 expect=Expect(exit=[0], absent=[WRONG_RANK], note=fsdp2_limit)),
        run_step(ctx, "fsdp2-straggler-1.3x", slow(1.3, *fsdp2), timeout=150, typical=60,
                 expect=Expect(exit=[0], absent=[WRONG_RANK], note=fsdp2_limit)),
        run_step(ctx, "fsdp2-steady", slow(1, *fsdp2), timeout=150, typical=60,
                 expect=Expect(exit=[0], absent=[r"straggler: "],
                               note="FSDP2, no rank slowed: no straggler named")),
        run_step(ctx, "fsdp2-straggler-2x-host-timing", slow(2, *fsdp2), timeout=150,
                 typical=60, env={"SAFELAUNCH_GPU_WAIT_TIMING": "0"},
                 expect=Expect(exit=[0], absent=[WRONG_RANK], note="an observation: whether "
                               "host timing alone names FSDP2's straggler (never rank 0)")),
    ]


def job_steps(ctx: Context) -> list[Step]:
    """The example job and the real failures, most telling first."""
    gpus = gpu_count(ctx)
    shared = gpus < 2
    two = ["--nproc", "2", "--no-minimal-test", "--minimal-test-backend", "nccl"]
    two += ["--no-preflight"] if shared else []
    hang = ["--hang-timeout", "10", "--startup-timeout", "120"]
    nccl_info = {"NCCL_DEBUG": "INFO", "NCCL_DEBUG_SUBSYS": "INIT,ENV,NET"}
    one = ["--nproc", "1", "--no-minimal-test"]
    steps = [
        run_step(ctx, "example", ["--nproc", "1", str(EXAMPLE), "--steps", "50"],
                 timeout=240, typical=40,
                 expect=Expect(exit=[0], output=[r"training on 1 rank\(s\) with nccl",
                                                  r"minimal test: nccl"],
                               note="pre-flight, the NCCL minimal test and the job pass"),
                 expect_dry=Expect(exit=[0], output=[r"with gloo", r"minimal test: gloo"])),
        run_step(ctx, "oom", [*one, *fault("oom")], timeout=180, typical=30,
                 expect=Expect(exit=[1], diagnosis=["cuda-oom"],
                               note="torch.OutOfMemoryError, exit 1, diagnosed as CUDA OOM")),
        run_step(ctx, "device-assert", [*one, *fault("assert")], timeout=180, typical=30,
                 expect=Expect(nonzero=True, diagnosis=["embedding-index-out-of-range"],
                               note="device-side assert: exit 1 (or 134 if NCCL aborts at "
                                    "exit), diagnosed as a class label out of range")),
        run_step(ctx, "sync-hang", [*one, *hang, *fault("sync-hang")], timeout=180, typical=40,
                 expect=Expect(exit=[124], culprits=[0], diagnosis=["hang-gpu-wait"],
                               files=["stacks/rank0*"],
                               note="hang found in ~10 s, rank 0's native stack waits for its "
                                    "GPU (cuCtxSynchronize)"),
                 expect_dry=Expect(exit=[124], culprits=[0], diagnosis=["hang"],
                                   note="no GPU: the simulated hang is a sleep")),
        run_step(ctx, "nccl-hang", [*two, *hang, *fault("skip-collective")], env=nccl_info,
                 timeout=240, typical=50,
                 expect=Expect(exit=[124], culprits=[1],
                               diagnosis=["hang-collective-not-entered"],
                               files=["stacks/rank0*", "stacks/rank1*", "flight_recorder/rank_*"],
                               note="rank 1 named although rank 0's all_reduce returned at "
                                    "once (NCCL is asynchronous); the flight recorder dumped "
                                    "at the hang shows rank 1 never entered that all_reduce")),
        run_step(ctx, "nccl-hang-no-fr", [*two, *hang, *fault("skip-collective")],
                 env={"TORCH_NCCL_TRACE_BUFFER_SIZE": "0", "TORCH_FR_BUFFER_SIZE": "0"},
                 timeout=240, typical=50,
                 expect=Expect(exit=[124], culprits=[1], diagnosis=["hang"],
                               note="the flight recorder off: the stacks alone name rank 1 "
                                    "(rank 0 waits for its GPU in cuStreamSynchronize)")),
        run_step(ctx, "nccl-timeout", [*two, "--hang-timeout", "150", "--collective-timeout",
                                       "20", *fault("skip-collective")],
                 env=nccl_info, timeout=240, typical=60,
                 expect=Expect(nonzero=True, diagnosis=["hang-collective-not-entered"],
                               files=["nccl_flight_recorder/*"],
                               note="NCCL's watchdog times out after 20 s and dumps the "
                                    "flight recorder into the run directory; its analysis "
                                    "names rank 1 first, the timeout follows; the rank "
                                    "aborts ~20 s after the timeout (60 s without "
                                    "TORCH_NCCL_WAIT_TIMEOUT_DUMP_MILSEC)"),
                 expect_dry=Expect(nonzero=True, diagnosis=["collective-timeout"],
                                   note="gloo times out instead; no flight recorder")),
        *nccl2_steps(ctx, two, hang, nccl_info),
        *straggler_steps(ctx, two),
        run_step(ctx, "same-gpu", ["--nproc", "2", "--no-preflight", "--no-minimal-test",
                                   *fault("same-gpu")], timeout=180, typical=30,
                 expect=Expect(nonzero=True, diagnosis=["nccl-duplicate-gpu"],
                               note="NCCL: Duplicate GPU detected")),
        run_step(ctx, "example-more-ranks", ["--nproc", str(gpus + 1), "--no-preflight",
                                             "--no-minimal-test", str(EXAMPLE)],
                 timeout=180, typical=30,
                 expect=Expect(nonzero=True, diagnosis=["no-cuda-device"],
                               note="set_device(local_rank) past the last GPU"),
                 expect_dry=Expect(exit=[0], note="no CUDA here: the example trains on gloo")),
        run_step(ctx, "no-visible-gpu", [*one, "--no-preflight", *fault("ok")],
                 env={"CUDA_VISIBLE_DEVICES": "", SIMULATE_ENV: ""}, timeout=150, typical=25,
                 expect=Expect(nonzero=True, diagnosis=["torch-without-cuda"],
                               note="CUDA_VISIBLE_DEVICES= : No CUDA GPUs are available")),
        run_step(ctx, "same-gpu-preflight", ["--nproc", "2", *fault("same-gpu")],
                 timeout=90, typical=10,
                 expect=Expect(exit=[125], diagnosis=["preflight-failed"],
                               note="pre-flight stops 2 ranks on one GPU before they start")
                 if shared else Expect(nonzero=True, diagnosis=["nccl-duplicate-gpu"])),
        run_step(ctx, "no-visible-gpu-preflight", ["--nproc", "1", str(EXAMPLE)],
                 env={"CUDA_VISIBLE_DEVICES": ""}, timeout=90, typical=10,
                 expect=Expect(exit=[125], diagnosis=["preflight-failed"],
                               note="pre-flight: --nproc 1 but 0 GPUs visible")),
    ]
    return steps


def nccl2_steps(ctx: Context, two: list[str], hang: list[str],
                nccl_info: dict[str, str]) -> list[Step]:
    facts = ctx.facts.get("torch", {})
    version = facts.get("torch_version")
    skip = None
    if not version_at_least(version, NCCL2_SINCE):
        skip = (f"torch {facts.get('torch', '?')} predates {NCCL2_ENV} (torch >= "
                f"{NCCL2_SINCE[0]}.{NCCL2_SINCE[1]})")
    return [run_step(ctx, f"nccl-hang-nccl2-{value}", [*two, *hang, *fault("skip-collective")],
                     env={**nccl_info, NCCL2_ENV: value}, timeout=240, typical=50,
                     expect=Expect(exit=[124], culprits=[1], diagnosis=["hang"],
                                   note=f"the NCCL hang with {NCCL2_ENV}={value}"), skip=skip)
            for value in ("0", "1")]


# -- the steps that prepare the machine ----------------------------------------------------


def dist_name(wheel: Path) -> str:
    return re.sub(r"[-_.]+", "-", wheel.name.split("-")[0]).lower()


def installed(name: str) -> bool:
    from importlib import metadata

    try:
        metadata.version(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def add_path(ctx: Context, var: str, folder: Path) -> None:
    ctx.env[var] = os.pathsep.join(p for p in (str(folder), ctx.env.get(var, "")) if p)


def wheels_step(ctx: Context) -> Step:
    wheels = sorted(WHEELS.glob("*.whl"))
    every = os.environ.get("GPU_CHECK_WHEELS") == "all"
    missing = [w for w in wheels if every or not installed(dist_name(w))]
    site = ctx.work / "site"
    argv = [ctx.python, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--no-compile",
            "--no-cache-dir", "--upgrade", "--target", str(site), *map(str, missing)]
    skip = None
    if not wheels:
        skip = "no .whl/ folder: the machine's own packages are used"
    elif not missing:
        skip = f"all {len(wheels)} wheels in .whl/ are installed already"
    return Step("wheels", argv, 120, 15,
                Expect(exit=[0], note="installs the carried wheels the machine lacks: "
                       + ", ".join(dist_name(w) for w in missing)), skip=skip)


def import_location(ctx: Context) -> str:
    probe = ctx.steps_dir / "install"
    run = execute(ctx, [ctx.python, "-c", "import safelaunch; print(safelaunch.__file__)"],
                  60, probe, split_stdout=True, label="probe")
    return read_text(run.stdout).strip() if run.stdout and run.exit_code == 0 else ""


def prepare(ctx: Context) -> None:
    """Carried wheels first, then safelaunch from this tree (editable, else on PYTHONPATH)."""
    step = wheels_step(ctx)
    record = run_and_record(ctx, step)
    if record.get("exit_code") == 0:
        add_path(ctx, "PYTHONPATH", ctx.work / "site")
        add_path(ctx, "PATH", ctx.work / "site" / "bin")
    own = str(REPO / "safelaunch" / "__init__.py")
    already = import_location(ctx) == own
    method = "already installed from this tree" if already else "pip install -e"
    install = Step("install", [ctx.python, "-m", "pip", "install", "-q", "--no-deps",
                               "--no-build-isolation", "--no-index", "-e", str(REPO)],
                   180, 20, Expect(note="pip install -e of this tree; where that fails, "
                                   "the tree goes on PYTHONPATH instead (facts.install)"),
                   skip=f"safelaunch is {method}" if already else None)
    run_and_record(ctx, install)
    if not already and import_location(ctx) != own:
        add_path(ctx, "PYTHONPATH", REPO)
        method = "PYTHONPATH (pip install -e did not make it importable)"
    location = import_location(ctx)
    ctx.facts["install"] = {"method": method, "location": location}
    ctx.say(f"[gpu_check] safelaunch: {method}: {location or 'NOT importable'}")


def dry_run_env(ctx: Context) -> None:
    """The fake nvidia-smi (one GPU) first on PATH, GPU failures simulated on the CPU."""
    bin_dir = ctx.work / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    link = bin_dir / "nvidia-smi"
    if not link.exists():
        link.symlink_to(FAKE_NVIDIA_SMI)
    add_path(ctx, "PATH", bin_dir)
    ctx.env.update({"FAKE_GPUS": "1", SIMULATE_ENV: "1"})


# -- running and recording -----------------------------------------------------------------


def run_and_record(ctx: Context, step: Step) -> dict[str, Any]:
    expect = step.expect_dry if ctx.dry_run and step.expect_dry is not None else step.expect
    record: dict[str, Any] = {
        "name": step.name, "command": step.argv, "env": step.env,
        "timeout_s": step.timeout, "expected": asdict(expect), "status": "skipped",
    }
    ctx.results.append(record)
    why = skip_reason(ctx, step)
    if why:
        record["skipped"] = why
        ctx.say(f"[gpu_check] {step.name}: skipped ({why})")
        write_results(ctx)
        return record
    timeout = min(step.timeout, max(5.0, ctx.remaining() - RESERVE_S))
    record["timeout_s"] = round(timeout)
    shown = " ".join("<inline code>" if "\n" in arg else arg for arg in step.argv)
    ctx.say(f"[gpu_check] {step.name}: {shown[:400]} "
            f"(timeout {timeout:.0f}s{', ' + env_text(step.env) if step.env else ''})")
    folder = ctx.steps_dir / step.name
    try:
        run = execute(ctx, step.argv, timeout, folder, env=step.env,
                      split_stdout=expect.json_stdout)
    except Stopped:
        record["status"] = "stopped"
        if step.run_dir is not None:
            record["summary"] = summarise_run(step.run_dir)
        write_results(ctx)
        raise
    record.update(exit_code=run.exit_code, seconds=run.seconds, timed_out=run.timed_out,
                  output=str(run.output.relative_to(ctx.work)))
    if run.stdout is not None:
        record["stdout"] = str(run.stdout.relative_to(ctx.work))
        record["stdout_json"] = load_json(read_text(run.stdout, 16 * MIB))
    if step.run_dir is not None:
        after_run(ctx, step, record)
    output_text = read_text(run.output) + (read_text(run.stdout) if run.stdout else "")
    record["checks"] = evaluate(expect, record, output_text, step.run_dir)
    left = record.get("gpu_processes_after")
    if left is not None and not ctx.dry_run:
        record["checks"].append({"what": "no process left on the GPU", "ok": not left,
                                 "detail": "; ".join(left)})
    ok = all(c["ok"] for c in record["checks"])
    record["status"] = "timeout" if run.timed_out else ("ok" if ok else "unexpected")
    report_step(ctx, record, run.output)
    write_results(ctx)
    return record


def skip_reason(ctx: Context, step: Step) -> str | None:
    if step.skip:
        return step.skip
    if ctx.only is not None and step.name not in ctx.only:
        return "not in --only"
    if ctx.remaining() < step.typical + RESERVE_S:
        return f"budget: {ctx.remaining():.0f}s left, the step usually takes {step.typical:.0f}s"
    return None


def env_text(env: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in env.items())


def after_run(ctx: Context, step: Step, record: dict[str, Any]) -> None:
    """Summary, diagnosis (``safelaunch diagnose``, text and JSON), stacks, the NCCL flight
    recorder of a ``safelaunch run`` step, and what is left on the GPU after it."""
    run_dir = step.run_dir
    assert run_dir is not None
    folder = ctx.steps_dir / step.name
    record["run_dir"] = str(run_dir.relative_to(ctx.work))
    record["summary"] = summarise_run(run_dir)
    record["stacks"] = listing(run_dir / "stacks")
    record["flight_recorder"] = listing(run_dir / "nccl_flight_recorder")
    record["gpu_processes_after"] = gpu_processes(ctx, folder)
    if record.get("exit_code") in (0, None) or not run_dir.is_dir():
        return
    for label, extra in (("diagnose", []), ("diagnose-json", ["--json"])):
        timeout = budgeted(ctx, 60, least=5)
        if timeout is None:
            break
        run = execute(ctx, ctx.safelaunch("diagnose", *extra, str(run_dir)), timeout, folder,
                      split_stdout=True, label=label)
        record[label.replace("-", "_") + "_exit"] = run.exit_code
        if extra and run.stdout is not None:
            record["diagnosis"] = first_finding(load_json(read_text(run.stdout)))
    timeout = budgeted(ctx, 90, least=30)
    if record["flight_recorder"] and not ctx.dry_run and timeout is not None:
        argv = [ctx.python, "-m", "torch.distributed.flight_recorder.fr_trace",
                str(run_dir / "nccl_flight_recorder"), "--prefix", "rank_",
                "--allow-incomplete-ranks", "-j"]
        record["fr_trace_exit"] = execute(ctx, argv, timeout, folder, label="fr_trace").exit_code


def budgeted(ctx: Context, wanted: float, least: float) -> float | None:
    """A helper command's timeout within the budget; None when not even ``least`` is left."""
    left = ctx.remaining() - RESERVE_S
    return min(wanted, left) if left >= least else None


def gpu_processes(ctx: Context, folder: Path) -> list[str] | None:
    """The processes still on a GPU after a job (a second's grace for the driver to notice
    their exit); None when nvidia-smi cannot say."""
    argv = ["nvidia-smi", "--query-compute-apps=pid,process_name,used_memory",
            "--format=csv,noheader"]
    lines: list[str] = []
    for _ in range(GPU_PROCESS_POLLS):
        timeout = budgeted(ctx, 20, least=3)
        if timeout is None:
            return None
        run = execute(ctx, argv, timeout, folder, split_stdout=True, label="gpu-processes")
        if run.exit_code != 0 or run.stdout is None:
            return None
        lines = job_processes(read_text(run.stdout))
        if not lines:
            break
        time.sleep(1.0)
    return lines


MPS_SERVER = "nvidia-cuda-mps-server"
"""CUDA's multi-process service runs its clients' kernels in a server process of its own, which
stays on the GPU while the daemon runs: no process a job left."""


def job_processes(query_output: str) -> list[str]:
    """The lines of ``nvidia-smi --query-compute-apps=pid,process_name,...`` that are processes
    of a job (not the MPS server)."""
    lines = []
    for line in query_output.splitlines():
        fields = [field.strip() for field in line.split(",")]
        if line.strip() and not (len(fields) > 1 and fields[1].endswith(MPS_SERVER)):
            lines.append(line)
    return lines


def first_finding(data: Any) -> dict[str, Any] | None:
    if not isinstance(data, dict):
        return None
    findings = data.get("findings") or []
    first = findings[0] if findings and isinstance(findings[0], dict) else {}
    return {"status": data.get("status"), "id": first.get("id"), "title": first.get("title"),
            "rank": first.get("rank"), "root_cause_rank": data.get("root_cause_rank")}


def report_step(ctx: Context, record: dict[str, Any], output: Path) -> None:
    status = record["status"]
    extra = ""
    if record.get("diagnosis"):
        extra += f", diagnosis {record['diagnosis'].get('id')}"
    culprits = (record.get("summary") or {}).get("hang_culprits")
    if culprits is not None:
        extra += f", culprits {culprits}"
    ctx.say(f"[gpu_check] {record['name']}: exit {record.get('exit_code')} in "
            f"{record.get('seconds')}s{extra}: {status.upper() if status != 'ok' else 'ok'}")
    for check in record.get("checks", []):
        if not check["ok"]:
            ctx.say(f"[gpu_check]   failed check: {check['what']} ({check.get('detail', '')})")
    if status != "ok":
        for line in tail(output):
            ctx.say(f"[gpu_check]   | {line}")


# -- results, archive, limits --------------------------------------------------------------


def counts(results: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for record in results:
        out[record["status"]] = out.get(record["status"], 0) + 1
    return out


def write_results(ctx: Context, extra: dict[str, Any] | None = None) -> None:
    data = {
        "schema": 1,
        "tool": "safelaunch scripts/gpu_check.py",
        "mode": "dry-run" if ctx.dry_run else "gpu",
        "started_utc": ctx.started_utc,
        "updated_utc": utc_now(),
        "elapsed_s": round(time.monotonic() - ctx.started, 1),
        "budget_left_s": round(ctx.remaining(), 1),
        "facts": ctx.facts,
        "counts": counts(ctx.results),
        "steps": ctx.results,
        **(extra or {}),
    }
    path = ctx.out / RESULTS
    tmp = path.with_name(RESULTS + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, default=str))
    os.replace(tmp, path)


def cut(data: bytes, cap: int) -> bytes:
    """At most ``cap`` bytes of ``data``: its head and tail around a marker line."""
    if len(data) <= cap:
        return data
    marker = f"\n[... gpu_check cut {len(data) - cap} of {len(data)} bytes here ...]\n".encode()
    half = max(0, (cap - len(marker)) // 2)
    return data[:half] + marker + data[len(data) - half:]


def archive_members(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            yield path


def write_archive(root: Path, dest: Path, cap: int) -> list[str]:
    """``root`` as ``gpu_check/...`` in a tar.gz, every file cut to ``cap``; the cut ones."""
    cut_files = []
    with tarfile.open(dest, "w:gz", compresslevel=6) as tar:
        for path in archive_members(root):
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if len(data) > cap:
                cut_files.append(str(path.relative_to(root)))
                data = cut(data, cap)
            info = tarfile.TarInfo("gpu_check/" + str(path.relative_to(root)))
            info.size = len(data)
            info.mtime = int(path.stat().st_mtime)
            info.mode = 0o644
            tar.addfile(info, io.BytesIO(data))
    return cut_files


def pack(root: Path, dest: Path, limit: int = ARCHIVE_LIMIT) -> dict[str, Any]:
    """The archive under ``limit`` bytes, cutting long files shorter until it fits."""
    cut_files: list[str] = []
    for cap in ARCHIVE_CAPS:
        cut_files = write_archive(root, dest, cap)
        if dest.stat().st_size <= limit:
            return {"name": dest.name, "bytes": dest.stat().st_size, "file_cap": cap,
                    "cut": cut_files}
    dest.unlink()
    return {"name": None, "error": f"over {limit} bytes even with files cut to "
            f"{ARCHIVE_CAPS[-1]} bytes", "cut": cut_files}


def out_problems(out: Path) -> list[str]:
    """Whatever in ``out`` breaks the GPU machine's limits on what comes back."""
    problems = []
    files = []
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out)
        if not OUT_NAME.match(path.name):
            problems.append(f"{rel}: name not made of letters, digits, '.', '_', '-'")
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            problems.append(f"{rel}: not a plain file or folder")
        elif path.is_file():
            files.append(path)
            if len(rel.parts) - 1 > OUT_MAX_FOLDERS:
                problems.append(f"{rel}: more than {OUT_MAX_FOLDERS} folders deep")
            if path.stat().st_size > OUT_MAX_FILE_BYTES:
                problems.append(f"{rel}: over {OUT_MAX_FILE_BYTES} bytes")
    if len(files) > OUT_MAX_FILES:
        problems.append(f"{len(files)} files, more than {OUT_MAX_FILES}")
    if sum(p.stat().st_size for p in files) > OUT_MAX_TOTAL_BYTES:
        problems.append(f"over {OUT_MAX_TOTAL_BYTES} bytes together")
    return problems


def finish(ctx: Context) -> int:
    archive = pack(ctx.steps_dir, ctx.out / ARCHIVE) if ctx.steps_dir.is_dir() else {
        "name": None, "error": "no step ran"}
    ctx.say(f"[gpu_check] archive: {archive}")
    extra = {"archive": archive, "finished_utc": utc_now()}
    write_results(ctx, extra)
    problems = out_problems(ctx.out)
    write_results(ctx, {**extra, "out_problems": problems})
    tally = counts(ctx.results)
    ctx.say("[gpu_check] " + "-" * 70)
    for record in ctx.results:
        diagnosis = (record.get("diagnosis") or {}).get("id") or ""
        ctx.say(f"[gpu_check] {record['name']:<26} {record['status']:<10} "
                f"exit {record.get('exit_code')!s:<5} {record.get('seconds', '-')!s:>7}s "
                f"{diagnosis}")
    ctx.say(f"[gpu_check] {tally} in {time.monotonic() - ctx.started:.0f}s; "
            f"$OUT: {', '.join(sorted(p.name for p in ctx.out.iterdir()))}"
            + (f"; LIMITS BROKEN: {problems}" if problems else ""))
    bad = sum(tally.get(status, 0) for status in ("unexpected", "timeout", "stopped"))
    return 1 if bad or problems or not archive.get("name") else 0


def tree_commit() -> str | None:
    """The commit this tree was checked out at, where a .git came along."""
    try:
        proc = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def gather_facts(ctx: Context) -> None:
    ctx.facts["commit"] = tree_commit()
    for step in fact_steps(ctx):
        record = run_and_record(ctx, step)
        if step.name == "gpu-parse" and isinstance(record.get("stdout_json"), dict):
            ctx.facts["gpu_parse"] = record["stdout_json"]
        if step.name == "torch-facts" and isinstance(record.get("stdout_json"), dict):
            ctx.facts["torch"] = record["stdout_json"]
    ctx.facts["gpu_count_for_expectations"] = gpu_count(ctx)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true",
                        default=os.environ.get("GPU_CHECK_DRY_RUN") == "1",
                        help="no GPU: the fake nvidia-smi and simulated GPU failures")
    parser.add_argument("--out", default=os.environ.get("OUT"),
                        help="where the results go (default: $OUT)")
    parser.add_argument("--work", default=None, help="working folder (default: a new one in "
                        "the temporary directory)")
    parser.add_argument("--budget", type=float, default=570.0,
                        help="seconds for the whole check, packing included")
    parser.add_argument("--only", default=None,
                        help="comma-separated step names to run (the facts always run)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.out:
        print("gpu_check: error: set OUT or --out to the folder for the results", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    import tempfile

    work = Path(args.work or tempfile.mkdtemp(prefix="gpu-check-"))
    work.mkdir(parents=True, exist_ok=True)
    only = None
    if args.only:
        only = {name.strip() for name in args.only.split(",") if name.strip()}
        only |= set(ALWAYS)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    ctx = Context(work=work, out=out, dry_run=args.dry_run,
                  deadline=time.monotonic() + args.budget, only=only, env=env)

    def stop(signum: int, _frame: object) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):  # a second one must not cut the packing
            signal.signal(sig, signal.SIG_IGN)
        raise Stopped(signal.Signals(signum).name)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    with open(out / LOG, "w", encoding="utf-8") as log:
        ctx.log_file = log
        ctx.say(f"[gpu_check] {'DRY RUN, no GPU: ' if ctx.dry_run else ''}work {work}, out {out}, "
                f"budget {args.budget:.0f}s, python {ctx.python}")
        try:
            if ctx.dry_run:
                dry_run_env(ctx)
            prepare(ctx)
            gather_facts(ctx)
            for step in command_steps(ctx) + job_steps(ctx):
                run_and_record(ctx, step)
        except Stopped as exc:
            ctx.say(f"[gpu_check] stopped by {exc}: packing what there is")
            ctx.facts["stopped_by"] = str(exc)
        return finish(ctx)


if __name__ == "__main__":
    sys.exit(main())
