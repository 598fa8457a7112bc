"""Stall a rank of a real framework job and read safelaunch's verdict (tests and
scripts/bench_hang.py).

The scripts in ``fixtures/frameworks`` are written as each framework's users write them; a
rank stalls at a step: frozen from outside (``stop``: SIGSTOP), a Python busy loop (``loop``),
a blocking C call (``sleep``), or an early exit (``exit``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FRAMEWORKS_DIR = Path(__file__).parent / "fixtures" / "frameworks"
FRAMEWORKS = {"ddp": "ddp_plain.py", "lightning": "lightning_boring.py",
              "accelerate": "accelerate_train.py", "transformers": "hf_trainer.py",
              "fsdp2": "fsdp2.py"}
KINDS = ("stop", "loop", "sleep", "exit")
STALL_AT = 5
STALL_RANK = 1


@dataclass
class Verdict:
    returncode: int
    hang: dict[str, Any] | None
    seconds_after_stall: float
    run_dir: Path
    stderr: str

    diagnosis: list[str]
    """The ids of the run's diagnosis findings."""
    stragglers: list[dict[str, Any]] | None = None
    """The stragglers named while the run ran (None: no summary)."""

    @property
    def culprits(self) -> list[int]:
        return list((self.hang or {}).get("culprits") or [])


def _stall_seen(run_dir: Path) -> bool:
    log = run_dir / f"rank{STALL_RANK}.log"
    return log.exists() and f" out step {STALL_AT}\n" in log.read_text(errors="replace")


def _pid(run_dir: Path, rank: int) -> int | None:
    events = run_dir / "events.jsonl"
    for line in events.read_text().splitlines() if events.exists() else []:
        event = json.loads(line)
        if event["event"] == "workers_started":
            return int(event["ranks"][str(rank)])
    return None


def run_stall(framework: str, kind: str | None, work: Path, timeout: float = 5,
              max_steps: int = 100_000) -> Verdict:
    """``kind`` None: a healthy run of ``max_steps``."""
    run_dir = work / f"{framework}-{kind}-{time.monotonic_ns()}"
    env = {**os.environ, "ACCELERATE_USE_CPU": "true", "MAX_STEPS": str(max_steps),
           "TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1"}
    if kind not in (None, "stop"):
        env.update(STALL_RANK=str(STALL_RANK), STALL_KIND=kind, STALL_AT=str(STALL_AT))
    cmd = [sys.executable, "-m", "safelaunch", "run", "--nproc", "2", "--no-minimal-test",
           "--hang-timeout", str(timeout), "--run-dir", str(run_dir),
           str(FRAMEWORKS_DIR / FRAMEWORKS[framework])]
    proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    stalled_at = None
    try:
        deadline = time.monotonic() + 180
        while kind is not None and stalled_at is None and time.monotonic() < deadline:
            if proc.poll() is not None:
                break
            if _stall_seen(run_dir):
                stalled_at = time.monotonic()
                pid = _pid(run_dir, STALL_RANK)
                if kind == "stop" and pid is not None:
                    os.kill(pid, signal.SIGSTOP)
            time.sleep(0.05)
        _, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    took = time.monotonic() - stalled_at if stalled_at is not None else float("nan")
    summary_path = run_dir / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    findings = (summary.get("diagnosis") or {}).get("findings") or []
    return Verdict(proc.returncode, summary.get("hang"), took, run_dir,
                   err.decode(errors="replace"), [f.get("id") for f in findings],
                   summary.get("stragglers"))
