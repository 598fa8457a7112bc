"""Failure diagnosis: a knowledge base of known failures (``rules.yaml``, loaded by ``kb``),
the inputs it reads (``sources``: run directories, torchrun logs, stdin) and the matching
(``engine``), which names the cause, quotes the lines that prove it and lists its echoes."""

from safelaunch.diagnose.engine import Diagnosis, diagnose, render
from safelaunch.diagnose.sources import from_run_dir, from_text, load

__all__ = ["Diagnosis", "diagnose", "from_run_dir", "from_text", "load", "render"]
