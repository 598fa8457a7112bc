"""safelaunch: a supervised, torchrun-compatible launcher for PyTorch distributed training.

Importing this package is cheap (no torch): it is imported by the reaper process and, later,
inside every rank.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
