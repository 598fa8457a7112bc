"""The wordings CPython gives a module of the project that an import found in a library's
place (a script named numpy.py, a datasets.py beside train.py, a random.py), release by
release, each produced by that release (3.8.18, 3.11.7, 3.12.1, 3.13.0) with the file's path
put under /home/user/project; and lines of runs that import such names and go on."""

from __future__ import annotations

from wordings import TRACE

SHADOWS = "local-module-shadows-package"

WORDINGS = [
    # 3.13.0: its hint, a third-party module's name and the standard library's
    (TRACE + "AttributeError: module 'numpy' has no attribute 'array' (consider renaming "
     "'/home/user/project/numpy.py' if it has the same name as a third-party module you "
     "intended to import)\n", SHADOWS),
    (TRACE + "AttributeError: module 'transformers' has no attribute 'AutoModel' (consider "
     "renaming '/home/user/project/transformers.py' if it has the same name as a third-party "
     "module you intended to import)\n", SHADOWS),
    (TRACE + "AttributeError: module 'random' has no attribute 'randint' (consider renaming "
     "'/home/user/project/random.py' since it has the same name as the standard library "
     "module named 'random' and the import system gives it precedence)\n", SHADOWS),
    # 3.8.18, 3.12.1: the script named like the library reads its attribute
    (TRACE + "AttributeError: partially initialized module 'numpy' has no attribute 'array' "
     "(most likely due to a circular import)\n", SHADOWS),
    (TRACE + "AttributeError: partially initialized module 'transformers' has no attribute "
     "'AutoModel' (most likely due to a circular import)\n", SHADOWS),
    # 3.8.18 .. 3.13.0: a name imported from the project's file of the library's name
    (TRACE + "ImportError: cannot import name 'load_dataset' from 'datasets' (/home/user/"
     "project/datasets.py)\n", SHADOWS),
    (TRACE + "ImportError: cannot import name 'AutoModel' from partially initialized module "
     "'transformers' (most likely due to a circular import) (/home/user/project/"
     "transformers.py)\n", SHADOWS),
]

HEALTHY = [
    # a library's optional import reported and skipped, in a run that goes on
    "WARNING: xformers not used: cannot import name 'ops' from 'xformers' (/home/user/project/"
    "xformers.py)\nEpoch 3: 100%|##########| 500/500\nTraining complete\n",
    # the project's own module named like nothing installed, imported fine
    "Loaded config from /home/user/project/datasets.py\nEpoch 1: loss 0.41\n",
]
