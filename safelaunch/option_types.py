"""The types of the command-line options, as click converts them and ``RunConfig`` checks them.

Each type refuses a value by its own rule (never a boolean where a number is meant, never
nan or inf, an upper bound on every time and count), so the command line, the config file and
a ``RunConfig`` built in code accept exactly the same values.
"""

from __future__ import annotations

import math
from typing import Any

import click

NPROC_WORDS = ("auto", "gpu", "cpu", "xpu")

MAX_SECONDS = 1e9
"""Longest time any option takes (about 31 years): below every timer's own limit."""
MAX_COUNT = 1_000_000
"""Largest count (restarts, lines) any option takes."""
MAX_LOCAL_PROCS = 4096
MAX_RANK = 65535
"""Largest rank (or node rank) an option may name."""


class Seconds(click.FloatRange):
    """A finite number of seconds in ``[min, max]``: never nan, inf or a boolean."""

    name = "seconds"

    def __init__(self, min: float = 0.0, max: float = MAX_SECONDS) -> None:
        super().__init__(min=min, max=max)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, bool):
            self.fail(f"must be a number of seconds, got {value!r}", param, ctx)
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"must be a finite number of seconds, got {value!r}", param, ctx)
        return seconds


class Count(click.IntRange):
    """A whole number in ``[min, max]`` (never a boolean)."""

    def __init__(self, min: int = 0, max: int = MAX_COUNT) -> None:
        super().__init__(min=min, max=max)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            self.fail(f"must be a whole number, got {shown(value)}", param, ctx)
        return super().convert(value, param, ctx)


class NprocType(click.ParamType):  # type: ignore[type-arg]
    """A positive process count, or a device word torchrun takes (``auto``, ``gpu``, ``cpu``,
    ``xpu``, or the name of a PrivateUse1 backend); torch itself decides whether the device
    exists."""

    name = "N|auto|gpu|cpu|xpu"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value).strip()
        if not isinstance(value, bool):
            if text in NPROC_WORDS or (text.isidentifier() and text.isascii() and len(text) < 64
                                       and not _is_number(text)):
                return text
            if text.isdigit() and 1 <= int(text) <= MAX_LOCAL_PROCS:
                return str(int(text))
        self.fail(f"must be an integer from 1 to {MAX_LOCAL_PROCS} or one of auto, gpu, cpu, "
                  f"xpu, got {shown(value)}", param, ctx)


class NnodesType(click.ParamType):  # type: ignore[type-arg]
    """``N`` or ``MIN:MAX`` nodes, as torchrun takes them."""

    name = "N|MIN:MAX"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value).strip()
        parts = text.split(":")
        if len(parts) > 2 or not all(p.isdigit() and 1 <= int(p) <= MAX_RANK + 1 for p in parts):
            self.fail(f"must be an integer from 1 to {MAX_RANK + 1} or MIN:MAX, got "
                      f"{shown(value)}", param, ctx)
        if len(parts) == 2 and int(parts[0]) > int(parts[1]):
            self.fail(f"MIN must not exceed MAX, got {value!r}", param, ctx)
        return text


class RankSetType(click.ParamType):  # type: ignore[type-arg]
    """``all`` or a list of global ranks such as ``0,3`` or ``0-3,8``; ``None`` means all."""

    name = "all|RANKS"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> frozenset[int] | None:
        if value is None or isinstance(value, frozenset):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, list):
            value = ",".join(str(v) for v in value)
        text = str(value).strip().lower()
        if text == "all":
            return None
        ranks: set[int] = set()
        for item in text.split(","):
            item = item.strip()
            lo, sep, hi = item.partition("-")
            if not lo.isdigit() or (sep and not hi.isdigit()):
                self.fail(f"must be 'all' or ranks like 0,3 or 0-3, got {shown(value)}",
                          param, ctx)
            first, last = int(lo), int(hi if sep else lo)
            if max(first, last) > MAX_RANK:
                self.fail(f"ranks go up to {MAX_RANK}, got {shown(value)}", param, ctx)
            ranks.update(range(first, last + 1))
        if not ranks:
            self.fail(f"names no rank: {value!r}", param, ctx)
        return frozenset(ranks)


class HangTimeoutType(click.ParamType):  # type: ignore[type-arg]
    """Seconds, ``auto`` (learned from the step interval) or ``off``."""

    name = "SECONDS|auto|off"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float | str:
        text = str(value).strip().lower()
        if text in ("auto", "off"):
            return text
        try:
            seconds = float(text)
        except ValueError:
            seconds = -1.0
        if isinstance(value, bool) or not 0 < seconds <= MAX_SECONDS:
            self.fail(f"must be a number of seconds > 0 (at most {MAX_SECONDS:g}), auto or off, "
                      f"got {shown(value)}", param, ctx)
        return seconds


def _is_number(text: str) -> bool:
    """``nan``, ``inf``, ``Infinity``: words that are numbers, never a device's name."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def shown(value: Any) -> str:
    """A value for an error message: its repr, cut to a readable length."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
