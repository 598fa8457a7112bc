"""Benchmark: ``safelaunch diagnose`` on a 100 MB log.

    python scripts/bench_diagnose.py [--mb 100]

Writes a healthy training log of the given size with a CUDA OOM on rank 1 at the very end,
then times ``safelaunch diagnose`` on it (command wall time, interpreter start included) next
to ``grep -c`` over the same file as a floor for reading it once.  Then, for every rule, a
100 KB line made of that rule's own literal text repeated (the worst near-match for it):
the time of the rule's patterns on the raw line, and of the whole diagnosis as it reads a
log (lines cut at 4 KB).  The budget is 50 ms per rule.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OOM_END = ("[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
           "[rank0]: RuntimeError: Connection closed by peer\n")
UNKNOWN_END = ("[rank1]: Traceback (most recent call last):\n"
               '[rank1]:   File "train.py", line 88, in <module>\n'
               "[rank1]:     widget.frob(batch)\n"
               "[rank1]: widget.WidgetError: the frobnicator refused widget 7 in batch 12\n"
               "[rank0]: RuntimeError: Connection closed by peer\n")


def write_log(path: Path, megabytes: int, ending: str = OOM_END) -> None:
    line = "[rank{r}]: epoch {e} step {s} loss 0.{s:04d} lr 3.0e-04 grad_norm 0.81 tok/s 51234\n"
    target = megabytes << 20
    with open(path, "w") as fh:
        written, step = 0, 0
        while written < target:
            chunk = "".join(line.format(r=r, e=step // 1000, s=step % 10000)
                            for step in range(step, step + 5000) for r in (0, 1))
            fh.write(chunk)
            written += len(chunk)
            step += 5000
        fh.write(ending)


def timed(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - t0, out.stdout


REPEATS = 3


def adversarial() -> None:
    from safelaunch.diagnose import diagnose, load
    from safelaunch.diagnose.kb import load_rules

    worst_raw = worst_read = 0.0
    worst_rule = ""
    with tempfile.TemporaryDirectory(prefix="bench-redos-") as tmp:
        for rule in load_rules():
            for pattern in rule.every_pattern:
                seed = (pattern.keyword or re.sub(r"[^\w ]", "", pattern.regex.pattern)[:20]
                        or "x") + " "
                line = (seed * (100_000 // len(seed) + 1))[:100_000]
                raw = read = float("inf")
                log = Path(tmp) / "line.log"
                log.write_text(line + "\n")
                for _ in range(REPEATS):  # the best of a few: the cost, not the machine's noise
                    t0 = time.perf_counter()
                    for _ in pattern.regex.finditer(line):
                        pass
                    raw = min(raw, time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    diagnose(load(str(log)))
                    read = min(read, time.perf_counter() - t0)
                if raw > worst_raw:
                    worst_raw, worst_rule = raw, rule.id
                worst_read = max(worst_read, read)
    print(f"{'100 KB near-match line, worst rule pattern':<44} {worst_raw * 1000:7.1f} ms "
          f"({worst_rule})  < 50 ms")
    print(f"{'same line, whole diagnosis as read':<44} {worst_read * 1000:7.1f} ms  < 50 ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--unknown", action="store_true",
                        help="end with an exception no rule knows, not a CUDA OOM")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-diagnose-") as tmp:
        log = Path(tmp) / "train.log"
        write_log(log, args.mb, UNKNOWN_END if args.unknown else OOM_END)
        size = log.stat().st_size / (1 << 20)
        grep = min(timed(["grep", "-c", "CUDA out of memory", str(log)])[0] for _ in range(3))
        runs = [timed([sys.executable, "-m", "safelaunch", "diagnose", str(log)])
                for _ in range(3)]
    wall = sorted(r[0] for r in runs)[1]
    first = runs[0][1].splitlines()[0] if runs[0][1] else "(no output)"
    print(f"{'benchmark':<38} {'grep -c':>9} {'safelaunch':>11}  target")
    print(f"{f'diagnose a {size:.0f} MB log, wall':<38} {grep:>8.2f}s {wall:>10.2f}s  < 5 s")
    print(f"result: {first}")
    adversarial()


if __name__ == "__main__":
    main()
