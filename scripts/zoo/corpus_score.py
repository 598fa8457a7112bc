"""Score the diagnosis on the real-world corpus (``tests/corpus``), each split on its own:
the cause named first, "no known failure" said of a failing log, healthy logs kept quiet.

    python scripts/zoo/corpus_score.py [--verbose] [--split dev|heldout]

Rules are tuned on ``dev`` only; ``heldout`` measures how the diagnosis holds on logs it was
not tuned on.  ``--verbose`` lists the misses of the splits shown.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from safelaunch.diagnose import diagnose, from_text

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"
SPLITS = ("dev", "heldout")


@dataclass(frozen=True)
class Case:
    id: str
    source: str
    project: str
    cause: str | None
    split: str

    @property
    def path(self) -> Path:
        return CORPUS / f"{self.id}.log"


@dataclass
class Score:
    failures: int = 0
    right_first: int = 0
    no_known_failure: int = 0
    healthy: int = 0
    healthy_quiet: int = 0
    projects: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    misses: list[str] = field(default_factory=list)


def cases() -> list[Case]:
    entries = yaml.safe_load((CORPUS / "index.yaml").read_text("utf-8"))
    return [Case(e["id"], e["source"], e["project"], e["cause"], e["split"]) for e in entries]


def verdict(case: Case) -> tuple[str | None, str]:
    result = diagnose(from_text(case.path.read_text("utf-8"), case.path.name))
    return (result.findings[0].id if result.findings else None), result.status


def score(split: str) -> Score:
    result = Score()
    for case in cases():
        if case.split != split:
            continue
        first, status = verdict(case)
        if case.cause is None:
            result.healthy += 1
            quiet = status == "no_failure"
            result.healthy_quiet += quiet
            if not quiet:
                result.misses.append(f"{case.id}: healthy, got {first} ({status})")
            continue
        result.failures += 1
        right = first == case.cause
        result.right_first += right
        result.no_known_failure += status == "no_failure"
        result.projects[case.project][0] += 1
        result.projects[case.project][1] += right
        if not right:
            result.misses.append(f"{case.id}: want {case.cause}, got {first} ({status})")
    return result


def table(scores: dict[str, Score]) -> str:
    lines = ["| split | right cause first | 'no known failure' on a failing log "
             "| healthy logs quiet |", "|---|---|---|---|"]
    for split, s in scores.items():
        share = 100 * s.right_first // max(s.failures, 1)
        lines.append(f"| {split} | {s.right_first}/{s.failures} ({share} %) | "
                     f"{s.no_known_failure}/{s.failures} | {s.healthy_quiet}/{s.healthy} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--split", choices=SPLITS)
    args = parser.parse_args()
    splits = [args.split] if args.split else list(SPLITS)
    scores = {split: score(split) for split in splits}
    print(table(scores))
    for split, s in scores.items():
        print(f"\n{split}, right first by project: " + ", ".join(
            f"{project} {right}/{total}" for project, (total, right) in sorted(s.projects.items())))
        if args.verbose:
            print("\n".join(f"  MISS {miss}" for miss in s.misses))


if __name__ == "__main__":
    main()
