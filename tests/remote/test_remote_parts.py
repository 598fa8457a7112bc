"""The pure parts of ``safelaunch remote``: host spellings, ssh config, which files a sync
sends, how run options travel, and the whole-line offset of the console stream."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from safelaunch.cli import remote_command
from safelaunch.console import Console
from safelaunch.errors import UsageError
from safelaunch.option_table import RUN_DESTS
from safelaunch.options import forwarded_argv
from safelaunch.remote.ssh import resolve_target, split_host
from safelaunch.remote.stream import Follower
from safelaunch.remote.sync import local_files


@pytest.mark.parametrize(("spec", "parts"), [
    ("box", (None, "box", None)),
    ("me@box", ("me", "box", None)),
    ("me@10.0.0.2:2222", ("me", "10.0.0.2", 2222)),
    ("[::1]:2200", (None, "::1", 2200)),
    ("root@[fe80::1]", ("root", "fe80::1", None)),
    ("a@b@host:22", ("a@b", "host", 22)),
])
def test_split_host(spec, parts):
    assert split_host(spec) == parts


@pytest.mark.parametrize("spec", ["", "me@", "host:port", "host:0", "host:70000", "[::1]x"])
def test_split_host_rejects(spec):
    with pytest.raises(UsageError):
        split_host(spec)


def test_ssh_config_is_honoured_and_explicit_values_win(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    config = tmp_path / "config"
    config.write_text("Host gpu\n  HostName 203.0.113.7\n  User ubuntu\n  Port 40022\n"
                      "  IdentityFile ~/.ssh/vast\n  ProxyCommand nc -X connect %h %p\n"
                      "  UserKnownHostsFile ~/.ssh/vast_known\n"
                      "Host *\n  User fallback\n")
    target = resolve_target("gpu", config)
    assert (target.hostname, target.user, target.port) == ("203.0.113.7", "ubuntu", 40022)
    assert target.identity_files == (str(tmp_path / ".ssh" / "vast"),)
    assert target.proxy_command == "nc -X connect 203.0.113.7 40022"
    assert target.known_hosts == (tmp_path / ".ssh" / "vast_known",)
    assert target.key_name == "[203.0.113.7]:40022"
    other = resolve_target("root@gpu:22", config, identity=("k",))
    assert (other.user, other.port, other.key_name) == ("root", 22, "203.0.113.7")
    assert other.identity_files[0] == "k"
    assert resolve_target("elsewhere", config).user == "fallback"
    assert not target.accept_new_host_key


def test_strict_host_key_checking_accept_new_in_ssh_config(tmp_path):
    config = tmp_path / "config"
    config.write_text("Host vast\n  StrictHostKeyChecking accept-new\n"
                      "Host strict\n  StrictHostKeyChecking yes\n")
    assert resolve_target("vast", config).accept_new_host_key
    assert not resolve_target("strict", config).accept_new_host_key


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_sync_skips_what_git_would_and_run_directories(tmp_path):
    _tree(tmp_path, {
        "train.py": "", ".gitignore": "*.log\nbuild/\n/top-only.txt\n",
        "a.log": "", "build/out.bin": "", "sub/top-only.txt": "", "top-only.txt": "",
        "sub/.gitignore": "!keep.log\nlocal/\n", "sub/keep.log": "", "sub/drop.log": "",
        "sub/local/x.py": "", "sub/code.py": "",
        ".git/HEAD": "", ".git/info/exclude": "secret.txt\n", "secret.txt": "",
        "safelaunch_runs/r/summary.json": "", ".safelaunch/x": "",
        "pkg/__pycache__/m.cpython-311.pyc": "", "pkg/m.py": "",
        "venv/pyvenv.cfg": "", "venv/lib/site.py": "",
    })
    sent = [f.rel for f in local_files(tmp_path)]
    assert sent == [".gitignore", "pkg/m.py", "sub/.gitignore", "sub/code.py", "sub/keep.log",
                    "sub/top-only.txt", "train.py"]
    assert [f.rel for f in local_files(tmp_path, ("sub/",))] == [".gitignore", "pkg/m.py",
                                                                 "train.py"]


def test_sync_sends_links_inside_the_tree_and_never_one_that_leads_out(tmp_path):
    _tree(tmp_path, {"real/data.txt": "hello", "code/train.py": "", "code/cfg/base.yaml": "a"})
    os.symlink(tmp_path / "real" / "data.txt", tmp_path / "code" / "data.txt")
    os.symlink("/etc/passwd", tmp_path / "code" / "passwd")
    os.symlink("cfg/base.yaml", tmp_path / "code" / "config.yaml")  # relative, inside
    os.symlink("../../real/data.txt", tmp_path / "code" / "cfg" / "up.txt")
    os.symlink(tmp_path / "code", tmp_path / "code" / "loop")
    os.symlink("missing", tmp_path / "code" / "dangling")
    outside: list[str] = []
    files = {f.rel: f for f in local_files(tmp_path / "code", outside=outside)}
    assert sorted(files) == ["cfg/base.yaml", "config.yaml", "train.py"]
    assert files["config.yaml"].size == 1
    assert sorted(outside) == ["cfg/up.txt", "data.txt", "passwd"]


def test_sync_of_a_file_is_a_usage_error(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(UsageError):
        local_files(tmp_path / "f")


def test_run_options_travel_as_arguments(monkeypatch):
    monkeypatch.setenv("SAFELAUNCH_HANG_TIMEOUT", "300")
    ctx = remote_command.make_context("remote", [
        "--host", "h", "--nproc", "4", "--no-minimal-test", "--console-ranks", "3,0",
        "--standalone", "--grace-period", "2.5", "train.py", "--lr", "1"])
    argv = forwarded_argv(ctx, RUN_DESTS)
    assert argv == ["--nproc", "4", "--standalone", "--console-ranks", "0,3",
                    "--grace-period", "2.5", "--hang-timeout", "300.0", "--no-minimal-test"]
    assert ctx.params["script_args"] == ("--lr", "1")


def test_one_host_one_instance_or_several_targets():
    from safelaunch.cli import _targets

    one = _targets(["h"], ())
    assert (one.host, one.vast_instance, one.hosts, one.several, one.total) == (
        "h", None, (), False, 1)
    vast = _targets([], (7,))
    assert (vast.host, vast.vast_instance, vast.vast_instances, vast.several) == (
        None, 7, (), False)
    many = _targets(["a", "b"], ())
    assert (many.host, many.hosts, many.several, many.total) == (None, ("a", "b"), True, 2)
    mixed = _targets(["a"], (7, 8))
    assert (mixed.host, mixed.vast_instance) == ("a", None)
    assert (mixed.hosts, mixed.vast_instances, mixed.several, mixed.total) == (
        ("a",), (7, 8), True, 3)


def test_env_pairs_need_an_identifier_and_an_equals_sign():
    from safelaunch.cli import _env_pairs

    assert _env_pairs(("A=1", "B=x=y", "C=")) == {"A": "1", "B": "x=y", "C": ""}
    for bad in ("NOEQUALS", "1A=2", "=3", "A-B=1"):
        with pytest.raises(UsageError, match="expected KEY=VALUE"):
            _env_pairs((bad,))


@pytest.mark.parametrize(("given", "message"), [
    ({"attach": "x", "script": "s.py"}, "--attach follows an existing run"),
    ({"attach": "", "detach": True}, "--attach follows an existing run"),
    ({"tail": 3, "script": "s.py"}, "--tail goes with --attach"),
    ({}, "missing SCRIPT"),
    ({"script": "s.py", "after": True}, "need --vast-instance"),
])
def test_remote_modes_that_mean_nothing_are_refused(given, message):
    from safelaunch.cli import _check_remote_modes

    modes = {"script": None, "detach": False, "attach": None, "tail": None, "after": False,
             "vast": False, **given}
    with pytest.raises(UsageError, match=message):
        _check_remote_modes(**modes)


@pytest.mark.parametrize("given", [
    {"script": "s.py"}, {"script": "s.py", "detach": True}, {"attach": ""},
    {"attach": "run-1", "tail": 5}, {"script": "s.py", "after": True, "vast": True},
])
def test_remote_modes_that_make_sense_pass(given):
    from safelaunch.cli import _check_remote_modes

    modes = {"script": None, "detach": False, "attach": None, "tail": None, "after": False,
             "vast": False, **given}
    _check_remote_modes(**modes)


class _Sink(Console):
    def __init__(self) -> None:
        super().__init__(muted=True)
        self.data = b""

    def rank_output(self, stream: str, data: bytes) -> None:
        self.data += data


def test_the_stream_offset_counts_whole_lines_only():
    sink = _Sink()
    follower = Follower(agent=Any, ctl="c", console=sink, connect=Any,  # type: ignore[arg-type]
                        reconnect_timeout=1, attach_hint="")
    for chunk in (b"one\ntw", b"o\nthr", b"ee"):
        follower._take(chunk)
    assert sink.data == b"one\ntwo\n"
    assert follower.offset == len(b"one\ntwo\n")  # "three" is sent again after a reconnect
    follower._take(b"x" * 70_000)  # a huge line without an end is not held forever
    assert follower.offset == len(b"one\ntwo\nthree") + 70_000


def test_a_hostfile_takes_hosts_and_refuses_shell():
    from safelaunch.errors import UsageError
    from safelaunch.remote.several import parse_hostfile

    text = "# cluster\nnode-a slots=8\n\n  root@10.0.0.2:2222  # second\n"
    assert parse_hostfile(text, "hosts") == ["node-a", "root@10.0.0.2:2222"]
    with pytest.raises(UsageError, match="hosts:2: not a host"):
        parse_hostfile("ok\n$(reboot)\n", "hosts")
    with pytest.raises(UsageError, match="more than"):
        parse_hostfile("\n".join(f"h{i}" for i in range(100)), "hosts")


def test_the_merged_exit_code_is_the_global_root_causes():
    from safelaunch.remote.several import merged_exit_code

    root_on_1 = {"root_cause_rank": 1, "ranks": [{"global_rank": 1}]}
    told = {"root_cause_rank": 1, "ranks": [{"global_rank": 0}]}
    assert merged_exit_code([0, 0], [None, None]) == 0
    assert merged_exit_code([137, 137], [told, root_on_1]) == 137
    assert merged_exit_code([1, 3], [told, root_on_1]) == 3
    assert merged_exit_code([0, None], [None, None]) == 255  # a node never said
    assert merged_exit_code([None, 3], [None, {"ranks": "junk"}]) == 3


def test_node_consoles_prefix_every_line_with_the_node():
    import os

    from safelaunch.console import Console
    from safelaunch.remote.several import NodeConsole

    read, write = os.pipe()
    NodeConsole(Console(out_fd=write), 2).rank_output(
        "out", b"[rank3] step 1\n[rank3]: Traceback\n[safelaunch] stopping\n")
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        assert pipe.read() == (b"[node2 rank3] step 1\n[node2 rank3]: Traceback\n"
                               b"[node2] [safelaunch] stopping\n")


@pytest.mark.parametrize(("names", "chosen"), [
    (["lo", "eth0", "ib0"], "ib0"),
    (["lo", "docker0", "eth0", "wg0"], "eth0"),
    (["lo", "docker0"], "docker0"),
    (["lo"], "lo"),
    ([], None),
])
def test_the_interface_nccl_picks_by_itself(names, chosen):
    from safelaunch.remote.several import nccl_default_interface

    assert nccl_default_interface(names) == chosen


# A hostile --remote-python (tests/fixtures/evil_python.py) answering through the real agent
# command line, run by a local shell instead of sshd: the same bytes reach Agent.call.
EVIL_HOST = SimpleNamespace(target=SimpleNamespace(name="evil-host"))


def _evil_agent(tmp_path: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    import subprocess
    import sys

    from safelaunch.remote import calls

    evil_dir = tmp_path / "evil"
    evil_dir.mkdir()
    evil = evil_dir / "python"
    fixture = Path(__file__).parents[1] / "fixtures" / "evil_python.py"
    evil.write_text(f"#!{sys.executable}\n" + fixture.read_text())
    evil.chmod(0o755)
    (evil_dir / "evil_mode").write_text(mode)

    def local_run(conn: Any, command: str, stdin: Any = None, timeout: float = 0
                  ) -> tuple[int, bytes, bytes]:
        done = subprocess.run(["sh", "-c", command], input=stdin or b"", capture_output=True,
                              timeout=60, check=False)
        return done.returncode, done.stdout, done.stderr

    monkeypatch.setattr(calls, "run", local_run)
    return calls.Agent(EVIL_HOST, str(evil))  # type: ignore[arg-type]


@pytest.mark.usefixtures("spawn")  # runs an evil python
@pytest.mark.parametrize(("mode", "call", "message"), [
    ("deep_manifest", ("manifest", "/nonexistent"), "JSON nested more than 32 levels deep"),
    ("deep_start", ("start",), "JSON nested more than 32 levels deep"),
    ("huge_start", ("start",), "'xxxxxxxx"),
])
def test_a_hostile_agent_answer_is_bounded_and_quoted_short(tmp_path, monkeypatch, mode, call,
                                                            message):
    from safelaunch.errors import StartError

    agent = _evil_agent(tmp_path, mode, monkeypatch)
    with pytest.raises(StartError) as raised:
        agent.call(*call, stdin=b"{}")
    text = raised.value.message
    assert message in text and "evil-host" in text and len(text) < 400, text[:1000]
    assert "\n" not in text


def test_an_answer_past_the_size_limit_is_refused_while_reading(monkeypatch):
    from safelaunch.errors import RemoteError
    from safelaunch.remote import calls

    class Firehose:
        eof_received = closed = False
        received = 0

        def fileno(self) -> int:
            return 0

        def recv_ready(self) -> bool:
            return True

        def recv(self, size: int) -> bytes:
            self.received += size
            return b"[" * size

        def recv_stderr_ready(self) -> bool:
            return False

    monkeypatch.setattr(calls, "MAX_REPLY_BYTES", 1 << 20)
    hose = Firehose()
    with pytest.raises(RemoteError, match="evil-host answered more than 1 MiB; refused"):
        calls.drain(hose, 5.0, "evil-host")  # type: ignore[arg-type]
    assert hose.received <= (1 << 20) + calls.READ_CHUNK


def test_reply_json_is_bounded_in_depth_and_size():
    from safelaunch.remote.replies import MAX_DEPTH, load_json, nesting, quoted

    assert nesting(b'{"files": {"a[{": [1, 2, "\\"[["]}}') == 3
    assert nesting(b'"\\\\"[[]]') == 2  # an escaped backslash ends the string
    assert nesting(b"[" * 200_000) > MAX_DEPTH
    assert nesting(b"[[]" * 100_000) > MAX_DEPTH  # deep without long runs of '['
    assert load_json(b"[" * MAX_DEPTH + b"]" * MAX_DEPTH) is not None
    for bad in (b"[" * 200_000, b"{\"a\":" * 5_000, b'"' + b"[" * 100_000):
        with pytest.raises(ValueError):
            load_json(bad)
    shown = quoted(b"x" * 50_000_000)
    assert len(shown) < 200 and shown.endswith("... (50,000,000 bytes)")
    assert len(quoted({"a": ["y" * 10_000] * 10_000})) < 200


def test_a_deep_control_line_in_the_follow_stream_is_junk():
    follower = Follower(agent=Any, ctl="c", console=_Sink(),  # type: ignore[arg-type]
                        connect=Any, reconnect_timeout=1, attach_hint="")
    assert follower._control(b"[" * 60_000) is None
    assert follower._control(b'{"end": {"exit_code": 3}}') == {"exit_code": 3}


def test_a_hostile_listen_answer_or_manifest_is_one_remote_error():
    from safelaunch.errors import RemoteError
    from safelaunch.remote.replies import manifest
    from safelaunch.remote.several import _json_line

    with pytest.raises(RemoteError, match="unexpected answer") as raised:
        _json_line(b"[" * 60_000, "evil-host")
    assert len(raised.value.message) < 300
    with pytest.raises(RemoteError, match="invalid file list"):
        manifest({"files": [1, 2]}, "evil-host")
    assert manifest({"files": {"a": [1, 2, 3], "b": 5}}, "h") == {"a": [1, 2, 3]}


class _FakeChannel:
    """A follow channel that plays ``events`` in order: ("out", data), ("err", data) or
    ("out", an exception to raise); after the last, ``recv`` times out, or reads the end of
    the stream when ``eof``."""

    def __init__(self, events: list[tuple[str, Any]], eof: bool = False,
                 status: int = -1) -> None:
        self.events = list(events)
        self.eof = eof
        self.status = status
        self.closed = False

    def settimeout(self, timeout: float) -> None:
        pass

    def _next(self, kind: str) -> bool:
        return bool(self.events) and self.events[0][0] == kind

    def recv_stderr_ready(self) -> bool:
        return self._next("err")

    def recv_ready(self) -> bool:
        if self._next("gap"):  # data still on its way: not ready this once
            self.events.pop(0)
            return False
        return self._next("out")

    @property
    def eof_received(self) -> bool:
        return self.eof and not self.events

    def recv_stderr(self, size: int) -> bytes:
        return self.events.pop(0)[1]

    def recv(self, size: int) -> bytes:
        if self._next("out"):
            item = self.events.pop(0)[1]
            if isinstance(item, BaseException):
                raise item
            return item
        if self.eof and not self.events:
            return b""
        raise TimeoutError

    def exit_status_ready(self) -> bool:
        return self.eof

    def recv_exit_status(self) -> int:
        return self.status

    def close(self) -> None:
        self.closed = True


def _follower_on(chan: _FakeChannel, clock: Any = None) -> tuple[Follower, _Sink]:
    agent = SimpleNamespace(open=lambda *args: chan,
                            conn=SimpleNamespace(is_active=lambda: not chan.eof))
    sink = _Sink()
    follower = Follower(agent=agent, ctl="c", console=sink,  # type: ignore[arg-type]
                        connect=Any, reconnect_timeout=1, attach_hint="",  # type: ignore[arg-type]
                        sleep=lambda seconds: None)
    if clock is not None:
        follower.clock = clock
    return follower, sink


def test_following_ends_at_the_end_record_with_the_output_sent_before_it():
    chan = _FakeChannel([("out", b"one\ntw"), ("err", b'{"heartbeat": 1}\n{"en'),
                         ("out", b"o\nthr"), ("err", b'd": {"exit_code": 3}}\n'),
                         ("out", b"ee")])
    follower, sink = _follower_on(chan)
    assert follower._follow_once() == {"exit_code": 3}
    assert sink.data == b"one\ntwo\nthree" and follower.offset == len(b"one\ntwo\nthree")
    assert chan.closed


def test_the_console_bytes_the_end_record_counts_are_awaited():
    # sshd passed the agent's stderr (the end record) on before the last of its stdout
    chan = _FakeChannel([("out", b"one\n"), ("err", b'{"end": {"exit_code": 0}, "offset": 14}\n'),
                         ("gap", None), ("gap", None), ("out", b"two\nthree\n")])
    follower, sink = _follower_on(chan)
    assert follower._follow_once() == {"exit_code": 0}
    assert sink.data == b"one\ntwo\nthree\n" and follower.offset == 14
    # an end record without an offset (an older agent, an unknown job) waits for nothing
    chan = _FakeChannel([("out", b"one\n"), ("err", b'{"end": {"exit_code": 0}}\n'),
                         ("gap", None), ("gap", None), ("out", b"two\n")])
    follower, sink = _follower_on(chan)
    assert follower._follow_once() == {"exit_code": 0} and sink.data == b"one\n"


def test_a_control_line_too_long_to_be_one_is_dropped():
    chan = _FakeChannel([("err", b"x" * 70_000), ("err", b'\n{"end": {"lost": true}}\n')])
    follower, _ = _follower_on(chan)
    assert follower._follow_once() == {"lost": True}


def test_a_dropped_link_or_a_stream_without_its_end_is_followed_again():
    chan = _FakeChannel([("out", b"a\nb"), ("out", EOFError())])
    follower, sink = _follower_on(chan)
    assert follower._follow_once() is None
    assert sink.data == b"a\n" and follower.offset == 2 and chan.closed
    follower, sink = _follower_on(_FakeChannel([("out", b"c\n")], eof=True))
    assert follower._follow_once() is None and sink.data == b"c\n"


def test_silence_past_the_limit_is_a_dropped_link():
    ticks = iter(range(1000))
    chan = _FakeChannel([("out", b"a\n")])
    follower, sink = _follower_on(chan, clock=lambda: float(next(ticks)))
    assert follower._follow_once() is None
    assert sink.data == b"a\n"
    assert 5 < next(ticks) < 12  # gave up soon after SILENCE_LIMIT seconds without a word


# An agent whose follow never sends its end record while the link is up (issue: `safelaunch
# remote` reconnected forever).  The follower plays one fake channel per follow.
END_LESS = [("err", b'{"beat": 0}\nTraceback (most recent call last):\n'
                    b"RuntimeError: \x1b]0;owned\x07\x1b[2Jfollow broke " + b"x" * 500 + b"\n")]


def _follower_over(channels: list[_FakeChannel], alive: bool = True, clock: Any = None,
                   timeout: float = 600) -> tuple[Follower, list[str]]:
    """A follower whose agent opens ``channels`` in turn over a transport that stays up
    (``alive``) or is down after each; a reconnect is only counted."""
    opened = iter(channels)
    agent = SimpleNamespace(open=lambda *args: next(opened),
                            conn=SimpleNamespace(is_active=lambda: alive,
                                                 target=SimpleNamespace(name="evil-host")))
    follower = Follower(agent=agent, ctl="c", console=_Sink(),  # type: ignore[arg-type]
                        connect=Any, reconnect_timeout=timeout,  # type: ignore[arg-type]
                        attach_hint="safelaunch remote --attach r1",
                        sleep=lambda seconds: None)
    if clock is not None:
        follower.clock = clock
    reconnects: list[str] = []
    follower.reconnect = lambda: reconnects.append("again")  # type: ignore[method-assign]
    return follower, reconnects


def test_a_follow_that_keeps_ending_without_its_end_record_is_one_short_error():
    from safelaunch.errors import RemoteError
    from safelaunch.remote.stream import MAX_ENDS_WITHOUT_RECORD

    channels = [_FakeChannel(END_LESS, eof=True, status=3) for _ in range(10)]
    follower, reconnects = _follower_over(channels)
    with pytest.raises(RemoteError) as raised:
        follower.run()
    text = raised.value.message
    assert sum(chan.closed for chan in channels) == MAX_ENDS_WITHOUT_RECORD == 3
    assert reconnects == []  # the link was up: followed again on it, not "reconnected"
    assert text.startswith("the remote agent's follow stream on evil-host ended 3 times "
                           "without its end record (exit status 3; its last stderr: "
                           "'RuntimeError: follow broke xxx"), text
    assert text.endswith("reattach with: safelaunch remote --attach r1")
    assert "\n" not in text and "\x1b" not in text and "owned" not in text
    assert len(text) < 400


def test_new_console_bytes_restart_the_count_and_a_dropped_link_is_not_counted():
    def ending(out: bytes = b"") -> _FakeChannel:
        return _FakeChannel([("out", out)] * bool(out) + END_LESS, eof=True, status=1)

    def last() -> _FakeChannel:
        return _FakeChannel([("out", b"done\n"), ("err", b'{"end": {"exit_code": 0}}\n')])

    channels = [ending(), ending(), ending(b"a\n"), ending(), ending(b"b\n"), ending(), last()]
    follower, reconnects = _follower_over(channels)
    assert follower.run() == {"exit_code": 0}
    assert follower.console.data == b"a\nb\ndone\n"  # type: ignore[attr-defined]
    assert reconnects == []
    # the transport down: a dropped link, however the stream stopped, reconnected each time
    dropped = [_FakeChannel([("out", EOFError())]), ending(), ending(), ending(), ending()]
    follower, reconnects = _follower_over([*dropped, last()], alive=False)
    assert follower.run() == {"exit_code": 0} and len(reconnects) == 5


def test_an_agent_silent_on_every_new_connection_is_given_up_after_the_reconnect_timeout():
    from safelaunch.errors import RemoteError

    ticks = iter(range(10_000))
    channels = [_FakeChannel([]) for _ in range(10)]
    follower, reconnects = _follower_over(channels, clock=lambda: float(next(ticks)),
                                          timeout=20)
    with pytest.raises(RemoteError, match="no word from the remote agent's follow stream on "
                                          "evil-host for .* though the link was up again "
                                          r"\d+ time\(s\) \(nothing on its stderr\)"):
        follower.run()
    assert 1 <= len(reconnects) < 10
    # a heartbeat is word from the agent: a quiet job over a link that keeps dropping goes on
    ticks = iter(range(10_000))
    beating = [_FakeChannel([("err", b'{"beat": 7}\n')]) for _ in range(8)]
    last = _FakeChannel([("err", b'{"end": {"exit_code": 0}}\n')])
    follower, reconnects = _follower_over([*beating, last], clock=lambda: float(next(ticks)),
                                          timeout=20)
    assert follower.run() == {"exit_code": 0} and len(reconnects) == 8


def test_an_end_record_that_lacks_only_its_newline_still_ends_the_follow():
    chan = _FakeChannel([("out", b"a\nb"), ("err", b"[" * 70_000 + b'\n{"end": {"exit_code": 4}}')],
                        eof=True, status=0)
    follower, sink = _follower_on(chan)
    assert follower._follow_once() == {"exit_code": 4}
    assert sink.data == b"a\nb"


def test_a_login_cut_by_the_link_is_a_drop_not_a_refused_key(tmp_path):
    import paramiko

    from safelaunch.errors import LinkLost, RemoteError
    from safelaunch.remote.ssh import _mapped

    config = tmp_path / "ssh_config"
    config.write_text("")
    target = resolve_target("root@gpu:22", config)
    failed = paramiko.AuthenticationException("Authentication failed.")
    refused = _mapped(failed, target, ["k"], alive=True)
    assert type(refused) is RemoteError and "authentication failed" in str(refused)
    cut = _mapped(failed, target, ["k"], alive=False)
    assert isinstance(cut, LinkLost) and "cut during the SSH handshake" in str(cut)
    for raised in (EOFError(), ConnectionResetError(104, "Connection reset by peer"),
                   paramiko.SSHException("Error reading SSH protocol banner")):
        assert isinstance(_mapped(raised, target, [], alive=False), LinkLost), raised
    refused_tcp = _mapped(ConnectionRefusedError(111, "Connection refused"), target, [],
                          alive=False)
    assert type(refused_tcp) is RemoteError and "Connection refused" in str(refused_tcp)


def test_keep_connecting_retries_only_what_it_is_told():
    from safelaunch.errors import LinkLost, RemoteError
    from safelaunch.remote.ssh import keep_connecting

    now = [0.0]
    answers: list[BaseException | str] = [LinkLost("cut"), LinkLost("cut"), "connected"]

    def connect():
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def sleep(seconds: float) -> None:
        now[0] += seconds

    assert keep_connecting(connect, 10.0, 0.5, 2.0, clock=lambda: now[0], sleep=sleep,
                           retry=(LinkLost,)) == "connected"
    assert now[0] == 1.5  # 0.5 s, then 1 s
    answers[:] = [RemoteError("authentication failed"), "connected"]
    with pytest.raises(RemoteError, match="authentication failed"):
        keep_connecting(connect, 10.0, 0.5, 2.0, clock=lambda: now[0], sleep=sleep,
                        retry=(LinkLost,))
