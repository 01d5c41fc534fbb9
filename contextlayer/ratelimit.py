"""Rate limits shared by every worker: a fixed-window counter in PostgreSQL (no Redis).

One atomic upsert per check, so two workers can never both let the N+1th call through.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.utils import timezone

from memories.errors import DomainError

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Rate:
    limit: int
    period: int  # seconds


@dataclass(frozen=True)
class Decision:
    allowed: bool
    retry_after: int  # seconds until the window resets (0 when allowed)


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


_UPSERT = """
INSERT INTO contextlayer_ratelimit (key, window_start, hits)
VALUES (%(key)s, %(window)s, 1)
ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN contextlayer_ratelimit.window_start = EXCLUDED.window_start
                THEN contextlayer_ratelimit.hits + 1 ELSE 1 END,
    window_start = EXCLUDED.window_start
RETURNING hits
"""


def hit(scope: str, key: str, *, rate: Rate | None = None) -> Decision:
    """Count one call for (scope, key) and say whether it is within the configured rate."""
    rate = rate or parse_rate(settings.RATE_LIMITS[scope])
    now = timezone.now().timestamp()
    window = math.floor(now / rate.period) * rate.period
    with connection.cursor() as cur:
        cur.execute(_UPSERT, {"key": f"{scope}:{key}"[:255], "window": int(window)})
        row = cur.fetchone()
    hits = int(row[0]) if row else 1
    if hits <= rate.limit:
        return Decision(allowed=True, retry_after=0)
    return Decision(allowed=False, retry_after=max(1, math.ceil(window + rate.period - now)))


class RateLimited(DomainError):
    code = "rate_limited"

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"Too many requests; try again in {retry_after} s.")
        self.retry_after = retry_after


def enforce(scope: str, key: str) -> None:
    """Count a call and raise RateLimited past the configured rate."""
    decision = hit(scope, key)
    if not decision.allowed:
        raise RateLimited(decision.retry_after)
