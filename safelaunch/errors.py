"""The exception tree of safelaunch; each error knows its exit code and its user message.

    SafelaunchError                 any error safelaunch reports to the user
    ├── UsageError          (2)     bad option value or combination
    │   ├── ConfigError     (2)     bad config file: unknown key, wrong type, invalid YAML
    │   └── RunDirError     (2)     the run directory cannot be created or is not empty
    ├── StartError        (125)     the job could not be started (port taken, rendezvous failed)
    ├── ScriptNotExecutable (126)   the script or program exists but cannot be run
    ├── ScriptNotFound    (127)     the script, module or program does not exist
    └── RemoteError       (255)     the remote host cannot be reached, refuses our key, has
        │                           an unknown or changed host key, or the link stayed down
        ├── HostKeyUnknown  (255)   (remote.ssh)
        ├── HostKeyChanged  (255)   (remote.ssh)
        ├── LinkLost        (255)   an open connection broke; reconnecting may help (remote.ssh)
        └── VastError       (255)   the VastAI API refused or failed (remote.vast)

The CLI turns any of them into one line on stderr and the exit code; library code raises
them and never exits.  Third-party errors are converted at the boundary with ``raise ... from``.
"""

from __future__ import annotations


class SafelaunchError(Exception):
    """Base of every error safelaunch reports to the user."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(SafelaunchError):
    exit_code = 2


class ConfigError(UsageError):
    pass


class RunDirError(UsageError):
    pass


class StartError(SafelaunchError):
    exit_code = 125


class ScriptNotExecutable(SafelaunchError):
    exit_code = 126


class ScriptNotFound(SafelaunchError):
    exit_code = 127


class RemoteError(SafelaunchError):
    exit_code = 255
