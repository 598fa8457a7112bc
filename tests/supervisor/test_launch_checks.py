"""Values torchrun only looks at once running, refused before anything starts
(``supervisor.launch_checks``): torchrun's own parser makes the ``LaunchConfig``, as in a run
(``engine.resolve_launch_config``).  ``LOCAL`` is what ``--standalone`` means, which
torchrun applies before its parser's config."""

from __future__ import annotations

import pytest

from safelaunch.errors import UsageError
from safelaunch.supervisor.engine import resolve_launch_config
from safelaunch.supervisor.launch_checks import check_nproc

LOCAL = ("--rdzv-backend", "c10d", "--rdzv-endpoint", "localhost:0")


def _check(*argv: str) -> None:
    resolve_launch_config([*argv, "train.py"])


@pytest.mark.parametrize("argv", [
    (*LOCAL, "--nproc-per-node", "2"),
    ("--nnodes", "2", "--rdzv-backend", "c10d", "--rdzv-endpoint", "10.0.0.1:29400"),
    ("--master-addr", "127.0.0.1", "--master-port", "29500"),
    ("--rdzv-conf", "join_timeout=600,read_timeout=60", *LOCAL),
    ("--local-addr", "127.0.0.1", *LOCAL),
    ("--signals-to-handle", "SIGTERM,SIGINT", *LOCAL),
])
def test_what_torch_accepts_passes(argv):
    _check(*argv)


@pytest.mark.parametrize("argv,says", [
    (("--nnodes", "2", "--rdzv-backend", "c10d", "--rdzv-endpoint", "127.0.0.1:99999"),
     "--rdzv-endpoint"),
    (("--rdzv-conf", "join_timeout=-5", *LOCAL), "join_timeout='-5': must be a whole"),
    (("--rdzv-conf", "keep_alive_interval=soon", *LOCAL), "waits forever"),
    (("--signals-to-handle", "SIGTERM,SIGKILL", *LOCAL), "SIGKILL cannot be caught"),
    (("--local-addr", "x y", *LOCAL), "is not a host name or an IP address"),
])
def test_what_torch_fails_on_later_is_one_line_now(argv, says):
    with pytest.raises(UsageError) as err:
        _check(*argv)
    assert says in err.value.message and "\n" not in err.value.message


def test_nproc_by_torchs_rule():
    assert check_nproc("3") == 3
    with pytest.raises(UsageError, match="--nproc-per-node gpu"):
        check_nproc("gpu")  # no GPU here: torch refuses the device word
