"""Rate limits shared by every worker: a fixed-window counter in PostgreSQL (no Redis).

One atomic upsert per check (several counters in one statement), so two workers can never both
let the N+1th call through.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.utils import timezone

from contextlayer.env import Rate, parse_rate
from contextlayer.errors import DomainError


@dataclass(frozen=True)
class Decision:
    allowed: bool
    retry_after: int  # seconds until the window resets (0 when allowed)


_UPSERT = """
INSERT INTO contextlayer_ratelimit (key, window_start, hits)
VALUES {rows}
ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN contextlayer_ratelimit.window_start = EXCLUDED.window_start
                THEN contextlayer_ratelimit.hits + 1 ELSE 1 END,
    window_start = EXCLUDED.window_start
RETURNING key, hits
"""


def hit(scope: str, key: str, *, rate: Rate | None = None) -> Decision:
    """Count one call for (scope, key) and say whether it is within the configured rate."""
    return hit_each([(scope, key)], rates=[rate])


def hit_each(
    counters: Sequence[tuple[str, str]], *, rates: Sequence[Rate | None] | None = None
) -> Decision:
    """Count one call on each (scope, key) counter in one statement (one round trip on the hot
    path); the decision of the first counter past its rate, else allowed."""
    limits = [
        rate or parse_rate(settings.RATE_LIMITS[scope])
        for (scope, _), rate in zip(counters, rates or [None] * len(counters), strict=True)
    ]
    now = timezone.now().timestamp()
    windows = [math.floor(now / rate.period) * rate.period for rate in limits]
    keys = [f"{scope}:{key}"[:255] for scope, key in counters]
    rows = ", ".join(["(%s, %s, 1)"] * len(keys))
    params = [v for key, window in zip(keys, windows, strict=True) for v in (key, int(window))]
    with connection.cursor() as cur:
        cur.execute(_UPSERT.format(rows=rows), params)
        counted = dict(cur.fetchall())
    for key, rate, window in zip(keys, limits, windows, strict=True):
        if int(counted.get(key, 1)) > rate.limit:
            return Decision(
                allowed=False, retry_after=max(1, math.ceil(window + rate.period - now))
            )
    return Decision(allowed=True, retry_after=0)


_TAKE = """
INSERT INTO contextlayer_ratelimit (key, window_start, hits) VALUES (%s, %s, %s)
ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN contextlayer_ratelimit.window_start = EXCLUDED.window_start
                THEN contextlayer_ratelimit.hits + EXCLUDED.hits ELSE EXCLUDED.hits END,
    window_start = EXCLUDED.window_start
WHERE contextlayer_ratelimit.window_start <> EXCLUDED.window_start
   OR contextlayer_ratelimit.hits + EXCLUDED.hits <= %s
RETURNING hits
"""


def take(counters: Sequence[tuple[str, str]], amount: int) -> Decision:
    """Count `amount` on each (scope, key) counter only if every one stays within its rate: a
    budget rather than a tally, for the caller's transaction. A refusal counts nothing on the
    counter that refused; the caller raises, and its rollback takes back the counters before it
    (and the write they were counted for). The row lock it holds until commit makes two workers
    spending the same budget wait for each other, so neither can overdraw it."""
    now = timezone.now().timestamp()
    with connection.cursor() as cur:
        for scope, key in counters:
            rate = parse_rate(settings.RATE_LIMITS[scope])
            window = math.floor(now / rate.period) * rate.period
            retry = max(1, math.ceil(window + rate.period - now))
            if amount > rate.limit:
                return Decision(allowed=False, retry_after=retry)
            cur.execute(_TAKE, [f"{scope}:{key}"[:255], int(window), amount, rate.limit])
            if cur.fetchone() is None:
                return Decision(allowed=False, retry_after=retry)
    return Decision(allowed=True, retry_after=0)


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
