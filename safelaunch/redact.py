"""Keeping secrets out of everything safelaunch writes or prints.

A variable whose name contains one of ``SECRET_NAME_WORDS`` (or ends in one of
``SECRET_NAME_ENDINGS``, or has ``PASS`` as a word) has its value replaced; the values of such
variables are also masked wherever they appear inside other text (a value of several lines
line by line too, as rank output comes a line at a time).  A value shorter than
``MIN_SECRET_LEN`` would garble ordinary text if masked everywhere (``DB_PASSWORD=abc`` and
every "abc" of the logs): it is masked only right after its variable's name (``NAME=abc``,
``"NAME": "abc"``) and on a line of its own.  Whatever the names, text is also masked by
shape: the password of a URL (``postgres://user:PASSWORD@host``, up to the last ``@``) and
the well-known token formats (GitHub, Hugging Face, OpenAI-style ``sk-``, AWS access key ids,
Slack, JWTs).  The script's arguments are recorded with the values of options whose name says
secret (``--db-password X``, ``--hf-token=X``) masked, and those values are masked wherever
they appear, like a secret variable's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import AnyStr

SECRET_NAME_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL")
SECRET_NAME_ENDINGS = ("_PAT", "_PASS", "_AUTH", "_SA_JSON")
SECRET_NAME_PARTS = ("PASS",)
"""Secret when one of the name's ``_``-separated words (``DB_PASS_PROD``, not ``PASSTHROUGH``)."""
SECRET_OPTION_WORDS = frozenset({"password", "passwd", "pass", "pwd", "token", "secret",
                                 "key", "apikey", "credential", "credentials", "auth"})
"""An option of the script is secret when one of its name's words is one of these
(``--db-password``, ``--hf_token``, ``--apiKey``; not ``--tokenizer`` or ``--max-tokens``)."""
REDACTED = "<redacted>"
MIN_SECRET_LEN = 6
_NAME_GAP = 4
"""At most this many of ``"' =:`` between a name and its short value: ``"NAME": "v"``."""

_TOKEN_SHAPES = (
    r"gh[pousr]_[A-Za-z0-9]{30,}",  # GitHub tokens
    r"github_pat_[A-Za-z0-9_]{30,}",  # GitHub fine-grained tokens
    r"hf_[A-Za-z0-9]{30,}",  # Hugging Face
    r"sk-[A-Za-z0-9_-]{20,}",  # OpenAI-style API keys
    r"(?:AKIA|ASIA)[0-9A-Z]{16}",  # AWS access key ids
    r"xox[abposr]-[A-Za-z0-9-]{10,}",  # Slack
)
# Every pattern here is linear in the text (a rank's output line can be megabytes; this runs
# on the live path): a repeat that does not end the pattern is fenced by characters outside
# it, and each attempt starts where no earlier attempt's run can have passed (see
# tests/diagnose/test_regex_linear.py).

# ://user:PASSWORD@host, the scheme just before: group 1 is '://user:' (a user may hold '@',
# an e-mail address).  The password is found by ``_url_password``, not by the pattern: it
# runs up to the last '@' before a space, a quote or the next '://' (it may hold '/', ':' and
# '@': mysql://root:pa/ss@word@db).  A port followed by a path (host:8080/) is no password.
# (A scheme of digits and signs only is masked too.)
_URL_USER = r"(?<=[A-Za-z0-9+.-])(://[^\s/:\"'<>]*:)(?!\d{1,5}/)"
_SHAPES = re.compile(f"{_URL_USER}|(?<![A-Za-z0-9_])(?:{'|'.join(_TOKEN_SHAPES)})")
_SHAPES_BYTES = re.compile(_SHAPES.pattern.encode())
_URL_END = re.compile(r"[\s\"'<>]")
_URL_END_BYTES = re.compile(_URL_END.pattern.encode())
# JWTs: eyJ<header>.eyJ<payload>.<signature>, not glued to a letter, digit or '_' before it.
# An attempt starts only where a run of [A-Za-z0-9_-] starts; group 1, the words of the run
# before its first 'eyJ' word, is kept.  (Starting on every 'eyJ' would read the rest of
# the run again from each one of '-eyJ-eyJ-...'.)
_JWT = re.compile(r"(?<![A-Za-z0-9_-])((?:(?!eyJ)[A-Za-z0-9_]*-)*)"
                  r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
_JWT_BYTES = re.compile(_JWT.pattern.encode())
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]+")


def is_secret_name(name: str) -> bool:
    upper = name.upper()
    return (any(word in upper for word in SECRET_NAME_WORDS)
            or upper.endswith(SECRET_NAME_ENDINGS)
            or any(part in upper.split("_") for part in SECRET_NAME_PARTS))


def is_secret_option(option: str) -> bool:
    """``--db-password``, ``--hf_token=...``: an option whose name has a secret word."""
    if not option.startswith("--"):
        return False
    name = _CAMEL.sub(r"\1 \2", option[2:].split("=", 1)[0])
    return any(word.lower() in SECRET_OPTION_WORDS for word in _NOT_ALNUM.split(name))


def _secret_arg_values(args: Sequence[str]) -> list[str]:
    values = []
    for index, arg in enumerate(args):
        if not is_secret_option(arg):
            continue
        if "=" in arg:
            values.append(arg.split("=", 1)[1])
        elif index + 1 < len(args) and not args[index + 1].startswith("-"):
            values.append(args[index + 1])
    return [value for value in values if value]


def mask_args(args: Sequence[str]) -> list[str]:
    """The script's arguments as recorded: the values of secret options masked (``--x v``
    and ``--x=v``); the script itself gets them as they are."""
    out = list(args)
    for index, arg in enumerate(out):
        if not is_secret_option(arg):
            continue
        if "=" in arg:
            out[index] = arg.split("=", 1)[0] + "=" + REDACTED
        elif index + 1 < len(out) and not out[index + 1].startswith("-"):
            out[index + 1] = REDACTED
    return out


def mask_argv_tail(argv: Sequence[str], script_args: Sequence[str]) -> list[str]:
    """``argv`` ending in ``script_args``, with those masked (``mask_args``); safelaunch's
    own options before them are kept (their flags, such as ``--accept-new-host-key``, take
    no secret)."""
    head = len(argv) - len(script_args)
    if not script_args:
        return list(argv)
    if head < 0 or list(argv[head:]) != list(script_args):
        return mask_args(argv)  # never recorded whole: safelaunch's own options too
    return [*argv[:head], *mask_args(argv[head:])]


def _url_password(text: AnyStr, begin: int, url_end: re.Pattern[AnyStr],
                  scheme: AnyStr, at: AnyStr) -> int:
    """Where the password that starts at ``begin`` ends (its last '@'); ``begin`` when there
    is none.  Reads no further than the next '://' (where the next attempt starts), so all
    attempts together read the text a constant number of times."""
    limit = text.find(scheme, begin)
    limit = len(text) if limit < 0 else limit
    stop = url_end.search(text, begin, limit)
    end = text.rfind(at, begin, stop.start() if stop is not None else limit)
    return end if end > begin else begin


def _masked_shapes(text: AnyStr, shapes: re.Pattern[AnyStr], url_end: re.Pattern[AnyStr],
                   scheme: AnyStr, at: AnyStr, redacted: AnyStr) -> AnyStr:
    pieces: list[AnyStr] = []
    start = pos = 0
    while (match := shapes.search(text, pos)) is not None:
        if match[1] is None:  # a token
            pieces += [text[start:match.start()], redacted]
            start = pos = match.end()
            continue
        begin = match.end()
        end = _url_password(text, begin, url_end, scheme, at)
        if end > begin:
            pieces += [text[start:begin], redacted]
            start = end
        pos = max(end, begin)
    if not pieces:
        return text
    pieces.append(text[start:])
    return text[:0].join(pieces)


def mask_shapes(text: str) -> str:
    """``text`` with URL passwords and well-known token formats masked."""
    if "eyJ" in text:
        text = _JWT.sub(rf"\1{REDACTED}", text)
    return _masked_shapes(text, _SHAPES, _URL_END, "://", "@", REDACTED)


_HINTS = (b"://", b"hp_", b"ho_", b"hu_", b"hs_", b"hr_", b"_pat_", b"hf_", b"sk-", b"AKIA",
          b"ASIA", b"xox", b"eyJ")
"""A secret-shaped string holds one of these: plain substring tests (memchr speed) spare the
regular expression almost every log line."""


def has_shapes(data: bytes) -> bool:
    return any(hint in data for hint in _HINTS) and (
        _SHAPES_BYTES.search(data) is not None
        or (b"eyJ" in data and _JWT_BYTES.search(data) is not None))


def mask_shapes_bytes(data: bytes) -> bytes:
    if b"eyJ" in data:
        data = _JWT_BYTES.sub(rb"\1" + REDACTED.encode(), data)
    return _masked_shapes(data, _SHAPES_BYTES, _URL_END_BYTES, b"://", b"@",
                          REDACTED.encode())


@dataclass(frozen=True)
class Secrets:
    """What to mask in text: ``values`` wherever they appear (longest first), ``short``
    (name, value) pairs right after the name and on a line of their own."""

    values: tuple[str, ...] = ()
    short: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.values or self.short)


def redact_env(env: Mapping[str, str]) -> dict[str, str]:
    """A copy of ``env`` with secret values replaced, and secrets masked inside other values."""
    secrets = secret_values(env)
    return {
        name: REDACTED if is_secret_name(name) else mask(value, secrets)
        for name, value in sorted(env.items())
    }


def _forms(value: str) -> set[str]:
    """The strings that give ``value`` away: itself, its JSON-escaped form (a value with a
    quote, a backslash or a newline, inside a JSON file) and each of its lines."""
    forms = {value, json.dumps(value)[1:-1]}
    forms.update(line.strip() for line in value.splitlines())
    return {form for form in forms if len(form) >= MIN_SECRET_LEN}


def secret_values(env: Mapping[str, str], args: Sequence[str] = ()) -> Secrets:
    """The secrets of ``env`` (and of the secret options of the script's ``args``)."""
    named = [(k, v) for k, v in env.items() if is_secret_name(k) and v.strip()]
    long_values = {v for _, v in named} | set(_secret_arg_values(args))
    values: set[str] = set()
    for value in long_values:
        values |= _forms(value)
    short = {(k, v.strip()) for k, v in named if len(v.strip()) < MIN_SECRET_LEN}
    return Secrets(tuple(sorted(values, key=len, reverse=True)), tuple(sorted(short)))


def _after_name(text: AnyStr, name: AnyStr, value: AnyStr, replacement: AnyStr,
                gap: AnyStr) -> AnyStr:
    """``text`` with ``value`` masked where it follows ``name`` across at most _NAME_GAP
    characters of ``gap`` and ends a word.  Linear: one look per occurrence of the name."""
    pieces: list[AnyStr] = []
    start = find = 0
    while (at := text.find(name, find)) >= 0:
        after = at + len(name)
        k = after
        while k < len(text) and k - after < _NAME_GAP and text[k:k + 1] in gap:
            k += 1
        end = k + len(value)
        if k > after and text[k:end] == value and not text[end:end + 1].isalnum():
            pieces += [text[start:k], replacement]
            start = end
        find = max(after, start)
    if not pieces:
        return text
    pieces.append(text[start:])
    return text[:0].join(pieces)


def mask_short(text: str, short: Sequence[tuple[str, str]]) -> str:
    for name, value in short:
        if name in text:
            text = _after_name(text, name, value, REDACTED, "\"' =:")
        if len(value) >= 3 and value in text:
            text = "\n".join(REDACTED if line.strip() == value else line
                             for line in text.split("\n"))
    return text


def mask_short_bytes(line: bytes, short: Sequence[tuple[bytes, bytes]]) -> bytes:
    """One line of rank output (see ``mask_short``)."""
    for name, value in short:
        if name in line:
            line = _after_name(line, name, value, REDACTED.encode(), b"\"' =:")
        if len(value) >= 3 and line.strip() == value:
            line = line.replace(value, REDACTED.encode())
    return line


def mask(text: str, secrets: Secrets | list[str]) -> str:
    """``text`` with the given secrets and every secret-shaped string masked."""
    if isinstance(secrets, list):
        secrets = Secrets(tuple(secrets))
    for secret in secrets.values:
        if secret in text:
            text = text.replace(secret, REDACTED)
    if secrets.short:
        text = mask_short(text, secrets.short)
    return mask_shapes(text)


_PROCESS_SECRETS: Secrets | None = None
_SCRIPT_ARGS: tuple[str, ...] = ()


def use_script_args(args: Sequence[str]) -> None:
    """The script's arguments: the values of its secret options are masked as secrets too,
    from now on in this process (added to those said before: the minimal test, a run inside
    the run, must not take them back)."""
    global _PROCESS_SECRETS, _SCRIPT_ARGS
    if args:
        _SCRIPT_ARGS, _PROCESS_SECRETS = (*_SCRIPT_ARGS, "--", *args), None


def process_secrets() -> Secrets:
    """The secrets of this process's environment (and of the script's arguments, once
    ``use_script_args`` said them), computed once."""
    global _PROCESS_SECRETS
    if _PROCESS_SECRETS is None:
        import os

        _PROCESS_SECRETS = secret_values(os.environ, _SCRIPT_ARGS)
    return _PROCESS_SECRETS
