"""scripts/gpu_check.py, the one-call GPU validation: its pure parts, and a dry run without a
GPU (the fake nvidia-smi, simulated GPU faults) whose $OUT must respect the GPU machine's
limits on what comes back."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from safelaunch import gpu

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "gpu_check.py"


def load_gpu_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gpu_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gpu_check"] = module
    spec.loader.exec_module(module)
    return module


gc = load_gpu_check()


def context(tmp_path: Path, *, dry_run: bool, facts: dict[str, Any]) -> Any:
    ctx = gc.Context(work=tmp_path / "work", out=tmp_path / "out", dry_run=dry_run,
                     deadline=1e12, only=None, env={})
    ctx.facts.update(facts)
    return ctx


def steps_by_name(ctx: Any) -> dict[str, Any]:
    return {s.name: s for s in gc.command_steps(ctx) + gc.job_steps(ctx)}


def test_the_query_is_safelaunchs_own() -> None:
    assert gc.QUERY == gpu.QUERY


@pytest.mark.parametrize(("count", "shared"), [(1, True), (2, False)])
def test_ranks_share_one_gpu_only_without_a_second(tmp_path: Path, count: int,
                                                     shared: bool) -> None:
    ctx = context(tmp_path, dry_run=False,
                  facts={"torch": {"device_count": count, "torch_version": [2, 11]}})
    steps = steps_by_name(ctx)
    hang = steps["nccl-hang"]
    assert ("--no-preflight" in hang.argv) is shared
    assert "--minimal-test-backend" in hang.argv  # safelaunch treats the job as NCCL's
    assert hang.expect.exit == [124] and hang.expect.culprits == [1]
    assert steps["preflight-more-ranks"].expect.exit == [125]
    assert steps["same-gpu-preflight"].expect.exit == ([125] if shared else None)
    assert steps["example-more-ranks"].argv.count(str(count + 1)) == 1


def test_the_nccl2_variants_need_a_torch_that_has_them(tmp_path: Path) -> None:
    old = context(tmp_path, dry_run=False, facts={"torch": {"torch": "2.11.0",
                                                            "torch_version": [2, 11]}})
    new = context(tmp_path, dry_run=False, facts={"torch": {"torch_version": [2, 15]}})
    for name in ("nccl-hang-nccl2-0", "nccl-hang-nccl2-1"):
        assert "predates TORCH_DIST_USE_NCCL2" in (steps_by_name(old)[name].skip or "")
        step = steps_by_name(new)[name]
        assert step.skip is None
        assert step.env["TORCH_DIST_USE_NCCL2"] == name[-1]


def test_evaluate_names_every_failed_expectation(tmp_path: Path) -> None:
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "rank0.txt").write_text("x")
    expect = gc.Expect(exit=[124], diagnosis=["hang"], culprits=[1],
                       files=["stacks/rank0*", "stacks/rank1*"], output=["HUNG"],
                       absent=["straggler: ", "SUCCEEDED"])
    record = {"exit_code": 124, "diagnosis": {"id": "hang"},
              "summary": {"hang_culprits": [0]}}
    checks = gc.evaluate(expect, record, "straggler: rank 1\nHUNG (exit code 124)", tmp_path)
    failed = [c["what"] for c in checks if not c["ok"]]
    assert failed == ["hang culprits [1]", "run directory has stacks/rank1*",
                      "output lacks 'straggler: '"]
    assert gc.evaluate(gc.Expect(nonzero=True), {"exit_code": 124}, "", None)[0]["ok"] is False


def test_cut_keeps_head_and_tail_within_the_cap() -> None:
    data = b"".join(b"line %d\n" % i for i in range(100_000))
    short = gc.cut(data, 4096)
    assert len(short) <= 4096
    assert short.startswith(b"line 0\n") and short.endswith(b"line 99999\n")
    assert b"gpu_check cut" in short
    assert gc.cut(b"small", 4096) == b"small"


def test_pack_cuts_files_until_the_archive_fits(tmp_path: Path) -> None:
    root = tmp_path / "steps"
    (root / "big" / "run").mkdir(parents=True)
    (root / "big" / "run" / "rank0.log").write_bytes(os.urandom(3 << 20))
    (root / "small.txt").write_text("kept whole")
    dest = tmp_path / "runs.tar.gz"
    archive = gc.pack(root, dest, limit=512 * 1024)
    assert archive["bytes"] <= 512 * 1024 and archive["file_cap"] <= 256 * 1024
    assert archive["cut"] == ["big/run/rank0.log"]
    with tarfile.open(dest) as tar:
        small = tar.extractfile("gpu_check/small.txt")
        assert small is not None and small.read() == b"kept whole"


def test_out_problems_finds_every_broken_limit(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "a" / "b" / "c").mkdir(parents=True)
    (out / "results.json").write_text("{}")
    assert gc.out_problems(out) == []
    (out / "a" / "b" / "c" / "deep.txt").write_text("x")
    (out / "bad name.txt").write_text("x")
    with open(out / "huge.bin", "wb") as fh:
        fh.truncate(gc.OUT_MAX_FILE_BYTES + 1)
    for i in range(6):
        (out / f"f{i}.txt").write_text("x")
    problems = "\n".join(gc.out_problems(out))
    assert "a/b/c/deep.txt: more than 2 folders deep" in problems
    assert "bad name.txt: name not made of" in problems
    assert "huge.bin: over" in problems
    assert "10 files, more than 8" in problems


def own_limit_check(out: Path) -> None:
    """The GPU machine's limits, checked without the script's own code."""
    files = [p for p in out.rglob("*") if p.is_file()]
    assert 1 <= len(files) <= 8
    for path in out.rglob("*"):
        rel = path.relative_to(out)
        assert all(part.replace(".", "").replace("_", "").replace("-", "").isalnum()
                   and part.isascii() for part in rel.parts), rel
        assert not path.is_symlink()
        if path.is_file():
            assert len(rel.parts) <= 3, rel  # at most 2 folders down
            assert path.stat().st_size <= 16 << 20, rel
    assert sum(p.stat().st_size for p in files) <= 64 << 20


@pytest.mark.slow
def test_dry_run_leaves_results_within_the_limits(tmp_path: Path) -> None:
    out, work = tmp_path / "out", tmp_path / "work"
    only = "preflight,preflight-json,preflight-more-ranks,same-gpu-preflight"
    proc = subprocess.run(
        ["bash", str(REPO / "scripts" / "gpu_check.sh"), "--dry-run", "--out", str(out),
         "--work", str(work), "--only", only],
        capture_output=True, text=True, timeout=170,
        env={**os.environ, "GPU_CHECK_PYTHON": sys.executable})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert sorted(p.name for p in out.iterdir()) == ["gpu_check.log", "results.json",
                                                      "runs.tar.gz"]
    own_limit_check(out)

    results = json.loads((out / "results.json").read_text())
    assert results["mode"] == "dry-run" and results["schema"] == 1
    assert results["out_problems"] == [] and results["archive"]["name"] == "runs.tar.gz"
    names = [s["name"] for s in results["steps"]]
    planned = list(gc.ALWAYS) + [s.name for s in
                                 gc.command_steps(context(tmp_path, dry_run=True, facts={}))]
    assert set(planned) <= set(names)
    assert len(names) == len(set(names))
    assert results["counts"].get("unexpected", 0) == results["counts"].get("timeout", 0) == 0
    for step in results["steps"]:
        assert step["status"] in ("ok", "skipped"), step
        assert isinstance(step["command"], list) and "expected" in step
        if step["status"] == "ok" and step["name"] not in ("wheels", "install"):
            assert isinstance(step["exit_code"], int) and step["seconds"] >= 0
            assert all(check["ok"] for check in step["checks"])
    by_name = {s["name"]: s for s in results["steps"]}
    assert by_name["nvidia-smi-query"]["status"] == "ok"
    assert by_name["gpu-parse"]["stdout_json"]["gpus"][0]["name"] == "NVIDIA A100-SXM4-80GB"
    assert results["facts"]["gpu_count_for_expectations"] == 1
    guarded = by_name["same-gpu-preflight"]
    assert guarded["exit_code"] == 125 and guarded["diagnosis"]["id"] == "preflight-failed"
    assert guarded["summary"]["status"] == "failed" and "pre-flight" in guarded["summary"]["reason"]
    assert by_name["oom"]["skipped"] == "not in --only"

    with tarfile.open(out / "runs.tar.gz") as tar:
        members = set(tar.getnames())
    assert "gpu_check/preflight/output.txt" in members
    assert "gpu_check/same-gpu-preflight/run/summary.json" in members
    assert "gpu_check/same-gpu-preflight/diagnose.stdout.txt" in members
    log = (out / "gpu_check.log").read_text()
    assert "DRY RUN" in log and "same-gpu-preflight" in log


def test_the_mps_server_is_no_process_a_job_left_on_the_gpu():
    # nvidia-smi's answer on the H200 with MPS running, after each job of the runs kept in
    # tests/fixtures/gpu/real/h200-torch2.11-fsdp2/; and a job's rank still there
    mps = "627, nvidia-cuda-mps-server, 66 MiB\n"
    rank = "4242, /opt/torch/.venv/bin/python3, 1024 MiB\n"
    assert gc.job_processes(mps) == []
    assert gc.job_processes(mps + rank + "\n") == [rank.strip()]
    assert gc.job_processes("627, /usr/bin/nvidia-cuda-mps-server, 66 MiB") == []
