"""The minimal DDP test as the launcher runs it: same topology, backend and environment as the
training job, through the same supervised engine, bounded by a time limit, with the usual
NCCL workarounds tried one by one when NCCL fails.

The ranks run ``safelaunch.minimal_test`` and leave one ``rank<N>.json`` each; this module
turns them into a ``MinimalTestReport``.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from safelaunch import defaults, gpu
from safelaunch.config import RunConfig
from safelaunch.console import Console
from safelaunch.minimal_test import rank as mt
from safelaunch.plan import build_plan, minimal_test_config
from safelaunch.supervisor.rundir import private_dir

# Tried in order when the NCCL test fails; the first that passes is the remedy.
REMEDIES: list[tuple[str, dict[str, str]]] = [
    ("NCCL_P2P_DISABLE=1", {"NCCL_P2P_DISABLE": "1"}),
    ("NCCL_SHM_DISABLE=1", {"NCCL_SHM_DISABLE": "1"}),
    ("NCCL_IB_DISABLE=1", {"NCCL_IB_DISABLE": "1"}),
    ("gloo", {}),
]


@dataclass(frozen=True)
class MinimalTestOptions:
    backend: str = "auto"
    timeout: float = defaults.MINIMAL_TEST_TIMEOUT_S
    bandwidth: bool = False


@dataclass
class Attempt:
    label: str
    backend: str
    env: dict[str, str]
    passed: bool
    exit_code: int
    ranks: dict[int, dict[str, Any]]
    first_failure: str | None
    run_dir: str


@dataclass
class MinimalTestReport:
    backend: str
    backend_reason: str
    world_size: int | None
    seconds: float
    attempts: list[Attempt] = field(default_factory=list)

    @property
    def first(self) -> Attempt:
        return self.attempts[0]

    @property
    def passed(self) -> bool:
        return self.first.passed

    @property
    def remedy(self) -> Attempt | None:
        return next((a for a in self.attempts[1:] if a.passed), None)

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["passed"] = self.passed
        data["remedy"] = self.remedy.label if self.remedy else None
        return data


def choose_backend(requested: str, nproc: str) -> tuple[str, str]:
    """``auto``: NCCL when every rank of this node has a GPU, gloo otherwise."""
    if requested != "auto":
        return requested, "as requested"
    gpus = gpu.torch_gpu_count()
    if gpus == 0:
        return "gloo", "no GPU on this machine"
    wanted = int(nproc) if nproc.isdigit() else gpus
    if wanted > gpus:
        return "gloo", f"{wanted} ranks but only {gpus} GPU(s)"
    return "nccl", f"a GPU for each of the {wanted} rank(s)"


def _first_failure(ranks: dict[int, dict[str, Any]], world: int | None) -> str | None:
    order = {name: i for i, name in enumerate(mt.STEPS)}
    # The earliest failure is the cause; the others are its echoes ("connection closed").
    failed = sorted(((s.get("failed_at", float("inf")), r, s) for r, rec in ranks.items()
                     for s in rec.get("steps", []) if s.get("status") == "failed"),
                    key=lambda item: (item[0], item[1]))
    if failed:
        _, rank, step = failed[0]
        return f"rank {rank} failed {step['step']}: {step.get('error', '')}"
    stuck = sorted(((order.get(rec["steps"][-1]["step"], 99), r, rec["steps"][-1]["step"])
                    for r, rec in ranks.items()
                    if rec.get("steps") and rec["steps"][-1].get("status") == "running"))
    if stuck:
        _, rank, step = stuck[0]
        return f"rank {rank} did not finish {step} in time"
    if world is not None:
        missing = [r for r in range(world) if r not in ranks]
        if missing:
            return f"rank(s) {', '.join(map(str, missing))} never started the test"
    return None


def _read_results(folder: Path) -> dict[int, dict[str, Any]]:
    ranks: dict[int, dict[str, Any]] = {}
    for path in folder.glob("rank*.json"):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        ranks[int(data.get("rank", -1))] = data
    return dict(sorted(ranks.items()))


def _attempt(base: RunConfig, options: MinimalTestOptions, folder: Path, label: str,
             backend: str, env: dict[str, str], world: int | None) -> Attempt:
    from safelaunch.supervisor.run import launch

    results = folder / "results"
    for private in (folder.parent, folder, results):  # minimal-test/, its attempt, results
        private_dir(private)
    config = minimal_test_config(base, folder / "run", options.timeout, label)
    plan = build_plan(config, now=datetime.now(timezone.utc), short_id=secrets.token_hex(3),
                      cwd=Path.cwd())
    test_env = {mt.BACKEND_ENV: backend, mt.RESULTS_ENV: str(results),
                mt.TIMEOUT_ENV: f"{options.timeout:g}",
                mt.BANDWIDTH_ENV: "1" if options.bandwidth else "", **env}
    outcome = launch(plan, Console(muted=True), ["safelaunch", "minimal-test"], test_env)
    ranks = _read_results(results)
    passed = outcome.exit_code == 0 and bool(ranks) and all(r.get("passed")
                                                              for r in ranks.values())
    if passed:
        failure = None
    elif not outcome.ranks:  # the ranks never started: rendezvous or start-up failed
        failure = outcome.reason
    else:
        failure = _first_failure(ranks, world) or outcome.reason
    return Attempt(label, backend, env, passed, outcome.exit_code, ranks, failure,
                   str(plan.run_dir))


def run_minimal_test(base: RunConfig, options: MinimalTestOptions, folder: Path,
                     env: dict[str, str] | None = None, remedies: bool = True
                     ) -> MinimalTestReport:
    """Run the test (and, for a failing NCCL test, the remedies) into ``folder``."""
    started = time.monotonic()
    backend, why = choose_backend(options.backend, base.nproc)
    world = int(base.nproc) * base.max_nodes if base.nproc.isdigit() else None
    report = MinimalTestReport(backend, why, world, 0.0)
    env = dict(env or {})
    report.attempts.append(_attempt(base, options, folder / "test", "test", backend, env,
                                    world))
    if not report.passed and backend == "nccl" and remedies:
        for number, (label, extra) in enumerate(REMEDIES, start=1):
            attempt_backend = "gloo" if label == "gloo" else "nccl"
            attempt = _attempt(base, options, folder / f"remedy{number}", f"remedy{number}",
                               attempt_backend, {**env, **extra}, world)
            attempt.label = label
            report.attempts.append(attempt)
            if attempt.passed:
                break
    report.seconds = time.monotonic() - started
    return report


def render(report: MinimalTestReport) -> list[str]:
    first = report.first
    verdict = "PASSED" if first.passed else "FAILED"
    lines = [f"minimal test: {report.backend} ({report.backend_reason}) on "
             f"{len(first.ranks) or '?'} rank(s): {verdict} in {report.seconds:.1f}s"]
    lines += _step_table(first.ranks)
    if first.first_failure:
        lines.append(f"  first failure: {first.first_failure}")
    lines += _bandwidth_table(first.ranks)
    for attempt in report.attempts[1:]:
        result = "passes" if attempt.passed else f"fails ({attempt.first_failure})"
        lines.append(f"  remedy {attempt.label}: {result}")
    return lines


def _step_table(results: dict[int, dict[str, Any]]) -> list[str]:
    """One row per step that any rank reached, one column per rank."""
    ranks = sorted(results)
    if not ranks:
        return []
    lines = ["  " + f"{'step':<20}" + "".join(f"{'rank ' + str(r):>14}" for r in ranks)]
    reached = {st["step"] for r in ranks for st in results[r]["steps"]}
    for step in (s for s in mt.STEPS if s in reached):
        cells = [_step_cell(_step_entry(results[r], step)) for r in ranks]
        lines.append("  " + f"{step:<20}" + "".join(f"{c:>14}" for c in cells))
    return lines


def _step_entry(result: dict[str, Any], step: str) -> dict[str, Any] | None:
    """A rank's record of ``step``, None if it never got there."""
    return next((st for st in result["steps"] if st["step"] == step), None)


_STATUS_WORDS = {"passed": "ok", "failed": "FAILED", "running": "stuck"}


def _step_cell(entry: dict[str, Any] | None) -> str:
    """A rank's cell for a step: "ok 12ms", "FAILED", "stuck" or "-" (never reached)."""
    if entry is None:
        return "-"
    word: str = _STATUS_WORDS.get(entry["status"], entry["status"])
    secs = entry.get("seconds")
    return word + (f" {secs * 1000:.0f}ms" if secs is not None else "")


def _bandwidth_table(results: dict[int, dict[str, Any]]) -> list[str]:
    """The all_reduce bandwidth the lowest rank measured, one row per size."""
    ranks = sorted(results)
    bandwidth = next((st.get("detail") for r in ranks[:1] for st in results[r]["steps"]
                      if st["step"] == "bandwidth" and st.get("detail")), None)
    if not bandwidth:
        return []
    lines = [f"  {'size':>10} {'time':>10} {'algbw GB/s':>11} {'busbw GB/s':>11} {'wrong':>6}"]
    for row in bandwidth:
        lines.append(f"  {_bytes(row['bytes']):>10} {row['seconds'] * 1e3:>8.2f}ms "
                     f"{row['algbw_gbps']:>11.3f} {row['busbw_gbps']:>11.3f} "
                     f"{row['wrong']:>6}")
    if all(row["busbw_gbps"] == 0 for row in bandwidth):
        lines.append("  one rank: all_reduce moves no data between GPUs (busbw 0); the bus "
                     "bandwidth needs --nproc 2 or more")
    return lines


def _bytes(n: int) -> str:
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n // size} {unit}"
    return f"{n} B"
