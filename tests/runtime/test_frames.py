"""safelaunch's wrapper frames kept out of the user's tracebacks (``runtime.frames``), on
real exceptions raised through a wrapper marked as safelaunch's."""

from __future__ import annotations

import traceback

from safelaunch.runtime import frames


@frames.own
def _wrapper(fn, *args):
    return fn(*args)


def _user_code(value):
    raise ValueError(f"bad {value}")


def _names(exc: BaseException) -> list[str]:
    return [f.name for f in traceback.extract_tb(exc.__traceback__)]


def _raised(fn, *args) -> BaseException:
    try:
        fn(*args)
    except BaseException as exc:
        return exc
    raise AssertionError("nothing raised")


def test_the_wrapper_frame_leaves_the_traceback_and_the_users_stay():
    exc = _raised(_wrapper, _user_code, 3)
    assert "_wrapper" in _names(exc)
    frames.trim(exc)
    assert _names(exc) == ["_raised", "_user_code"]


def test_chained_causes_are_trimmed_too_and_cycles_end():
    def outer():
        try:
            _wrapper(_user_code, 1)
        except ValueError as inner:
            raise RuntimeError("wrapped") from inner

    exc = _raised(_wrapper, outer)
    assert exc.__cause__ is not None
    exc.__cause__.__context__ = exc  # a cycle: walked once
    frames.trim(exc)
    assert "_wrapper" not in _names(exc) and "_wrapper" not in _names(exc.__cause__)


def test_the_excepthook_trims_before_the_previous_hook_prints():
    seen = []
    hook = frames._excepthook(lambda kind, value, tb: seen.append(_names(value)))
    exc = _raised(_wrapper, _user_code, 2)
    hook(type(exc), exc, exc.__traceback__)
    assert seen == [["_raised", "_user_code"]]


def test_an_unmarked_function_is_left_alone():
    def plain(fn, *args):
        return fn(*args)

    exc = _raised(plain, _user_code, 4)
    frames.trim(exc)
    assert _names(exc) == ["_raised", "plain", "_user_code"]
