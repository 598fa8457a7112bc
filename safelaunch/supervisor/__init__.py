"""The supervisor: drives torch's elastic engine and watches every rank from start to end.

- ``run``: one supervised run from plan to outcome
- ``ranks``: the ``Supervisor``, the engine's counterpart: the ranks of every attempt
- ``rendezvous``: waiting for the other nodes, said on the console and stoppable
- ``monitor``, ``hangs``, ``stacks``: heartbeats, hang verdicts and stack dumps
- ``engine``: torch's elastic agent with safelaunch's seams (the only torch-facing module)
- ``logs``: whole-line capture of every rank's output to files and console
- ``exits``: the exact time and status of each rank's exit
- ``processes``: finding and stopping every process of a job
- ``reaper``: the watchdog process that cleans up if the launcher is killed
- ``result``: rank and run outcomes, and the exit-code rule
- ``rundir``, ``events``: the run directory and its event log
"""
