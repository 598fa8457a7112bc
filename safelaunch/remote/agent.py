"""The remote half of ``safelaunch remote``: small commands run by the remote Python.

The local side sends this file's source inside each SSH command (compressed, as ``python3 -c``),
so nothing has to be installed on the remote machine for it to work, and it uses the standard
library only (Python 3.8 and newer).  Each subcommand answers with one JSON line on stdout,
except ``follow`` and ``send``, whose stdout is a byte stream:

    manifest DIR          size, mtime and mode of every file under DIR (and away with what
                          a killed receive left half-written)
    receive DIR           extract a tar stream from stdin into DIR, each file atomically
    check LIB             which Python, which safelaunch under LIB, which modules are missing
    start                 start the job described by a JSON spec on stdin, detached from SSH
                          (once: asked again for the same job, it answers with its pid)
    follow CTL OFFSET     the job's console from byte OFFSET until it ends; on stderr a
                          heartbeat every second and, at the end, {"end": ...}
    tail CTL N            the byte offset where the console's last N lines begin
    stop CTL              SIGTERM to the job (``safelaunch run`` then stops its ranks)
    send DIR [FILE...]    a tar stream of DIR (and FILEs, at the top) on stdout
    list ROOT             the jobs started under ROOT, oldest first, with their specs
    listen PORT SECONDS TOKEN
                          listen on PORT (0: a free one) until stdin closes or SECONDS pass,
                          sending TOKEN to every connection; says the port first
    reach HOST PORT TOKEN whether a TCP connection to HOST:PORT opens from here and the
                          listener there answers TOKEN (not a middlebox), and through
                          which local address and interface (every interface's IPv4 address
                          and the NCCL_SOCKET_IFNAME set here, for the NCCL interface check)
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tarfile
import time
from typing import IO, Any

CONSOLE = "console.log"
EXIT_FILE = "exit_code"
PID_FILE = "pid"
SPEC_FILE = "spec.json"
SKIP_TOP = (".safelaunch", "safelaunch_runs")
NEEDED_MODULES = ("click", "psutil", "yaml", "torch")
BEAT_SECONDS = 1.0
POLL_SECONDS = 0.05
PARTIAL_SUFFIX = ".safelaunch-"
PARTIAL = re.compile(r"^\..{1,255}\.safelaunch-(\d+)$")


def _path(text: str) -> str:
    return os.path.abspath(os.path.expanduser(text))


def _say(obj: object) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _write_atomic(path: str, text: str) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as handle:
        handle.write(text)
    os.replace(tmp, path)


def manifest(root: str) -> None:
    root = _path(root)
    files = {}
    for here, dirs, names in os.walk(root):
        rel_dir = os.path.relpath(here, root)
        if rel_dir == ".":
            dirs[:] = [d for d in dirs if d not in SKIP_TOP]
            rel_dir = ""
        for name in names:
            leftover = PARTIAL.match(name)
            if leftover:  # a receive that was killed mid-file: gone unless still writing
                if not _alive(int(leftover.group(1))):
                    with contextlib.suppress(OSError):
                        os.unlink(os.path.join(here, name))
                continue
            try:
                st = os.stat(os.path.join(here, name))
            except OSError:
                continue
            files[os.path.join(rel_dir, name)] = [st.st_size, int(st.st_mtime), st.st_mode & 0o777]
    _say({"root": root, "files": files})


def receive(root: str) -> None:
    count, size = extract(sys.stdin.buffer, _path(root))
    _say({"files": count, "bytes": size})


def extract(stream: IO[bytes], root: str) -> tuple[int, int]:
    """Unpack a tar stream under ``root``, each file under a temporary name renamed into
    place, so a reader never sees half a file; (files, bytes).  Also used on the local side
    for the run directory that comes back."""
    os.makedirs(root, exist_ok=True)
    count = size = 0
    with tarfile.open(fileobj=stream, mode="r|") as tar:
        for member in tar:
            name = os.path.normpath(member.name)
            if name.startswith(("/", "..")) or os.path.isabs(name):
                raise ValueError(f"refusing unsafe path {member.name!r}")
            target = os.path.join(root, name)
            if member.isdir():
                os.makedirs(target, exist_ok=True)
                continue
            if not member.isfile():
                continue
            source = tar.extractfile(member)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            tmp = os.path.join(os.path.dirname(target),
                               f".{os.path.basename(target)}{PARTIAL_SUFFIX}{os.getpid()}")
            with open(tmp, "wb") as out:
                while source is not None:
                    chunk = source.read(1 << 20)
                    if not chunk:
                        break
                    out.write(chunk)
            os.chmod(tmp, member.mode & 0o777)
            os.utime(tmp, (member.mtime, member.mtime))
            os.replace(tmp, target)
            count += 1
            size += member.size
    return count, size


def check(lib: str) -> None:
    lib = _path(lib)
    sys.path.insert(0, lib)
    version = None
    try:
        import safelaunch  # type: ignore[import-not-found,unused-ignore]

        if os.path.dirname(os.path.dirname(os.path.abspath(safelaunch.__file__))) == lib:
            version = safelaunch.__version__
    except Exception:
        version = None
    missing = [m for m in NEEDED_MODULES if importlib.util.find_spec(m) is None]
    torch = None
    try:
        from importlib import metadata

        torch = metadata.version("torch")
    except Exception:
        torch = None
    _say({"python": sys.version.split()[0], "executable": sys.executable,
          "safelaunch": version, "missing": missing, "torch": torch})


def start() -> None:
    spec = json.loads(sys.stdin.read())
    ctl = _path(spec["ctl"])
    spec_path = os.path.join(ctl, SPEC_FILE)
    if os.path.exists(spec_path):  # asked again after a lost answer: never start it twice
        _say_pid(ctl)
        return
    os.makedirs(ctl, exist_ok=True)
    # written down without the --env values and with the script's secret arguments masked
    shown = {k: v for k, v in spec.items() if k not in ("env", "shown_argv")}
    shown["argv"] = spec.get("shown_argv", spec["argv"])
    _write_atomic(spec_path, json.dumps(shown))
    first = os.fork()
    if first == 0:
        os.setsid()
        if os.fork() != 0:
            os._exit(0)
        _run_detached(spec, ctl)
        os._exit(0)
    os.waitpid(first, 0)
    _say_pid(ctl)


def _say_pid(ctl: str) -> None:
    pid_path = os.path.join(ctl, PID_FILE)
    deadline = time.monotonic() + 15
    while not os.path.exists(pid_path) and time.monotonic() < deadline:
        time.sleep(0.02)
    if not os.path.exists(pid_path):
        _say({"error": "the job did not start"})
        return
    with open(pid_path) as handle:
        _say({"pid": int(handle.read().split()[0]), "ctl": ctl})


def _run_detached(spec: dict[str, Any], ctl: str) -> None:
    """In the daemon: no terminal, no SSH pipes; run the job, then record its exit code."""
    for sig in (signal.SIGHUP, signal.SIGINT, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    devnull = os.open(os.devnull, os.O_RDWR)
    log = os.open(os.path.join(ctl, CONSOLE), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(devnull, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    env = dict(os.environ)
    env.update(spec.get("env") or {})
    lib = _path(spec["lib"])
    env["PYTHONPATH"] = lib + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"
    restore = {s: signal.SIG_DFL for s in (signal.SIGHUP, signal.SIGINT, signal.SIGPIPE)}
    code = 127
    try:
        proc = subprocess.Popen(spec["argv"], cwd=_path(spec["workdir"]), env=env,
                                stdin=devnull, stdout=log, stderr=log,
                                preexec_fn=lambda: [signal.signal(s, h)
                                                    for s, h in restore.items()])
    except OSError as exc:
        os.write(log, f"safelaunch: error: cannot start {spec['argv'][0]}: {exc}\n".encode())
        _write_atomic(os.path.join(ctl, PID_FILE), f"{os.getpid()} {os.getpid()}\n")
    else:
        _write_atomic(os.path.join(ctl, PID_FILE), f"{proc.pid} {os.getpid()}\n")
        code = proc.wait()
        if code < 0:
            code = 128 - code
    _write_atomic(os.path.join(ctl, EXIT_FILE), f"{code}\n")


def _alive(pid: int) -> bool:
    """Running, not merely a zombie (a container's PID 1 often never reaps orphans)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _ended(ctl: str) -> dict[str, Any] | None:
    try:
        with open(os.path.join(ctl, EXIT_FILE)) as handle:
            return {"exit_code": int(handle.read().strip())}
    except (OSError, ValueError):
        pass
    try:
        with open(os.path.join(ctl, PID_FILE)) as handle:
            waiter = int(handle.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    if _alive(waiter) or os.path.exists(os.path.join(ctl, EXIT_FILE)):
        return None
    return {"lost": True}


def follow(ctl: str, offset: str) -> None:
    ctl = _path(ctl)
    if not os.path.isdir(ctl):
        sys.stderr.write(json.dumps({"end": {"unknown": True}}) + "\n")
        return
    out = sys.stdout.buffer
    position = int(offset)
    last_beat = 0.0
    handle = None
    while True:
        if handle is None and os.path.exists(os.path.join(ctl, CONSOLE)):
            handle = open(os.path.join(ctl, CONSOLE), "rb")  # noqa: SIM115 - kept open
            handle.seek(position)
        ended = _ended(ctl)  # read before the data, so no line written after it is missed
        data = handle.read(1 << 16) if handle is not None else b""
        if data:
            out.write(data)
            out.flush()
            position += len(data)
            continue
        if ended is not None:
            sys.stderr.write(json.dumps({"end": ended, "offset": position}) + "\n")
            sys.stderr.flush()
            return
        now = time.monotonic()
        if now - last_beat >= BEAT_SECONDS:
            sys.stderr.write(json.dumps({"beat": position}) + "\n")
            sys.stderr.flush()
            last_beat = now
        time.sleep(POLL_SECONDS)


def tail(ctl: str, count: str) -> None:
    """The byte offset where the console's last ``count`` lines begin."""
    wanted = int(count)
    try:
        handle = open(os.path.join(_path(ctl), CONSOLE), "rb")  # noqa: SIM115 - closed below
    except OSError:
        _say({"offset": 0})
        return
    with handle:
        end = position = handle.seek(0, os.SEEK_END)
        if wanted <= 0:
            _say({"offset": end})
            return
        seen = 0
        while position > 0:
            step = min(1 << 16, position)
            position -= step
            handle.seek(position)
            block = handle.read(step)
            # a final line without its newline counts as a line too
            skip = 1 if position + step == end and block.endswith(b"\n") else 0
            for index in range(len(block) - 1 - skip, -1, -1):
                if block[index] == 10:
                    seen += 1
                    if seen == wanted:
                        _say({"offset": position + index + 1})
                        return
    _say({"offset": 0})


def stop(ctl: str) -> None:
    ctl = _path(ctl)
    try:
        with open(os.path.join(ctl, PID_FILE)) as handle:
            pid = int(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        _say({"stopped": False, "why": "no such job"})
        return
    if os.path.exists(os.path.join(ctl, EXIT_FILE)) or not _alive(pid):
        _say({"stopped": False, "why": "the job had already ended"})
        return
    os.kill(pid, signal.SIGTERM)
    _say({"stopped": True, "pid": pid})


def send(root: str, *extra: str) -> None:
    root = _path(root)
    with tarfile.open(fileobj=sys.stdout.buffer, mode="w|") as tar:
        if os.path.isdir(root):
            tar.add(root, arcname=".")
        for path in map(_path, extra):
            if os.path.isfile(path):
                tar.add(path, arcname=os.path.basename(path))
    sys.stdout.flush()


def list_jobs(root: str) -> None:
    runs = os.path.join(_path(root), ".safelaunch", "runs")
    jobs = []
    for name in sorted(os.listdir(runs)) if os.path.isdir(runs) else []:
        ctl = os.path.join(runs, name)
        try:
            with open(os.path.join(ctl, SPEC_FILE)) as handle:
                spec = json.load(handle)
        except (OSError, ValueError):
            continue
        jobs.append({"id": name, "ended": _ended(ctl), "spec": spec})
    _say({"jobs": jobs})


def listen(port: str, seconds: str, token: str) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("", int(port)))
        sock.listen(64)
    except (OSError, ValueError) as exc:
        _say({"error": getattr(exc, "strerror", None) or str(exc)})
        return
    _say({"port": sock.getsockname()[1]})
    deadline = time.monotonic() + min(float(seconds), 600.0)
    while time.monotonic() < deadline:
        ready, _, _ = select.select([sock, sys.stdin], [], [], deadline - time.monotonic())
        if sock in ready:
            with contextlib.suppress(OSError):
                peer = sock.accept()[0]
                peer.settimeout(2.0)
                peer.sendall(token.encode() + b"\n")
                peer.close()
        if sys.stdin in ready and not os.read(sys.stdin.fileno(), 4096):
            break
    sock.close()


def reach(host: str, port: str, token: str) -> None:
    try:
        conn = socket.create_connection((host, int(port)), timeout=5)
    except (OSError, ValueError) as exc:
        _say({"error": getattr(exc, "strerror", None) or str(exc) or type(exc).__name__})
        return
    address = conn.getsockname()[0]
    answer = b""
    try:
        conn.settimeout(5)
        while len(answer) <= len(token) and not answer.endswith(b"\n"):
            data = conn.recv(256)
            if not data:
                break
            answer += data
    except OSError:
        pass
    conn.close()
    if answer.strip() != token.encode():
        _say({"error": "something else answered there (a proxy or another service), not "
                       "the first host's check"})
        return
    interfaces = _interfaces()
    _say({"ok": True, "address": address,
          "interface": next((name for name, ip in interfaces if ip == address), None),
          "interfaces": interfaces, "nccl_socket_ifname": os.environ.get("NCCL_SOCKET_IFNAME")})


def _interfaces() -> list[list[str]]:
    """(name, IPv4 address) of every interface that has one, in the kernel's order."""
    found: list[list[str]] = []
    try:
        import fcntl
        import struct

        names = socket.if_nameindex()
    except (ImportError, OSError):
        return found
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _, name in names[:256]:
            request = struct.pack("256s", name.encode()[:15])
            try:
                reply = fcntl.ioctl(probe.fileno(), 0x8915, request)  # SIOCGIFADDR
            except OSError:
                continue  # no IPv4 address
            found.append([name, socket.inet_ntoa(reply[20:24])])
    finally:
        probe.close()
    return found


COMMANDS = {"manifest": manifest, "receive": receive, "check": check, "start": start,
            "follow": follow, "tail": tail, "stop": stop, "send": send, "list": list_jobs,
            "listen": listen, "reach": reach}


def main(argv: list[str]) -> None:
    COMMANDS[argv[0]](*argv[1:])  # type: ignore[operator]


if __name__ == "__main__":
    main(sys.argv[1:])
