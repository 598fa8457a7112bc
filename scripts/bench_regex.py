"""Benchmark: every regular expression in safelaunch on raw 100 KB adversarial lines.

    python scripts/bench_regex.py [--kb 100] [--top 15]

Collects every pattern: the compiled ones in module globals, the literal (and f-string)
patterns passed to ``re.*`` anywhere in the package's source, and every ``rules.yaml``
pattern.  Each is run with ``finditer`` (the most work any caller asks of it: every start
position, every match) over lines built from the pattern's own literal text and from runs of
one character class (``'a' * N``, ``'ibv_' + 'a' * N``, ``'://' + 'a' * N``,
``('eyJ-') * N``, ...), uncut: diagnose cuts lines at 4 KB, the log collector does not.
Prints the slowest patterns and the worst line for each.  The budget is 50 ms per pattern.

``tests/diagnose/test_regex_linear.py`` imports the collection and the line builder from here.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import pkgutil
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import safelaunch

try:  # Python 3.11+
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse  # type: ignore[no-redef]

BUDGET_S = 0.050
FILLERS = ("a", "A", "0", " ", ":", "@", "/", "-", ".", "_", "=", "(", ")", "[", "]", '"',
           ",", "\t", "é")
EXTRA_LITERALS = ("://", "eyJ", "ibv_", "a://b:", "eyJ-", "-eyJ", ".eyJaaaaaaaa", "[rank0]: ")
SKIPPED_MODULES = ("__main__", "boot")
"""Modules that run something when imported."""


@dataclass(frozen=True)
class Found:
    regex: re.Pattern[str] | re.Pattern[bytes]
    where: str


def _module_patterns() -> Iterator[Found]:
    for info in pkgutil.walk_packages(safelaunch.__path__, "safelaunch."):
        if any(part in SKIPPED_MODULES for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            values = value if isinstance(value, (list, tuple)) else [value]
            for item in values:
                if isinstance(item, re.Pattern):
                    yield Found(item, f"{info.name}.{name}")


def _flags(node: ast.expr) -> int:
    """re.MULTILINE | re.DOTALL ... as written in the call; 0 for anything else."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return int(getattr(re, node.attr, 0))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flags(node.left) | _flags(node.right)
    return 0


def _literal(node: ast.expr) -> str | bytes | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
        return node.value
    if isinstance(node, ast.JoinedStr):  # an f-string: a plausible value for each field
        parts = [p.value if isinstance(p, ast.Constant) else "1234" for p in node.values]
        return "".join(str(p) for p in parts)
    return None


def _source_patterns() -> Iterator[Found]:
    root = Path(safelaunch.__file__).parent
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        # Module-level patterns are collected compiled, from the module's globals.
        inner = [stmt for stmt in tree.body if not isinstance(stmt, (ast.Assign, ast.AnnAssign))]
        for node in (n for stmt in inner for n in ast.walk(stmt)):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                    and node.args):
                continue
            text = _literal(node.args[0])
            if text is None:
                continue
            flags = 0
            for arg in node.args[1:] + [k.value for k in node.keywords if k.arg == "flags"]:
                flags |= _flags(arg)
            where = f"{path.relative_to(root.parent)}:{node.lineno}"
            yield Found(re.compile(text, flags), where)


def _rule_patterns() -> Iterator[Found]:
    from safelaunch.diagnose.kb import load_rules

    for rule in load_rules():
        for pattern in rule.every_pattern:
            yield Found(pattern.regex, f"rules.yaml {rule.id}")


def all_patterns() -> list[Found]:
    """Every regular expression of the package, once each."""
    seen: dict[tuple[str | bytes, int], Found] = {}
    for found in [*_module_patterns(), *_source_patterns(), *_rule_patterns()]:
        seen.setdefault((found.regex.pattern, found.regex.flags), found)
    return list(seen.values())


def literals(regex: re.Pattern[str] | re.Pattern[bytes]) -> list[str]:
    """The runs of plain characters in a pattern (and single literal characters)."""
    runs: list[str] = []

    def walk(items: object) -> None:
        run = ""
        for op, av in items:  # type: ignore[attr-defined]
            name = str(op)
            if name == "LITERAL":
                run += chr(av)
                continue
            if run:
                runs.append(run)
                run = ""
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                walk(av[2])
            elif name == "SUBPATTERN":
                walk(av[-1])
            elif name in ("ASSERT", "ASSERT_NOT"):
                walk(av[1])
            elif name == "BRANCH":
                for branch in av[1]:
                    walk(branch)
            elif name == "ATOMIC_GROUP":
                walk(av)
        if run:
            runs.append(run)

    pattern = regex.pattern if isinstance(regex.pattern, str) else regex.pattern.decode("latin-1")
    walk(sre_parse.parse(pattern, regex.flags & ~re.ASCII if isinstance(regex.pattern, str)
                         else 0))
    return sorted(set(runs), key=lambda r: (-len(r), r))


def adversarial_lines(regex: re.Pattern[str] | re.Pattern[bytes], size: int,
                      thorough: bool = True) -> Iterator[tuple[str, str]]:
    """(label, line) pairs of about ``size`` characters, no newline in them: runs of one
    character, and the pattern's literal texts repeated, or followed or preceded by such a
    run.  ``thorough=False``: fewer characters and literals (for the tests)."""
    fillers = FILLERS if thorough else FILLERS[:8]
    for f in FILLERS:
        yield f"{f!r}*N", f * size
    lits = [lit for lit in literals(regex) if "\n" not in lit][:8 if thorough else 3]
    lits += [lit for lit in EXTRA_LITERALS[:None if thorough else 4] if lit not in lits]
    for lit in lits:
        yield f"{lit!r}*N", lit * (size // len(lit))
        for f in fillers:
            yield f"{lit!r}+{f!r}*N", lit + f * size
            yield f"{f!r}*N+{lit!r}", f * size + lit
            yield f"({lit!r}+{f!r})*N", (lit + f) * (size // (len(lit) + 1))


def run_once(regex: re.Pattern[str] | re.Pattern[bytes], line: str) -> float:
    subject: str | bytes = line if isinstance(regex.pattern, str) else line.encode("utf-8")
    t0 = time.perf_counter()
    for _ in regex.finditer(subject):  # type: ignore[arg-type]
        pass
    return time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=int, default=100, help="line length in KB (default 100)")
    parser.add_argument("--top", type=int, default=15, help="how many of the slowest to show")
    args = parser.parse_args()
    size = args.kb * 1000
    results: list[tuple[float, str, str, str]] = []
    patterns = all_patterns()
    t_all = time.perf_counter()
    for found in patterns:
        worst, label = 0.0, ""
        for name, line in adversarial_lines(found.regex, size):
            seconds = run_once(found.regex, line)
            if seconds > worst:
                worst, label = seconds, name
        results.append((worst, found.where, str(found.regex.pattern)[:70], label))
    results.sort(reverse=True)
    print(f"{len(patterns)} patterns, {args.kb} KB lines, "
          f"{time.perf_counter() - t_all:.1f} s in all; the slowest:")
    for seconds, where, pattern, label in results[:args.top]:
        print(f"{seconds * 1000:9.1f} ms  {where:42} {label:28} {pattern}")
    over = [r for r in results if r[0] > BUDGET_S]
    print(f"over the {BUDGET_S * 1000:.0f} ms budget: {len(over)}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
