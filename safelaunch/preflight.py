"""Pre-flight checks: each returns pass, warn, fail or skip with one line of advice.

They run in parallel under one time budget, never raise and never exit; ``run_checks`` hands
back the results, and the caller decides (a failure stops ``safelaunch run`` with exit 125,
a warning does not).  Thresholds are data (``THRESHOLDS``).
"""

from __future__ import annotations

import os
import resource
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path

from safelaunch import gpu, script_needs
from safelaunch.ports import port_taken

MIB = 1 << 20
THRESHOLDS = {
    "shm_warn_bytes": 512 * MIB,  # DeepSpeed's ds_report warns below 512 MB too
    "disk_warn_bytes": 1024 * MIB,
    "disk_fail_bytes": 100 * MIB,
    "inodes_warn": 10_000,  # a run writes tens of files; checkpoints and caches many more
    "inodes_fail": 1_000,
    "nofile_warn": 4096,
    "temperature_warn_c": 85,
    "budget_s": 1.8,
}
SLOW_LINKS = {"PHB", "NODE", "SYS"}
XID_MEANINGS = {13: "graphics engine exception", 31: "GPU memory page fault",
                43: "GPU stopped processing", 45: "preemptive cleanup",
                48: "double-bit ECC error", 61: "internal micro-controller error",
                62: "internal micro-controller halt", 63: "ECC page retirement",
                64: "ECC page retirement failed", 74: "NVLink error",
                79: "GPU has fallen off the bus", 92: "high single-bit ECC rate",
                94: "contained ECC error", 95: "uncontained ECC error"}
FATAL_XIDS = frozenset({48, 62, 64, 74, 79, 95})
PROGRAM_XIDS = frozenset({13, 31, 43, 45})
"""Xids that a program's own error raises (NVIDIA's catalog: user application faults): a
device-side assert, an illegal address, a killed CUDA program.  On an H200 a device-side assert
logged Xid 43 (tests/fixtures/gpu/real); the GPU itself is fine."""


class Status(str, Enum):
    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"
    SKIP = "skip"


@dataclass
class CheckResult:
    name: str
    status: Status
    message: str
    advice: str = ""

    def to_json(self) -> dict[str, str]:
        data = asdict(self)
        data["status"] = self.status.value
        return data


@dataclass
class PreflightInput:
    nproc: int | None
    """Ranks on this node; None when torch decides (auto/gpu/cpu)."""
    expect_gpus: bool
    run_dir: Path
    multi_node: bool = False
    master_addr: str | None = None
    master_port: int | None = None
    check_port: bool = False
    shm_path: str = "/dev/shm"
    environ: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    gpus: list[gpu.Gpu] | None = None
    """What nvidia-smi listed, when the caller already asked it (None: ask it here)."""
    script: Path | None = None
    """The training script, scanned for what it hard-codes (None: a module or a binary)."""
    torch_build: TorchBuild | None = None

    @classmethod
    def for_ranks(cls, nproc: str, gpus: list[gpu.Gpu] | None, run_dir: Path, *,
                  multi_node: bool, master_addr: str | None, master_port: int | None,
                  check_port: bool) -> PreflightInput:
        """The checks for ``--nproc`` ranks (a number, or torchrun's auto/gpu/cpu) on a
        machine whose GPUs nvidia-smi listed as ``gpus``."""
        return cls(nproc=int(nproc) if nproc.isdigit() else None,
                   expect_gpus=nproc == "gpu" or bool(gpus), run_dir=run_dir,
                   multi_node=multi_node, master_addr=master_addr, master_port=master_port,
                   check_port=check_port, gpus=gpus)


@dataclass(frozen=True)
class TorchBuild:
    """What the installed torch was built with (read without initialising CUDA)."""

    version: str
    cuda: str | None
    nccl: bool

    @classmethod
    def installed(cls) -> TorchBuild:
        import torch
        import torch.distributed as dist

        return cls(torch.__version__, torch.version.cuda,
                   bool(dist.is_available() and dist.is_nccl_available()))


@dataclass
class PreflightReport:
    results: list[CheckResult]
    seconds: float

    @property
    def failed(self) -> list[CheckResult]:
        return [r for r in self.results if r.status is Status.FAIL]

    @property
    def warnings(self) -> list[CheckResult]:
        return [r for r in self.results if r.status is Status.WARN]

    def counts(self) -> str:
        n = {s: sum(r.status is s for r in self.results) for s in Status}
        return (f"{n[Status.PASS]} passed, {n[Status.WARN]} warning(s), {n[Status.FAIL]} "
                f"failed, {n[Status.SKIP]} skipped ({self.seconds:.2f}s)")

    def to_json(self) -> dict[str, object]:
        return {"seconds": round(self.seconds, 3), "results": [r.to_json() for r in self.results]}


def _size(n: float) -> str:
    return f"{n / MIB:.0f} MiB" if n < 1024 * MIB else f"{n / (1024 * MIB):.1f} GiB"


# -- the checks ----------------------------------------------------------------------------


def check_gpus(inp: PreflightInput, gpus: list[gpu.Gpu] | None) -> list[CheckResult]:
    if not gpus:
        return [_no_gpu(inp, gpus)]
    results = []
    visible_env = inp.environ.get("CUDA_VISIBLE_DEVICES")
    visible = gpu.visible_indices(gpus, visible_env)
    if visible is None:
        return [CheckResult(
            "CUDA_VISIBLE_DEVICES", Status.FAIL,
            f"CUDA_VISIBLE_DEVICES={visible_env!r} names a GPU that does not exist "
            f"(GPUs: {', '.join(str(g.index) for g in gpus)})",
            "fix or unset CUDA_VISIBLE_DEVICES")]
    if visible_env is not None:
        results.append(CheckResult("CUDA_VISIBLE_DEVICES", Status.PASS,
                                   f"CUDA_VISIBLE_DEVICES={visible_env}"))
    results.append(_enough_gpus(inp, gpus, visible))
    used = [g for g in gpus if g.index in visible][: inp.nproc or len(gpus)]
    results.append(_gpu_health(used))
    return results


def _no_gpu(inp: PreflightInput, gpus: list[gpu.Gpu] | None) -> CheckResult:
    why = "nvidia-smi not found" if gpus is None else "nvidia-smi lists no GPU"
    status = Status.FAIL if inp.expect_gpus else Status.SKIP
    return CheckResult("gpus", status, f"no GPU ({why}); ranks use gloo on CPU",
                       "install the NVIDIA driver or run on a GPU machine"
                       if inp.expect_gpus else "")


def _enough_gpus(inp: PreflightInput, gpus: list[gpu.Gpu], visible: list[int]) -> CheckResult:
    if inp.nproc is not None and inp.expect_gpus and inp.nproc > len(visible):
        return CheckResult(
            "gpus", Status.FAIL, f"--nproc {inp.nproc} but only {len(visible)} GPU(s) visible",
            f"use --nproc {len(visible)} or make more GPUs visible")
    return CheckResult("gpus", Status.PASS, f"{len(visible)} GPU(s) visible: "
                       f"{gpus[0].name}, driver {gpus[0].driver}")


def _gpu_health(used: list[gpu.Gpu]) -> CheckResult:
    """Uncorrected ECC errors (a faulty GPU) before temperatures (throttling)."""
    ecc = [g for g in used if (g.ecc_uncorrected or 0) > 0]
    if ecc:
        return CheckResult(
            "gpu health", Status.FAIL,
            "uncorrected ECC errors on GPU " + ", ".join(
                f"{g.index} ({g.ecc_uncorrected})" for g in ecc),
            "this GPU is faulty: ask the provider for another machine")
    hot = [g for g in used if (g.temperature or 0) >= THRESHOLDS["temperature_warn_c"]]
    if hot:
        return CheckResult(
            "gpu health", Status.WARN,
            "hot GPU(s): " + ", ".join(f"{g.index} at {g.temperature} C" for g in hot),
            "check cooling; thermal throttling slows every rank to the slowest GPU")
    return CheckResult("gpu health", Status.PASS, "no uncorrected ECC errors, temperatures normal")


def _gpus_in_use(inp: PreflightInput, gpus: list[gpu.Gpu] | None) -> int:
    if not gpus:
        return 0
    return len(gpus) if inp.nproc is None else min(inp.nproc, len(gpus))


def check_topology(inp: PreflightInput, gpus: list[gpu.Gpu] | None) -> CheckResult:
    if _gpus_in_use(inp, gpus) < 2:
        return CheckResult("gpu topology", Status.SKIP, "fewer than two GPUs in use")
    assert gpus is not None
    links = gpu.topology()
    if links is None:
        return CheckResult("gpu topology", Status.SKIP, "nvidia-smi topo -m not available")
    visible = gpu.visible_indices(gpus, inp.environ.get("CUDA_VISIBLE_DEVICES")) or []
    used = [i for i in visible if i >= 0][: inp.nproc or len(visible)]
    slow = sorted({(a, b, links[(a, b)]) for a in used for b in used
                   if a < b and links.get((a, b)) in SLOW_LINKS})
    if slow:
        pairs = ", ".join(f"GPU{a}-GPU{b} {kind}" for a, b, kind in slow[:4])
        return CheckResult("gpu topology", Status.WARN, f"slow links between GPUs: {pairs}",
                           "traffic crosses the CPU/PCIe host bridge: expect slower "
                           "all_reduce; prefer GPUs on one switch or NVLink")
    return CheckResult("gpu topology", Status.PASS, "GPUs in use share fast links")


def check_xid(_: PreflightInput, gpus: list[gpu.Gpu] | None) -> CheckResult:
    if not gpus:
        return CheckResult("gpu Xid errors", Status.SKIP, "no GPU")
    log = gpu.kernel_log()
    if log is None:
        return CheckResult("gpu Xid errors", Status.SKIP, "kernel log not readable (dmesg)")
    xids = gpu.xid_errors(log)
    if not xids:
        return CheckResult("gpu Xid errors", Status.PASS, "no NVRM Xid errors in the kernel log")
    hardware = [xid for xid in xids if xid[1] not in PROGRAM_XIDS]
    if not hardware:
        code = xids[-1][1]
        return CheckResult("gpu Xid errors", Status.PASS,
                           f"no GPU fault; {len(xids)} Xid(s) from programs' own errors "
                           f"(latest Xid {code}, {XID_MEANINGS[code]})")
    latest = hardware[-1]
    meaning = XID_MEANINGS.get(latest[1], "see NVIDIA's Xid catalog")
    status = Status.FAIL if any(code in FATAL_XIDS for _, code in hardware) else Status.WARN
    return CheckResult("gpu Xid errors", status,
                       f"{len(hardware)} Xid error(s), latest Xid {latest[1]} ({meaning}) on "
                       f"{latest[0]}",
                       "a GPU that logged fatal Xids will crash or hang NCCL: reboot or move "
                       "to another machine" if status is Status.FAIL else
                       "watch for crashes; rebooting clears transient faults")


def check_shm(inp: PreflightInput) -> CheckResult:
    try:
        st = os.statvfs(inp.shm_path)
    except OSError:
        return CheckResult("/dev/shm", Status.WARN, f"{inp.shm_path} is missing",
                           "DataLoader workers and NCCL need shared memory; mount a tmpfs")
    total, free = st.f_blocks * st.f_frsize, st.f_bavail * st.f_frsize
    if total < THRESHOLDS["shm_warn_bytes"] and (inp.nproc or 2) > 1:
        return CheckResult(
            "/dev/shm", Status.WARN, f"{inp.shm_path} is only {_size(total)}",
            "DataLoader workers die with bus errors and NCCL's shared-memory transport fails: "
            "start the container with --shm-size=8g (or --ipc=host), or export "
            "NCCL_SHM_DISABLE=1")
    return CheckResult("/dev/shm", Status.PASS, f"{_size(total)} ({_size(free)} free)")


def check_disk(inp: PreflightInput) -> CheckResult:
    """Free bytes and free inodes of the run directory's file system: either running out
    ends writes with 'No space left on device'."""
    path = inp.run_dir
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        st = os.statvfs(path)
    except OSError as exc:
        return CheckResult("disk", Status.SKIP, f"cannot read free space: {exc.strerror}")
    return disk_result(st.f_bavail * st.f_frsize, st.f_favail, st.f_files)


def disk_result(free: int, free_inodes: int, total_inodes: int) -> CheckResult:
    """The disk check's verdict; ``total_inodes`` 0: the file system has no inode limit
    (btrfs and some network file systems say so)."""
    if free < THRESHOLDS["disk_fail_bytes"]:
        return CheckResult("disk", Status.FAIL, f"only {_size(free)} free for the run directory",
                           "free disk space or pass --run-dir on a bigger disk")
    if total_inodes and free_inodes < THRESHOLDS["inodes_fail"]:
        return CheckResult("disk", Status.FAIL,
                           f"only {free_inodes} free inodes (files) for the run directory, "
                           f"with {_size(free)} free",
                           "delete files (many small files use up inodes) or pass --run-dir "
                           "on another file system")
    if free < THRESHOLDS["disk_warn_bytes"]:
        return CheckResult("disk", Status.WARN, f"only {_size(free)} free for the run directory",
                           "logs and checkpoints may fill the disk ('No space left on device')")
    if total_inodes and free_inodes < THRESHOLDS["inodes_warn"]:
        return CheckResult("disk", Status.WARN,
                           f"only {free_inodes} free inodes (files) for the run directory",
                           "logs, checkpoints and caches may use them up ('No space left on "
                           "device' with bytes free)")
    inodes = f", {free_inodes} inodes" if total_inodes else ""
    return CheckResult("disk", Status.PASS, f"{_size(free)}{inodes} free for the run directory")


def check_port(inp: PreflightInput) -> CheckResult:
    if not inp.check_port or inp.master_port is None:
        return CheckResult("master port", Status.SKIP, "picked by safelaunch or torch")
    reason = port_taken(inp.master_port)
    if reason is not None:
        return CheckResult(
            "master port", Status.FAIL, f"master port {inp.master_port} is already in use "
            f"({reason})", "another job may be running; pass a free --master-port, or leave "
            "it out on one node and safelaunch picks one")
    return CheckResult("master port", Status.PASS, f"port {inp.master_port} is free")


def check_master_addr(inp: PreflightInput) -> CheckResult:
    if not inp.multi_node or not inp.master_addr:
        return CheckResult("master address", Status.SKIP, "single node")
    try:
        infos = socket.getaddrinfo(inp.master_addr, inp.master_port or 0, type=socket.SOCK_STREAM)
    except OSError as exc:
        return CheckResult("master address", Status.FAIL,
                           f"cannot resolve {inp.master_addr}: {exc.strerror or exc}",
                           "use an IP address or a name every node resolves (/etc/hosts)")
    return CheckResult("master address", Status.PASS,
                       f"{inp.master_addr} resolves to {infos[0][4][0]}")


def check_script_needs(inp: PreflightInput, gpus: list[gpu.Gpu] | None) -> CheckResult:
    """A script that hard-codes NCCL or CUDA on a machine or torch without them would pass
    the gloo minimal test and then die in its own init_process_group: say it now."""
    name = "script needs"
    if inp.script is None or inp.torch_build is None:
        return CheckResult(name, Status.SKIP, "no script to scan")
    needs = script_needs.scan(inp.script)
    asks = needs.nccl or needs.cuda
    if not asks:
        return CheckResult(name, Status.PASS, "no hard-coded NCCL or CUDA use")
    build = inp.torch_build
    use = asks[0]
    missing = []
    if not gpus:
        missing.append("this machine has no GPU")
    if build.cuda is None:
        missing.append(f"this torch ({build.version}) is a CPU-only build")
    elif needs.nccl and not build.nccl:
        missing.append(f"this torch ({build.version}) has no NCCL")
    if not missing:
        return CheckResult(name, Status.PASS, f"{use.where()} asks for {use.what}: available")
    return CheckResult(name, Status.FAIL, f"{' and '.join(missing)}, but {use.where()} asks "
                       f"for {use.what}; the job would die in its own start-up",
                       "run on a GPU machine with a CUDA build of torch, or use "
                       "backend='gloo' and CPU tensors")


def check_open_files(_: PreflightInput) -> CheckResult:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < THRESHOLDS["nofile_warn"]:
        return CheckResult("open files", Status.WARN, f"open-file limit is {soft} (hard {hard})",
                           "DataLoader workers and NCCL open many files: ulimit -n 65536")
    return CheckResult("open files", Status.PASS, f"open-file limit {soft}")


class _CheckRun:
    """One check in a daemon thread: a check past the budget (a DNS lookup that hangs) is
    reported as too slow and left behind, and never holds up the launcher's exit, as the
    joined worker threads of a ``ThreadPoolExecutor`` would."""

    def __init__(self, name: str,
                 job: Callable[[], list[CheckResult] | CheckResult]) -> None:
        self.name = name
        self._job = job
        self._out: list[CheckResult] | None = None
        self._error: Exception | None = None
        self.thread = threading.Thread(target=self._run, name=f"safelaunch-check-{name}",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            out = self._job()
        except Exception as exc:  # a check must never stop the launch by crashing
            self._error = exc
            return
        self._out = out if isinstance(out, list) else [out]

    def results(self) -> list[CheckResult]:
        if self._error is not None:
            return [CheckResult(self.name, Status.SKIP, f"could not run: {self._error!r}")]
        if self.thread.is_alive() or self._out is None:
            return [CheckResult(self.name, Status.SKIP, "took too long")]
        return self._out


def run_checks(inp: PreflightInput) -> PreflightReport:
    started = time.monotonic()
    gpus = inp.gpus if inp.gpus is not None else gpu.list_gpus()
    jobs: list[tuple[str, Callable[[], list[CheckResult] | CheckResult]]] = [
        ("gpus", lambda: check_gpus(inp, gpus)),
        ("gpu topology", lambda: check_topology(inp, gpus)),
        ("gpu Xid errors", lambda: check_xid(inp, gpus)),
        ("/dev/shm", lambda: check_shm(inp)),
        ("disk", lambda: check_disk(inp)),
        ("master port", lambda: check_port(inp)),
        ("master address", lambda: check_master_addr(inp)),
        ("open files", lambda: check_open_files(inp)),
        ("script needs", lambda: check_script_needs(inp, gpus)),
    ]
    results: list[CheckResult] = []
    budget = max(THRESHOLDS["budget_s"] - (time.monotonic() - started), 0.1)
    runs = [_CheckRun(name, job) for name, job in jobs]
    deadline = time.monotonic() + budget
    for run in runs:
        run.thread.join(max(0.0, deadline - time.monotonic()))
    for run in runs:
        results.extend(run.results())
    return PreflightReport(results, time.monotonic() - started)


def render(report: PreflightReport, everything: bool) -> list[str]:
    lines = [f"pre-flight: {report.counts()}"]
    for r in report.results:
        if everything or r.status in (Status.WARN, Status.FAIL):
            advice = f" -> {r.advice}" if r.advice and r.status is not Status.PASS else ""
            lines.append(f"  {r.status.value:<4}  {r.name:<20} {r.message}{advice}")
    return lines
