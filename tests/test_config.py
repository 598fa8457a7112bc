"""Option types, config file loading and the precedence CLI > env > file > defaults."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from safelaunch.cli import run_command
from safelaunch.config import RunConfig, resolve_grace_period
from safelaunch.errors import ConfigError, OptionValueError, UsageError
from safelaunch.option_types import NnodesType, NprocType, RankSetType


def _params(args: list[str]) -> dict[str, object]:
    ctx = run_command.make_context("run", [*args, "train.py"])
    return dict(ctx.params)


def test_nproc_type():
    conv = NprocType().convert
    assert conv("4", None, None) == "4" and conv("auto", None, None) == "auto"
    # device words go to torch as written: it knows xpu and PrivateUse1 backends (and
    # refuses AUTO, as torchrun does)
    assert conv("xpu", None, None) == "xpu" and conv("AUTO", None, None) == "AUTO"
    for bad in ("0", "-2", "2.5", "a b", "", True):
        with pytest.raises(click.BadParameter):
            conv(bad, None, None)


def test_nnodes_and_rank_set_types():
    assert NnodesType().convert("1:4", None, None) == "1:4"
    with pytest.raises(click.BadParameter):
        NnodesType().convert("0", None, None)
    ranks = RankSetType().convert
    assert ranks("all", None, None) is None
    assert ranks("0,3-5", None, None) == frozenset({0, 3, 4, 5})
    assert ranks([1, 2], None, None) == frozenset({1, 2})
    with pytest.raises(click.BadParameter):
        ranks("1,a", None, None)


def test_both_spellings_and_torchrun_env(monkeypatch):
    assert _params(["--nproc_per_node", "3"])["nproc"] == "3"
    assert _params(["--nproc-per-node=2"])["nproc"] == "2"
    assert _params(["--master_port", "1234"])["master_port"] == 1234
    monkeypatch.setenv("PET_NNODES", "1:2")
    assert _params([])["nnodes"] == "1:2"


def test_precedence_cli_env_file_default(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _params([])["grace_period"] is None  # resolved with --shutdown-timeout below
    (tmp_path / "safelaunch.yaml").write_text("grace-period: 3\nnproc: 2\nconsole_ranks: [0]\n")
    params = _params([])
    assert params["grace_period"] == 3.0 and params["nproc"] == "2"
    assert params["console_ranks"] == frozenset({0})
    monkeypatch.setenv("SAFELAUNCH_GRACE_PERIOD", "4")
    assert _params([])["grace_period"] == 4.0
    assert _params(["--grace-period", "5"])["grace_period"] == 5.0
    assert _params(["--grace-period", "5"])["nproc"] == "2"


def test_grace_period_falls_back_to_torchruns_shutdown_timeout():
    assert resolve_grace_period(None, None, {}) == 10.0
    assert resolve_grace_period(None, None, {"TORCH_ELASTIC_SHUTDOWN_TIMEOUT": "7"}) == 7.0
    assert resolve_grace_period(None, 5, {"TORCH_ELASTIC_SHUTDOWN_TIMEOUT": "7"}) == 5.0
    assert resolve_grace_period(2.0, 5, {"TORCH_ELASTIC_SHUTDOWN_TIMEOUT": "7"}) == 2.0
    for bad in ("x", "-1", "nan", "inf"):
        with pytest.raises(UsageError, match="TORCH_ELASTIC_SHUTDOWN_TIMEOUT"):
            resolve_grace_period(None, None, {"TORCH_ELASTIC_SHUTDOWN_TIMEOUT": bad})


def test_explicit_config_file(tmp_path: Path):
    cfg = tmp_path / "other.yaml"
    cfg.write_text("max_restarts: 2\n")
    assert _params(["--config", str(cfg)])["max_restarts"] == 2


def test_config_errors_name_key_and_line(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "safelaunch.yaml"
    cfg.write_text("# comment\nnproc: 2\nmaster-port: 0\n")
    with pytest.raises(ConfigError, match=r"line 3: key 'master-port'"):
        _params([])
    cfg.write_text("- a\n- b\n")
    with pytest.raises(ConfigError, match="mapping"):
        _params([])
    cfg.write_text("")
    assert _params([])["nproc"] == "1"


@pytest.mark.parametrize(("line", "expected"), [
    ("minimal-test: 0", "true or false"),
    ("preflight: 1", "true or false"),
    ("standalone: 2", "true or false"),
    ("module: 1", "true or false"),
    ("run-dir: 5", "text"),
    ("rdzv-endpoint: 123", "text"),
    ("standalone: yes please", "true or false"),
])
def test_config_values_of_the_wrong_kind_name_file_line_and_key(tmp_path: Path, line: str,
                                                                expected: str):
    cfg = tmp_path / "safelaunch.yaml"
    cfg.write_text(f"# comment\n{line}\n")
    key = line.split(":")[0]
    with pytest.raises(ConfigError, match=rf"safelaunch.yaml line 2: key '{key}' expects {expected}"):
        _params(["--config", str(cfg)])


def test_config_value_of_the_wrong_kind_exits_2_in_one_line(tmp_path: Path, run_safelaunch):
    (tmp_path / "safelaunch.yaml").write_text("nproc: 1\nminimal-test: 0\n")
    (tmp_path / "train.py").write_text("")
    out = run_safelaunch("run", "train.py", cwd=tmp_path, timeout=60)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "line 2: key 'minimal-test'" in out.stderr


def test_config_values_of_the_right_kind_still_load(tmp_path: Path):
    cfg = tmp_path / "safelaunch.yaml"
    cfg.write_text("minimal-test: false\npreflight: true\nrun-dir: runs/x\n"
                   "rdzv-endpoint: 'host:29500'\nnproc: 2\n")
    params = _params(["--config", str(cfg)])
    assert (params["minimal_test"], params["preflight"], params["nproc"]) == (False, True, "2")
    assert (params["run_dir"], params["rdzv_endpoint"]) == ("runs/x", "host:29500")


BOMB = "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}" if i else "x"] * 9) + "]\n"
               for i in range(8)) + "nproc: *l7\n"


@pytest.mark.parametrize(("text", "needle"), [
    (BOMB, "aliases"),
    ("nproc: " + "[" * 50_000 + "]" * 50_000 + "\n", "nested"),
    ("nproc: 2\x00\n", "invalid YAML"),
    ("# padding\n" * 120_000 + "nproc: 2\n", "KiB"),
])
def test_hostile_config_files_are_refused(tmp_path: Path, text: str, needle: str):
    cfg = tmp_path / "evil.yaml"
    cfg.write_text(text)
    with pytest.raises(ConfigError, match=needle):
        _params(["--config", str(cfg)])


def test_config_that_is_not_a_file(tmp_path: Path):
    with pytest.raises(ConfigError, match="is a directory"):
        _params(["--config", str(tmp_path)])
    with pytest.raises(ConfigError, match="not a regular file"):
        _params(["--config", "/dev/null"])


def test_run_config_validation():
    with pytest.raises(UsageError, match="--module and --no-python"):
        RunConfig(script="x", module=True, no_python=True)
    with pytest.raises(UsageError, match="--standalone"):
        RunConfig(script="x", standalone=True, nnodes="2", master_addr="h")
    with pytest.raises(UsageError, match="--node-rank 2"):
        RunConfig(script="x", nnodes="2", node_rank=2, master_addr="h")
    with pytest.raises(UsageError, match="c10d"):
        RunConfig(script="x", nnodes="1:2", master_addr="h")
    assert RunConfig(script="x", nnodes="2", master_addr="h").max_nodes == 2


def test_the_config_checks_its_own_hang_timeout():
    """Whoever builds a RunConfig (click, a test, a library caller), the plan reads the same."""
    from safelaunch.plan import hang_policy

    policy = hang_policy(RunConfig(script="x", hang_timeout=600))
    assert policy is not None and policy.hang_timeout == 600.0
    assert hang_policy(RunConfig(script="x", hang_timeout="Off")) is None
    auto = hang_policy(RunConfig(script="x", hang_timeout=" AUTO "))
    assert auto is not None and auto.hang_timeout is None
    for bad in (0, -1, True, "soon", float("nan"), float("inf"), None, [600]):
        with pytest.raises(UsageError, match="--hang-timeout must be"):
            RunConfig(script="x", hang_timeout=bad)


@pytest.mark.parametrize(("field", "given", "kept"), [
    ("hang_timeout", 600, 600.0),
    ("hang_timeout", "Off", "off"),
    ("hang_timeout", " AUTO ", "auto"),
    ("hang_timeout", "1.5", 1.5),
    ("startup_timeout", 30, 30.0),
    ("grace_period", 0, 0.0),
    ("status_interval", 0, 0.0),
    ("collective_timeout", None, None),
    ("collective_timeout", 60, 60.0),
    ("monitor_interval", 1, 1.0),
    ("max_restarts", 3.0, 3),
    ("master_port", None, None),
    ("master_port", 29555, 29555),
    ("node_rank", 0, 0),
    ("nproc", 4, "4"),
    ("nproc", "gpu", "gpu"),
    ("nnodes", "1:1", "1:1"),
    ("console_ranks", "0,2-3", frozenset({0, 2, 3})),
    ("console_ranks", frozenset(), frozenset()),
    ("stack_dump", "py-spy", "py-spy"),
    ("shutdown_timeout", 5, 5),
    ("run_dir", "runs/mine", "runs/mine"),
])
def test_a_run_config_keeps_a_good_value_as_its_option_would(field, given, kept):
    """Whoever builds a RunConfig (click, a test, a library caller), the plan reads the same:
    each value goes through its option's own type."""
    value = getattr(RunConfig(script="x", **{field: given}), field)
    assert value == kept and type(value) is type(kept)


@pytest.mark.parametrize(("field", "bad", "named"), [
    ("hang_timeout", 0, "--hang-timeout must be"),
    ("hang_timeout", "soon", "--hang-timeout must be"),
    ("hang_timeout", True, "--hang-timeout must be"),
    ("hang_timeout", float("nan"), "--hang-timeout must be"),
    ("startup_timeout", float("inf"), "--startup-timeout: inf is not in the range"),
    ("startup_timeout", 0.5, "--startup-timeout: 0.5 is not in the range"),
    ("startup_timeout", None, "--startup-timeout must be a number, got None"),
    ("grace_period", -1, "--grace-period: -1.0 is not in the range"),
    ("grace_period", False, "--grace-period must be a number of seconds"),
    ("monitor_interval", 0, "--monitor-interval: 0.0 is not in the range"),
    ("status_interval", 2e9, "--status-interval: 2000000000.0 is not in the range"),
    ("collective_timeout", [60], "--collective-timeout must be a number"),
    ("max_restarts", 2.5, "--max-restarts must be a whole number"),
    ("max_restarts", True, "--max-restarts must be a whole number"),
    ("max_restarts", 10**7, "--max-restarts: 10000000 is not in the range"),
    ("node_rank", -1, "--node-rank: -1 is not in the range"),
    ("master_port", 0, "--master-port: 0 is not in the range"),
    ("nproc", 0, "--nproc must be an integer"),
    ("nnodes", "2:1", "--nnodes: MIN must not exceed MAX"),
    ("console_ranks", "x", "--console-ranks must be 'all' or ranks"),
    ("stack_dump", "gdb", "--stack-dump: 'gdb' is not one of"),
    ("debug_level", "BASIC", "--debug-level: 'BASIC' is not one of"),
    ("standalone", 1, "--standalone must be true or false, got 1"),
    ("preflight", "no", "--preflight must be true or false"),
    ("role", 5, "--role must be text, got 5"),
    ("rdzv_endpoint", None, "--rdzv-endpoint must be text, got None"),
    ("script_args", ["--lr", "1"], "script_args must be a tuple of strings"),
])
def test_a_run_config_refuses_a_bad_value_naming_the_option(field, bad, named):
    with pytest.raises(OptionValueError, match=re.escape(named)) as caught:
        RunConfig(script="x", **{field: bad})
    assert caught.value.option == field and caught.value.exit_code == 2
    assert caught.value.value is bad or caught.value.value != caught.value.value  # nan


def test_every_default_of_run_config_is_a_value_its_option_takes():
    config = RunConfig(script="x")
    assert config.hang_timeout == "auto" and config.console_ranks is None
