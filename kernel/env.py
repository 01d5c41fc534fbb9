"""Typed readers for environment settings that fail loudly instead of guessing."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: use true or false")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected at least {minimum}")
    return value


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    value = os.environ.get(name, default).strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r}: expected one of {', '.join(choices)}")
    return value


def env_secret(name: str) -> str | None:
    """Read NAME, or the file named by NAME_FILE (Docker secrets); None when neither is set."""
    value = os.environ.get(name)
    if value:
        return value
    path = os.environ.get(f"{name}_FILE")
    if path:
        try:
            return Path(path).read_text().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE={path!r}: {exc.strerror}") from None
    return None


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    limit: int
    period: int  # seconds


def parse_rate(spec: str) -> Rate:
    """'120/m' → 120 per minute; '20/h', '5/10s' also accepted."""
    try:
        count, per = spec.strip().split("/")
        unit = per[-1]
        multiple = int(per[:-1]) if per[:-1] else 1
        rate = Rate(limit=int(count), period=multiple * _UNITS[unit])
    except (ValueError, KeyError, IndexError):
        raise ImproperlyConfigured(f"Bad rate {spec!r}: use e.g. 120/m, 20/h, 5/10s") from None
    if rate.limit < 1 or rate.period < 1:
        raise ImproperlyConfigured(f"Bad rate {spec!r}: both numbers must be positive")
    return rate


def env_rate(name: str, default: str) -> str:
    """A rate such as 240/m, checked at start-up rather than on the first limited request."""
    raw = env_str(name, default)
    try:
        parse_rate(raw)
    except ImproperlyConfigured as exc:
        raise ImproperlyConfigured(f"{name}: {exc}") from None
    return raw
