"""Start two ranks the way ``srun`` does: each task directly, outputs merged on one console.

    python scripts/zoo/ranks.py [--label] --port P script.py

With ``--label`` every line gets the task number in front (``0: ...``), as ``srun --label``
writes it; without, the ranks' lines interleave unprefixed, as plain ``srun`` or ``mpirun``
show them.  Exits with the first non-zero status of a task (what ``srun`` reports).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time


def pump(proc: subprocess.Popen[bytes], label: str, lock: threading.Lock) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        with lock:
            sys.stdout.buffer.write(label.encode() + line)
            sys.stdout.buffer.flush()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--label", action="store_true")
    parser.add_argument("--port", required=True)
    parser.add_argument("script")
    args = parser.parse_args()
    lock = threading.Lock()
    procs, threads = [], []
    for rank in range(2):
        env = {**os.environ, "RANK": str(rank), "LOCAL_RANK": str(rank), "WORLD_SIZE": "2",
               "LOCAL_WORLD_SIZE": "2", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": args.port}
        proc = subprocess.Popen([sys.executable, args.script], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        thread = threading.Thread(target=pump, args=(proc, f"{rank}: " if args.label else "",
                                                     lock))
        thread.start()
        procs.append(proc)
        threads.append(thread)
    codes: dict[int, int] = {}
    while len(codes) < len(procs):  # srun reports each failing task as it ends
        for task, proc in enumerate(procs):
            code = proc.poll()
            if code is None or task in codes:
                continue
            codes[task] = code
            if code > 0:
                print(f"srun: error: trainer: task {task}: Exited with exit code {code}",
                      file=sys.stderr, flush=True)
            elif code < 0:
                what = {-9: "Killed", -11: "Segmentation fault", -15: "Terminated"}
                print(f"srun: error: trainer: task {task}: {what.get(code, 'Aborted')}",
                      file=sys.stderr, flush=True)
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    sys.exit(next((code for code in codes.values() if code != 0), 0) % 256)


if __name__ == "__main__":
    main()
