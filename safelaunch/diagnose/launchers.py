"""What each launcher writes around the ranks' output: rank prefixes, failure reports.

Rank prefixes (they may be stacked, outermost first): ``srun --label`` (``1: ``), mpirun's
``--tag-output`` (``[1,1]<stderr>:``), torch's excepthook (``[rank1]:``), torchrun's
``--tee`` (``[default1]:``) and safelaunch's console (``[rank1] ``).

Failure reports give the root-cause rank and its exit code or signal: torchrun's
``ChildFailedError`` table (its root-cause entry, old and new layouts), the elastic agent's
``failed (exitcode: -11) local_rank: 1`` line, DeepSpeed's ``Process N exits with return code``
(with the pid taken from its ``process N spawned with command`` line), ``srun: error: ...
task 1: ...`` and the shell's ``Segmentation fault``/``Killed``.  Any of them, a Python
traceback or a ``Signal 9 (SIGKILL) received by PID`` makes a log a failing one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SRUN_LABEL = re.compile(r"^ {0,4}(\d{1,5}): ")
TAGGED = re.compile(r"^(?:\[\d+,(\d+)\]<std(?:out|err)>:|\[(?:rank|default) ?(\d+)\](?::|\s))"
                    r" ?")
RANK_PREFIX = re.compile(r"^\[(?:rank|default) ?(\d+)\]:?\s?")
ROOT_CAUSE_BLOCK = re.compile(
    r"Root Cause \(first observed failure\):[ \t]*\n\[\d+\]:[ \t]*\n"
    r"(?P<body>(?:[ \t]+[^\n]*\n?){1,40})")
FIELD = re.compile(r"^\s*(\w+)\s*:\s*([^\n]*)$", re.MULTILINE)
ELASTIC_FAILED = re.compile(
    r"failed \(exitcode: (-?\d+)\) local_rank: (\d+) \(pid: \d+\) of binary")
DEEPSPEED_SPAWN = re.compile(r"process (\d+) spawned with command: \[[^\n]{0,3000}?"
                             r"'--local_rank=(\d+)'")
DEEPSPEED_EXIT = re.compile(r"Process (\d+) exits with return code = (-?\d+)")
SRUN_TASK = re.compile(r"srun: error: (?:[\w.-]+: )?tasks? (\d+)(?:-\d+)?: ([A-Za-z ]+?)"
                       r"(?: with exit code (\d+))?$", re.MULTILINE)
SRUN_SIGNALS = {"Killed": -9, "Segmentation fault": -11, "Terminated": -15, "Aborted": -6,
                "Bus error": -7}
SIGNAL_RECEIVED = re.compile(r"Signal (\d+) \(SIG\w+\) received by PID")
FAILING = re.compile(
    r"Traceback \(most recent call last\)|ChildFailedError|^Fatal Python error"
    r"|Segmentation fault|\(core dumped\)|^Killed$|terminate called after throwing"
    r"|srun: error: |exits with return code = -?[1-9]|failed \(exitcode: -?[1-9]"
    r"|received by PID", re.MULTILINE)


def label_style(text: str) -> bool:
    """Whether most lines carry ``srun --label``'s task number (checked on a sample)."""
    lines = [line for line in text[:200_000].splitlines()[:2000] if line.strip()]
    labelled = sum(1 for line in lines if SRUN_LABEL.match(line))
    return bool(lines) and labelled * 2 > len(lines)


def strip_prefixes(line: str, labels: bool) -> tuple[int | None, str]:
    """The rank a line belongs to (None: unknown) and the line without its prefixes."""
    rank: int | None = None
    if labels and (match := SRUN_LABEL.match(line)):
        rank, line = int(match.group(1)), line[match.end():]
    for _ in range(3):
        match = TAGGED.match(line)
        if not match:
            break
        rank, line = int(match.group(1) or match.group(2)), line[match.end():]
    return rank, line


@dataclass
class Report:
    """The root cause as a launcher reported it."""

    rank: int | None = None
    returncode: int | None = None
    """Exit code, or minus the signal number."""
    failed: bool = False


def root_cause(text: str) -> Report:
    report = Report(failed=bool(FAILING.search(text)))
    blocks = list(ROOT_CAUSE_BLOCK.finditer(text))
    if blocks:
        fields = dict(FIELD.findall(blocks[-1].group("body")))
        rank = re.match(r"(\d+)", fields.get("rank", ""))
        code = re.match(r"(-?\d+)", fields.get("exitcode", ""))
        report.rank = int(rank.group(1)) if rank else None
        report.returncode = int(code.group(1)) if code else None
        return _failed(report)
    if match := ELASTIC_FAILED.search(text):
        report.returncode, report.rank = int(match.group(1)), int(match.group(2))
        return _failed(report)
    exits = [(int(pid), int(code)) for pid, code in DEEPSPEED_EXIT.findall(text)
             if int(code) != 0]
    if exits:
        ranks = {int(pid): int(rank) for pid, rank in DEEPSPEED_SPAWN.findall(text)}
        report.rank, report.returncode = ranks.get(exits[0][0]), exits[0][1]
        return _failed(report)
    for task in SRUN_TASK.finditer(text):
        what, status = task.group(2).strip(), task.group(3)
        returncode = int(status) if status else SRUN_SIGNALS.get(what)
        if returncode:
            report.rank, report.returncode = int(task.group(1)), returncode
            return _failed(report)
    if received := SIGNAL_RECEIVED.search(text):
        report.returncode = -int(received.group(1))
    return _failed(report)


def _failed(report: Report) -> Report:
    report.failed = report.failed or report.returncode not in (0, None)
    return report

