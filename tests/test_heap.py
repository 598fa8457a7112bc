"""The launcher's heavy imports run with the cycle collector off and are frozen after."""

from __future__ import annotations

import gc

import pytest

from safelaunch.heap import imports_frozen


@pytest.fixture(autouse=True)
def _restore_collector():
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    gc.enable() if enabled else gc.disable()


def test_no_collection_inside_and_what_was_imported_is_frozen_after():
    gc.unfreeze()
    seen = []
    with imports_frozen():
        seen.append(gc.isenabled())
        kept = [[] for _ in range(1000)]  # long-lived objects, as a module's would be
    assert seen == [False]
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(kept)


def test_a_collector_that_was_off_stays_off_and_an_error_still_freezes():
    gc.unfreeze()
    gc.disable()
    with pytest.raises(ImportError), imports_frozen():
        raise ImportError("no module named x")
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 0
