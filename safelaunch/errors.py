"""The exception tree of safelaunch; each error knows its exit code and its user message.

    SafelaunchError                 any error safelaunch reports to the user
    ├── UsageError          (2)     bad option value or combination
    │   ├── OptionValueError (2)    one option's value refused (``.option``, ``.value``)
    │   ├── ConfigError     (2)     bad config file: unknown key, wrong type, invalid YAML
    │   └── RunDirError     (2)     the run directory cannot be created or is not empty
    ├── StartError        (125)     the job could not be started (port taken, rendezvous failed)
    ├── ScriptNotExecutable (126)   the script or program exists but cannot be run
    ├── ScriptNotFound    (127)     the script, module or program does not exist
    └── RemoteError       (255)     the remote host cannot be reached, refuses our key, has
        │                           an unknown or changed host key, the link stayed down, or
        │                           the remote agent's console stream kept ending without its
        │                           end record
        ├── HostKeyUnknown  (255)   the host's key is not known yet
        ├── HostKeyChanged  (255)   the host's key differs from the known one
        ├── LinkLost        (255)   an open connection broke; reconnecting may help
        └── VastError       (255)   the VastAI API refused or failed

The CLI turns any of them into one line on stderr and the exit code; library code raises
them and never exits.  Third-party errors are converted at the boundary with ``raise ... from``.
"""

from __future__ import annotations

from safelaunch import exit_codes


class SafelaunchError(Exception):
    """Base of every error safelaunch reports to the user."""

    exit_code = 1

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UsageError(SafelaunchError):
    exit_code = exit_codes.USAGE


class OptionValueError(UsageError):
    """A ``RunConfig`` field given a value its option refuses; names the field."""

    def __init__(self, message: str, option: str, value: object) -> None:
        super().__init__(message)
        self.option = option
        self.value = value


class ConfigError(UsageError):
    pass


class RunDirError(UsageError):
    pass


class StartError(SafelaunchError):
    exit_code = exit_codes.START_FAILED


class ScriptNotExecutable(SafelaunchError):
    exit_code = exit_codes.NOT_EXECUTABLE


class ScriptNotFound(SafelaunchError):
    exit_code = exit_codes.NOT_FOUND


class RemoteError(SafelaunchError):
    exit_code = exit_codes.REMOTE


class HostKeyUnknown(RemoteError):
    pass


class HostKeyChanged(RemoteError):
    pass


class LinkLost(RemoteError):
    """An open connection broke (the remote side may be fine); worth reconnecting."""


class VastError(RemoteError):
    """The VastAI API refused or failed; the instance cannot be reached (exit 255)."""
