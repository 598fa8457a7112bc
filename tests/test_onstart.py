"""The generated on-start script, run for real under bash: honest exit codes, the status file,
restart markers, inert hostile input, the VastAI call with the container's key, the size
limit."""

from __future__ import annotations

import contextlib
import http.server
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import ClassVar

import pytest

from conftest import safelaunch_cmd
from safelaunch import cli, onstart

pytestmark = pytest.mark.usefixtures("spawn")  # real processes

HOSTILE = ["$(touch {pwned})", "`touch {pwned}`", "a'b\"c", "two words", "line\nbreak; touch {pwned}"]


def _in_process(*argv: str) -> tuple[int, str, str]:
    """``safelaunch ARGV`` through its own entry point (``cli.main``, the same one-line errors
    and exit codes), in this process: writing a script starts nothing."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            pytest.raises(SystemExit) as ended:
        cli.main(list(argv))
    code = ended.value.code
    return code if isinstance(code, int) else 0, out.getvalue(), err.getvalue()


def _generate(tmp_path: Path, *args: str) -> Path:
    out = subprocess.run(safelaunch_cmd("onstart", "--state-dir", str(tmp_path / "state"),
                                        "--log-file", str(tmp_path / "onstart.log"), *args),
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    script = tmp_path / "onstart.sh"
    script.write_text(out.stdout)
    return script


def _run(script: Path, cwd: Path, env: dict[str, str] | None = None):
    path = f"{Path(sys.executable).parent}:{os.environ['PATH']}"
    return subprocess.run(["bash", str(script)], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PATH": path, **(env or {})}, timeout=180)


def _lint(script: Path) -> None:
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    if shutil.which("shellcheck"):
        out = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True)
        assert out.returncode == 0, out.stdout


def _train(tmp_path: Path, code: int) -> Path:
    train = tmp_path / "train.py"
    train.write_text(f"import sys\nprint('args', sys.argv[1:])\nsys.exit({code})\n")
    return train


def test_failed_training_exits_with_its_code(tmp_path):
    _train(tmp_path, 7)
    script = _generate(tmp_path, "--nproc", "1", "--run-option=--no-minimal-test", "train.py")
    _lint(script)
    out = _run(script, tmp_path)
    assert out.returncode == 7
    assert (tmp_path / "state" / "status").read_text() == "7\n"
    assert out.stdout.rstrip().splitlines()[-1].startswith("[onstart] training FAILED with exit code 7")
    assert "training FAILED" in (tmp_path / "onstart.log").read_text()


def test_success_and_restart_markers(tmp_path):
    _train(tmp_path, 0)
    script = _generate(tmp_path, "--nproc", "1", "--on-restart", "skip",
                       "--run-option=--standalone", "train.py")
    out = _run(script, tmp_path)
    assert out.returncode == 0 and "training succeeded (exit code 0)" in out.stdout
    again = _run(script, tmp_path)
    assert again.returncode == 0 and "not starting it again" in again.stdout
    assert "safelaunch run" not in again.stdout.split("not starting")[1]


def test_hostile_input_stays_inert(tmp_path):
    pwned = tmp_path / "pwned"
    values = [v.format(pwned=pwned) for v in HOSTILE]
    _train(tmp_path, 0)
    script = _generate(tmp_path, "--nproc", "1", "--run-option=--no-minimal-test",
                       "--workdir", str(tmp_path), "train.py", *values)
    _lint(script)
    out = _run(script, tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert not pwned.exists()
    printed = next(line for line in out.stdout.splitlines() if "args [" in line)
    assert all(repr(v)[1:-1] in printed for v in values[:4])
    # every other option: refused in one line, or quoted in a script bash and shellcheck accept
    for option in ("--workdir", "--state-dir", "--log-file", "--git-url", "--git-ref",
                   "--safelaunch-spec", "--run-option", "--nproc"):
        for value in values:
            extra = [] if option == "--git-url" else ["--git-url", "https://x/r.git"]
            code, stdout, stderr = _in_process("onstart", *extra, option, value, "t.py")
            if code == 2:
                assert stdout == "" and stderr.count("\n") == 1, stderr
                continue
            assert code == 0, stderr
            path = tmp_path / "h.sh"
            path.write_text(stdout)
            _lint(path)
    assert not pwned.exists()


class _Api(http.server.BaseHTTPRequestHandler):
    calls: ClassVar[list[tuple[str, str, str, bytes]]] = []
    endless_429: ClassVar[bool] = False

    def _handle(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        _Api.calls.append((self.command, self.path, self.headers.get("Authorization", ""), body))
        if _Api.endless_429:
            self.send_response(429)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps({"success": False, "error": "rate_limited",
                                         "msg": "API requests too frequent"}).encode())
            return
        if len(_Api.calls) == 1:  # the first answer is a rate limit, as VastAI's often is
            self.send_response(429)
            self.end_headers()
            self.wfile.write(b"API requests too frequent")
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(json.dumps({"success": True}).encode())

    do_PUT = do_DELETE = _handle

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def vast_api():
    _Api.calls, _Api.endless_429 = [], False
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Api)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_auto_stop_uses_the_container_key(tmp_path, vast_api):
    _train(tmp_path, 0)
    script = _generate(tmp_path, "--nproc", "1", "--auto-stop",
                       "--run-option=--no-minimal-test", "train.py")
    assert "VAST_API_KEY" not in script.read_text()
    env = {"SAFELAUNCH_VAST_API": vast_api, "CONTAINER_ID": "4242",
           "CONTAINER_API_KEY": "scoped-key-1"}
    out = _run(script, tmp_path, env)
    assert out.returncode == 0, out.stdout
    method, path, auth, body = _Api.calls[-1]
    assert (method, path, auth) == ("PUT", "/api/v0/instances/4242/", "Bearer scoped-key-1")
    assert json.loads(body) == {"state": "stopped"}
    assert len(_Api.calls) == 2  # retried after the 429
    lines = out.stdout.splitlines()
    verdict = next(i for i, line in enumerate(lines) if "training succeeded" in line)
    asking = next(i for i, line in enumerate(lines) if "asking VastAI to stop" in line)
    assert verdict < asking  # a fast stop cannot cut off the verdict
    assert (tmp_path / "state" / "status").read_text() == "0\n"
    assert "VastAI accepted: this instance will stop" in lines[-1]


@pytest.mark.parametrize("failure", ["endless 429", "network error"])
def test_a_stop_that_never_goes_through_says_the_instance_still_runs(tmp_path, vast_api,
                                                                     failure):
    _train(tmp_path, 0)
    script = _generate(tmp_path, "--nproc", "1", "--auto-stop",
                       "--run-option=--no-minimal-test", "train.py")
    api = vast_api
    if failure == "endless 429":
        _Api.endless_429 = True
    else:  # nothing listens there
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            api = f"http://127.0.0.1:{sock.getsockname()[1]}"
    env = {"SAFELAUNCH_VAST_API": api, "CONTAINER_ID": "4242", "CONTAINER_API_KEY": "k",
           "SAFELAUNCH_VAST_RETRY_DELAY": "0.01"}
    out = _run(script, tmp_path, env)
    assert out.returncode == 0, out.stdout  # the training's own code
    last = out.stdout.rstrip().splitlines()[-1]
    assert "could not stop this instance" in last and "STILL RUNNING and costs money" in last
    assert ("HTTP 429" if failure == "endless 429" else "network error") in last
    assert "after 6 tries" in last
    if failure == "endless 429":
        assert len(_Api.calls) == 6
    assert "STILL RUNNING" in (tmp_path / "onstart.log").read_text()


def test_keep_on_failure_and_destroy(tmp_path, vast_api):
    _train(tmp_path, 3)
    env = {"SAFELAUNCH_VAST_API": vast_api, "CONTAINER_ID": "9", "CONTAINER_API_KEY": "k"}
    script = _generate(tmp_path, "--nproc", "1", "--auto-destroy", "--keep-on-failure",
                       "--run-option=--no-minimal-test", "train.py")
    out = _run(script, tmp_path, env)
    assert out.returncode == 3 and _Api.calls == []
    assert "leaving the failed instance running" in out.stdout
    (tmp_path / "state").rename(tmp_path / "state-old")
    script = _generate(tmp_path, "--nproc", "1", "--auto-destroy",
                       "--run-option=--no-minimal-test", "train.py")
    out = _run(script, tmp_path, env)
    assert out.returncode == 3 and _Api.calls[-1][0] == "DELETE"


def test_long_script_becomes_a_bootstrap(tmp_path):
    _train(tmp_path, 5)
    setup = [f"--setup=echo step {i} {'x' * 200}" for i in range(25)]
    script = _generate(tmp_path, "--nproc", "1", "--run-option=--no-minimal-test", *setup,
                       "train.py")
    assert len(script.read_bytes()) <= onstart.ONSTART_LIMIT
    assert "base64 -d | gunzip" in script.read_text()
    _lint(script)
    out = _run(script, tmp_path)
    assert out.returncode == 5 and "step 24" in out.stdout


def test_bad_options_and_no_overwrite(tmp_path):
    out = subprocess.run(safelaunch_cmd("onstart", "--auto-stop", "--auto-destroy", "t.py"),
                         capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.startswith("safelaunch: error:")
    existing = tmp_path / "mine.sh"
    existing.write_text("keep me")
    out = subprocess.run(safelaunch_cmd("onstart", "-o", str(existing), "t.py"),
                         capture_output=True, text=True)
    assert out.returncode == 2 and existing.read_text() == "keep me"


@pytest.mark.parametrize("url, secret", [
    ("https://oauth2:glpat-abcdefghijklmnop@gitlab.com/o/r.git", True),
    ("https://ghp_" + "a1" * 18 + "@github.com/o/r.git", True),
    ("https://x-access-token:abc123def456@github.com/o/r.git", True),
    ("https://github.com/o/r.git", False),
    ("git@github.com:o/r.git", False),
    ("ssh://git@host:2222/o/r.git", False),
])
def test_a_token_in_the_git_url_warns_and_keeps_the_script_private(tmp_path, url, secret):
    assert onstart.holds_credential(url) is secret
    out = tmp_path / "onstart.sh"
    proc = subprocess.run(safelaunch_cmd("onstart", "--git-url", url, "--output", str(out),
                                         "train.py"), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert ("warning: --git-url holds a credential" in proc.stderr) is secret
    assert (out.stat().st_mode & 0o077 == 0) is secret


@pytest.mark.parametrize(("args", "needle"), [
    (["--nproc", "abc0", "train.py"], None),
    (["--nproc", "-5", "train.py"], "--nproc"),
    (["--nproc", "0", "train.py"], "--nproc"),
    (["--nproc=", "train.py"], "--nproc"),
    (["--run-option=--", "train.py"], "--run-option=--"),
    (["--run-option=", "train.py"], "--run-option="),
    ([""], "SCRIPT"),
    (["-x"], None),
    (["--workdir", "-rf", "train.py"], "--workdir '-rf'"),
    (["--state-dir", "-x", "train.py"], "--state-dir"),
    (["--log-file=--help", "train.py"], "--log-file '--help'"),
    (["--state-dir", "$HOME/state", "train.py"], "not expanded"),
    (["--workdir", "~/code", "train.py"], "not expanded"),
    (["--log-file", "onstart.log", "train.py"], "absolute"),
    (["--workdir", "/w\nrm -rf /", "train.py"], "--workdir"),
])
def test_onstart_values_are_checked(args, needle):
    out = subprocess.run(safelaunch_cmd("onstart", *args), capture_output=True, text=True)
    if needle is None and args[0] == "--nproc":  # a PrivateUse1 device name, as torchrun takes
        assert out.returncode == 0, out.stderr
        return
    assert out.returncode == 2, (args, out.stdout[:200])
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert needle is None or needle in out.stderr
    assert out.stdout == ""


def _failing_step(tmp_path: Path, failure: str) -> tuple[list[str], dict[str, str], str, int]:
    """Options and environment that make one step before the training fail: (options,
    environment, the step's name in the verdict, its exit code)."""
    if failure == "setup":
        return ["--setup", "false"], {}, "setup: false", 1
    if failure == "pip install":
        # A python3 that says safelaunch is missing and whose pip fails; everything else
        # (the VastAI call) goes to the real interpreter.
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        fake = bin_dir / "python3"
        fake.write_text("#!/bin/bash\n"
                        'case "$*" in *safelaunch.__version__*) exit 1 ;; '
                        '"-m pip"*) echo "ERROR: no matching distribution" >&2; exit 3 ;; esac\n'
                        f'exec {sys.executable} "$@"\n')
        fake.chmod(0o755)
        return [], {"PATH": f"{bin_dir}:{Path(sys.executable).parent}:{os.environ['PATH']}"}, \
            "install safelaunch", 3
    if failure == "git clone":
        return ["--git-url", f"file://{tmp_path}/no-such-repo"], {}, "git clone", 128
    (tmp_path / "a-file").write_text("")
    return ["--workdir", str(tmp_path / "a-file" / "work")], {}, \
        f"create the work directory {tmp_path}/a-file/work", 1


@pytest.mark.parametrize("failure", ["setup", "pip install", "git clone", "mkdir work dir"])
def test_a_failed_step_still_writes_the_status_and_stops_the_instance(tmp_path, vast_api,
                                                                       failure):
    _train(tmp_path, 0)
    options, env, step, code = _failing_step(tmp_path, failure)
    script = _generate(tmp_path, "--nproc", "1", "--auto-stop", *options,
                       "--run-option=--no-minimal-test", "train.py")
    _lint(script)
    env = {"SAFELAUNCH_VAST_API": vast_api, "CONTAINER_ID": "4242",
           "CONTAINER_API_KEY": "k", **env}
    out = _run(script, tmp_path, env)
    assert out.returncode == code, out.stdout + out.stderr
    assert "args" not in out.stdout  # the training never started
    assert (tmp_path / "state" / "status").read_text() == f"{code}\nfailed step: {step}\n"
    lines = out.stdout.splitlines()
    verdict = next(i for i, line in enumerate(lines) if "FAILED" in line)
    assert lines[verdict] == (f"[onstart] job FAILED before the training started: step "
                              f"'{step}' exited with code {code}; see {tmp_path}/onstart.log")
    asking = next(i for i, line in enumerate(lines) if "asking VastAI to stop" in line)
    assert verdict < asking
    assert "VastAI accepted: this instance will stop" in lines[-1]
    assert [c[:2] for c in _Api.calls][-1] == ("PUT", "/api/v0/instances/4242/")
    assert "job FAILED before the training" in (tmp_path / "onstart.log").read_text()


def test_a_failed_step_with_keep_on_failure_leaves_the_instance(tmp_path, vast_api):
    _train(tmp_path, 0)
    script = _generate(tmp_path, "--nproc", "1", "--auto-destroy", "--keep-on-failure",
                       "--setup", "exit 9", "train.py")
    env = {"SAFELAUNCH_VAST_API": vast_api, "CONTAINER_ID": "9", "CONTAINER_API_KEY": "k"}
    out = _run(script, tmp_path, env)
    assert out.returncode == 9 and _Api.calls == []
    assert (tmp_path / "state" / "status").read_text() == "9\nfailed step: setup: exit 9\n"
    assert "leaving the failed instance running" in out.stdout.splitlines()[-1]


def test_a_failed_step_without_auto_stop_still_says_so(tmp_path):
    _train(tmp_path, 0)
    script = _generate(tmp_path, "--nproc", "1", "--setup", "false", "train.py")
    _lint(script)
    out = _run(script, tmp_path)
    assert out.returncode == 1
    assert out.stdout.splitlines()[-1].startswith("[onstart] job FAILED before the training")
    assert (tmp_path / "state" / "status").read_text() == "1\nfailed step: setup: false\n"
