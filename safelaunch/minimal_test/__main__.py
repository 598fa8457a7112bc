"""``python -m safelaunch.minimal_test``: the rank side of the test."""

from safelaunch.minimal_test.rank import main

main()
