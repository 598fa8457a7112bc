"""Record the failure zoo: every case of ``failures.py`` under every launcher installed here.

    python scripts/zoo/record.py [--launcher torchrun] [--case segfault] [--deepspeed PY]

Each recording is the launcher's whole console output (stdout and stderr merged, as a user
pastes it into a bug report), written to ``tests/fixtures/zoo/<launcher>/<case>.log`` with
this machine's paths, host name and user replaced by neutral ones.  ``expected.yaml`` beside
them says which rule must come first for each case (``null``: nothing may be diagnosed).
Launchers that are not installed are skipped with a note; ``lightning`` is
Lightning's own launcher (``Trainer(strategy="ddp")`` started with plain ``python``).
DeepSpeed usually lives in its own environment: ``--deepspeed /path/to/venv/bin/python``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
ZOO = ROOT / "tests" / "fixtures" / "zoo"
SCRIPT = Path(__file__).with_name("failures.py")
FRAMEWORKS = ROOT / "tests" / "fixtures" / "frameworks"

# case -> (rule expected first, extra environment, launchers it applies to or None for all)
CASES: dict[str, tuple[str | None, dict[str, str], set[str] | None]] = {
    "healthy": (None, {}, None),
    "user-typeerror": ("python-exception", {}, None),
    "zero-division": ("python-exception", {}, None),
    "segfault": ("segfault", {}, None),
    "sigkill": ("oom-killer", {}, None),
    "sys-exit": ("nonzero-exit", {}, None),
    "disk-full": ("disk-full", {}, None),
    "too-many-open-files": ("too-many-open-files", {}, None),
    "local-rank-arg": ("local-rank-argument", {}, {"launch", "deepspeed"}),
    "uninitialised-group": ("process-group-not-initialized", {}, None),
    "nccl-backend": ("nccl-not-in-build", {}, None),
    "set-device": ("torch-without-cuda", {}, None),
    "cuda-tensor": ("torch-without-cuda", {}, None),
    "module-not-found": ("module-not-found", {}, None),
    "bad-hostname": ("host-not-resolved", {}, None),
    "store-timeout": ("store-timeout", {}, None),
    "port-in-use": ("address-in-use", {}, None),
    "collective-mismatch": ("collective-mismatch", {"TORCH_DISTRIBUTED_DEBUG": "DETAIL"}, None),
    "collective-timeout": ("collective-timeout", {}, None),
    "unused-parameters": ("unused-parameters", {}, None),
    "marked-ready-twice": ("ddp-marked-ready-twice", {}, None),
    "nan-anomaly": ("nan-loss", {}, None),
    "state-dict-prefix": ("state-dict-keys", {}, None),
    "dataloader-worker-killed": ("dataloader-worker-killed", {}, None),
    "uneven-steps": ("peer-left-early", {}, None),
    "launcher-sigterm": ("launcher-terminated", {"ZOO_CASE": "stall"},
                         {"torchrun", "launch", "accelerate", "deepspeed", "safelaunch"}),
}
# Where a launcher's log says something else than the case's cause, what the log does show.
OVERRIDES: dict[str, str | None] = {
    # DeepSpeed's runner dies on SIGTERM without a word and without stopping its ranks: the
    # log only shows the waiting rank's collective timing out a minute later.
    "deepspeed/launcher-sigterm": "collective-timeout",
    # Lightning's own launcher does not report a child that died: only the witnesses' errors.
    "lightning/segfault": "peer-died-silently",
    "lightning/sigkill": "peer-died-silently",
    "lightning/sys-exit": "peer-died-silently",
    # safelaunch read the kernel log and the cgroup during the run and found no OOM record.
    "safelaunch/sigkill": "sigkill-from-outside",
    # no launcher's report of the other ranks: a peer that ended well and one that died
    # without a word look the same
    "srun-label/uneven-steps": "peer-died-silently",
    "plain/uneven-steps": "peer-died-silently",
}
# What Lightning's own launcher runs (lightning_failures.py knows these cases).
LIGHTNING_CASES = {"healthy", "user-typeerror", "zero-division", "segfault", "sigkill",
                   "sys-exit"}
# Healthy runs of real frameworks (their own fixtures; no stall): nothing may be diagnosed.
FRAMEWORK_RUNS = ["ddp_plain", "lightning_boring", "accelerate_train", "hf_trainer", "fsdp2"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def command(launcher: str, case: str, script: Path, deepspeed: str | None) -> list[str] | None:
    py = sys.executable
    two = ["--nproc-per-node", "2"]
    port = str(free_port())
    if launcher == "torchrun":
        return [py, "-m", "torch.distributed.run", "--standalone", *two, str(script)]
    if launcher == "launch":
        env_flag = [] if case == "local-rank-arg" else ["--use-env"]
        return [py, "-m", "torch.distributed.launch", *two, "--master-port", port, *env_flag,
                str(script)]
    if launcher == "accelerate":
        if shutil.which("accelerate") is None:
            return None
        return [py, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
                "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no",
                "--main_process_port", port, str(script)]
    if launcher == "deepspeed":
        if deepspeed is None:
            return None
        return [deepspeed, "-m", "deepspeed.launcher.runner", "--num_gpus", "2",
                "--master_port", port, str(script)]
    if launcher == "safelaunch":
        return [py, "-m", "safelaunch", "run", "--nproc", "2", "--hang-timeout", "10",
                "--run-dir", "{tmp}", str(script)]
    if launcher == "lightning":
        return [py, str(Path(__file__).with_name("lightning_failures.py"))]
    if launcher in ("srun-label", "plain"):
        return [py, str(Path(__file__).with_name("ranks.py")), "--port", port,
                *(["--label"] if launcher == "srun-label" else []), str(script)]
    raise SystemExit(f"unknown launcher {launcher}")


LAUNCHERS = ["torchrun", "launch", "accelerate", "deepspeed", "safelaunch", "srun-label",
             "plain", "lightning"]


def neutral(text: str) -> str:
    """This machine's paths, host and user replaced by the ones a typical report shows."""
    site = str(Path(__import__("torch").__file__).parents[1])
    stdlib = sysconfig.get_paths()["stdlib"]
    for old, new in ((site, "/opt/conda/lib/python3.11/site-packages"),
                     (stdlib, "/opt/conda/lib/python3.11"),
                     (str(SCRIPT.parent), "/home/user/project"),
                     (str(FRAMEWORKS), "/home/user/project"),
                     (sys.executable, "/opt/conda/bin/python3"),
                     (str(Path(sys.executable).parent), "/opt/conda/bin"),
                     (str(ROOT), "/home/user/safelaunch"),
                     (socket.gethostname(), "trainer")):
        text = text.replace(old, new)
    text = re.sub(r"/tmp/dsvenv[^\s'\"]*/site-packages", "/opt/conda/lib/python3.11/"
                  "site-packages", text).replace("/tmp/dsvenv/bin", "/opt/conda/bin")
    return re.sub(r"/tmp/zoo-[\w.-]+", "/tmp/run", text)


def record(launcher: str, case: str, deepspeed: str | None, timeout: float) -> str | None:
    _, extra, only = CASES.get(case, (None, {}, None))
    if only is not None and launcher not in only:
        return None
    if launcher == "lightning" and case not in LIGHTNING_CASES:
        return None
    script = FRAMEWORKS / f"{case}.py" if case in FRAMEWORK_RUNS else SCRIPT
    cmd = command(launcher, case, script, deepspeed)
    if cmd is None:
        return None
    tmp = Path(f"/tmp/zoo-{launcher}-{case}")
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = [part.replace("{tmp}", str(tmp)) for part in cmd]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SAFELAUNCH_", "PET_", "TORCHELASTIC_", "MASTER_"))}
    env.update({"ZOO_CASE": case, "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1",
                "PYTHONPATH": str(FRAMEWORKS), "MAX_STEPS": "8", **extra})
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                            cwd=SCRIPT.parent, start_new_session=True)
    if case == "launcher-sigterm":
        time.sleep(12)
        proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
    shutil.rmtree(tmp, ignore_errors=True)
    return neutral(out.decode("utf-8", "replace"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launcher", action="append", choices=LAUNCHERS)
    parser.add_argument("--case", action="append")
    parser.add_argument("--deepspeed", help="python of an environment with deepspeed")
    parser.add_argument("--timeout", type=float, default=150)
    args = parser.parse_args()
    cases = args.case or [*CASES, *FRAMEWORK_RUNS]
    for launcher in args.launcher or LAUNCHERS:
        for case in cases:
            if case in FRAMEWORK_RUNS and launcher != "torchrun":
                continue
            started = time.monotonic()
            text = record(launcher, case, args.deepspeed, args.timeout)
            if text is None:
                continue
            path = ZOO / launcher / f"{case}.log"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"{launcher:11} {case:26} {time.monotonic() - started:5.1f} s", flush=True)
    expected: dict[str, str | None] = {case: rule for case, (rule, _, _) in CASES.items()}
    expected.update({case: None for case in FRAMEWORK_RUNS})
    expected.update(OVERRIDES)
    (ZOO / "expected.yaml").write_text(
        "# The rule that must come first for each case of the zoo (null: no diagnosis).\n"
        "# Written by scripts/zoo/record.py; the logs beside it are real recordings.\n"
        + yaml.safe_dump(expected, sort_keys=False))


if __name__ == "__main__":
    main()
