"""Every numeric option refuses nan, inf and absurd sizes with one line and exit 2, however
it is given: on the command line, in SAFELAUNCH_*, in torchrun's PET_*, in the config file.

In-process (``cli.main``): hundreds of cases, each refused while parsing, before anything
starts; the script does not exist, so a value wrongly accepted ends in 127, not 2."""

from __future__ import annotations

import pytest

from safelaunch import cli

BAD = ["nan", "NaN", "inf", "-inf", "1e400", "99999999999999999999", "true"]
# option -> torchrun's PET_ name, or None when torchrun has no such option
RUN_OPTIONS = {
    "grace-period": None, "startup-timeout": None, "collective-timeout": None,
    "status-interval": None, "minimal-test-timeout": None, "hang-timeout": None,
    "monitor-interval": "MONITOR_INTERVAL", "shutdown-timeout": "SHUTDOWN_TIMEOUT",
    "max-restarts": "MAX_RESTARTS", "node-rank": "NODE_RANK", "nproc": "NPROC_PER_NODE",
    "nnodes": "NNODES", "console-ranks": None, "master-port": "MASTER_PORT",
}
OTHER_COMMANDS = [
    ["minimal-test", "--timeout"],
    ["remote", "--host", "box", "--reconnect-timeout"],
    ["remote", "--host", "box", "--vast-wait"],
    ["remote", "--host", "box", "--attach", "--tail"],
]


def _refused(capsys, argv: list[str], *needles: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("safelaunch: error: "), err
    for needle in needles:
        assert needle in lines[0], lines[0]


def _accepts(value: str, option: str) -> bool:
    """The few bad-looking values that are fine for an option: a word for --nproc may name a
    device backend (torch decides, as under torchrun)."""
    return option in ("console-ranks", "nproc") and value == "true"


@pytest.mark.parametrize("option", RUN_OPTIONS)
@pytest.mark.parametrize("value", BAD)
def test_run_option_on_the_command_line(capsys, option, value):
    if _accepts(value, option):
        pytest.skip("a valid value for this option")
    _refused(capsys, ["run", f"--{option}", value, "no-such-script.py"], f"--{option}")


@pytest.mark.parametrize("option", RUN_OPTIONS)
@pytest.mark.parametrize("value", ["nan", "inf", "99999999999999999999"])
def test_run_option_in_the_environment(capsys, monkeypatch, option, value):
    dest = option.replace("-", "_").upper()
    dest = {"NPROC": "NPROC"}.get(dest, dest)
    names = [f"SAFELAUNCH_{dest}"] + ([f"PET_{RUN_OPTIONS[option]}"] if RUN_OPTIONS[option]
                                      else [])
    for name in names:
        with monkeypatch.context() as env:
            env.setenv(name, value)
            _refused(capsys, ["run", "no-such-script.py"], f"--{option}")


@pytest.mark.parametrize("option", RUN_OPTIONS)
@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", "99999999999999999999", "true"])
def test_run_option_in_the_config_file(capsys, monkeypatch, tmp_path, option, value):
    if option == "console-ranks" and value == "true":
        pytest.skip("YAML true is not a rank list; tested elsewhere")
    config = tmp_path / "safelaunch.yaml"
    config.write_text(f"{option}: {value}\n")
    monkeypatch.chdir(tmp_path)
    _refused(capsys, ["run", "no-such-script.py"], str(config.name), option)


@pytest.mark.parametrize("command", OTHER_COMMANDS, ids=lambda c: c[-1])
@pytest.mark.parametrize("value", ["nan", "inf", "1e400", "99999999999999999999"])
def test_other_commands(capsys, command, value):
    _refused(capsys, [*command, value, "no-such-script.py"], command[-1])
