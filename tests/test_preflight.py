"""Pre-flight checks, each with a condition created for real (a bound port, a small tmpfs,
an unresolvable name) or, for GPUs, played by a stand-in nvidia-smi."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, safelaunch_cmd
from safelaunch import gpu, preflight
from safelaunch.preflight import PreflightInput, Status

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

FAKE_SMI = str(FIXTURES / "fake-nvidia-smi")


def _check(report: preflight.PreflightReport, name: str) -> preflight.CheckResult:
    return next(r for r in report.results if r.name == name)


@pytest.fixture
def fake_gpus(monkeypatch):
    monkeypatch.setenv("SAFELAUNCH_NVIDIA_SMI", FAKE_SMI)
    monkeypatch.setenv("FAKE_GPUS", "2")
    # the fake nvidia-smi is a Python program: on a loaded machine its start alone can pass
    # the checks' 1.8 s budget (the budget itself is tested on its own)
    monkeypatch.setitem(preflight.THRESHOLDS, "budget_s", 60.0)
    monkeypatch.setattr(gpu, "TIMEOUT_S", 60.0)
    return monkeypatch


def _inp(tmp_path: Path, **kw) -> PreflightInput:
    kw.setdefault("nproc", 2)
    kw.setdefault("expect_gpus", False)
    return PreflightInput(run_dir=tmp_path / "runs", **kw)


def test_port_in_use_fails_and_free_port_passes(tmp_path):
    with socket.socket() as sock:
        sock.bind(("", 0))
        sock.listen()
        port = sock.getsockname()[1]
        report = preflight.run_checks(_inp(tmp_path, master_port=port, check_port=True))
        assert _check(report, "master port").status is Status.FAIL
    report = preflight.run_checks(_inp(tmp_path, master_port=port, check_port=True))
    assert _check(report, "master port").status is Status.PASS


def test_a_check_past_the_budget_is_too_slow_and_holds_up_nothing(tmp_path, monkeypatch):
    import threading

    release = threading.Event()

    def hanging_lookup(inp):
        release.wait(60)  # a DNS lookup that does not answer
        return preflight.CheckResult("master address", Status.PASS, "late")

    def crashing(inp):
        raise OSError("no /proc")

    monkeypatch.setattr(preflight, "check_master_addr", hanging_lookup)
    monkeypatch.setattr(preflight, "check_open_files", crashing)
    monkeypatch.setitem(preflight.THRESHOLDS, "budget_s", 0.3)
    try:
        report = preflight.run_checks(_inp(tmp_path))
        assert _check(report, "master address").status is Status.SKIP
        assert _check(report, "master address").message == "took too long"
        assert "could not run: OSError('no /proc')" in _check(report, "open files").message
        assert _check(report, "disk").status is Status.PASS  # the others are all there
        left = [t for t in threading.enumerate() if t.name.startswith("safelaunch-check-")]
        assert left and all(t.daemon for t in left)  # the interpreter's exit waits for none
    finally:
        release.set()


def test_unresolvable_master_addr(tmp_path):
    report = preflight.run_checks(_inp(tmp_path, multi_node=True,
                                       master_addr="no-such-host.invalid", master_port=29500))
    result = _check(report, "master address")
    assert result.status is Status.FAIL and "/etc/hosts" in result.advice
    report = preflight.run_checks(_inp(tmp_path, multi_node=True, master_addr="localhost"))
    assert _check(report, "master address").status is Status.PASS


@pytest.fixture
def small_tmpfs(tmp_path):
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_small_shm_warns(tmp_path, small_tmpfs):
    report = preflight.run_checks(_inp(tmp_path, shm_path=str(small_tmpfs)))
    result = _check(report, "/dev/shm")
    assert result.status is Status.WARN and "NCCL_SHM_DISABLE=1" in result.advice
    assert _check(preflight.run_checks(_inp(tmp_path)), "/dev/shm").status is Status.PASS


def test_full_disk_fails(small_tmpfs):
    (small_tmpfs / "fill").write_bytes(b"\0" * (60 << 20))
    report = preflight.run_checks(PreflightInput(nproc=1, expect_gpus=False,
                                                 run_dir=small_tmpfs / "runs" / "x"))
    result = _check(report, "disk")
    assert result.status is Status.FAIL and "--run-dir" in result.advice


def test_low_open_file_limit_warns(tmp_path):
    code = ("from pathlib import Path; from safelaunch import gpu, preflight as p; "
            "r = p.check_open_files(None); print(r.status.value)")
    out = subprocess.run(["bash", "-c", f"ulimit -n 1024 && {sys.executable} -c '{code}'"],
                         capture_output=True, text=True)
    assert out.stdout.strip() == "warn", out.stderr


def test_no_gpu_is_skipped_on_cpu_and_fails_when_gpus_expected(tmp_path, monkeypatch):
    monkeypatch.setenv("SAFELAUNCH_NVIDIA_SMI", "/nonexistent/nvidia-smi")
    report = preflight.run_checks(_inp(tmp_path))
    assert _check(report, "gpus").status is Status.SKIP
    report = preflight.run_checks(_inp(tmp_path, expect_gpus=True))
    assert _check(report, "gpus").status is Status.FAIL


def test_gpu_count_against_nproc(tmp_path, fake_gpus):
    report = preflight.run_checks(_inp(tmp_path, nproc=2, expect_gpus=True))
    assert _check(report, "gpus").status is Status.PASS
    assert _check(report, "gpu topology").status is Status.PASS
    report = preflight.run_checks(_inp(tmp_path, nproc=4, expect_gpus=True))
    result = _check(report, "gpus")
    assert result.status is Status.FAIL and "--nproc 2" in result.advice


def test_cuda_visible_devices(tmp_path, fake_gpus):
    fake_gpus.setenv("CUDA_VISIBLE_DEVICES", "0,5")
    report = preflight.run_checks(_inp(tmp_path, expect_gpus=True,
                                       environ={"CUDA_VISIBLE_DEVICES": "0,5"}))
    assert _check(report, "CUDA_VISIBLE_DEVICES").status is Status.FAIL
    report = preflight.run_checks(_inp(tmp_path, nproc=2, expect_gpus=True,
                                       environ={"CUDA_VISIBLE_DEVICES": "1"}))
    assert _check(report, "gpus").status is Status.FAIL


@pytest.mark.parametrize(("env", "name", "status"), [
    ({"FAKE_GPU_ECC": "3"}, "gpu health", Status.FAIL),
    ({"FAKE_GPU_TEMP": "91"}, "gpu health", Status.WARN),
    ({"FAKE_GPU_LINK": "SYS"}, "gpu topology", Status.WARN),
    ({"FAKE_GPU_LINK": "PHB"}, "gpu topology", Status.WARN),
    ({"FAKE_GPU_LINK": "PIX"}, "gpu topology", Status.PASS),
    ({"FAKE_GPU_ECC": "na"}, "gpu health", Status.PASS),  # a GPU without ECC: [N/A]
])
def test_gpu_health_and_topology(tmp_path, fake_gpus, env, name, status):
    for key, value in env.items():
        fake_gpus.setenv(key, value)
    report = preflight.run_checks(_inp(tmp_path, expect_gpus=True))
    assert _check(report, name).status is status


def test_topology_reads_the_drivers_underlined_header(fake_gpus):
    # nvidia-smi writes "\t\x1b[4mGPU0\tGPU1\tNIC0...\x1b[0m", NIC rows and legends
    fake_gpus.setenv("FAKE_GPU_LINK", "NODE")
    assert gpu.topology() == {(0, 0): "X", (0, 1): "NODE", (1, 0): "NODE", (1, 1): "X"}


def test_xid_errors_in_kernel_log(tmp_path, fake_gpus):
    log = tmp_path / "kern.log"
    log.write_text("[ 1.0] usb 1-1: new device\n"
                   "[ 9.5] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off "
                   "the bus.\n")
    fake_gpus.setenv("SAFELAUNCH_KERNEL_LOG", str(log))
    result = _check(preflight.run_checks(_inp(tmp_path, expect_gpus=True)), "gpu Xid errors")
    assert result.status is Status.FAIL and "Xid 79" in result.message
    log.write_text("[ 9.5] NVRM: Xid (PCI:0000:3b:00): 92, High single-bit ECC error rate\n")
    result = _check(preflight.run_checks(_inp(tmp_path, expect_gpus=True)), "gpu Xid errors")
    assert result.status is Status.WARN
    # a program's own fault (a device-side assert logged Xid 43 on an H200): not the GPU's
    log.write_text("[ 9.5] NVRM: Xid (PCI:0000:3b:00): 13, Graphics Exception\n"
                   "[ 9.6] NVRM: Xid (PCI:0000:3b:00): 43, pid=77, name=python3, Ch 00000008\n")
    result = _check(preflight.run_checks(_inp(tmp_path, expect_gpus=True)), "gpu Xid errors")
    assert result.status is Status.PASS and "latest Xid 43" in result.message
    log.write_text("[ 9.5] NVRM: Xid (PCI:0000:3b:00): 43, pid=77, name=python3\n"
                   "[ 9.6] NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n"
                   "[ 9.7] NVRM: Xid (PCI:0000:3b:00): 13, Graphics Exception\n")
    result = _check(preflight.run_checks(_inp(tmp_path, expect_gpus=True)), "gpu Xid errors")
    assert result.status is Status.FAIL and "latest Xid 79" in result.message
    log.write_text("nothing here\n")
    result = _check(preflight.run_checks(_inp(tmp_path, expect_gpus=True)), "gpu Xid errors")
    assert result.status is Status.PASS


def test_preflight_command_and_failing_check_stops_run(tmp_path, fake_gpus):
    out = subprocess.run(safelaunch_cmd("preflight", "--json"), cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert {r["name"] for r in json.loads(out.stdout)["results"]} >= {"gpus", "/dev/shm", "disk"}
    fake_gpus.setenv("FAKE_GPU_ECC", "2")
    out = subprocess.run(safelaunch_cmd("preflight"), cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode == 125 and "uncorrected ECC" in out.stdout
    marker = tmp_path / "trained"
    script = tmp_path / "train.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    out = subprocess.run(safelaunch_cmd("run", "--nproc", "2", str(script)), cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 125, out.stderr
    assert "pre-flight check 'gpu health' failed" in out.stderr
    assert not marker.exists()
    run_dir = next((tmp_path / "safelaunch_runs").glob("2*"))
    assert json.loads((run_dir / "summary.json").read_text())["exit_code"] == 125
    assert (run_dir / "preflight.json").is_file()
    out = subprocess.run(safelaunch_cmd("run", "--no-preflight", "--nproc", "2", str(script)),
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0 and marker.exists()


def test_the_disk_check_counts_inodes(tmp_path):
    """Issue 29 item 6: free inodes as well as bytes; a file system without an inode limit
    (0 in all, btrfs) passes on bytes alone."""
    gib = 1 << 30
    assert preflight.disk_result(50 * gib, 10, 1_000_000).status is Status.FAIL
    assert "inodes" in preflight.disk_result(50 * gib, 10, 1_000_000).message
    assert preflight.disk_result(50 * gib, 5_000, 1_000_000).status is Status.WARN
    assert preflight.disk_result(50 * gib, 0, 0).status is Status.PASS
    assert preflight.disk_result(50 * gib, 500_000, 1_000_000).status is Status.PASS
    assert preflight.disk_result(1 << 20, 500_000, 1_000_000).status is Status.FAIL
    mount = tmp_path / "few"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1g,nr_inodes=50", "tmpfs",
                       str(mount)], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        report = preflight.run_checks(_inp(mount))
        result = _check(report, "disk")
        assert result.status is Status.FAIL and "inodes" in result.message, result
        assert "--run-dir" in result.advice
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
