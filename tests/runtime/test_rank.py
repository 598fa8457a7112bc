"""The rank runtime's pieces, in this process: heartbeat records, hooks, timeouts."""

from __future__ import annotations

import sys
import textwrap
from datetime import timedelta
from pathlib import Path

import pytest

from safelaunch.runtime import beatfile, rank
from safelaunch.runtime.imports import when_imported


def test_beat_record_roundtrip(tmp_path: Path):
    path = tmp_path / "r.hb"
    beatfile.create(path)
    reader = beatfile.open_map(path, writable=False)
    assert beatfile.read(reader) is None
    beat = rank.Beat(beatfile.open_map(path, writable=True))
    beat.step()
    beat.collective_enter("all_reduce")
    snap = beatfile.read(reader)
    assert snap is not None and snap.step == 1 and snap.in_coll and snap.coll_count == 1
    assert snap.coll_name == "all_reduce" and snap.coll_step == 1
    beat.collective_exit()
    beat.heartbeat(7, {"loss": 0.5})
    snap = beatfile.read(reader)
    assert snap is not None and not snap.in_coll and snap.step == 7
    assert snap.metrics == '{"loss": 0.5}'
    beat.disable()
    beat.step()
    assert beatfile.read(reader).step == 7  # type: ignore[union-attr]


def test_post_import_hook(tmp_path: Path, monkeypatch):
    (tmp_path / "sl_probe_mod.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    seen = []
    when_imported("sl_probe_mod", lambda m: seen.append(m.VALUE))
    assert seen == []
    import sl_probe_mod  # noqa: F401

    assert seen == [1]
    when_imported("sl_probe_mod", lambda m: seen.append(2))  # already imported: now
    assert seen == [1, 2]
    del sys.modules["sl_probe_mod"]


def test_default_timeout_only_when_not_given():
    calls = []

    def init(backend=None, init_method=None, timeout=None, world_size=-1):
        calls.append(timeout)

    wrapped = rank._with_default_timeout(init, 30)
    wrapped("gloo")
    wrapped("gloo", timeout=timedelta(seconds=5))
    wrapped("gloo", None, timedelta(seconds=7))
    assert calls == [timedelta(seconds=30), timedelta(seconds=5), timedelta(seconds=7)]
    assert rank._with_default_timeout(init, None) is init


def test_heartbeat_and_phase_are_noops_without_safelaunch():
    import safelaunch

    safelaunch.heartbeat(step=3, loss=1.0)
    with safelaunch.phase("checkpoint", timeout=10):
        pass


@pytest.mark.usefixtures("spawn")  # real processes
def test_sitecustomize_chains_to_the_one_it_shadows(tmp_path: Path):
    import subprocess

    other = tmp_path / "other"
    other.mkdir()
    (other / "sitecustomize.py").write_text("import os\nos.environ['CHAINED'] = 'yes'\n")
    boot = Path(rank.__file__).parent / "boot"
    code = textwrap.dedent("""
        import os, sys
        print(os.environ.get('CHAINED'), any(p.endswith('boot') for p in sys.path))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": f"{boot}:{other}", "PATH": "/usr/bin:/bin"})
    assert out.stdout.split() == ["yes", "False"], out.stderr


def test_every_collective_of_the_installed_torch_is_instrumented():
    import torch.distributed.distributed_c10d as c10d

    names = set(rank.collective_names(c10d))
    # FSDP2's, the coalesced ones, point-to-point and the object collectives
    assert {"all_gather_single", "reduce_scatter_single", "all_reduce_coalesced", "isend",
            "irecv", "batch_isend_irecv", "send_object_list", "recv_object_list",
            "all_gather_object", "monitored_barrier", "all_reduce", "barrier"} <= names
    assert not names & {"init_process_group", "new_group", "get_rank", "get_world_size",
                        "destroy_process_group", "is_initialized", "get_backend"}
