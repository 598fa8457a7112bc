"""Keep safelaunch's wrapper frames out of the user's tracebacks.

The runtime wraps ``init_process_group`` and the collectives in small Python functions, and
Python has no way for a frame to leave the traceback it propagates through.  So the frames
are removed where a traceback is shown: before ``sys.excepthook`` / ``threading.excepthook``
print it (torch's own ``[rankN]:`` hook chains to the hook installed here), and before
torch's ``@record`` writes it into the error file.  Anywhere else (a user's own
``logging.exception``) the frame stays, and its source line says what it is.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from types import CodeType, ModuleType, TracebackType
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_OWN_CODE: set[CodeType] = set()
_MAX_FRAMES = 10_000  # a traceback longer than this is walked no further
_MAX_CHAIN = 100  # __cause__ / __context__ links followed at most


def own(fn: F) -> F:
    """Mark ``fn``'s frames as safelaunch's, to be hidden from tracebacks."""
    code = getattr(fn, "__code__", None)
    if isinstance(code, CodeType):
        _OWN_CODE.add(code)
    return fn


def _trimmed(tb: TracebackType | None) -> TracebackType | None:
    while tb is not None and tb.tb_frame.f_code in _OWN_CODE:
        tb = tb.tb_next
    head = tb
    for _ in range(_MAX_FRAMES):
        if tb is None:
            break
        following = tb.tb_next
        while following is not None and following.tb_frame.f_code in _OWN_CODE:
            following = following.tb_next
        tb.tb_next = following
        tb = following
    return head


def trim(exc: BaseException | None) -> None:
    """Unlink safelaunch's frames from ``exc``'s traceback and those of its chained causes."""
    seen: set[int] = set()
    pending = [exc]
    while pending and len(seen) < _MAX_CHAIN:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        with contextlib.suppress(TypeError, ValueError, AttributeError):
            current.__traceback__ = _trimmed(current.__traceback__)
        pending += [current.__cause__, current.__context__]


def _excepthook(previous: Callable[..., Any]) -> Callable[..., Any]:
    def excepthook(kind: type[BaseException], value: BaseException,
                   tb: TracebackType | None) -> Any:
        trim(value)
        return previous(kind, value, value.__traceback__ if value is not None else tb)

    return excepthook


def _thread_excepthook(previous: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def excepthook(args: Any) -> Any:
        trim(args.exc_value)
        return previous(args)

    return excepthook


def _patch_error_handler(module: ModuleType) -> None:
    handler = module.ErrorHandler
    original = handler.record_exception

    def record_exception(self: Any, e: BaseException) -> None:
        trim(e)
        original(self, e)

    handler.record_exception = record_exception


def install(when_imported: Callable[[str, Callable[[ModuleType], None]], None]) -> None:
    """Hide the marked frames from the exception hooks and from torch's error files."""
    sys.excepthook = _excepthook(sys.excepthook)
    threading.excepthook = _thread_excepthook(threading.excepthook)
    when_imported("torch.distributed.elastic.multiprocessing.errors.error_handler",
                  _patch_error_handler)
