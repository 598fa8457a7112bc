"""Keeping secrets out of everything safelaunch writes or prints.

A variable whose name contains one of ``SECRET_NAME_WORDS`` has its value replaced; the values
of such variables are also masked wherever they appear inside other text.
"""

from __future__ import annotations

from collections.abc import Mapping

SECRET_NAME_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL")
REDACTED = "<redacted>"
MIN_SECRET_LEN = 6


def is_secret_name(name: str) -> bool:
    upper = name.upper()
    return any(word in upper for word in SECRET_NAME_WORDS)


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
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


_PROCESS_SECRETS: list[str] | None = None


def process_secrets() -> list[str]:
    """The secret values of this process's environment, computed once."""
    global _PROCESS_SECRETS
    if _PROCESS_SECRETS is None:
        import os

        _PROCESS_SECRETS = secret_values(os.environ)
    return _PROCESS_SECRETS
