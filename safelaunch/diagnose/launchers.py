"""What each launcher writes around the ranks' output: rank prefixes, failure reports.

Rank prefixes (they may be stacked, outermost first): ``srun --label`` (``1: ``), mpirun's
``--tag-output`` (``[1,1]<stderr>:``, SageMaker's ``[1,mpirank:1,algo-1]<stderr>:``,
horovodrun's ``[1]<stderr>:``),
torch's excepthook (``[rank1]:``), torchrun's ``--tee`` (``[default1]:``) and safelaunch's
console (``[rank1] ``).  Prefixes that name no
rank are unwrapped too: the glog header torch >= 2.5's elastic agent puts on every line it
re-prints (``E0227 12:00:00.123000 1234 .../api.py:732] ``) and Ray's ``(pid=...)``,
``(raylet)`` and ``(RayTrainWorker pid=..., ip=...)``, and pytest's ``E       `` before the
lines of a failed test's exception.

A failure is also recognised from its shape wherever it is (``failure_lines``): a Python
exception line (also one typed with a space before its colon, and the ``raise X(...)`` line
of a traceback quoted without its exception), an argparse error, a failed build step
(ninja's ``FAILED:``, ``nvcc fatal``), an error-level glog line, a killed, aborted or crashed
process, a non-zero exit or signal reported by a launcher, a cancelled or OOM-killed Slurm
job, a worker Ray killed, a GPU nvidia-smi has lost; quoted or not (the backticks, quotes,
``>`` and emphasis marks a log pasted into an issue or a chat picks up are skipped).  A
traceback whose exception line was cut off still shows a failure (``frame_lines``).

Failure reports give the root-cause rank and its exit code or signal: torchrun's
``ChildFailedError`` table (its root-cause entry, old and new layouts), the elastic agent's
``failed (exitcode: -11) local_rank: 1`` line, DeepSpeed's ``Process N exits with return code``
(with the pid taken from its ``process N spawned with command`` line), ``srun: error: ...
task 1: ...``, ``torch.multiprocessing.spawn``'s ``process 1 terminated with signal SIGKILL``
(also what Lightning's own launcher raises), Python's ``CalledProcessError`` (``Command
'[...]' died with <Signals.SIGKILL: 9>.``, which ``accelerate launch`` raises) and the shell's
``Segmentation fault``/``Killed``.  A pod Kubernetes reports ``OOMKilled`` is a failure, and
an OOM kill on record, like Slurm's and the kernel's.
Any of them, a Python traceback or a ``Signal 9 (SIGKILL) received by PID`` makes a log a
failing one.
"""

from __future__ import annotations

import itertools
import re
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from safelaunch.diagnose.kb import Fact

SRUN_LABEL = re.compile(r"^ {0,4}(\d{1,5}): ")
GLOG = re.compile(r"^\[?[IWEF]\d{4} \d\d:\d\d:\d\d(?:\.\d{1,9})? {1,8}(?:\d{1,10} )?"
                  r"[^\]\n]{1,300}\] ")
RAY = re.compile(r"^\((?:[\w.-]{1,100} )?(?:pid=\d{1,10}(?:, ip=[\w.:]{1,64})?|raylet)\)"
                 r" ?")
LEVELLED = re.compile(r"^(?:[IWEDF]|INFO|WARNING|ERROR|DEBUG|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d"
                      r"(?:\.\d{1,6})? \[?[\w./-]{1,200}:\d{1,6}\] ?")
"""A level, a month-day time and a source line before the message: SkyPilot's and vLLM's
loggers (``E 05-04 00:53:16 backend_utils.py:998]``, ``INFO 07-16 13:25:31 [core.py:96]``)."""
LEVELLED_ERROR = re.compile(r"(?:^|[\s)\]])(?:E|ERROR|CRITICAL|F) \d\d-\d\d \d\d:\d\d:\d\d"
                            r"(?:\.\d{1,6})? \[?[\w./-]{1,200}:\d{1,6}\]")
"""Such a line at an error level (after a rank's or Ray's prefix)."""
AGGREGATED = re.compile(r"^\[\d{1,9} similar log lines?\] ")
"""Monarch's count of the processes that printed the same line (``[8 similar log lines] ``)."""
COMMENTED = re.compile(r"^#{1,2} (?=\S)")
"""A log pasted with a shell comment's mark before every line."""
PYTEST = re.compile(r"^E {3,10}(?=\S)")
"""pytest's mark on the lines of a failed test's exception (``E       ValueError: ...``)."""
STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d) ")
"""An RFC 3339 time stamp on every line: kubectl logs --timestamps, docker logs -t."""
HOSTED = re.compile(r"^(?:\d{1,3}(?:\.\d{1,3}){3}|(?=[\w.-]{0,250}\d)[a-z][a-z0-9-]{0,62}"
                    r"(?:\.[a-z0-9-]{1,63}){0,6})(?<!\.py)(?<!\.sh): (?=\S)")
"""pdsh's host before every line (DeepSpeed's multi-node runner: ``worker-1: ``,
``10.0.0.3: ``): an address, or a lower-case host name with a digit in it (not a script's
name before argparse's ``error:``)."""
TAGGED = re.compile(r"^(?:\[(?:\d{1,9},(?:mpirank:)?)?(\d{1,6})(?:,[\w.-]{1,64})?\]"
                    r"<std(?:out|err)>:"
                    r"|\[(?:rank|default) ?(\d{1,6})\](?::|\s)) ?")
ROOT_CAUSE_BLOCK = re.compile(
    r"Root Cause \(first observed failure\):[ \t]*\n\[\d+\]:[ \t]*\n"
    r"(?P<body>(?:[ \t]+[^\n]*\n?){1,40})")
NO_OTHER_FAILURES = re.compile(r"Failures:[ \t]*\n[ \t]*<NO_OTHER_FAILURES>[ \t]*\n")
SEVERAL_NODES = re.compile(
    r"--nnodes[= ](?:\d{1,4}:)?(?:[2-9]|[1-9]\d{1,4})\b|--node[-_]rank[= ][1-9]|NODE_RANK=[1-9]"
    r"|\bnnodes=(?:[2-9]|[1-9]\d{1,4})\b|\bmax_nodes=(?:[2-9]|[1-9]\d{1,4})\b")
"""A launch of several nodes: torchrun's flags, the environment, its agent's logged config."""
GLOO_PEER = re.compile(r"(?:closed|reset) by peer \[([^\]\n]{1,100})\]")
LOOPBACK = re.compile(r"127\.\d{1,3}\.\d{1,3}\.\d{1,3}$|::1$|localhost$")
MAX_PEER_LINES = 1000
NO_OTHER_FAILURES_BEFORE = 400
"""How far before its root-cause block a table's ``Failures:`` section begins, at most (a
line of dashes and the heading between them)."""
FIELD = re.compile(r"^[ \t]*(\w+)[ \t]*:([^\n]*)$", re.MULTILINE)  # values: strip()
ELASTIC_FAILED = re.compile(
    r"failed \(exitcode: (-?\d+)\) local_rank: (\d+) \(pid: \d+\) of binary")
DEEPSPEED_SPAWN = re.compile(r"process (\d+) spawned with command: \[[^\n]{0,3000}?"
                             r"'--local_rank=(\d+)'")
DEEPSPEED_EXIT = re.compile(r"exits with return code = (-?\d+)")
DEEPSPEED_WHO = re.compile(r"Process (\d+) $|'--local_rank=(\d+)'\] $")
SRUN_TASK = re.compile(r"srun: error: (?:[\w.-]{1,255}: )?tasks? (\d{1,6})(?:-\d{1,6})?: "
                       r"([A-Za-z ]{1,40}?)(?: with exit code (\d{1,4}))?$", re.MULTILINE)
SRUN_SIGNALS = {"Killed": -9, "Segmentation fault": -11, "Terminated": -15, "Aborted": -6,
                "Bus error": -7}
SAFELAUNCH_ROOT = re.compile(r"^ {0,8}(\d{1,6}) +FAILED (?:exit (-?\d{1,12})|(SIG[A-Z0-9]{1,12})"
                             r"|signal (\d{1,3}))[^\n]{0,40}<- root cause", re.MULTILINE)
SAFELAUNCH_TABLE = " safelaunch summary "
SAFELAUNCH_TABLE_END = "\nFAILED (exit code "
SAFELAUNCH_FAILED_ROW = re.compile(r"^ {0,8}\d{1,6} +FAILED ", re.MULTILINE)
SAFELAUNCH_OK_ROW = re.compile(r"^ {0,8}\d{1,6} +ok ", re.MULTILINE)
TABLE_CHARS = 200_000
"""How far from its root-cause row the summary table's head and end are looked for (a row is
one line of at most a few hundred characters; a job has at most a few hundred ranks a node)."""
SAFELAUNCH_NOT_OOM = "sent from outside safelaunch: no OOM record"
OOM_KILLED = r"OOMKilled(?![\"']?\s{0,4}[:=]\s{0,4}[\"']?(?i:false)\b)"
OOM_RECORD = (re.compile(r"Detected \d{1,6} oom[-_]kill events?"),
              re.compile(r"ut of memory: Killed process \d"), re.compile(OOM_KILLED),
              re.compile(r"exceeded (?:virtual )?memory limit \(\d{1,20} > \d{1,20}\), being "
                         r"killed"),
              re.compile(r"Exceeded (?:job|step) memory limit(?! at some point)"))
"""The kernel's or the cgroup's own record of an OOM kill, as Slurm, dmesg or Kubernetes
(``Reason: OOMKilled``; not a healthy state's ``"OOMKilled": false``) quote it, and Slurm's
memory accounting killing a step over its ``--mem``; not Slurm 15-17's "Exceeded step memory
limit at some point", its note on a step whose cgroup touched the limit, killed or not (each
begins with literal text: a 100 MB log is searched at memchr speed)."""
SRUN_TERMINATING = re.compile(
    r"srun: (?:launch/slurm: _step_signal: )?Terminating StepId=(\d{1,12}(?:\.\d{1,12})?)")
STEP_CANCELLED = re.compile(
    r"\*\*\* STEP (\d{1,12}(?:\.\d{1,12})?)\S{0,12} ON [^\n]{1,200}? CANCELLED AT")
JOB_CANCELLED = re.compile(r"\*\*\* JOB \d{1,12} ON [^\n]{1,200}? CANCELLED AT")
DEATH_SIGNAL = re.compile(r"Received (?:\d{1,3}|Signals\.SIG[A-Z]{2,8}) death signal")
SIGNAL_RECEIVED = re.compile(r"Signal (\d+) \(SIG\w+\) received by PID")
CALLED_PROCESS = re.compile(r"CalledProcessError: Command '[^\n]{1,3000}?' (?:died with "
                            r"<Signals\.(SIG[A-Z0-9]{1,12}): \d{1,3}>"
                            r"|returned non-zero exit status (\d{1,4}))\.")
"""Python's ``CalledProcessError`` as raised (not a command a library merely reports failed),
which wrappers that run the launcher or a rank with ``subprocess.run(check=True)`` raise
(``accelerate launch`` among them); the last one counts: the wrapper raises at the end."""
SPAWN_EXITED = re.compile(r"process (\d{1,6}) terminated with (?:signal (SIG[A-Z0-9]{1,12})"
                          r"|exit code (-?\d{1,4}))")
PALS_RANK = re.compile(r"^[\w.-]{1,255}: rank (\d{1,6}) (?:died from signal (\d{1,3})"
                       r"|exited with code ([1-9]\d{0,3}))$", re.MULTILINE)
"""HPE PALS's mpiexec (Polaris, Aurora, Cray EX): how each rank ended, the first line the
first to end."""
PALS_WORDS = (" died from signal ", " exited with code ")
HYDRA_BANNER = "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES"
HYDRA_EXIT = re.compile(r"^=   EXIT CODE: (\d{1,4})$", re.MULTILINE)
HYDRA_SIGNAL = re.compile(r"EXIT STRING: [^\n]{0,60}\(signal (\d{1,3})\)")
"""MPICH's and Intel MPI's mpiexec (Hydra): the banner over a rank that ended badly, with its
exit code, and the signal that ended it where it names one (``Killed (signal 9)``)."""
TRACEBACK = "Traceback (most recent call last)"
FAILING_TEXTS = ("ChildFailedError", "Fatal Python error",
                 "Segmentation fault", "(core dumped)", "terminate called after throwing",
                 "srun: error: ", "received by PID", "ProcessExitedException",
                 "ProcessRaisedException")
# Each starts with literal text, so the regex engine scans for it at memchr speed.
FAILING_LINES = [re.compile(r"\nKilled\n"), re.compile(r"exits with return code = -?[1-9]"),
                 re.compile(r"failed \(exitcode: -?[1-9]"), OOM_RECORD[2]]


def label_style(text: str) -> bool:
    """Whether most lines carry ``srun --label``'s task number (checked on a sample)."""
    lines = [line for line in text[:200_000].splitlines()[:2000] if line.strip()]
    labelled = sum(1 for line in lines if SRUN_LABEL.match(line))
    return bool(lines) and labelled * 2 > len(lines)


def strip_prefixes(line: str, labels: bool) -> tuple[int | None, str]:
    """The rank a line belongs to (None: unknown) and the line without its prefixes."""
    rank: int | None = None
    if labels and (match := SRUN_LABEL.match(line)):
        rank, line = int(match.group(1)), line[match.end():]
    for _ in range(4):
        if match := TAGGED.match(line):
            rank, line = int(match.group(1) or match.group(2)), line[match.end():]
        elif match := (GLOG.match(line) or RAY.match(line) or PYTEST.match(line)
                       or STAMP.match(line) or LEVELLED.match(line) or COMMENTED.match(line)
                       or AGGREGATED.match(line) or HOSTED.match(line)):
            line = line[match.end():]
        else:
            break
    return rank, line


LOWERCASE_EXCEPTIONS = r"socket\.(?:timeout|gaierror|herror)"
"""Exception classes Python names in lower case (the socket module's)."""
WRAPPED_TYPE = r"(?:\([A-Z]\w{0,100}\))?"
"""The type a wrapping exception names after its own: Ray's ``RayTaskError(ValueError):``."""


# What a failure looks like on one line, once its prefixes are gone.  CANDIDATE finds the
# lines worth a look (in a long log, only with its words that the log's line shapes hold);
# SHAPES decide on the line alone.
CANDIDATE_PARTS = (
    "Error", "Exception", "error", "Killed", "CANCELLED", "fault", "dumped", "Abort", "abort",
    "exitcode", "exit code", "return code", "Out Of Memory", "oom", "Failure", "terminate",
    "died", "killed", "device handle", r"E\d{4} ", r"\[E ", "FAILED", "fatal", "build stopped",
    "FATAL", "Fatal", "exit status", "exited with", "exception", "Illegal instruction",
    "Assertion", r"E \d\d-\d\d ", r"ERROR \d\d-\d\d ", r"CRITICAL \d\d-\d\d ",
    # a module's class with no Error or Exception in its name (those are found by their words
    # above: this part then occurs in few logs' line shapes, and a long log is scanned for it
    # only where it does)
    r"\.[A-Z][a-z]\w{0,100}(?<!Error)(?<!Exception)(?<!Failure): ",
    LOWERCASE_EXCEPTIONS + ": ",
    "socket has failed to", "socket has timed out", "ERR!", "MPI_ABORT was invoked",
    "non-zero", "exited on signal", "BAD TERMINATION", "going to abort", "MPICH ERROR",
    "ERROR", "CRITICAL", r"F\d{4} ", r"\[F ", r"\[E\] ", "Check failed", "panic: ")
CANDIDATE = re.compile("|".join(CANDIDATE_PARTS))
_CANDIDATE_PARTS = tuple(re.compile(part) for part in CANDIDATE_PARTS)


@lru_cache(maxsize=64)
def _candidates(parts: tuple[str, ...]) -> re.Pattern[str] | None:
    return re.compile("|".join(parts)) if parts else None


def candidates_in(shapes: str | None) -> re.Pattern[str] | None:
    """``CANDIDATE`` reduced to the alternatives that occur in a log's distinct line shapes
    (none: no line is worth a look).  Python's regex engine tries each alternative at every
    position, so a long log is scanned several times faster for the few that occur."""
    if shapes is None:
        return CANDIDATE
    occurring = zip(CANDIDATE_PARTS, _CANDIDATE_PARTS, strict=True)
    return _candidates(tuple(part for part, regex in occurring if regex.search(shapes)))


SHAPES = [
    # a typed one may have a space before its colon: ValueError : ...
    re.compile(r"^(?:[A-Za-z_][\w.]{0,200}\.)?(?:[A-Z]\w{0,100}(?:Error|Exception|Failure)"
               r"|Exception)" + WRAPPED_TYPE + r" ?(?::|$)"),
    # any class of a module, with a message: pyarrow.lib.ArrowInvalid: ...,
    # torch._dynamo.exc.Unsupported: ..., socket.timeout: timed out (Ray's
    # RayTaskError(ValueError): wraps the worker's own exception type)
    # (a message, not a setting's value: config dumps print "socket.timeout: 30")
    re.compile(r"^[a-z_]\w{0,60}(?:\.\w{1,60}){0,8}\.(?:[A-Z][a-z]\w{0,100}" + WRAPPED_TYPE
               + r"|timeout|gaierror|herror): [^\d\s.-]"),
    # a class a C++ binding (a private module) names in lower camel case
    # (nixl._bindings.nixlBackendError: NIXL_ERR_BACKEND; not a setting's key in a config
    # dump, "widget.config.lastError: none")
    re.compile(r"^[a-z_]\w{0,60}(?:\.\w{1,60}){0,7}\._\w{1,60}\.[a-z]\w{0,60}"
               r"(?:Error|Exception): \S"),
    # quoted in a sentence: I get "RuntimeError: ...", 报错：RuntimeError: ..., "[ValueError : ..."
    re.compile(r"[\"'`(\[\uff1a](?:\w{1,40}\.){0,5}[A-Z]\w{0,60}(?:Error|Exception) ?: "),
    # the source line of a traceback frame that raised, quoted without the exception after it
    re.compile(r"^raise (?:\w{1,40}\.){0,5}[A-Z]\w{0,60}(?:Error|Exception)\("),
    # a build that failed: ninja's failed step, nvcc's fatal error, ninja giving up
    re.compile(r"^FAILED: \S{1,300}\.(?:o|so)\b|^nvcc fatal|^ninja: build stopped"),
    # argparse; not slurmstepd, whose "error:" lines are also its notes on runs that go on
    # (a TMPDIR it could not create, a process gone before it read its status): its failures
    # have shapes of their own (CANCELLED AT, an OOM kill, a memory limit, srun's task exit)
    re.compile(r"^(?!slurmstepd: )[\w.-]{1,200}: error: "),
    # an error level in brackets, also after a tool's own tags (TensorRT-LLM's
    # "[TensorRT-LLM][ERROR] ..."; not after a time stamp: a logger's record of an error a run
    # may recover from, a failure only where the log ends, LATE_SHAPES)
    re.compile(r"^(?:(?:ERROR|CRITICAL)[: ]|(?:\[[A-Za-z][\w .:-]{0,39}\] ?){0,3}\[ERROR\] "
               r"|Fatal Python error|terminate called )"),
    # MPICH's and Intel MPI's abort (MPI_Init and every MPI call's fatal error); HPE Cray
    # MPICH's error line before its abort; Hydra's banner over a rank that ended badly; Open
    # MPI's end of a job it cannot run
    re.compile(r"^Abort\(\d{1,12}\) on node \d{1,6}(?: \(rank \d{1,6} in comm \d{1,6}\))?: "
               r"Fatal error in |^MPICH ERROR \[Rank \d{1,6}\]|^=   BAD TERMINATION OF ONE OF "
               r"YOUR APPLICATION PROCESSES|^Your MPI job is now going to abort"),
    # a program's own last word: "Error: ...", "FATAL: ...", "error: ..." (words, not numbers)
    re.compile(r"^(?:Error|error|FATAL|Fatal error|Fatal): [A-Za-z`'\"\[/]"),
    # a logger's report of what nobody caught (OLMo's "CRITICAL Uncaught AssertionError: ...");
    # a library that tells the process to end (libfabric's EFA provider)
    # (each alternative a pattern of its own that starts with a letter, the word's boundary
    # checked behind it: Python's engine then skips to that letter instead of trying every
    # alternative at every position, several times faster on a long line)
    re.compile(r"U(?<!\wU)ncaught (?:exception\b|[A-Z]\w{0,60}(?:Error|Exception):)"),
    re.compile(r"w(?<!\ww)ill now abort\b"),
    # the kernel's, the C library's and glog's ends of a process
    re.compile(r"^(?:Floating point exception|Illegal instruction|Killed$|Aborted|Bus error"
               r"|\*\*\* (?:Aborted at \d|SIG[A-Z]{2,8} \(@))"),
    re.compile(r": Assertion [`'][^\n]{1,300}' failed\."),
    re.compile(r"Segmentation fault"),
    re.compile(r"\(core dumped\)"),
    # Ray's actor that failed in its constructor (its __init__ raised: the actor is dead,
    # whatever its traceback that follows shows)
    re.compile(r"^Exception raised in creation task: The actor died"),
    # glog's CHECK (the process aborts after it: torch's and Ray's C++ code), at a message's
    # start or after its source location; Go's panic (an operator's or a tool's end)
    re.compile(r"^(?:Check failed: \S|panic: \S)"),
    re.compile(r"\.(?:cc|cpp|cu|h):\d{1,6}\]?:? Check failed: \S"),
    # oneCCL's error level (its log's "|CCL_ERROR| file.cpp:N ...")
    re.compile(r"CCL_ERROR\| ?\S"),
    # a compiler's error (gcc, clang, nvcc: file:line:col: [fatal ]error: ...)
    re.compile(r"^(?:\S{1,300}:\d{1,7}:(?:\d{1,5}:)? (?:fatal )?error|fatal error): [^\d\s]"),
    # torch's store sockets: the server could not listen, a client gave up (the client's
    # "failed to connect" is a warning it retries after, not a failure)
    re.compile(r"The server socket has failed to (?:listen|bind)|The client socket has timed "
               r"out after"),
    # nccl-tests finding wrong results; nvidia-smi reading a GPU in an error state
    re.compile(r"Out of bounds values : [1-9]\d{0,12} FAILED|\|[ \t]{0,40}ERR![ \t]{0,40}\|"),
    re.compile(r"failed \(exitcode: -?[1-9]|exitcode {0,4}: -?[1-9]|return code = -?[1-9]"
               r"|died with <Signals|non-zero exit (?:status|code)|exit code [1-9]"
               r"|Exited with exit code"
               # Open MPI's mpirun (the report's first line, and a rank killed by a signal;
               # its banner when a rank called MPI_Abort, Horovod's and TensorRT-LLM's end)
               r"|exited with non-zero status|exited on signal \d|MPI_ABORT was invoked on rank"
               r"|exit status [1-9]|exited with (?:status|code) [1-9]"
               # HPE PALS's mpiexec (rank N died from signal 9)
               r"|: rank \d{1,6} died from signal \d"),
    re.compile(r"CANCELLED AT|oom[-_]kill event|: Out Of Memory|killed due to memory pressure"
               r"|xceeded (?:job |step |virtual )?memory limit(?! at some point)"
               rf"|{OOM_KILLED}|A worker died or was killed|Unable to determine the device handle"),
]
# A shape whose pattern starts with ``^`` has every alternative anchored at the line's start
# (tests/diagnose/test_regex_linear.py checks it): those are tried as one pattern, which
# fails at a line's first character, instead of one call each on every line looked at.
_AT_START = re.compile("|".join(f"(?:{shape.pattern})" for shape in SHAPES
                                if shape.pattern.startswith("^")))
_ANYWHERE = tuple(shape for shape in SHAPES if not shape.pattern.startswith("^"))
LATE_SHAPES = [
    # a logger's error level after its time stamp: Python logging's "... - ERROR - ...",
    # DeepSpeed's "[...] [ERROR] [...]", loguru's "... | ERROR | ...", Ray's "...,618\tERROR
    # tune.py:773 -- ..." (a tab after its time stamp); Hydra's end of a job
    re.compile(r"^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[.,\d]{0,10}\]?(?: ?[-|] ?|[ \t])"
               r"(?:(?!\[?(?:INFO|DEBUG|WARNING|WARN|NOTICE|TRACE)\b)[\w.\[\]-]{1,100}"
               r"(?: ?[-|] ?|[ \t]))?\[?(?:ERROR|CRITICAL|FATAL)\]?(?: ?[-|:]|[ \t])"
               r"|^Error executing job with overrides: "),
    # bash's report of a child a signal ended ("run.sh: line 5: 4242 Killed  python ...");
    # not "Terminated": a script's own kill of a helper it started (tensorboard, a server)
    re.compile(r"^\S{1,300}: line \d{1,7}: {1,8}\d{1,10} {1,40}(?:Killed|Aborted"
               r"|Segmentation fault|Bus error|Illegal instruction)\b"),
    # TensorRT's and TensorRT-LLM's Python loggers ("[09/25/2023-10:15:20] [TRT] [E] ...",
    # "[TRT-LLM] [E] ..."): their error level, which TensorRT also prints at a teardown it
    # goes on from
    re.compile(r"^(?:\[[\w .:/-]{1,40}\] ?){1,3}\[E\] "),
]
"""Shapes that show a failure only among a log's last ``LATE_LINES`` lines: runs that work
log errors they recover from (a full connection pool, a sample skipped), and a launch script
reports the helper it killed; where the log ends at such a line, the run ended there."""
LATE_HARMLESS = re.compile(r"\bservices\.py:\d{1,6} -- Failed to start the dashboard\b"
                           r"|\[defaultAllocator\.cpp::deallocate::\d{1,6}\]")
"""Error-level lines of a tool's own side service that the job runs without (Ray's
dashboard, which a Ray without its ``default`` extra cannot start), and TensorRT's allocator
complaining as it tears a context down (NVIDIA/TensorRT#2852)."""
LATE_LINES = 30
UNLESS_QUIET_SHAPES = [
    # the dynamic loader refusing a library for a symbol, the line pasted without its
    # ImportError: Linux's ld.so and macOS's dyld (not "cannot open shared object file":
    # libraries probe for optional ones and go on; not bitsandbytes' CPU library, which
    # misses GPU symbols in runs that never use them)
    re.compile(r"^(?:Symbol not found: \S|Library not loaded: \S|(?!\S{0,300}libbitsandbytes)"
               r"\S{1,500}\.(?:so|dylib)(?:\.[\w.]{1,20})?: undefined symbol: \S)"),
]
"""Shapes that show a failure only among a log's last ``LATE_LINES`` lines, on a line no
level, warning or retry calls harmless (``QUIET``)."""
END_SHAPES = [
    # an exception a tool printed after its own prefix ("[12:00:00] widget: RuntimeError:
    # ...", "... | widget | ValueError: ..."; a message, not a metric's value), and a tool's
    # "Training failed: ..." (not a count: "Tests failed: 0"); an OSError printed without its
    # type ("[Errno 2] No such file or directory: ...")
    re.compile(r"^[^\n]{0,300}?[:|\]] (?:[a-z_]\w{0,40}\.){0,6}[A-Z]\w{0,60}(?:Error|Exception)"
               r": [^\d\s.-]|^[A-Z][\w-]{0,40}(?: [\w-]{1,40})? failed: [^\d\s]"
               r"|^\[Errno \d{1,5}\] [A-Z]"),
    # bash's report of a command it could not find in a script, where the log ends: a step
    # of the job script that did not run (not earlier: setup scripts probe for tools)
    # (an option or an override run as a command, or a launcher not found: not a tool a
    # script calls after the job, "deactivate: command not found")
    re.compile(r"^\S{1,300}: ?line \d{1,7}: (?:--?[A-Za-z][\w.-]{0,100}(?:=\S{0,200})?"
               r"|[A-Za-z_][\w.]{0,100}=\S{0,200}|python3?|torchrun|srun|mpirun|deepspeed"
               r"|accelerate|safelaunch): command not found$"),
    # Ray's C++ components logging at their error level ("[2023-09-29 11:00:15,624 E 2740790
    # 2740790] core_worker.cc:203: Failed to register worker ...", newer Ray naming the
    # component after the bracket: "] (raylet) node_manager.cc:..."), where the log ends: a
    # worker or raylet that gave up (earlier: errors Ray recovers from, lost objects rebuilt;
    # not the raylet's disk check, which repeats its error every few seconds of a run that
    # goes on with /tmp nearly full)
    re.compile(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[,.]\d{3,6} E \d{1,10} \d{1,10}\] "
               r"(?:\(\w{1,40}\) )?(?!file_system_monitor\.cc:)"
               r"[\w.-]{1,100}\.(?:cc|h|cpp):\d{1,6}: \S"),
    # torch's own messages of an error, quoted without their exception where the log ends (an
    # issue's title, a sentence): ATen's, autograd's and DDP's checks (not earlier: a run that
    # catches one and prints it, print(e), goes on)
    re.compile(r"^[\"'`]?(?:The size of tensor a \(\d{1,12}\) must match the size of tensor b"
               r"|Expected all tensors to be on the same device"
               r"|mat1 and mat2 shapes cannot be multiplied"
               r"|Trying to backward through the graph a second time"
               r"|[Oo]ne of the variables needed for gradient computation has been modified by "
               r"an inplace operation"
               r"|element 0 of tensors does not require grad and does not have a grad_fn"
               r"|Output \d{1,4} of \w{1,100} is a view and its base or another view of its "
               r"base has been modified inplace"
               r"|Expected to have finished reduction in the prior iteration"
               r"|Error\(s\) in loading state_dict for "
               r"|Sizes of tensors must match except in dimension"
               r"|Input type \(\S{1,60}\) and weight type \(\S{1,60}\) should be the same"
               r"|[Ee]xpected scalar type \w{1,40} but found \w{1,40})"),
]
"""Shapes that show a failure only on a log's last line (``END_LINES``), and only where no
level, warning or retry calls it harmless (``QUIET``): a tool's error the run went on after
looks the same."""
END_LINES = 1
QUIET = re.compile(r"\b(?:INFO|DEBUG|WARNING|WARN|NOTICE|TRACE|SUCCESS)\b|Warning\b"
                   r"|^\[?[IWD]\d{4} \d\d:|\[\d{4}-\d\d-\d\d [\d:,.]{8,15} [IWD] \d"
                   r"|[Rr]etr(?:y|ies|ying)\b|try again|will retry|[Rr]econnecting\b")
"""What says a line is no failure of the run: a level below error (glog's I and W, Ray's),
a warning's class, a retry."""
QUIET_READ = 2000
"""How much of a line ``QUIET`` reads."""
QUOTING = re.compile(r"^[`'\"*_>|\s]{1,20}")
"""What a line pasted into markdown or a chat starts with: backticks, quotes, emphasis."""
FRAME_LINE = re.compile(r'^[ \t>`]{0,20}File "[^"\n]{1,500}", line \d{1,9}, in \S',
                        re.MULTILINE)
MIN_FRAMES = 2
GLOG_ERROR = re.compile(r"^\[?[EF]\d{4} \d\d:\d\d|^\[[EF] [\w.]{1,200}:\d{1,6}\]")
"""glog's error and fatal levels (a fatal one ends the process), before any prefix is cut."""
MAX_CANDIDATES = 20_000


IGNORED = re.compile(r"Exception ignored in|Error in atexit\._run_exitfuncs:")
"""What Python prints before a traceback it reports and goes on from (a ``__del__``, a
callback at exit, an ``atexit`` handler): not the failure of the process."""
MAX_IGNORED = 200
IGNORED_LINES = 400


Span = tuple[int, int, "int | None"]
"""An ignored traceback: where it starts and ends in the text, and the rank it belongs to."""


def forget_spans() -> None:
    """Let go of the texts ``ignored_spans`` and ``warned_spans`` keep (at the end of a
    diagnosis: a long-lived process must not hold its logs)."""
    ignored_spans.cache_clear()
    python_ignored_spans.cache_clear()
    skipped_choice_spans.cache_clear()
    warned_spans.cache_clear()


@lru_cache(maxsize=4)
def ignored_spans(text: str) -> tuple[Span, ...]:
    """Where each traceback Python ignored lies: from its ``Exception ignored in`` line to the
    end of its exception line (the first line of that rank after its frames that is not
    indented), or only its first line where no traceback follows; and each traceback a logger
    wrote at its warning level (``warned_spans``).  Kept for the last few texts: each reader
    of a log (failure lines, frames, tracebacks, the engine) asks for the same one."""
    return (*went_on_spans(text), *warned_spans(text))


def went_on_spans(text: str) -> tuple[Span, ...]:
    """What a program printed as an error and said it went on from: the tracebacks Python
    ignored, the autotuning candidates Inductor dropped.  Never the run's failure, wherever
    the log stops."""
    return (*python_ignored_spans(text), *skipped_choice_spans(text))


@lru_cache(maxsize=4)
def python_ignored_spans(text: str) -> tuple[Span, ...]:
    """The tracebacks Python printed after ``Exception ignored in`` or ``Error in
    atexit._run_exitfuncs:`` (a ``__del__``, a clean-up at exit)."""
    spans: list[Span] = []
    head = IGNORED.search(text)
    while head is not None and len(spans) < MAX_IGNORED:
        at = head.start()
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        rank, _ = strip_prefixes(text[start:at], False)
        end = _ignored_end(text, end, rank, TRACEBACK in text[at:end])
        spans.append((start, end, rank))
        head = IGNORED.search(text, end) if end >= 0 else None
    return tuple(spans)


SKIPPED_CHOICE = re.compile(r"(?:Runtime|CUDA compilation) error during autotuning: *\r?$",
                            re.MULTILINE)
"""The first line of Inductor's record of a candidate kernel that failed while autotuning
(``select_algorithm.py``, logged at the error level): it benchmarks the other candidates."""
SKIPPED_WORDS = " error during autotuning:"
"""``SKIPPED_CHOICE``'s literal part: the lines that hold it are the only ones it is tried on
(a regex whose first characters vary scans a long log slowly)."""
SKIPPED = "Ignoring this choice."
"""The record's last line, before the traceback ``log.exception`` adds."""
SKIPPED_LINES = 40


@lru_cache(maxsize=4)
def skipped_choice_spans(text: str) -> tuple[Span, ...]:
    """Where each failed autotuning candidate's record lies: from its first line to
    ``SKIPPED`` (and the traceback after it); a record without that line is no span."""
    spans: list[Span] = []
    for match in itertools.islice(_lines_with(text, SKIPPED_CHOICE, SKIPPED_WORDS), MAX_IGNORED):
        end = _skipped_end(text, match.end())
        if end is None:
            continue
        start = text.rfind("\n", 0, match.start()) + 1
        prefix = text[start:match.start()]
        rank, _ = strip_prefixes(prefix, False)
        if text.startswith(prefix + TRACEBACK, end + 1):
            end = _warned_end(text, text.find("\n", end + 1), prefix, rank)
        spans.append((start, end, rank))
    return tuple(spans)


def _lines_with(text: str, pattern: re.Pattern[str], words: str) -> Iterator[re.Match[str]]:
    """``pattern``'s matches on the lines that hold ``words`` (in order, each line once)."""
    at = text.find(words)
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        if match := pattern.search(text, start, end):
            yield match
        at = text.find(words, end)


def _skipped_end(text: str, pos: int) -> int | None:
    """The end of the line that holds ``SKIPPED`` among the ``SKIPPED_LINES`` after the one
    that ends at ``pos``."""
    for end, line in itertools.islice(_lines_after(text, pos), SKIPPED_LINES):
        if SKIPPED in line:
            return len(text) if end < 0 else end
    return None


WARNED = re.compile(r"(?:^|[\s\]:])W\d{4} \d\d:\d\d|\[WARNING\]|\bWARNING\b")
"""A logger's warning level before ``Traceback`` on its line: glog's ``W0612 10:20:42``
(torch's own logs: Dynamo's "WON'T CONVERT ... due to:" before it runs the frame eagerly),
Python logging's ``[WARNING]`` or ``WARNING:``.  A program that goes on logs what it caught
so; a failure is logged as an error, or printed by Python itself."""
MAX_TRACEBACKS_LOOKED = 10_000


@lru_cache(maxsize=4)
def warned_spans(text: str) -> tuple[Span, ...]:
    """Where each traceback logged at a warning level lies: from its ``Traceback`` line to the
    end of its exception line (its lines carry the same prefix, or none)."""
    spans: list[Span] = []
    at = text.find(TRACEBACK)
    for _ in range(MAX_TRACEBACKS_LOOKED):
        if at < 0 or len(spans) >= MAX_IGNORED:
            break
        start = text.rfind("\n", 0, at) + 1
        prefix = text[start:at]
        if prefix and WARNED.search(prefix):
            rank, _ = strip_prefixes(prefix, False)
            end = _warned_end(text, text.find("\n", at), prefix, rank)
            spans.append((start, end, rank))
            at = text.find(TRACEBACK, max(end, at + 1))
        elif (warning := _warning_start(text, start, prefix)) is not None and (
                closed := _warning_end(text, text.find("\n", at), prefix)) is not None:
            spans.append((warning, closed, strip_prefixes(prefix, False)[0]))
            at = text.find(TRACEBACK, max(closed, at + 1))
        else:
            at = text.find(TRACEBACK, at + 1)
    return tuple(spans)


PY_WARNING = re.compile(r":\d{1,9}: [A-Z]\w{0,60}Warning: ")
"""Python's ``warnings`` module's line, ``FILE:LINE: CATEGORY: message``: a library that
caught a failure and warns with its traceback (``traceback.format_exc()`` in the message)
before going on, a slower fallback most often."""
WARNING_SOURCE = re.compile(r"  (?!File \")\S")
"""The source line of the ``warnings.warn`` call, indented by two, that ends the message."""


def _warning_start(text: str, start: int, prefix: str) -> int | None:
    """Where the Python warning whose message holds the traceback at ``start`` begins: the
    line before it that is not blank (at most 3 back, the same prefix)."""
    pos = start
    for _ in range(3):
        if pos <= 0:
            break
        begin = text.rfind("\n", 0, pos - 1) + 1
        line = text[begin:pos - 1].removeprefix(prefix)
        if line.strip():
            return begin if PY_WARNING.search(line, 0, 400) else None
        pos = begin
    return None


def _warning_end(text: str, first: int, prefix: str) -> int | None:
    """The end of the source line that closes a warning's message (after the traceback's
    frames, its exception and its message); None where no such line follows before another
    warning or traceback begins (the line before the traceback was a warning of its own,
    printed without its source, and the traceback the run's failure)."""
    frames = True
    for end, line in _lines_after(text, first):
        line = line.removeprefix(prefix)
        if frames:
            frames = not line[:1].strip()  # the frames are indented; the exception is not
        elif WARNING_SOURCE.match(line):
            return len(text) if end < 0 else end
        elif line.startswith(TRACEBACK) or PY_WARNING.search(line, 0, 400):
            return None
    return None


def _warned_end(text: str, first: int, prefix: str, rank: int | None, chained: int = 0) -> int:
    """Where the warned traceback whose first line ends at ``first`` ends: its first line
    after the frames that is not indented, once the traceback's own prefix is taken off
    (with at most ``MAX_CHAINED`` tracebacks chained to it)."""
    for end, line in _lines_after(text, first):
        line_rank, _ = strip_prefixes(line, False)
        if rank is not None and line_rank is not None and line_rank != rank:
            continue  # another rank's line, interleaved
        line = line.removeprefix(prefix)
        if line[:1].strip() and not line.startswith(TRACEBACK):
            end = _same_record(text, end, prefix)  # its exception, over one or more lines
            return end if chained >= MAX_CHAINED else _chained_end(text, end, prefix, chained)
    return len(text) if first < 0 else first


def _lines_after(text: str, pos: int) -> Iterator[tuple[int, str]]:
    """The lines after the one that ends at ``pos`` (at most ``IGNORED_LINES``): where each
    ends (-1: the text's end) and its text."""
    for _ in range(IGNORED_LINES):
        if pos < 0:
            return
        end = text.find("\n", pos + 1)
        yield end, text[pos + 1:end if end >= 0 else len(text)]
        pos = end


CHAINED = ("During handling of the above exception", "The above exception was the direct cause")
MAX_CHAINED = 20


def _chained_end(text: str, pos: int, prefix: str, chained: int) -> int:
    """Where the warned traceback ending at ``pos`` ends with the tracebacks chained to it (a
    formatted exception logged as one message: its later tracebacks carry no prefix)."""
    at = pos
    for _ in range(3):  # the blank line, the chaining sentence, the blank line
        if at < 0:
            break
        end = text.find("\n", at + 1)
        line = text[at + 1:end if end >= 0 else len(text)].removeprefix(prefix)
        if line.startswith(CHAINED):
            return _warned_end(text, end, prefix, strip_prefixes(prefix, False)[0], chained + 1)
        if line.strip():
            break
        at = end
    return pos


def _same_record(text: str, pos: int, prefix: str) -> int:
    """The end of the lines from ``pos`` on that carry ``prefix`` exactly: the rest of one
    logged message (an exception's message over several lines: Dynamo's ``raised:``)."""
    for _ in range(IGNORED_LINES):
        if pos < 0 or not text.startswith(prefix, pos + 1):
            break
        pos = text.find("\n", pos + 1)
    return len(text) if pos < 0 else pos


def _ignored_end(text: str, first: int, rank: int | None, seen_head: bool = False) -> int:
    """Where the ignored traceback whose first line ends at ``first`` ends (``seen_head``:
    that line holds its ``Traceback`` head too, as a reading that joins wrapped lines may)."""
    for end, raw in _lines_after(text, first):
        line_rank, line = strip_prefixes(raw, False)
        if rank is not None and line_rank is not None and line_rank != rank:
            continue  # another rank's line, interleaved
        if line.startswith("Traceback"):
            seen_head = True
        elif not seen_head:
            break
        elif line[:1].strip():
            return _message_end(text, end)  # its exception line, and its message's
    return len(text) if first < 0 else first


def _message_end(text: str, end: int) -> int:
    """The end of an exception's message whose first line ends at ``end``: the lines after
    it that are indented, and the bracket that closes them (a repr over several lines,
    PyOpenGL's ``EGLError(`` with its fields)."""
    for after, line in _lines_after(text, end):
        if not (line[:1].isspace() or line.strip() in (")", "]", "}")):
            break
        end = after
    return len(text) if end < 0 else end


def inside(spans: Sequence[Span], start: int, rank: int | None = None) -> bool:
    """Whether ``start`` lies in an ignored traceback of ``rank`` (None: of any rank)."""
    return any(begin <= start < end and (rank is None or owner is None or owner == rank)
               for begin, end, owner in spans)


def failure_lines(text: str, labels: bool, shapes: str | None = None) -> list[int]:
    """Where the lines that show a failure start (at most ``MAX_CANDIDATES`` lines looked at,
    then the log's last ``TAIL_BYTES``: a failure is nearly always near the end);
    ``shapes``: the log's distinct line shapes, where it has them."""
    candidates = candidates_in(shapes)
    if candidates is None:
        return []
    found, scanned = _failure_lines(text, labels, candidates, 0)
    if scanned < len(text):
        tail = max(scanned, len(text) - TAIL_BYTES)
        found += _failure_lines(text, labels, candidates, text.find("\n", tail) + 1)[0]
    late = last_lines_start(text, LATE_LINES)
    return sorted(set(found).union(_late_lines(text, labels, late)))


def _late_lines(text: str, labels: bool, late: int) -> Iterator[int]:
    """The log's last lines that show a failure only there (``LATE_SHAPES``, ``END_SHAPES``),
    every one read: their shapes have no words a long log is scanned for."""
    end = last_lines_start(text, END_LINES)
    ignored = ignored_spans(text)
    start = late
    while start < len(text):
        stop = text.find("\n", start)
        stop = len(text) if stop < 0 else stop
        raw, line_rank, line = _unprefixed(text[start:stop], labels)
        if not inside(ignored, start, line_rank) and _late_shape(raw, line, start >= end):
            yield start
        start = stop + 1


def _late_shape(raw: str, line: str, at_end: bool) -> bool:
    """Whether one of the log's last lines has a shape that shows a failure there;
    ``at_end``: it is among the last ``END_LINES``."""
    if any(shape.search(line) for shape in LATE_SHAPES):
        return not LATE_HARMLESS.search(line)
    shapes = UNLESS_QUIET_SHAPES + END_SHAPES if at_end else UNLESS_QUIET_SHAPES
    return (any(shape.search(line) for shape in shapes)
            and not QUIET.search(raw, 0, QUIET_READ))


TAIL_BYTES = 1 << 18


def _failure_lines(text: str, labels: bool, candidates: re.Pattern[str],
                   begin: int) -> tuple[list[int], int]:
    """The failure lines from ``begin`` on, and where the scan stopped (the text's length
    where it read it all)."""
    found: list[int] = []
    ignored = ignored_spans(text)
    last = -1
    looked = 0
    for hit in candidates.finditer(text, begin):
        start = text.rfind("\n", 0, hit.start()) + 1
        if start == last:
            continue
        if looked >= MAX_CANDIDATES:
            return found, start
        looked += 1
        last = start
        end = text.find("\n", start)
        raw, line_rank, line = _unprefixed(text[start:] if end < 0 else text[start:end], labels)
        if not inside(ignored, start, line_rank) and _failure_shape(raw, line):
            found.append(start)
    return found, len(text)


def _unprefixed(raw: str, labels: bool) -> tuple[str, int | None, str]:
    """A line without srun's label and a launcher's rank tags (``raw``), its rank, and the
    line without any prefix nor the quoting of a paste (what the shapes are tried on)."""
    if labels and (label := SRUN_LABEL.match(raw)):
        raw = raw[label.end():]
    while match := TAGGED.match(raw):
        raw = raw[match.end():]
    line_rank, line = strip_prefixes(raw, False)
    return raw, line_rank, QUOTING.sub("", line).strip()


def _failure_shape(raw: str, line: str) -> bool:
    """Whether a line (``raw`` as written, ``line`` without its prefixes and quoting) has a
    failure's shape wherever it is."""
    return bool(GLOG_ERROR.match(raw) or LEVELLED_ERROR.search(raw, 0, 400)
                or _AT_START.match(line) or any(shape.search(line) for shape in _ANYWHERE))


def last_lines_start(text: str, count: int) -> int:
    """Where the text's last ``count`` lines begin (line breaks at its end not counted)."""
    pos = len(text)
    while pos and text[pos - 1] in "\r\n":
        pos -= 1
    for _ in range(count):
        pos = text.rfind("\n", 0, pos)
        if pos < 0:
            return 0
    return pos + 1


def frame_lines(text: str) -> list[int]:
    """Where the frames of a traceback start, when at least ``MIN_FRAMES`` are there: what a
    log shows of a failure whose head and exception line were cut off."""
    ignored = ignored_spans(text)
    found = [match.start() for match in FRAME_LINE.finditer(text)
             if not inside(ignored, match.start(), _rank_at(text, match.start()))]
    return found if len(found) >= MIN_FRAMES else []


@dataclass
class Report:
    """The root cause as a launcher reported it."""

    rank: int | None = None
    returncode: int | None = None
    """Exit code, or minus the signal number."""
    failed: bool = False
    facts: set[Fact] = field(default_factory=set)


def _signal_or_exit(signal_name: str | None, exit_code: str | None) -> int | None:
    """Minus the named signal's number, else the exit code (None: neither is known)."""
    number = _signal_number(signal_name) if signal_name else None
    return -number if number else int(exit_code) if exit_code else None


def _signal_number(name: str) -> int | None:
    try:
        return int(signal.Signals[name])
    except KeyError:
        return None


def root_cause(text: str) -> Report:
    report = Report(failed=_shows_failure(text))
    for read in ROOT_CAUSE_READERS:
        if read(text, report):
            break
    if any(record.search(text) for record in OOM_RECORD):
        report.facts.add(Fact.OOM_RECORD)
    if _srun_ended_step(text):
        report.facts.add(Fact.SRUN_ENDED_STEP)
    return _failed(report)


def _srun_ended_step(text: str) -> bool:
    """srun ended its own step (``_step_signal``) because a task failed (``--kill-on-bad-exit``,
    the default of most sites): the step's ``CANCELLED`` line and the ranks' death signals
    that follow are its doing, not a cancel or a signal from outside.  Not where the whole job
    was cancelled, nor where a cancel of that step or a death signal came first."""
    if "Terminating StepId=" not in text or JOB_CANCELLED.search(text):
        return False
    term = SRUN_TERMINATING.search(text)
    if term is None:
        return False
    signal = DEATH_SIGNAL.search(text)
    cancel = STEP_CANCELLED.search(text)
    return ((signal is None or signal.start() > term.start())
            and (cancel is None or (cancel.start() > term.start()
                                    and cancel.group(1) == term.group(1))))


def _shows_failure(text: str) -> bool:
    return (any(needle in text for needle in FAILING_TEXTS)
            or any(regex.search(text) for regex in FAILING_LINES) or _raised(text))


def _raised(text: str) -> bool:
    """A traceback that Python did not print and go on from (``Exception ignored in``)."""
    at = text.find(TRACEBACK)
    ignored = ignored_spans(text) if at >= 0 else ()
    for _ in range(MAX_IGNORED + 1):
        if at < 0 or not inside(ignored, at, _rank_at(text, at)):
            return at >= 0
        at = text.find(TRACEBACK, at + 1)
    return True


def _rank_at(text: str, at: int) -> int | None:
    """The rank the line holding ``at`` belongs to, by its prefix."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return strip_prefixes(text[start:end if end >= 0 else len(text)], False)[0]


def _safelaunch_row(text: str, report: Report) -> bool:
    """safelaunch's summary table, its ``<- root cause`` row."""
    if "<- root cause" not in text or not (row := SAFELAUNCH_ROOT.search(text)):
        return False
    report.rank = int(row.group(1))
    number = (int(row.group(4)) if row.group(4) else
              _signal_number(row.group(3)) if row.group(3) else None)
    report.returncode = int(row.group(2)) if row.group(2) else (-number if number else None)
    if SAFELAUNCH_NOT_OOM in text:
        report.facts.add(Fact.SIGKILL_NOT_OOM)
    if _only_root_row_failed(text, row):
        report.facts.add(Fact.NO_OTHER_FAILURES)
    return True


def _only_root_row_failed(text: str, row: re.Match[str]) -> bool:
    """safelaunch's table around its root-cause ``row`` has no other failed rank, and one
    that ended well (not only ranks safelaunch stopped after the root: those may have lost a
    peer of another node too)."""
    table = text.rfind(SAFELAUNCH_TABLE, max(0, row.start() - TABLE_CHARS), row.start())
    end = text.find(SAFELAUNCH_TABLE_END, row.end(), row.end() + TABLE_CHARS)
    return (table >= 0 and end >= 0 and len(SAFELAUNCH_FAILED_ROW.findall(text, table, end)) == 1
            and SAFELAUNCH_OK_ROW.search(text, table, end) is not None)


def _child_failed_block(text: str, report: Report) -> bool:
    """torchrun's ``ChildFailedError`` table: its last root-cause entry."""
    blocks = list(ROOT_CAUSE_BLOCK.finditer(text))
    if not blocks:
        return False
    fields = {key: value.strip() for key, value in FIELD.findall(blocks[-1].group("body"))}
    rank = re.match(r"(\d+)", fields.get("rank", ""))
    code = re.match(r"(-?\d+)", fields.get("exitcode", ""))
    report.rank = int(rank.group(1)) if rank else None
    report.returncode = int(code.group(1)) if code else None
    if _only_root_failed(text, blocks[-1], fields):
        report.facts.add(Fact.NO_OTHER_FAILURES)
    return True


def _only_root_failed(text: str, block: re.Match[str], fields: dict[str, str]) -> bool:
    """The table lists no failure but its root cause's (the other ranks of this node were
    running or had exited 0 when the launcher saw it fail), in a job of one node: a global
    rank past the local one, or a launch of several nodes anywhere in the log, leaves ranks of
    other nodes that may have died."""
    ranks = re.match(r"(\d{1,9}) \(local_rank: (\d{1,9})\)", fields.get("rank", ""))
    return bool(ranks and ranks.group(1) == ranks.group(2) and NO_OTHER_FAILURES.search(
        text, max(0, block.start() - NO_OTHER_FAILURES_BEFORE), block.start())
        and not SEVERAL_NODES.search(text) and not _peer_elsewhere(text))


def _peer_elsewhere(text: str) -> bool:
    """gloo names a peer it lost at an address other than this host's loopback: a rank of
    another node may have died (a single node's ranks reach each other at its own address
    too, but a pasted log does not say which address is its own)."""
    for match in itertools.islice(GLOO_PEER.finditer(text), MAX_PEER_LINES):
        if not LOOPBACK.match(match.group(1)):
            return True
    return False


def _elastic_failed(text: str, report: Report) -> bool:
    """The elastic agent's ``failed (exitcode: -11) local_rank: 1`` line."""
    if not (match := ELASTIC_FAILED.search(text)):
        return False
    report.returncode, report.rank = int(match.group(1)), int(match.group(2))
    return True


def _deepspeed_exit(text: str, report: Report) -> bool:
    """DeepSpeed's first ``exits with return code = N`` that is not 0, and whose it is."""
    end = next((m for m in DEEPSPEED_EXIT.finditer(text) if int(m.group(1)) != 0), None)
    if end is None:
        return False
    line = text[text.rfind("\n", 0, end.start()) + 1:end.start()][-3000:]
    report.returncode = int(end.group(1))
    if who := DEEPSPEED_WHO.search(line):
        report.rank = _deepspeed_rank(text, who)
    return True


def _deepspeed_rank(text: str, who: re.Match[str]) -> int | None:
    """The rank of the exit line: its ``--local_rank``, or that of the pid it names, from
    the ``process N spawned with command`` lines."""
    if who.group(2):
        return int(who.group(2))
    ranks = {int(pid): int(rank) for pid, rank in DEEPSPEED_SPAWN.findall(text)}
    return ranks.get(int(who.group(1)))


def _srun_task(text: str, report: Report) -> bool:
    """``srun: error: ... task 1: ...`` with an exit code or a signal srun names."""
    for task in SRUN_TASK.finditer(text):
        what, status = task.group(2).strip(), task.group(3)
        returncode = int(status) if status else SRUN_SIGNALS.get(what)
        if returncode:
            report.rank, report.returncode = int(task.group(1)), returncode
            return True
    return False


def _spawn_exited(text: str, report: Report) -> bool:
    """``torch.multiprocessing.spawn``'s ``process 1 terminated with signal SIGKILL``."""
    if not (spawned := SPAWN_EXITED.search(text)):
        return False
    report.rank = int(spawned.group(1))
    report.returncode = _signal_or_exit(spawned.group(2), spawned.group(3))
    return True


def _called_process(text: str, report: Report) -> bool:
    """``Command '[...]' died with <Signals.SIGKILL: 9>.`` or ``... returned non-zero exit
    status 1.``: an exit or a signal, no rank."""
    *_, called = (None, *CALLED_PROCESS.finditer(text))
    if called is None:
        return False
    report.returncode = _signal_or_exit(called.group(1), called.group(2))
    return True


def _signal_received(text: str, report: Report) -> bool:
    """``Signal 9 (SIGKILL) received by PID``: a signal, no rank."""
    if not (received := SIGNAL_RECEIVED.search(text)):
        return False
    report.returncode = -int(received.group(1))
    return True


def _pals_rank(text: str, report: Report) -> bool:
    """PALS's ``HOST: rank 3 died from signal 9`` / ``HOST: rank 0 exited with code 1``: the
    first such line (looked for where its words are)."""
    found = [next(_lines_with(text, PALS_RANK, words), None) for words in PALS_WORDS]
    ended = min((match for match in found if match), key=lambda match: match.start(),
                default=None)
    if ended is None:
        return False
    report.rank = int(ended.group(1))
    report.returncode = -int(ended.group(2)) if ended.group(2) else int(ended.group(3))
    return True


def _hydra_exit(text: str, report: Report) -> bool:
    """Hydra's ``BAD TERMINATION`` banner: ``EXIT CODE: 9`` and, where it names one, the
    signal (``Killed (signal 9)``); no rank."""
    if HYDRA_BANNER not in text or not (code := HYDRA_EXIT.search(text)):
        return False
    signalled = HYDRA_SIGNAL.search(text, code.end())
    report.returncode = -int(signalled.group(1)) if signalled else int(code.group(1))
    return True


ROOT_CAUSE_READERS: tuple[Callable[[str, Report], bool], ...] = (
    _safelaunch_row, _child_failed_block, _elastic_failed, _deepspeed_exit, _srun_task,
    _spawn_exited, _pals_rank, _hydra_exit, _signal_received, _called_process)
"""The launchers' failure reports, most specific first: the first found gives the root
cause (each reader fills the report and says whether it found its report)."""


def _failed(report: Report) -> Report:
    report.failed = report.failed or report.returncode not in (0, None)
    return report

