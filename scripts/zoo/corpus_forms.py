"""Score the diagnosis on the corpus' ``dev`` logs in the other forms a log reaches us in:
the same text behind a logger's time stamp, a pod's or a host's prefix, a rank's tag, quoted
in markdown, with Windows line ends or colours, cut by a terminal at its width, filled at
words by a mail or an editor, interleaved with another rank's lines.  A form that loses
logs the plain text gets right is a reading the diagnosis lacks, whatever the cause.

    python scripts/zoo/corpus_forms.py [FORM ...]

Only ``dev``: the held-out split is scored as written, by ``corpus_score.py``.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable

from corpus_score import Case, cases

from safelaunch.diagnose import diagnose, from_text


def _each_line(prefix: Callable[[int], str]) -> Callable[[str], str]:
    return lambda text: "".join(f"{prefix(n)}{line}\n" for n, line in enumerate(text.splitlines()))


def _cut(width: int) -> Callable[[str], str]:
    def cut(text: str) -> str:
        lines = []
        for line in text.splitlines():
            while len(line) > width:
                lines.append(line[:width])
                line = line[width:]
            lines.append(line)
        return "\n".join(lines) + "\n"
    return cut


def _filled(width: int) -> Callable[[str], str]:
    """Each long line filled at words to ``width``, as a mail or an editor fills a paragraph."""
    def fill(text: str) -> str:
        return "".join((textwrap.fill(line, width, break_on_hyphens=False) if len(line) > width
                        else line) + "\n"
                       for line in text.splitlines())
    return fill


FORMS: dict[str, Callable[[str], str]] = {
    "logging-time": _each_line(lambda n: f"2024-05-01 12:00:{n % 60:02d},123 "),
    "bracket-time": _each_line(lambda n: f"[2024-05-01 12:00:{n % 60:02d}] "),
    "journald": _each_line(lambda n: f"May 01 12:00:{n % 60:02d} gpu-node-3 python[4242]: "),
    "compose": _each_line(lambda n: "trainer-1  | "),
    "rank-tag": _each_line(lambda n: "[rank3]: "),
    "markdown-quote": _each_line(lambda n: "> "),
    "indented": _each_line(lambda n: "    "),
    "crlf": lambda text: text.replace("\n", "\r\n"),
    "colours": lambda text: "".join(f"\x1b[33m{line}\x1b[0m\n" for line in text.splitlines()),
    "interleaved": lambda text: "".join(f"{line}\n[rank7]: epoch 1 step {n} loss 0.5123\n"
                                        for n, line in enumerate(text.splitlines())),
    "cut-80": _cut(80),
    "cut-100": _cut(100),
    "cut-133": _cut(133),
    "filled-72": _filled(72),
    "filled-100": _filled(100),
}


def right(case: Case, text: str) -> bool:
    result = diagnose(from_text(text, case.path.name))
    if case.cause is None:
        return result.status == "no_failure"
    return bool(result.findings) and result.findings[0].id == case.cause


def main() -> None:
    names = sys.argv[1:] or list(FORMS)
    unknown = [name for name in names if name not in FORMS]
    if unknown:
        sys.exit(f"unknown form: {', '.join(unknown)} (known: {', '.join(FORMS)})")
    dev = [case for case in cases() if case.split == "dev"]
    texts = {case.id: case.path.read_text("utf-8") for case in dev}
    plain = {case.id for case in dev if right(case, texts[case.id])}
    print(f"| form | right | lost against the plain text |\n|---|---|---|\n"
          f"| plain | {len(plain)}/{len(dev)} | |")
    for name in names:
        form = FORMS[name]
        good = {case.id for case in dev if right(case, form(texts[case.id]))}
        lost = sorted(plain - good)
        print(f"| {name} | {len(good)}/{len(dev)} | {len(lost)}"
              f"{': ' + ', '.join(lost[:8]) if lost else ''} |")


if __name__ == "__main__":
    main()
