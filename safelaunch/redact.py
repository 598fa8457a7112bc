"""Keeping secrets out of everything safelaunch writes or prints.

A variable whose name contains one of ``SECRET_NAME_WORDS`` (or ends in one of
``SECRET_NAME_ENDINGS``) has its value replaced; the values of such variables are also masked
wherever they appear inside other text.  Whatever the names, text is also masked by shape:
the password of a URL (``postgres://user:PASSWORD@host``) and the well-known token formats
(GitHub, Hugging Face, OpenAI-style ``sk-``, AWS access key ids, Slack, JWTs).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

SECRET_NAME_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL")
SECRET_NAME_ENDINGS = ("_PAT", "_PASS", "_AUTH")
REDACTED = "<redacted>"
MIN_SECRET_LEN = 6

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
# tests/test_regex_linear.py).

# ://user:PASSWORD@host, the scheme just before: group 1 keeps '://user:', group 2 is the
# password.  Attempts start only on '://' and the user and password exclude '/', so no two
# attempts read the same characters.  (A scheme of digits and signs only is masked too.)
_URL_PASSWORD = r"(?<=[A-Za-z0-9+.-])(://[^\s/:@]*:)([^\s/@]+)(?=@)"
_SHAPES = re.compile(f"{_URL_PASSWORD}|(?<![A-Za-z0-9_])(?:{'|'.join(_TOKEN_SHAPES)})")
_SHAPES_BYTES = re.compile(_SHAPES.pattern.encode())
# JWTs: eyJ<header>.eyJ<payload>.<signature>, not glued to a letter, digit or '_' before it.
# An attempt starts only where a run of [A-Za-z0-9_-] starts; group 1, the words of the run
# before its first 'eyJ' word, is kept.  (Starting on every 'eyJ' would read the rest of
# the run again from each one of '-eyJ-eyJ-...'.)
_JWT = re.compile(r"(?<![A-Za-z0-9_-])((?:(?!eyJ)[A-Za-z0-9_]*-)*)"
                  r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
_JWT_BYTES = re.compile(_JWT.pattern.encode())


def is_secret_name(name: str) -> bool:
    upper = name.upper()
    return (any(word in upper for word in SECRET_NAME_WORDS)
            or upper.endswith(SECRET_NAME_ENDINGS))


def _shape_replacement(match: re.Match[str]) -> str:
    return f"{match[1]}{REDACTED}" if match[1] else REDACTED


def _shape_replacement_bytes(match: re.Match[bytes]) -> bytes:
    return (match[1] or b"") + REDACTED.encode()


def mask_shapes(text: str) -> str:
    """``text`` with URL passwords and well-known token formats masked."""
    if "eyJ" in text:
        text = _JWT.sub(rf"\1{REDACTED}", text)
    return _SHAPES.sub(_shape_replacement, text)


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
    return _SHAPES_BYTES.sub(_shape_replacement_bytes, data)


def redact_env(env: Mapping[str, str]) -> dict[str, str]:
    """A copy of ``env`` with secret values replaced, and secrets masked inside other values."""
    secrets = secret_values(env)
    return {
        name: REDACTED if is_secret_name(name) else mask(value, secrets)
        for name, value in sorted(env.items())
    }


def secret_values(env: Mapping[str, str]) -> list[str]:
    """Values worth masking: long enough that masking them cannot garble ordinary text."""
    return sorted(
        {v for k, v in env.items() if is_secret_name(k) and len(v) >= MIN_SECRET_LEN},
        key=len, reverse=True,
    )


def mask(text: str, secrets: list[str]) -> str:
    """``text`` with the given secret values and every secret-shaped string masked."""
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return mask_shapes(text)


_PROCESS_SECRETS: list[str] | None = None


def process_secrets() -> list[str]:
    """The secret values of this process's environment, computed once."""
    global _PROCESS_SECRETS
    if _PROCESS_SECRETS is None:
        import os

        _PROCESS_SECRETS = secret_values(os.environ)
    return _PROCESS_SECRETS
