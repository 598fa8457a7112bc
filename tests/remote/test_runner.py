"""``safelaunch remote`` against a real OpenSSH server on loopback: runs that succeed and
fail, a connection cut mid-run, Ctrl-C, detach and attach, host keys, ssh config, VastAI."""

from __future__ import annotations

import contextlib
import getpass
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from conftest import FIXTURES, Spawned, safelaunch_cmd
from fakevast import KEY, FakeVast, serve
from safelaunch.ports import find_free_port
from sshd import SSHD, Lines, SshServer, keygen

pytestmark = [pytest.mark.skipif(not Path(SSHD).exists(), reason="needs OpenSSH's sshd"),
              pytest.mark.usefixtures("spawn")]  # real processes

COUNT = """\
import os, sys, time
n, delay, code = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
for i in range(n):
    print(f"line {i}", flush=True)
    time.sleep(delay)
print("MY_VAR=" + os.environ.get("MY_VAR", "unset"), flush=True)
print("ARGS=" + repr(sys.argv[4:]), flush=True)
sys.exit(code)
"""
FAST = ("--nproc", "1", "--no-minimal-test", "--no-preflight")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    root = tmp_path_factory.mktemp("ssh")
    srv = SshServer(root / "server", root / "home")
    srv.trust()
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    proj = tmp_path / "project"
    proj.mkdir()
    (proj / "count.py").write_text(COUNT)
    return proj


class Remote:
    def __init__(self, server: SshServer, tmp_path: Path, project: Path,
                 spawn: Spawned) -> None:
        self.server, self.tmp, self.project, self.spawn = server, tmp_path, project, spawn
        self.remote_dir = tmp_path / "remote"
        self.local = tmp_path / "local"
        self.local.mkdir()
        self.host = f"{getpass.getuser()}@127.0.0.1:{server.port}"

    def argv(self, *args: str, host: str | None = None, attach: str | None = None) -> list[str]:
        base = ["remote", "--host", host or self.host, "--remote-dir", str(self.remote_dir),
                "--remote-python", sys.executable]
        if attach is not None:
            return safelaunch_cmd(*base, "--attach", *([attach] if attach else []), *args)
        return safelaunch_cmd(*base, "--sync", str(self.project), *args)

    def start(self, *args: str, env: dict[str, str] | None = None, **kw: str | None
              ) -> subprocess.Popen[bytes]:
        return self.spawn.popen(self.argv(*args, **kw), cwd=self.local,
                                env=env or self.server.client_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)

    def run(self, *args: str, env: dict[str, str] | None = None, timeout: float = 120,
            **kw: str | None) -> tuple[int, str, str]:
        proc = self.start(*args, env=env, **kw)
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


@pytest.fixture
def remote(server: SshServer, tmp_path: Path, project: Path, spawn: Spawned) -> Remote:
    return Remote(server, tmp_path, project, spawn)


def local_run_dir(remote: Remote, err: str) -> Path:
    for line in err.splitlines():
        if "its run directory is in " in line:
            return remote.local / line.rsplit("its run directory is in ", 1)[1]
    raise AssertionError(err)


def no_job_left(marker: str) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not any(marker in " ".join(p.info["cmdline"] or [])
                   for p in psutil.process_iter(["cmdline"])):
            return True
        time.sleep(0.2)
    return False


def test_success_streams_output_copies_run_dir_and_exits_0(remote):
    # --standalone, torchrun's most common form, travels to the remote run as it is
    secret = remote.tmp / "credentials"
    secret.write_text("aws_secret_access_key = x")
    os.symlink(secret, remote.project / "credentials")  # leads out of the synced tree
    code, out, err = remote.run(*FAST, "--standalone", "-e", "MY_VAR=from-local", "count.py",
                                "3", "0", "0")
    assert code == 0, err
    assert [line for line in out.splitlines() if "] line " in line] == [
        "[rank0] line 0", "[rank0] line 1", "[rank0] line 2"]
    assert "MY_VAR=from-local" in out
    run_dir = local_run_dir(remote, err)
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["exit_code"] == 0
    assert "line 2" in (run_dir / "rank0.log").read_text()
    assert "[rank0] line 2" in (run_dir / "console.log").read_text()
    assert (remote.remote_dir / "count.py").read_text() == COUNT
    assert "not sent: 1 symbolic link(s) that lead out of" in err
    assert not (remote.remote_dir / "credentials").exists()
    spec = next((remote.remote_dir / ".safelaunch" / "runs").glob("*/spec.json")).read_text()
    assert "from-local" not in spec  # --env values are not written down


def test_failing_run_returns_its_exit_code_and_hostile_args_stay_inert(remote, tmp_path):
    pwned = tmp_path / "pwned"
    hostile = [f"$(touch {pwned})", "it's \"quoted\"", "two words", "new\nline", "; ls"]
    code, out, err = remote.run(*FAST, "count.py", "1", "0", "3", *hostile)
    assert code == 3, err
    assert f"ARGS={hostile!r}" in out.replace("[rank0] ", "")
    assert not pwned.exists()
    assert "exited with code 3" in err


def test_cut_connection_resumes_with_every_line_exactly_once(remote, server):
    proc = remote.start(*FAST, "count.py", "60", "0.05", "0")
    out, err = Lines(proc.stdout), Lines(proc.stderr)
    out.wait_for("] line 10")
    assert server.cut_connections() > 0
    assert proc.wait(timeout=90) == 0
    out.join()
    err.join()
    lines = [line for line in out.text if "] line " in line]
    assert lines == [f"[rank0] line {i}" for i in range(60)], "\n".join(err.text)
    assert any("lost the connection" in line for line in err.text)
    assert any("reconnected after" in line for line in err.text)


def test_cut_during_the_upload_sets_up_again_and_starts_once(remote, server):
    data = os.urandom(1 << 20) * 256  # 256 MB: the upload takes seconds on loopback
    (remote.project / "weights.bin").write_bytes(data)
    digest = hashlib.sha256(data).hexdigest()
    del data
    proc = remote.start(*FAST, "count.py", "2", "0", "0")
    out, err = Lines(proc.stdout), Lines(proc.stderr)
    _wait_for(lambda: any(remote.remote_dir.glob(".weights.bin.safelaunch-*")))
    assert server.cut_connections() > 0
    code = proc.wait(timeout=120)
    out.join()
    err.join()
    assert code == 0, "\n".join(err.text)
    assert any("setting up again" in line for line in err.text), "\n".join(err.text)
    assert sum("started run" in line for line in err.text) == 1
    assert out.text.count("[rank0] line 1") == 1
    with (remote.remote_dir / "weights.bin").open("rb") as handle:
        assert hashlib.file_digest(handle, "sha256").hexdigest() == digest
    assert not list(remote.remote_dir.glob(".weights.bin.safelaunch-*"))  # no half file left


def test_ctrl_c_stops_the_remote_job(remote):
    proc = remote.start(*FAST, "count.py", "600", "0.1", "0")
    out, err = Lines(proc.stdout), Lines(proc.stderr)
    out.wait_for("line 3")
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    err.join()
    assert any("stopping the remote job" in line for line in err.text)
    assert any("exited with code 143" in line for line in err.text)
    assert no_job_left(f"{remote.remote_dir}/safelaunch_runs")


def test_detach_then_attach_follows_to_the_end(remote):
    code, _, err = remote.run("--detach", *FAST, "count.py", "20", "0.05", "5")
    assert code == 0, err
    run_id = err.split("--attach ")[-1].split()[0]
    code, out, err = remote.run(attach=run_id)
    assert code == 5, err
    assert out.count("] line ") == 20
    code, out, err = remote.run(attach="")  # the latest, already ended: replayed
    assert code == 5 and out.count("] line ") == 20
    console = next((remote.remote_dir / ".safelaunch" / "runs").glob("*/console.log"))
    code, tail, err = remote.run("--tail", "4", attach=run_id)
    assert code == 5 and tail.splitlines() == console.read_text().splitlines()[-4:]
    code, tail, err = remote.run("--tail", "0", attach=run_id)
    assert code == 5 and tail == ""
    code, _, err = remote.run(attach="20990101T000000Z-000000")
    assert code == 2 and "no run 20990101T000000Z-000000" in err


def test_unchanged_files_are_not_sent_again_and_ignored_files_never(remote):
    (remote.project / ".gitignore").write_text("data/\n*.ckpt\n!keep.ckpt\n")
    (remote.project / "data").mkdir()
    (remote.project / "data" / "big.bin").write_bytes(b"x" * 1000)
    (remote.project / "model.ckpt").write_text("no")
    (remote.project / "keep.ckpt").write_text("yes")
    (remote.project / ".git").mkdir()
    (remote.project / ".git" / "HEAD").write_text("ref")
    (remote.project / "safelaunch_runs").mkdir()
    (remote.project / "safelaunch_runs" / "old.log").write_text("old")
    code, _, err = remote.run("--detach", *FAST, "count.py", "0", "0", "0")
    assert code == 0, err
    present = {p.relative_to(remote.remote_dir).as_posix()
               for p in remote.remote_dir.rglob("*") if p.is_file()
               and ".safelaunch" not in p.parts and "safelaunch_runs" not in p.parts}
    assert present == {"count.py", ".gitignore", "keep.ckpt"}
    code, _, err = remote.run("--detach", *FAST, "count.py", "0", "0", "0")
    assert code == 0 and "3 file(s)" in err and "0 sent" in err, err
    assert "upload safelaunch" not in err


def test_unknown_host_key_is_refused_unless_accepted_then_pinned(remote, server, tmp_path):
    home = tmp_path / "home"
    env = server.other_client(home)
    code, _, err = remote.run(*FAST, "count.py", "0", "0", "0", env=env)
    assert code == 255
    assert "not in" in err and "--accept-new-host-key" in err and "SHA256:" in err
    assert not (home / ".ssh" / "known_hosts").exists()
    code, _, err = remote.run("--accept-new-host-key", *FAST, "count.py", "0", "0", "0",
                              env=env)
    assert code == 0, err
    assert (home / ".ssh" / "known_hosts").read_text() == server.known_hosts_line
    code, _, err = remote.run(*FAST, "count.py", "0", "0", "0", env=env)
    assert code == 0, err


def test_changed_host_key_is_always_refused(remote, server, tmp_path):
    home = tmp_path / "home"
    env = server.other_client(home)
    other = tmp_path / "other_key"
    keygen(other)
    kind, key = other.with_suffix(".pub").read_text().split()[:2]
    known = f"# mine\n[127.0.0.1]:{server.port} {kind} {key}\n"
    (home / ".ssh" / "known_hosts").write_text(known)
    code, _, err = remote.run("--accept-new-host-key", *FAST, "count.py", "0", "0", "0",
                              env=env)
    assert code == 255
    assert "CHANGED" in err and "ssh-keygen -R" in err
    assert (home / ".ssh" / "known_hosts").read_text() == known
    assert "Traceback" not in err


def test_unreachable_host_and_refused_key_exit_255(remote, server, tmp_path):
    code, _, err = remote.run(*FAST, "count.py", "0", "0", "0",
                              host=f"root@127.0.0.1:{find_free_port()}")
    assert code == 255 and "cannot reach" in err and "connection refused" in err
    home = tmp_path / "home"
    env = server.other_client(home, own_key=True)
    (home / ".ssh" / "known_hosts").write_text(server.known_hosts_line)
    code, _, err = remote.run(*FAST, "count.py", "0", "0", "0", env=env)
    assert code == 255 and "authentication failed" in err
    assert len(err.strip().splitlines()) == 1


def test_ssh_config_alias_with_proxy_command_and_proxy_jump(remote, server, tmp_path):
    config = tmp_path / "ssh_config"
    key = server.home / ".ssh" / "id_ed25519"
    config.write_text(
        f"Host box\n  HostName 127.0.0.1\n  Port {server.port}\n  User {getpass.getuser()}\n"
        f"  IdentityFile {key}\n"
        f"  ProxyCommand {sys.executable} {FIXTURES / 'tcp_relay.py'} %h %p\n"
        f"Host hop\n  HostName 127.0.0.1\n  Port {server.port}\n  User {getpass.getuser()}\n"
        f"Host inner\n  HostName 127.0.0.1\n  Port {server.port}\n  ProxyJump hop\n"
        f"  User {getpass.getuser()}\n"
        f"Host deep\n  HostName 127.0.0.1\n  Port {server.port}\n  ProxyJump box,hop\n"
        f"  User {getpass.getuser()}\n")
    for host, logins in (("box", 1), ("inner", 2), ("deep", 3)):
        before = server.log.read_text().count("Accepted publickey")
        code, out, err = remote.run("--ssh-config", str(config), *FAST, "count.py", "1", "0",
                                    "0", host=host)
        assert code == 0, err
        assert "[rank0] line 0" in out
        assert server.log.read_text().count("Accepted publickey") - before == logins


def test_remote_python_without_torch_is_a_start_error(remote):
    bare = "/usr/bin/python3"
    if not Path(bare).exists() or subprocess.run([bare, "-c", "import torch"],
                                                 capture_output=True).returncode == 0:
        pytest.skip("needs a Python without torch")
    argv = remote.argv(*FAST, "count.py", "0", "0", "0")
    argv[argv.index("--remote-python") + 1] = bare
    proc = subprocess.run(argv, cwd=remote.local, env=remote.server.client_env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 125
    assert "cannot import torch" in proc.stderr and "--remote-python" in proc.stderr


@pytest.mark.parametrize(("runtype", "offset", "said"), [
    ("ssh", 0, "the VastAI proxy at ssh_port"),
    # jupyter-mode images: the proxy's SSH port is ssh_port + 1, as 'vastai ssh-url' has it
    ("jupyter_direc ssh", -1, "+ 1 because the image runs in jupyter mode"),
    # ... and when that one refuses, the other one is tried before giving up
    ("jupyter", 0, "refused the connection; trying the other address"),
])
def test_vast_instance_address_from_the_api_and_stop_after(remote, server, runtype, offset,
                                                           said):
    FakeVast.states = [{"id": 9, "actual_status": "running", "intended_status": "running",
                        "ssh_host": "127.0.0.1", "ssh_port": server.port + offset,
                        "public_ipaddr": None, "image_runtype": runtype, "ports": None}]
    with serve() as url:
        env = dict(server.client_env(), VAST_API_KEY=KEY, SAFELAUNCH_VAST_API=url)
        argv = remote.argv(*FAST, "count.py", "1", "0", "0")
        argv[argv.index("--host"):argv.index("--host") + 2] = [
            "--vast-instance", "9", "--stop-after"]
        proc = subprocess.run(argv, cwd=remote.local, env=env, capture_output=True, text=True,
                              timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert said in proc.stderr and f"SSH root@127.0.0.1:{server.port}" in proc.stderr
    assert ("PUT", "/api/v0/instances/9/", '{"state": "stopped"}') in FakeVast.calls
    assert KEY not in proc.stdout + proc.stderr


def test_vast_instance_whose_ssh_comes_up_after_running(remote, server, tmp_path):
    late = SshServer(tmp_path / "late", server.home)
    late.trust()
    FakeVast.states = [{"id": 5, "actual_status": "running", "intended_status": "running",
                        "ssh_host": "127.0.0.1", "ssh_port": late.port, "public_ipaddr": None}]
    try:
        with serve() as url:
            env = dict(server.client_env(), VAST_API_KEY=KEY, SAFELAUNCH_VAST_API=url)
            argv = remote.argv(*FAST, "count.py", "1", "0", "0")
            argv[argv.index("--host"):argv.index("--host") + 2] = ["--vast-instance", "5"]
            proc = remote.spawn.popen(argv, cwd=remote.local, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE)
            out, err = Lines(proc.stdout), Lines(proc.stderr)
            err.wait_for("waiting for SSH on", timeout=120)  # refused: its sshd is not up yet
            late.start()
            assert proc.wait(timeout=120) == 0, "\n".join(err.text)
            out.join()
            err.join()
    finally:
        late.stop()
    assert any("connection refused" in line for line in err.text), err.text
    assert "line 0" in "\n".join(out.text)


@pytest.mark.parametrize(("args", "message"), [
    (("--attach", "x", "count.py"), "--attach follows an existing run"),
    ((), "missing SCRIPT"),
    (("-e", "NOEQUALS", "count.py"), "expected KEY=VALUE"),
    (("--stop-after", "count.py"), "need --vast-instance"),
    (("--tail", "3", "count.py"), "--tail goes with --attach"),
    (("--sync", "/nonexistent/dir", "count.py"), "does not exist"),
])
def test_bad_input_is_one_line_and_exit_2(remote, args, message):
    proc = subprocess.run(safelaunch_cmd("remote", "--host", remote.host, *args),
                          capture_output=True, text=True, cwd=remote.local,
                          env=remote.server.client_env())
    assert proc.returncode == 2
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_bad_host_spelling_is_a_usage_error(remote):
    proc = subprocess.run(safelaunch_cmd("remote", "--host", "root@host:notaport", "x.py"),
                          capture_output=True, text=True, cwd=remote.local)
    assert proc.returncode == 2 and "--host" in proc.stderr


def _wait_for(predicate: object, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.02)


def test_frozen_link_is_detected_by_silence_and_the_stream_resumes(remote, server):
    """No FIN, no RST: the session just stops answering (its processes are stopped)."""
    proc = remote.start(*FAST, "count.py", "150", "0.05", "0")
    out, err = Lines(proc.stdout), Lines(proc.stderr)
    out.wait_for("] line 5")
    frozen = server.sessions()
    for victim in frozen:
        victim.suspend()
    try:
        code = proc.wait(timeout=120)
    finally:
        for victim in frozen:
            with contextlib.suppress(psutil.NoSuchProcess):
                victim.kill()
    out.join()
    err.join()
    assert code == 0, err.text
    assert [line for line in out.text if "] line " in line] == [
        f"[rank0] line {i}" for i in range(150)]
    assert any("reconnected after" in line for line in err.text)


def test_hangup_leaves_the_job_running_and_a_lost_link_gives_up_with_255(remote, server):
    proc = remote.start(*FAST, "count.py", "100", "0.05", "7")
    err_lines = Lines(proc.stderr)
    err_lines.wait_for("Ctrl-C stops")
    proc.send_signal(signal.SIGHUP)
    assert proc.wait(timeout=30) == 129
    err_lines.join()
    run_id = next(line for line in err_lines.text if "started run" in line).split()[3]
    server.stop()
    try:
        code, _, err = remote.run("--reconnect-timeout", "0", attach=run_id)
        assert code == 255 and "cannot reach" in err
    finally:
        server.start()
    code, out, err = remote.run(attach=run_id)
    assert code == 7, err
    assert out.count("] line ") == 100


def test_auto_remote_python_finds_one_with_torch(remote):
    argv = remote.argv(*FAST, "count.py", "1", "0", "0")
    at = argv.index("--remote-python")
    del argv[at:at + 2]
    env = dict(remote.server.client_env(),
               SAFELAUNCH_REMOTE_PYTHONS=f"/nonexistent/python:{sys.executable}")
    proc = subprocess.run(argv, cwd=remote.local, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert f"using {sys.executable} on" in proc.stderr
    assert "[rank0] line 0" in proc.stdout


def test_a_flood_of_lines_arrives_whole_and_in_order(remote):
    code, out, err = remote.run(*FAST, "count.py", "20000", "0", "0")
    assert code == 0, err
    assert [line for line in out.splitlines() if "] line " in line] == [
        f"[rank0] line {i}" for i in range(20000)]


@pytest.mark.parametrize("mode, message", [
    ("escape", "no safelaunch remote runs"),
    ("shapes", "invalid run list"),
    ("junk", "no safelaunch remote runs"),
    ("exit_code", "invalid exit code"),
    ("tar", "refused the run directory"),
])
def test_a_hostile_remote_cannot_write_outside_the_runs_folder(remote, tmp_path, mode, message):
    evil = _evil_python(tmp_path, mode)
    argv = remote.argv(attach="")
    argv[argv.index("--remote-python") + 1] = str(evil)
    proc = subprocess.run(argv, cwd=remote.local, env=remote.server.client_env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode in (2, 255), proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
    # nothing escaped, nothing half-extracted
    assert not list(tmp_path.rglob("escape*"))
    runs = remote.local / "safelaunch_runs"
    assert not runs.exists() or not any(runs.iterdir()), list(runs.rglob("*"))


def _evil_python(tmp_path: Path, mode: str) -> Path:
    evil_dir = tmp_path / "evil"
    evil_dir.mkdir()
    evil = evil_dir / "python"
    evil.write_text(f"#!{sys.executable}\n" + (FIXTURES / "evil_python.py").read_text())
    evil.chmod(0o755)
    (evil_dir / "evil_mode").write_text(mode)
    return evil


@pytest.mark.parametrize(("mode", "code", "message"), [
    ("deep_manifest", 125, "unexpected answer from the remote manifest on"),
    ("huge_manifest", 255, "answered more than 32 MiB; refused"),
    ("deep_start", 125, "JSON nested more than 32 levels deep"),
    ("huge_start", 125, "... (20,000,000 bytes)"),
])
def test_a_hostile_remote_answer_too_deep_or_too_big_is_one_short_line(remote, tmp_path, mode,
                                                                      code, message):
    argv = remote.argv(*FAST, "count.py", "1", "0", "0")
    argv[argv.index("--remote-python") + 1] = str(_evil_python(tmp_path, mode))
    proc = subprocess.run(argv, cwd=remote.local, env=remote.server.client_env(),
                          capture_output=True, text=True, timeout=120)
    errors = [line for line in proc.stderr.splitlines() if line.startswith("safelaunch: ")]
    assert proc.returncode == code, proc.stderr[-2000:]
    assert len(errors) == 1 and message in errors[0], proc.stderr[-2000:]
    assert len(errors[0]) < 500 and "Traceback" not in proc.stderr


@pytest.mark.parametrize(("mode", "options", "message"), [
    ("no_end_follow", (), "follow stream on {host} ended 3 times without its end record "
                          "(exit status 3; its last stderr: 'RuntimeError: follow broke xxx"),
    ("silent_follow", ("--reconnect-timeout", "1"),
     "no word from the remote agent's follow stream on {host} for "),
])
def test_a_follow_stream_that_never_sends_its_end_record_is_one_short_line(remote, tmp_path,
                                                                          mode, options,
                                                                          message):
    """An agent whose follow exits without its end record, or never says a word, over a
    healthy link: one RemoteError (255), not "reconnecting" forever."""
    argv = remote.argv(*options, *FAST, "count.py", "1", "0", "0")
    argv[argv.index("--remote-python") + 1] = str(_evil_python(tmp_path, mode))
    proc = subprocess.run(argv, cwd=remote.local, env=remote.server.client_env(),
                          capture_output=True, text=True, timeout=180)
    errors = [line for line in proc.stderr.splitlines() if line.startswith("safelaunch: ")]
    assert proc.returncode == 255, proc.stderr[-2000:]
    assert len(errors) == 1, proc.stderr[-2000:]
    assert message.format(host=remote.host) in errors[0], errors[0]
    assert "reattach with: safelaunch remote" in errors[0] and len(errors[0]) < 800
    assert "\x1b" not in proc.stderr and "owned" not in proc.stderr
    assert no_job_left(f"{remote.remote_dir}/safelaunch_runs")


def test_the_hostile_follow_stream_ends_at_its_end_record(remote, tmp_path):
    """Escape sequences on the console, a 60 KB line of '[' and one of 1000 '{' on stderr,
    then the end record: followed to that end, the escapes made harmless."""
    argv = remote.argv(attach="")
    argv[argv.index("--remote-python") + 1] = str(_evil_python(tmp_path, "deep_follow"))
    proc = subprocess.run(argv, cwd=remote.local, env=remote.server.client_env(),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "reconnecting" not in proc.stderr
    assert "step 1" in proc.stdout and "owned" not in proc.stdout
    assert "\x1b[2J" not in proc.stdout and "\x1b[?1049h" not in proc.stdout


def test_attach_refuses_a_run_id_that_is_a_path(remote):
    code, _, err = remote.run(attach="../../etc")
    assert code == 2 and "--attach takes a run id" in err


def test_secret_arguments_reach_the_script_and_are_never_written_down(remote):
    """Issue 29 item 3: the remote job's spec, its run directory and the console mask a
    secret option's value; the script gets it whole."""
    code, out, err = remote.run(*FAST, "count.py", "1", "0", "0", "--api-token",
                                "tok-remote-31337", "--tokenizer", "gpt2")
    assert code == 0, err
    assert "ARGS=['--api-token', '<redacted>', '--tokenizer', 'gpt2']" in out
    assert "tok-remote-31337" not in out + err
    spec = next((remote.remote_dir / ".safelaunch" / "runs").glob("*/spec.json")).read_text()
    assert "tok-remote-31337" not in spec and "<redacted>" in spec
    run_dir = local_run_dir(remote, err)
    for path in run_dir.rglob("*"):
        if path.is_file():
            assert "tok-remote-31337" not in path.read_text(errors="replace"), path


class HandshakeCutter:
    """A TCP relay to the SSH server that cuts its first ``cuts`` connections once the server
    has sent its first bytes (its banner and key-exchange offer), as a link that drops a
    tenth of a second into the handshake does; later connections pass whole."""

    def __init__(self, upstream: int, cuts: int = 1) -> None:
        import socket

        self.upstream, self.cuts, self.connections = upstream, cuts, 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._open: list[object] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        import socket

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            server = socket.create_connection(("127.0.0.1", self.upstream))
            self._open += [client, server]
            if self.connections <= self.cuts:
                threading.Thread(target=self._cut_after_banner, args=(client, server),
                                 daemon=True).start()
                continue
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src, dst) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.shutdown(2)

    @staticmethod
    def _cut_after_banner(client, server) -> None:
        with contextlib.suppress(OSError):
            client.sendall(server.recv(64))  # the server's banner line, then nothing more
            client.recv(64)  # the client's banner: it is in the handshake now
        for sock in (client, server):
            with contextlib.suppress(OSError):
                sock.close()

    def close(self) -> None:
        for sock in [self.listener, *self._open]:
            with contextlib.suppress(OSError):
                sock.close()  # type: ignore[attr-defined]


def test_a_link_cut_during_the_first_handshake_is_tried_again(remote, server, tmp_path):
    cutter = HandshakeCutter(server.port, cuts=2)
    try:
        host = f"{getpass.getuser()}@127.0.0.1:{cutter.port}"
        env = server.other_client(tmp_path / "home")
        code, out, err = remote.run("--accept-new-host-key", *FAST, "count.py", "2", "0", "0",
                                    host=host, env=env)
    finally:
        cutter.close()
    assert code == 0, err
    assert "line 1" in out
    assert cutter.connections >= 3
    assert "cut during the SSH handshake" in err and "authentication failed" not in err
