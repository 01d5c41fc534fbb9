"""Rate limits shared by every worker: a fixed-window counter in PostgreSQL (no Redis).

One atomic upsert per check, so two workers can never both let the N+1th call through.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.utils import timezone

from contextlayer.env import Rate, parse_rate
from memories.errors import DomainError


@dataclass(frozen=True)
class Decision:
    allowed: bool
    retry_after: int  # seconds until the window resets (0 when allowed)


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
