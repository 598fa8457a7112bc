"""Renders a run's outcome for people: the end-of-run summary.

Decides nothing: every word here comes from the ``RunOutcome``.  What the ranks wrote (their
last lines, errors) is shown with its terminal controls made visible (``terminal.printable``),
so a last line cannot clear or hide the summary.
"""

from __future__ import annotations

import shutil
import textwrap
from typing import Any

from safelaunch.console import display_path
from safelaunch.supervisor.result import RankOutcome, RankState, RunOutcome, RunStatus
from safelaunch.terminal import printable

RULE_WIDTH = 78


def _result_cell(rank: RankOutcome) -> str:
    if rank.state is RankState.SUCCEEDED:
        return "ok"
    if rank.state is RankState.STOPPED:
        return f"stopped by safelaunch ({rank.exit_label})"
    if rank.state is RankState.RUNNING:
        return rank.exit_label
    label = f"FAILED {rank.exit_label}"
    return f"{label} <- root cause" if rank.root_cause else label


def _runtime_cell(rank: RankOutcome) -> str:
    return "-" if rank.runtime_s is None else f"{rank.runtime_s:.1f}s"


def _shorten(text: str, width: int) -> str:
    text = " ".join(printable(text).split())
    return text if len(text) <= width else text[: max(width - 3, 0)] + "..."


def _wrap(text: str, width: int, indent: str) -> list[str]:
    return textwrap.wrap(printable(text), width=max(width - 1, 40), initial_indent=indent,
                         subsequent_indent=indent + "  ") or [indent]


def render_summary(outcome: RunOutcome) -> str:
    width = max(shutil.get_terminal_size((100, 20)).columns, 60)
    title = " safelaunch summary "
    pad = max(RULE_WIDTH - len(title), 4)
    lines = ["", "=" * (pad // 2) + title + "=" * (pad - pad // 2)]
    lines += _rank_table(outcome, width)
    if outcome.hang:
        lines += _render_hang(outcome.hang, width)
    lines += _render_stragglers(outcome.stragglers, width)
    lines.append(_status_line(outcome))
    if outcome.attempts > 1:
        lines.append(f"the worker group ran {outcome.attempts} times (--max-restarts)")
    for note in outcome.notes:
        lines += _wrap(note, width, "")
    lines.append(f"run directory: {display_path(outcome.run_dir)}")
    return "\n".join(printable(line) for line in lines) + "\n"


def _rank_table(outcome: RunOutcome, width: int) -> list[str]:
    """One row per rank (result, runtime, last line), then the root cause's error."""
    if not outcome.ranks:
        return []
    culprits = set((outcome.hang or {}).get("culprits", []))
    results = [_result_cell(r) + (" <- hang culprit" if r.global_rank in culprits else "")
               for r in outcome.ranks]
    col = max(len("result"), *(len(c) for c in results))
    lines = [f"{'rank':>4}  {'result':<{col}}  {'runtime':>7}  last line"]
    for rank, cell in zip(outcome.ranks, results, strict=True):
        head = f"{rank.global_rank:>4}  {cell:<{col}}  {_runtime_cell(rank):>7}  "
        lines.append(head + _shorten(rank.last_line, width - len(head) - 1))
    root = next((r for r in outcome.ranks if r.root_cause), None)
    if root is not None and root.error:
        lines.append(f"rank {root.global_rank} error: {_shorten(root.error, width - 20)}")
    return lines


def _render_stragglers(stragglers: list[dict[str, Any]], width: int) -> list[str]:
    """One line per straggler named while the job ran, and where it caught up."""
    lines = []
    for found in stragglers:
        cleared = found.get("cleared_at_step")
        until = f" (caught up by step {cleared})" if cleared is not None else ""
        lines += _wrap(f"straggler from step {found.get('at_step')}{until}: "
                       f"{found.get('text', '')}", width, "")
    return lines


def _status_line(outcome: RunOutcome) -> str:
    """The status, exit code and reason, and how long a run that succeeded took."""
    took = f" in {outcome.duration_s:.1f}s" if outcome.status is RunStatus.SUCCEEDED else ""
    return f"{outcome.status.value.upper()} (exit code {outcome.exit_code}): {outcome.reason}{took}"


def _render_hang(hang: dict[str, Any], width: int) -> list[str]:
    lines = ["hang analysis:"]
    findings = [f.get("text", "") for f in hang.get("findings", []) if isinstance(f, dict)]
    for text in [*findings, *hang.get("ranks", [])]:
        lines += _wrap(str(text), width, "  ")
    if hang.get("hint"):
        lines += _wrap(f"fix: {hang['hint']}", width, "  ")
    stacks = hang.get("stacks") or {}
    if stacks:
        lines.append(f"top of each rank's stack ({hang.get('stack_method')}):")
        hosts = hang.get("stack_hosts") or {}
        for rank, frames in sorted(stacks.items(), key=lambda kv: int(kv[0])):
            where = f" (on {hosts[rank]})" if rank in hosts else ""
            lines.append(f"  rank {rank}{where}: "
                         + _shorten(" <- ".join(frames) or "?", width - 12 - len(where)))
    elif hang.get("stack_method") == "none":
        lines.append("no stacks could be captured (py-spy missing or not allowed to attach, "
                     "and the rank runtime was not loaded)")
    return lines
