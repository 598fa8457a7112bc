"""The real wordings of the failures the rules name, one module a domain, release by release,
each with its source: ``WORDINGS`` (a log text and the rule it is) and ``HEALTHY`` (lines of
working runs that look like them).  Read by ``tests/diagnose/test_wordings.py``."""

TRACE = "Traceback (most recent call last):\n  File \"train.py\", line 42, in <module>\n"


def raised(frame: str, line: str, trace: str = TRACE) -> str:
    """A traceback whose last frame ran ``frame`` and raised ``line``."""
    return trace + "    " + frame + "\n" + line + "\n"
