"""The launcher's heap: torch's and safelaunch's modules, imported once and never garbage.

Importing torch leaves about a million objects that live as long as the process.  Python's
cycle collector walks every one of them at each full collection, and the launcher's own
imports after torch's trigger one more of those (90 ms on a 2-core machine, while the ranks
wait to be started).  So ``safelaunch run`` imports its engine with the collector off, then
freezes what it imported (``gc.freeze``: moved to a generation the collector never walks)
and turns the collector back on: later collections, during the whole run, walk only what
the run itself allocates.  Nothing frozen is lost: a module lives until the process exits.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def imports_frozen() -> Iterator[None]:
    """Heavy imports inside: no collection during them, frozen after them."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
