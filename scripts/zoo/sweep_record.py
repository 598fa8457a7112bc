"""Record the sweep: users' mistakes with torch.distributed, Lightning, accelerate and transformers.

    python scripts/zoo/sweep_record.py [--case NAME] [--out DIR] [--port 29800] [--check]

Each case of ``sweep/`` (``torch/`` one script per case; ``frameworks/`` one script per
framework, the case named on its command line) runs once on 2 CPU ranks (gloo), mostly under
``torchrun --nproc-per-node 2``, inside ``timeout 120`` as a user runs it, from a fresh
folder that holds a copy of the script (the files a case needs, it writes there itself).
The console output (stdout and stderr merged) goes to ``tests/fixtures/zoo/sweep/NAME.log``
(or ``--out DIR``) with the paths made neutral as ``record.py`` does; the folder becomes
``/home/user/project``.  ``expected.yaml`` beside the logs names the rule that must come
first; ``--check`` diagnoses each new log and says whether it still does.  Names: ``a-``
accelerate, ``l-`` Lightning, ``t-`` transformers, ``torch-`` torch.distributed and torchrun.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from record import ZOO, neutral
from score import verdict

SWEEP = Path(__file__).with_name("sweep")
TIMEOUT = 120
TORCHRUN = ["torchrun", "--nproc-per-node", "2", "--rdzv-endpoint", "localhost:{port}"]
TORCHRUN_C10D = [*TORCHRUN[:3], "--rdzv-backend", "c10d", *TORCHRUN[3:]]
FRAMEWORK_ENV = {"OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1"}
# set by some cases; taken out of the caller's environment so that each run sees only its own
CLEARED = ("OMP_NUM_THREADS", "TORCH_DISTRIBUTED_DEBUG", "GLOO_SOCKET_IFNAME")


@dataclass
class Case:
    script: str  # path under sweep/, copied into the run's folder ("" for none)
    argv: list[str]  # the command line; {port} and {script} are filled in
    env: dict[str, str] = field(default_factory=dict)
    before: list[list[str]] = field(default_factory=list)  # runs that prepare the folder


def torch_case(script: str, *launcher: str, env: dict[str, str] | None = None) -> Case:
    """A torch.distributed script under torchrun (or the launcher given)."""
    return Case(f"torch/{script}.py", [*(launcher or TORCHRUN), "{script}"], env or {})


def framework_case(script: str, case: str, before: str = "") -> Case:
    """A case of a framework script, ``torchrun ... script.py CASE``."""
    return Case(f"frameworks/{script}.py", [*TORCHRUN_C10D, "{script}", case], FRAMEWORK_ENV,
                [[*TORCHRUN_C10D, "{script}", before]] if before else [])


def torch_cases() -> dict[str, Case]:
    # every script is a case of its own name, but those started in special ways below
    special = {"world_mismatch", "plain", "dist_launch", "gloo_init", "argparse_order"}
    simple = [path.stem for path in sorted((SWEEP / "torch").glob("*.py"))
              if path.stem not in special]
    cases = {name.replace("_", "-"): torch_case(name) for name in simple}
    plain = "world_mismatch"  # a script that does nothing wrong: the command line does
    run = TORCHRUN[0]
    cases.update({
        "coll-order-detail": torch_case("coll_order", env={"TORCH_DISTRIBUTED_DEBUG": "DETAIL"}),
        "gloo-ifname": torch_case(plain, env={"GLOO_SOCKET_IFNAME": "ib0"}),
        "plain-python": torch_case("plain", "python"),
        "dist-launch": torch_case("dist_launch", "python", "-m", "torch.distributed.launch",
                                  "--nproc-per-node", "2", "--master-port", "{port}"),
        "script-not-found": Case("", [*TORCHRUN, "missing_script.py"]),
        "torchrun-python-word": torch_case(plain, *TORCHRUN, "python"),
        "nnodes-bad": torch_case(plain, run, "--nnodes", "1:x", *TORCHRUN[1:]),
        "nnodes-range": torch_case(plain, run, "--nnodes", "2:1", *TORCHRUN[1:]),
        "nnodes-empty": torch_case(plain, run, "--nnodes=", *TORCHRUN[1:]),
        "nproc-gpu": torch_case(plain, run, "--nproc-per-node", "gpu", *TORCHRUN[3:]),
        "master-port-bad": torch_case("gloo_init", *TORCHRUN[:3], "--master-port", "295000"),
        "argparse-order": Case("torch/argparse_order.py",
                               [run, *TORCHRUN[3:], "{script}", "--nproc-per-node", "2"]),
    })
    return {f"torch-{name}": case for name, case in cases.items()}


def mistakes(script: Path) -> dict[str, str]:
    """The ``MISTAKES`` table of a framework script: case -> the user's mistake."""
    for node in ast.parse(script.read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "MISTAKES":
            return dict(ast.literal_eval(node.value))
    raise SystemExit(f"{script} has no MISTAKES table")


def framework_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    for prefix, script in (("a", "acc"), ("l", "lit"), ("t", "hf")):
        for case in mistakes(SWEEP / "frameworks" / f"{script}.py"):
            cases[f"{prefix}-{case.replace('_', '-')}"] = framework_case(script, case)
    del cases["a-save"]  # prepares the resume cases, not a mistake
    for name in ("a-resume-changed", "a-resume-more-models"):
        cases[name] = framework_case("acc", name[2:].replace("-", "_"), before="save")
    cases["l-resume-weights"] = framework_case("lit_resume", "2", before="1")
    cases["a-notebook"].argv = ["python", "{script}", "notebook"]
    cases["a-multi-gpu-flag"] = Case(
        "frameworks/acc.py", ["accelerate", "launch", "--multi_gpu", "--num_processes", "2",
                              "--main_process_port", "{port}", "{script}", "gather_shapes"],
        FRAMEWORK_ENV)
    cases["l-spawn-noguard"] = Case("frameworks/spawn_noguard.py", ["python", "{script}"],
                                    FRAMEWORK_ENV)
    cases["t-local-rank"] = Case("frameworks/lrank.py", [
        "python", "-m", "torch.distributed.launch", "--nproc-per-node", "2", "--master-port",
        "{port}", "{script}"], FRAMEWORK_ENV)
    return cases


def all_cases() -> dict[str, Case]:
    return dict(sorted({**torch_cases(), **framework_cases()}.items()))


class Ports:
    """Rendezvous ports handed out in turn, one per run, within a range of 100."""

    def __init__(self, first: int) -> None:
        self.first, self.count = first, 0

    def next(self) -> str:
        self.count += 1
        return str(self.first + (self.count - 1) % 100)


def executable(word: str) -> str:
    """``python`` and the launchers of the environment this recorder runs in."""
    if word == "python":
        return sys.executable
    beside = Path(sys.executable).parent / word
    return str(beside) if beside.exists() else shutil.which(word) or word


def run(argv: list[str], script: str, env: dict[str, str], folder: Path, ports: Ports) -> str:
    port = ports.next()
    cmd = [part.replace("{port}", port).replace("{script}", script) for part in argv]
    cmd = ["timeout", str(TIMEOUT), executable(cmd[0]), *cmd[1:]]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                            cwd=folder, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=TIMEOUT + 30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
    return out.decode("utf-8", "replace")


def record(name: str, case: Case, ports: Ports) -> str:
    """The case's console output, paths made neutral."""
    folder = Path(tempfile.mkdtemp(prefix=f"zoo-sweep-{name}-"))
    script = Path(case.script).name
    if case.script:
        shutil.copy(SWEEP / case.script, folder / script)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SAFELAUNCH_", "PET_", "TORCHELASTIC_", "MASTER_"))
           and k not in CLEARED}
    env.update(case.env)
    for argv in case.before:
        run(argv, script, env, folder, ports)
    text = run(case.argv, script, env, folder, ports)
    shutil.rmtree(folder, ignore_errors=True)
    return neutral(text.replace(str(folder), "/home/user/project"))


def check(name: str, path: Path, expected: dict[str, str | None]) -> bool:
    """Whether the new log's first finding is the expected rule; prints both logs' answers."""
    want = expected.get(name)
    got, _ = verdict(path)
    committed = ZOO / "sweep" / f"{name}.log"
    before = verdict(committed)[0] if committed.exists() else "-"
    print(f"    {'OK  ' if got == want else 'DIFF'} want {want}, got {got} "
          f"(committed log: {before})", flush=True)
    return got == want


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", help="a case name (repeatable)")
    parser.add_argument("--out", type=Path, default=ZOO / "sweep",
                        help="where the logs go (default: the committed fixtures)")
    parser.add_argument("--port", type=int, default=29800, help="first rendezvous port")
    parser.add_argument("--check", action="store_true",
                        help="diagnose each new log against expected.yaml")
    parser.add_argument("--list", action="store_true", help="print the case names and stop")
    args = parser.parse_args()
    cases = all_cases()
    if args.list:
        print("\n".join(cases))
        return
    unknown = set(args.case or []) - set(cases)
    if unknown:
        raise SystemExit(f"unknown case(s): {', '.join(sorted(unknown))}")
    expected = yaml.safe_load((ZOO / "sweep" / "expected.yaml").read_text())
    args.out.mkdir(parents=True, exist_ok=True)
    ports, differ = Ports(args.port), []
    for name in args.case or cases:
        started = time.monotonic()
        path = args.out / f"{name}.log"
        path.write_text(record(name, cases[name], ports))
        print(f"{name:34} {time.monotonic() - started:5.1f} s", flush=True)
        if args.check and not check(name, path, expected):
            differ.append(name)
    if args.check:
        print(f"{len(args.case or cases) - len(differ)} as expected; differ: {differ or 'none'}")


if __name__ == "__main__":
    main()
