"""The facts a hang analysis finds, each with a kind the diagnosis reads (never its sentence).

``FindingKind`` is the one list of kinds; a new kind is one line here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class FindingKind(str, Enum):
    """What a finding says.  A ``str``: it compares, prints and serializes as its value.

    ``no_progress`` a rank passed its limit; ``process_state`` a rank is stopped (T/t), in the
    kernel (D) or a zombie (Z); ``exited_early`` ranks exited while others needed them;
    ``stack_elsewhere`` ranks' stacks are outside torch.distributed while others wait there;
    ``ddp_forwards_ahead`` ranks ran an extra DDP forward and wait in its backward;
    ``outside_collective`` ranks are not in a collective while others wait in one;
    ``never_initialized`` ranks never reached init_process_group; ``collective_mismatch``
    ranks wait in different collectives; ``ddp_backwards_behind`` ranks never reached the
    backward pass whose gradient all_reduce the others wait in; ``ddp_forwards_behind`` ranks
    ran fewer DDP forwards; ``work_differs`` the ranks' step/forward/collective counts differ
    (uneven batches); ``other_node`` another node's evidence names the culprits.

    From torch's flight recorder: ``collective_not_entered`` ranks never entered the
    collective (sequence number, op, shapes) that the others of its process group wait in;
    ``collective_desync`` ranks issued a different op or shapes at the same sequence number;
    ``collective_waiting`` where the ranks wait, when the recorder alone names nobody;
    ``flight_recorder_missing`` ranks without a dump (stopped, dead, no recorder), and why.

    From the native stacks: ``gpu_wait`` a held-up rank waits for its own GPU in a CUDA call
    (a kernel that never ends, a stopped GPU, an NCCL collective whose peers never came).

    While the job runs: ``straggler`` a rank computes consistently slower than the others,
    which wait for it in every step (``stragglers``).
    """

    NO_PROGRESS = "no_progress"
    PROCESS_STATE = "process_state"
    EXITED_EARLY = "exited_early"
    STACK_ELSEWHERE = "stack_elsewhere"
    DDP_FORWARDS_AHEAD = "ddp_forwards_ahead"
    OUTSIDE_COLLECTIVE = "outside_collective"
    NEVER_INITIALIZED = "never_initialized"
    COLLECTIVE_MISMATCH = "collective_mismatch"
    DDP_BACKWARDS_BEHIND = "ddp_backwards_behind"
    DDP_FORWARDS_BEHIND = "ddp_forwards_behind"
    WORK_DIFFERS = "work_differs"
    OTHER_NODE = "other_node"
    COLLECTIVE_NOT_ENTERED = "collective_not_entered"
    COLLECTIVE_DESYNC = "collective_desync"
    COLLECTIVE_WAITING = "collective_waiting"
    FLIGHT_RECORDER_MISSING = "flight_recorder_missing"
    STRAGGLER = "straggler"
    GPU_WAIT = "gpu_wait"

    __hash__ = str.__hash__  # Enum hashes by name: a plain "no_progress" must find its member

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


OBSERVATIONS = frozenset({FindingKind.NO_PROGRESS, FindingKind.WORK_DIFFERS,
                          FindingKind.OTHER_NODE, FindingKind.COLLECTIVE_WAITING,
                          FindingKind.FLIGHT_RECORDER_MISSING, FindingKind.GPU_WAIT})
"""Kinds that say what was seen, not who holds the job up."""


@dataclass(frozen=True)
class HangFinding:
    """One fact of a hang analysis: its ``kind`` (a ``FindingKind`` value), the ranks it holds
    responsible (empty for a plain observation) and the sentence shown to the user."""

    kind: str
    ranks: list[int]
    text: str
