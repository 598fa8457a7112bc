"""Add one log to the real-world corpus (``tests/corpus``), its split decided by the fixed rule.

    python scripts/zoo/corpus_add.py ID SOURCE PROJECT CAUSE SUMMARY < excerpt.log

CAUSE is a rule id of ``safelaunch/diagnose/rules.yaml``, or ``null`` for a healthy run.  The
split is never chosen by hand: sha256 of the source address, even is ``heldout``, odd is
``dev``.  A source already in the corpus is refused (one thread, one split), and nothing is
diagnosed here, so adding a held-out log never shows its score.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import yaml

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus"
INDEX = CORPUS / "index.yaml"


def split_of(source: str) -> str:
    return "heldout" if int(hashlib.sha256(source.encode()).hexdigest(), 16) % 2 == 0 else "dev"


def main() -> None:
    case_id, source, project, cause, summary = sys.argv[1:6]
    entries = yaml.safe_load(INDEX.read_text("utf-8"))
    if any(e["id"] == case_id for e in entries):
        sys.exit(f"{case_id}: id already in the corpus")
    if any(e["source"] == source for e in entries):
        sys.exit(f"{source}: thread already in the corpus")
    text = sys.stdin.read()
    if not text.strip():
        sys.exit("empty excerpt")
    (CORPUS / f"{case_id}.log").write_text(text if text.endswith("\n") else text + "\n", "utf-8")
    entry = (f"- {{id: {case_id}, source: {json.dumps(source)}, project: {project}, "
             f"cause: {cause}, summary: {json.dumps(summary)}, split: {split_of(source)}}}\n")
    with INDEX.open("a", encoding="utf-8") as index:
        index.write(entry)
    print(split_of(source))


if __name__ == "__main__":
    main()
