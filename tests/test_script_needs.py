"""A script that hard-codes NCCL or CUDA is caught before the gloo minimal test can give a
false all-clear: the scan of the script and its local imports, the check's verdict for each
machine, and a real run on this CPU-only torch."""

from __future__ import annotations

from pathlib import Path

import pytest

from safelaunch import gpu, preflight, script_needs
from safelaunch.preflight import PreflightInput, Status, TorchBuild

CPU_TORCH = TorchBuild("2.13.0+cpu", None, False)
CUDA_TORCH = TorchBuild("2.5.1+cu124", "12.4", True)
NO_NCCL_CUDA_TORCH = TorchBuild("2.5.1+cu124", "12.4", False)
ONE_GPU = [gpu.Gpu(index=0, name="NVIDIA H100", temperature=40, ecc_uncorrected=0,
                   driver="550.54")]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / next(iter(files))


def test_hard_coded_nccl_and_cuda_are_found(tmp_path):
    script = _write(tmp_path, {"train.py": (
        "import torch, torch.distributed as dist\n"
        "dist.init_process_group(backend='nccl')\n"
        "torch.cuda.set_device(0)\n"
        "x = torch.zeros(2).cuda()\n"
        "y = torch.ones(1, device='cuda:0')\n")})
    needs = script_needs.scan(script)
    assert [u.where() for u in needs.nccl] == ["train.py:2"]
    assert [u.what for u in needs.cuda] == ["torch.cuda.set_device", ".cuda()", "device 'cuda:0'"]


def test_a_fallback_in_the_same_file_makes_it_conditional(tmp_path):
    for text in ("backend = 'nccl' if torch.cuda.is_available() else 'gloo'\n",
                 "import torch\ndev = 'cuda' if torch.cuda.is_available() else 'cpu'\n",
                 "import torch.distributed as d\nb = 'nccl' if d.is_nccl_available() else 'x'\n"):
        script = _write(tmp_path, {"train.py": text})
        needs = script_needs.scan(script)
        assert not needs.nccl and not needs.cuda, text


def test_local_imports_are_followed_and_bounded(tmp_path):
    script = _write(tmp_path, {
        "train.py": "import setup_dist\nfrom pkg import model\nimport torch\n",
        "setup_dist.py": "import train\nimport torch.distributed as dist\n"
                         "def init():\n    dist.init_process_group('nccl')\n",
        "pkg/__init__.py": "",
        "pkg/model.py": "from .layers import Net\n",
        "pkg/layers.py": "import torch\nclass Net:\n    def go(self, x):\n"
                         "        return x.cuda()\n",
        "unrelated.py": "B = 'nccl'\n",
    })
    needs = script_needs.scan(script)
    assert [u.where() for u in needs.nccl] == ["setup_dist.py:4"]
    assert [u.where() for u in needs.cuda] == ["layers.py:4"]


def test_unreadable_and_hostile_sources_are_skipped(tmp_path):
    script = _write(tmp_path, {
        "train.py": "import broken, huge, deep\n",
        "broken.py": "def (:\n",
        "huge.py": "x = 'nccl'\n" + "#" * (script_needs.MAX_BYTES + 10) + "\n",
        "deep.py": "x = " + "(" * 200_000 + ")" * 200_000 + "\n",
    })
    assert script_needs.scan(script) == script_needs.Needs()
    assert script_needs.scan(tmp_path / "missing.py") == script_needs.Needs()


def _verdict(tmp_path: Path, build: TorchBuild, gpus: list[gpu.Gpu] | None,
             text: str = "import torch.distributed as d\nd.init_process_group('nccl')\n"
             ) -> preflight.CheckResult:
    script = _write(tmp_path, {"train.py": text})
    inp = PreflightInput(nproc=2, expect_gpus=bool(gpus), run_dir=tmp_path, script=script,
                         torch_build=build)
    return preflight.check_script_needs(inp, gpus)


def test_verdict_for_each_machine(tmp_path):
    result = _verdict(tmp_path, CPU_TORCH, None)
    assert result.status is Status.FAIL
    assert result.message.startswith("this machine has no GPU and this torch (2.13.0+cpu) is "
                                     "a CPU-only build, but train.py:2 asks for backend 'nccl'")
    result = _verdict(tmp_path, NO_NCCL_CUDA_TORCH, ONE_GPU)
    assert result.status is Status.FAIL and "has no NCCL" in result.message
    assert _verdict(tmp_path, CUDA_TORCH, ONE_GPU).status is Status.PASS
    assert _verdict(tmp_path, CUDA_TORCH, []).status is Status.FAIL
    assert _verdict(tmp_path, CPU_TORCH, None, "import torch\n").status is Status.PASS


@pytest.mark.minimal_test  # it must not start
def test_run_stops_in_preflight_with_one_line(run_safelaunch, tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import torch.distributed as dist\n"
                      "dist.init_process_group(backend='nccl')\n")
    run = run_safelaunch("run", "--nproc", "2", str(script))
    assert run.returncode == 125, run.stderr
    lines = [line for line in run.stderr.splitlines() if "script needs" in line]
    assert "this torch" in lines[0] and "train.py:2 asks for backend 'nccl'" in lines[0]
    assert "minimal test" not in run.stderr
