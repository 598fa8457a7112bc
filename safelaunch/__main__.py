"""``python -m safelaunch`` is the ``safelaunch`` command."""

from safelaunch.cli import main

main()
