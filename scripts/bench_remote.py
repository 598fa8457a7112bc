"""Benchmark: ``safelaunch remote`` against a real OpenSSH server on loopback.

    python scripts/bench_remote.py [--cuts 3] [--down 3] [--files 1000]

1. reconnect: a remote job prints a line every 50 ms; the SSH server is stopped (every
   session killed, nothing listening) for DOWN seconds, then started again; measured is the
   time from the server being reachable again to the first new line on the local console,
   and whether every line arrived exactly once.  Raw ``ssh HOST torchrun ...`` gets the same
   cut once, for comparison: its job dies with the session and the rest of the output is lost.
2. sync: a tree of FILES small files; the first and second ``sync_tree`` (the second with
   nothing changed), and ``scp -r`` of the same tree (it has no notion of unchanged files).

Needs ``sshd``, ``ssh``, ``scp`` and ``ssh-keygen`` (the openssh-server and -client packages).
"""

from __future__ import annotations

import argparse
import getpass
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from safelaunch.console import Console  # noqa: E402
from safelaunch.remote.calls import Agent  # noqa: E402
from safelaunch.remote.ssh import connect, resolve_target  # noqa: E402
from safelaunch.remote.sync import sync_tree  # noqa: E402
from sshd import Lines, SshServer  # noqa: E402

TICKER = """\
import sys, time
for i in range(int(sys.argv[1])):
    print(f"tick {i}", flush=True)
    time.sleep(0.05)
"""


def bench_reconnect(server: SshServer, work: Path, cuts: int, down: float) -> list[float]:
    project = work / "project"
    project.mkdir(exist_ok=True)
    (project / "ticker.py").write_text(TICKER)
    total = int((cuts * (down + 6) + 6) / 0.05)
    proc = subprocess.Popen(
        [sys.executable, "-m", "safelaunch", "remote", "--host",
         f"{getpass.getuser()}@127.0.0.1:{server.port}", "--remote-dir", str(work / "remote"),
         "--remote-python", sys.executable, "--sync", str(project), "--nproc", "1",
         "--no-minimal-test", "--no-preflight", "ticker.py", str(total)],
        cwd=work, env=server.client_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = Lines(proc.stdout), Lines(proc.stderr)
    out.wait_for("tick 20")
    latencies = []
    for _ in range(cuts):
        server.stop()
        time.sleep(down)
        server.start()
        up = time.monotonic()
        before = len([1 for at, line in out.items if at < up and "tick" in line])
        resumed = out.wait_for(f"tick {before}", after=up)
        latencies.append(resumed - up)
        time.sleep(2)
    proc.wait(timeout=300)
    out.join()
    err.join()
    ticks = [line for _, line in out.items if "] tick " in line]
    exact = ticks == [f"[rank0] tick {i}" for i in range(total)]
    print(f"  safelaunch remote: exit {proc.returncode}, {len(ticks)} of {total} lines, "
          f"each exactly once: {exact}")
    return latencies


def bench_raw_ssh(server: SshServer, work: Path, down: float) -> str:
    key = server.home / ".ssh" / "id_ed25519"
    known = server.home / ".ssh" / "known_hosts"
    total = 400
    command = (f"cd {work / 'project'} && {sys.executable} -m torch.distributed.run "
               f"--nproc-per-node 1 ticker.py {total}")
    proc = subprocess.Popen(
        ["ssh", "-i", str(key), "-o", f"UserKnownHostsFile={known}", "-o", "BatchMode=yes",
         "-p", str(server.port), f"{getpass.getuser()}@127.0.0.1", command],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = Lines(proc.stdout)
    out.wait_for("tick 20")
    server.stop()
    time.sleep(down)
    server.start()
    proc.wait(timeout=60)
    out.join()
    time.sleep(1)
    alive = subprocess.run(["pgrep", "-f", f"ticker.py {total}"], capture_output=True).stdout
    ticks = len([1 for _, line in out.items if "tick" in line])
    return (f"exit {proc.returncode}, {ticks} of {total} lines, job still running after the "
            f"cut: {bool(alive.strip())}")


def bench_sync(server: SshServer, work: Path, files: int) -> None:
    tree = work / "tree"
    for i in range(files):
        path = tree / f"pkg{i // 50:02d}" / f"mod{i:04d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# module {i}\n" + "x = 1\n" * 150)
    os.environ["HOME"] = str(server.home)
    target = resolve_target(f"{getpass.getuser()}@127.0.0.1:{server.port}")
    conn = connect(target)
    agent = Agent(conn, sys.executable)
    quiet = Console(muted=True).notice
    first = sync_tree(agent, tree, str(work / "synced"), progress=quiet)
    seconds = []
    for _ in range(3):
        result = sync_tree(agent, tree, str(work / "synced"), progress=quiet)
        assert result.sent == 0
        seconds.append(result.seconds)
    conn.close()
    scp = []
    for n in range(3):
        t0 = time.monotonic()
        subprocess.run(["scp", "-q", "-r", "-i", str(server.home / ".ssh" / "id_ed25519"),
                        "-o", f"UserKnownHostsFile={server.home / '.ssh' / 'known_hosts'}",
                        "-P", str(server.port), str(tree),
                        f"{getpass.getuser()}@127.0.0.1:{work / f'scp{n}'}"], check=True)
        scp.append(time.monotonic() - t0)
    print(f"  {files} files, {first.bytes_sent / 1e6:.1f} MB")
    print(f"  first sync_tree: {first.seconds:.2f} s ({first.sent} sent)")
    print(f"  second sync_tree, nothing changed: median {statistics.median(seconds):.2f} s "
          f"(runs {', '.join(f'{s:.2f}' for s in seconds)})")
    ratio = statistics.median(seconds) / statistics.median(scp)
    print(f"  scp -r of the same tree: median {statistics.median(scp):.2f} s "
          f"(ratio unchanged-sync / scp: {ratio:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=3)
    parser.add_argument("--down", type=float, default=3.0)
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        server = SshServer(work / "server", work / "home")
        server.trust()
        server.start()
        try:
            print(f"reconnect ({args.cuts} cuts, server down {args.down:g} s each):")
            latencies = bench_reconnect(server, work, args.cuts, args.down)
            print(f"  server reachable -> stream resumed: "
                  f"{', '.join(f'{s:.2f}' for s in latencies)} s "
                  f"(max {max(latencies):.2f} s)")
            print(f"  raw ssh + torchrun, same cut: {bench_raw_ssh(server, work, args.down)}")
            print("sync:")
            bench_sync(server, work, args.files)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
