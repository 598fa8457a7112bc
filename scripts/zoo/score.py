"""Score the diagnosis on the failure zoo: the share of cases diagnosed right first, per
launcher format, and the diagnoses given to healthy runs (there must be none).

    python scripts/zoo/score.py [--verbose]

Reads ``tests/fixtures/zoo`` (recorded by ``record.py``; ``built/`` holds the logs made from
torch's and NCCL's message formats for failures that need a GPU or a fabric; ``sweep/`` the
users' mistakes with torch.distributed, Lightning, accelerate and transformers, ``ecosystem/``
those with the libraries run on top of them (peft, trl, datasets, torchmetrics, timm,
safetensors, webdataset, torchdata), each caused once on 2 CPU ranks under torchrun, paths made
neutral).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml

from safelaunch.diagnose import diagnose, load

ZOO = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "zoo"


def expectations() -> dict[str, str | None]:
    """``launcher/case`` (or ``case``) -> the rule that must come first (None: no diagnosis)."""
    table = dict(yaml.safe_load((ZOO / "expected.yaml").read_text()))
    for folder in ("built", "sweep", "ecosystem"):
        cases = yaml.safe_load((ZOO / folder / "expected.yaml").read_text())
        table.update({f"{folder}/{case}": rule for case, rule in cases.items()})
    return table


def expected_for(launcher: str, case: str, table: dict[str, str | None]) -> str | None:
    return table.get(f"{launcher}/{case}", table.get(case))


def verdict(path: Path) -> tuple[str | None, str]:
    result = diagnose(load(str(path)))
    first = result.findings[0].id if result.findings else None
    return first, result.status


def cases() -> list[tuple[str, str, Path]]:
    return [(path.parent.name, path.stem, path) for path in sorted(ZOO.glob("*/*.log"))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    table = expectations()
    rows: dict[str, list[int]] = {}
    for launcher, case, path in cases():
        want = expected_for(launcher, case, table)
        got, status = verdict(path)
        row = rows.setdefault(launcher, [0, 0, 0, 0])
        if want is None:
            row[2] += 1
            row[3] += got is not None or status != "no_failure"
        else:
            row[0] += 1
            row[1] += got == want
        if args.verbose and got != want:
            print(f"MISS {launcher}/{case}: want {want}, got {got} ({status})")
    print("| launcher format | failures diagnosed right first | healthy runs with a diagnosis |")
    print("|---|---|---|")
    for launcher, (total, right, healthy, wrong) in rows.items():
        share = f"{right}/{total} ({100 * right // max(total, 1)} %)" if total else "-"
        print(f"| {launcher} | {share} | {wrong}/{healthy} |")


if __name__ == "__main__":
    main()
