"""Differential harness: the same arguments through ``python -m torch.distributed.run`` and
``safelaunch run``, and what the ranks saw, what came out and how each launcher ended.

Each case runs in a directory of its own holding ``envdump.py`` (tests/fixtures), a module copy
of it (``envdump_mod``) and a shell wrapper (``envdump.sh``).  ``{port}`` and ``{logs}`` in the
arguments become a free port and a log directory of each launcher's own.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from safelaunch.ports import find_free_port
from safelaunch.supervisor.engine import torchrun_options

FIXTURES = Path(__file__).parent / "fixtures"
README = Path(__file__).parent.parent / "README.md"

# Values that differ between any two runs of torchrun itself: only their presence is compared.
VOLATILE = {"MASTER_PORT", "TORCHELASTIC_RUN_ID", "TORCHELASTIC_ERROR_FILE", "DUMP_DIR", "_"}


@dataclass
class Case:
    name: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    torchrun_code: int = 0
    """torchrun's exit status; safelaunch's follows from ``outcome``."""
    outcome: str = "ok"
    """ok | usage (safelaunch exits 2) | start (125: the workers could not start) | rank:N
    (the ranks exit N; torchrun says 1)."""
    safelaunch_args: list[str] = field(default_factory=list)
    needs: tuple[str, ...] = ()
    """torchrun options the case uses that an older torch's launcher lacks: there both
    launchers refuse the case (argparse's exit 2, safelaunch's one line and 2)."""

    def for_this_torch(self) -> Case:
        """The case as the installed torch's torchrun answers it."""
        known = torchrun_options()
        if all(option in known for option in self.needs):
            return self
        return replace(self, torchrun_code=2, outcome="usage")

    @property
    def safelaunch_code(self) -> int:
        if self.outcome == "usage":
            return 2
        if self.outcome == "start":
            return 125
        if self.outcome.startswith("rank:"):
            return int(self.outcome.split(":")[1])
        return 0


@dataclass
class Result:
    code: int
    console: str
    dumps: dict[str, dict[str, Any]]
    logs: Path
    cwd: Path


def prepare_dir(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURES / "envdump.py", root / "envdump.py")
    (root / "envdump_mod").mkdir(exist_ok=True)
    shutil.copy(FIXTURES / "envdump.py", root / "envdump_mod" / "__main__.py")
    (root / "envdump_mod" / "__init__.py").write_text("")
    wrapper = root / "envdump.sh"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$(dirname "$0")/envdump.py" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return root


def run_launcher(launcher: str, case: Case, root: Path, base_env: dict[str, str]) -> Result:
    cwd = prepare_dir(root)
    dumps, logs = cwd / "dumps", cwd / "logs"
    dumps.mkdir()
    port = str(find_free_port())
    args = [a.replace("{port}", port).replace("{logs}", str(logs)) for a in case.args]
    if launcher == "torchrun":
        cmd = [sys.executable, "-m", "torch.distributed.run", *args]
    else:
        cmd = [sys.executable, "-m", "safelaunch", "run", *case.safelaunch_args, *args]
    env = {**base_env, **case.env, "DUMP_DIR": str(dumps)}
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=150)
    console = (proc.stdout + proc.stderr).decode(errors="replace")
    found = {p.stem: json.loads(p.read_text()) for p in sorted(dumps.glob("*.json"))}
    return Result(proc.returncode, console, found, logs, cwd)


def payload_lines(console: str, whole_lines: bool = True) -> set[str]:
    """The fixture's own lines on a console, whatever prefix a launcher put before them.

    ``whole_lines=False`` for raw torchrun, whose ranks write to one terminal at once: their
    lines can run into each other ("out from rank 1 ...out from rank 0 ...")."""
    if not whole_lines:
        return set(re.findall(r"(?:out|err) from rank \d+ attempt \d+", console))
    pattern = re.compile(r"^(?:\[rank\d+\] |\[\w+\d+\]:|<[^>]*> )?"
                         r"((?:out|err) from rank \d+ attempt \d+)$")
    return {m.group(1) for m in map(pattern.match, console.splitlines()) if m}


def prefixed(console: str, line: str) -> str:
    """The prefix a launcher wrote before one of the fixture's lines."""
    for text in console.splitlines():
        if text.endswith(line):
            return text[: -len(line)]
    raise AssertionError(f"{line!r} not on the console:\n{console}")


def documented_rank_env() -> set[str]:
    """The variables safelaunch adds to a rank's environment, from the README's table."""
    section = README.read_text().split("### What a rank sees", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^\| `([A-Z_]+)` \|", section, re.MULTILINE))


def compare_rank(torch_dump: dict[str, Any], ours: dict[str, Any], launch_env: dict[str, str],
                 where: str) -> None:
    for key in ("argv", "cwd_rel", "path0_rel", "name"):
        assert torch_dump.get(key) == ours.get(key), (where, key, torch_dump.get(key),
                                                      ours.get(key))
    set_by_torch = {k for k, v in torch_dump["env"].items() if launch_env.get(k) != v}
    for key in sorted(set_by_torch):
        assert key in ours["env"], f"{where}: {key} missing under safelaunch"
        if key not in VOLATILE:
            assert ours["env"][key] == torch_dump["env"][key], (
                where, key, torch_dump["env"][key], ours["env"][key])
    added = {k for k, v in ours["env"].items()
             if launch_env.get(k) != v and k not in set_by_torch and k not in VOLATILE}
    undocumented = added - documented_rank_env()
    assert not undocumented, f"{where}: safelaunch adds {sorted(undocumented)} (not in README)"


def relative(dump: dict[str, Any], cwd: Path) -> dict[str, Any]:
    out = dict(dump)
    out["cwd_rel"] = os.path.relpath(dump["cwd"], cwd)
    out["path0_rel"] = os.path.relpath(dump["path0"], cwd) if dump["path0"] else ""
    out["argv"] = [os.path.relpath(a, cwd) if a.startswith(str(cwd)) else a
                   for a in dump["argv"]]
    out["env"] = {k: v.replace(str(cwd), "<cwd>") for k, v in dump["env"].items()}
    return out


def log_tree(logs: Path) -> dict[str, bytes]:
    """torchrun's log directory with the run's own folder name made neutral."""
    tree: dict[str, bytes] = {}
    if not logs.is_dir():
        return tree
    for path in sorted(logs.rglob("*")):
        if path.is_file():
            parts = path.relative_to(logs).parts
            data = path.read_bytes()
            if path.name.startswith("filtered_"):  # every rank's lines, in arrival order
                data = b"".join(sorted(data.splitlines(keepends=True)))
            tree["/".join(("RUN", *parts[1:]))] = data
    return tree


def compare(case: Case, torch_result: Result, ours: Result, launch_env: dict[str, str]) -> None:
    assert torch_result.code == case.torchrun_code, (case.name, torch_result.console)
    assert ours.code == case.safelaunch_code, (case.name, ours.code, ours.console)
    assert sorted(torch_result.dumps) == sorted(ours.dumps), (case.name, ours.console)
    for key, dump in torch_result.dumps.items():
        compare_rank(relative(dump, torch_result.cwd), relative(ours.dumps[key], ours.cwd),
                     launch_env, f"{case.name} {key}")
    if case.outcome not in ("usage", "start"):
        theirs, mine = payload_lines(torch_result.console, False), payload_lines(ours.console)
        if case.outcome.startswith("rank:"):
            # a failing rank makes the launcher stop the others: a rank still printing then
            # may lose its last lines under either launcher, as the race goes
            assert theirs <= mine or mine <= theirs, (case.name, torch_result.console,
                                                      ours.console)
        else:
            assert theirs == mine, (case.name, torch_result.console, ours.console)
    assert log_tree(torch_result.logs) == log_tree(ours.logs), case.name
