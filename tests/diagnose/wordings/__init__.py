"""The real wordings of the failures the rules name, one module a domain, release by release,
each with its source: ``WORDINGS`` (a log text and the rule it is) and ``HEALTHY`` (lines of
working runs that look like them).  Read by ``tests/diagnose/test_wordings.py``."""
