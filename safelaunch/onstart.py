"""``safelaunch onstart``: the bash on-start script for a rented GPU instance.

The script (``templates/onstart.sh``) captures the training's exit code honestly, writes it
atomically to a status file, prints success or failure last and exits with the code; a marker
keeps a container restart from silently training again; ``--auto-stop``/``--auto-destroy``
end the instance through VastAI's API with the container's own scoped key, never the account
key.  Every user value is quoted with ``shlex.quote``; a script over VastAI's on-start limit
becomes a short bootstrap that unpacks the full one.
"""

from __future__ import annotations

import base64
import gzip
import shlex
import urllib.parse
from dataclasses import dataclass, field
from importlib import resources
from string import Template

from safelaunch import __version__
from safelaunch.errors import UsageError
from safelaunch.redact import mask_shapes

ONSTART_LIMIT = 4000
DEFAULT_STATE_DIR = "/root/.safelaunch-onstart"
DEFAULT_LOG = "/root/safelaunch-onstart.log"


@dataclass
class OnstartOptions:
    script: str
    script_args: list[str] = field(default_factory=list)
    run_options: list[str] = field(default_factory=list)
    setup: list[str] = field(default_factory=list)
    workdir: str | None = None
    git_url: str | None = None
    git_ref: str | None = None
    safelaunch_spec: str | None = None
    on_restart: str = "resume"
    auto_stop: bool = False
    auto_destroy: bool = False
    keep_on_failure: bool = False
    state_dir: str = DEFAULT_STATE_DIR
    log_file: str = DEFAULT_LOG

    def __post_init__(self) -> None:
        if self.auto_stop and self.auto_destroy:
            raise UsageError("choose one of --auto-stop and --auto-destroy")
        if self.git_ref and not self.git_url:
            raise UsageError("--git-ref needs --git-url")
        if self.on_restart not in ("resume", "skip", "rerun"):
            raise UsageError(f"--on-restart must be resume, skip or rerun, not {self.on_restart!r}")
        if not self.script.strip() or self.script.startswith("-"):
            raise UsageError(f"SCRIPT must name the training script, not {self.script!r}")
        for word in [self.script, *self.script_args, *self.run_options, *self.setup]:
            if "\0" in word:
                raise UsageError(f"a NUL byte cannot be passed to a shell script: {word!r}")
        for word in self.run_options:
            if word in ("", "--"):
                raise UsageError(f"--run-option={word} would end safelaunch run's options "
                                 "early: pass the script's own arguments after SCRIPT")
        for flag, value, absolute in (("--workdir", self.workdir, False),
                                      ("--state-dir", self.state_dir, True),
                                      ("--log-file", self.log_file, True)):
            if value is not None:
                _check_path(flag, value, absolute)


def _check_path(flag: str, value: str, absolute: bool) -> None:
    """A path the instance's shell uses as it is: no expansion, no option look-alike."""
    if not value.strip() or any(ch in value for ch in "\0\n\r"):
        raise UsageError(f"{flag} must be a path, got {value!r}")
    if value.startswith("-"):
        raise UsageError(f"{flag} {value!r} starts with '-' and would be read as an option"
                         + ("" if absolute else f"; write it as ./{value}"))
    if value.startswith(("~", "$")) or "${" in value:
        raise UsageError(f"{flag} {value!r} is not expanded by the on-start script; write the "
                         "path out (e.g. /root/...)")
    if absolute and not value.startswith("/"):
        raise UsageError(f"{flag} must be an absolute path (the on-start script's working "
                         f"directory is not yours), got {value!r}")


def _template(name: str) -> Template:
    return Template(resources.files("safelaunch.templates").joinpath(name).read_text("utf-8"))


def _q(value: str) -> str:
    return shlex.quote(value)


def render(opts: OnstartOptions) -> str:
    q = _q
    # ``step=`` names what runs next: the status file and the verdict name a step that fails.
    workdir = (f'step={q("create the work directory " + opts.workdir)}\n'
               f'mkdir -p {q(opts.workdir)}\ncd {q(opts.workdir)}\n') if opts.workdir else ""
    git = ""
    if opts.git_url:
        ref = opts.git_ref or "HEAD"
        git = (f'step="git clone"\n'
               f'if [ -d .git ]; then git fetch --quiet origin; else git clone --quiet '
               f'{q(opts.git_url)} .; fi\n'
               f'step={q("git checkout " + ref)}\n'
               f'git checkout --quiet {q(ref)}\n')
    setup = "".join(f'step={q("setup: " + step)}\nsay {q("setup: " + step)}\n'
                    f'bash -c {q(step)}\n' for step in opts.setup)
    run_words = [*opts.run_options, "--", opts.script, *opts.script_args]
    instance = ""
    if opts.auto_stop or opts.auto_destroy:
        instance = _template("end_instance.sh").substitute(
            keep_on_failure="yes" if opts.keep_on_failure else "no",
            action="destroy" if opts.auto_destroy else "stop")
    spec = opts.safelaunch_spec or f"safelaunch=={__version__}"
    return _template("onstart.sh").substitute(
        version=__version__, state_dir=q(opts.state_dir), log_file=q(opts.log_file),
        on_restart=q(opts.on_restart), workdir_step=workdir, git_step=git, setup_steps=setup,
        safelaunch_spec=q(spec), run_args=" ".join(q(w) for w in run_words),
        start_message=q("starting: safelaunch run " + shlex.join(run_words)),
        instance_step=instance)


def fit(script: str, state_dir: str = DEFAULT_STATE_DIR) -> str:
    """The script itself when it fits VastAI's on-start field, else a bootstrap."""
    if len(script.encode()) <= ONSTART_LIMIT:
        return script
    packed = base64.b64encode(gzip.compress(script.encode(), mtime=0)).decode()
    full = f"{state_dir}/onstart-full.sh"
    boot = ("#!/bin/bash\n# safelaunch on-start bootstrap: unpacks and runs the full script.\n"
            "set -euo pipefail\n"
            f"mkdir -p {_q(state_dir)}\n"
            f"printf '%s' {_q(packed)} | base64 -d | gunzip > {_q(full)}\n"
            f"exec bash {_q(full)}\n")
    if len(boot.encode()) > ONSTART_LIMIT:
        raise UsageError(f"the on-start script is too long even packed ({len(boot)} bytes, "
                         f"limit {ONSTART_LIMIT}); move setup steps into a script in the repo")
    return boot


def holds_credential(url: str) -> bool:
    """A repository URL with a password, a token as its user name, or a token's shape."""
    if mask_shapes(url) != url:
        return True
    try:
        parts = urllib.parse.urlsplit(url)
        user, password = parts.username, parts.password
    except ValueError:
        return False
    return bool(password) or (user is not None and len(user) >= 20 and user != "git")
