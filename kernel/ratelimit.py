"""Rate limits shared by every worker: a fixed-window counter in PostgreSQL (no Redis).

One atomic upsert per check (several counters in one statement), so two workers can never both
let the N+1th call through.

`Leases` (the MCP endpoint's limiter) keeps the counts in the worker's memory between trips to
PostgreSQL: a worker takes a block of a window's calls from the shared counter in one upsert and
spends it without touching the database. The shared counter has already counted every call of the
block, so all workers together still never admit more than the limit in a window; what a block
costs is that a worker may hold up to `block - 1` calls it will not use before the window ends,
so a client near its limit can be refused that many calls early per other worker (the block is
1 below 16 calls a window, so small limits are exact).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.utils import timezone

from kernel.env import Rate, parse_rate
from kernel.errors import DomainError


@dataclass(frozen=True)
class Decision:
    allowed: bool
    retry_after: int  # seconds until the window resets (0 when allowed)


# Adds each row's `hits` to its counter (a new window starts from it), returning the totals.
_UPSERT = """
INSERT INTO contextlayer_ratelimit (key, window_start, hits)
VALUES {rows}
ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN contextlayer_ratelimit.window_start = EXCLUDED.window_start
                THEN contextlayer_ratelimit.hits + EXCLUDED.hits ELSE EXCLUDED.hits END,
    window_start = EXCLUDED.window_start
RETURNING key, hits
"""
# The largest block of calls a worker takes from a shared counter at once.
MAX_BLOCK = 32


def hit(scope: str, key: str, *, rate: Rate | None = None) -> Decision:
    """Count one call for (scope, key) and say whether it is within the configured rate."""
    return hit_each([(scope, key)], rates=[rate])


def hit_each(
    counters: Sequence[tuple[str, str]], *, rates: Sequence[Rate | None] | None = None
) -> Decision:
    """Count one call on each (scope, key) counter in one statement (one round trip on the hot
    path); the decision of the first counter past its rate, else allowed."""
    limits = _limits(counters, rates)
    now = timezone.now().timestamp()
    windows = [_window(now, rate) for rate in limits]
    keys = [_key(scope, key) for scope, key in counters]
    counted = _add(keys, windows, [1] * len(keys))
    for key, rate, window in zip(keys, limits, windows, strict=True):
        if counted.get(key, 1) > rate.limit:
            return _refused(now, window, rate)
    return Decision(allowed=True, retry_after=0)


def _limits(
    counters: Sequence[tuple[str, str]], rates: Sequence[Rate | None] | None = None
) -> list[Rate]:
    return [
        rate or parse_rate(settings.RATE_LIMITS[scope])
        for (scope, _), rate in zip(counters, rates or [None] * len(counters), strict=True)
    ]


def _key(scope: str, key: str) -> str:
    return f"{scope}:{key}"[:255]


def _window(now: float, rate: Rate) -> int:
    return int(math.floor(now / rate.period) * rate.period)


def _refused(now: float, window: int, rate: Rate) -> Decision:
    return Decision(allowed=False, retry_after=max(1, math.ceil(window + rate.period - now)))


def _add(keys: Sequence[str], windows: Sequence[int], hits: Sequence[int]) -> dict[str, int]:
    """Add `hits` to each key's counter for its window in one statement; the new totals."""
    rows = ", ".join(["(%s, %s, %s)"] * len(keys))
    params = [v for row in zip(keys, windows, hits, strict=True) for v in row]
    with connection.cursor() as cur:
        cur.execute(_UPSERT.format(rows=rows), params)
        return {key: int(total) for key, total in cur.fetchall()}


def block_for(rate: Rate) -> int:
    """How many calls of a window a worker takes at once: 1/16 of the limit, 1 to MAX_BLOCK."""
    return max(1, min(MAX_BLOCK, rate.limit // 16))


class Leases:
    """This process's unspent shares of the shared counters (see the module docstring).

    `take_local` answers from memory when every counter of a call has calls left in the current
    window (the event loop asks it: no database); otherwise `take` (in Django's sync thread)
    takes a new block of each exhausted counter from PostgreSQL in one statement.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, tuple[int, int]] = {}  # key -> (window start, calls left)

    def take_local(self, counters: Sequence[tuple[str, str]]) -> bool:
        """Spend one call of every counter from memory; False (nothing spent) if one is empty."""
        keys, windows, _, _ = _counters(counters)
        with self._lock:
            if any(self._left(k, w) == 0 for k, w in zip(keys, windows, strict=True)):
                return False
            self._spend(keys, windows)
        return True

    def take(self, counters: Sequence[tuple[str, str]]) -> Decision:
        """Spend one call of every counter, first taking a new block from PostgreSQL for each
        counter this process has nothing left of in the current window."""
        keys, windows, limits, now = _counters(counters)
        with self._lock:
            pairs = enumerate(zip(keys, windows, strict=True))
            empty = [i for i, (key, window) in pairs if not self._left(key, window)]
        if empty:
            blocks = [block_for(limits[i]) for i in empty]
            totals = _add([keys[i] for i in empty], [windows[i] for i in empty], blocks)
            with self._lock:
                if len(self._held) > 100_000:  # idle keys of past windows
                    self._held = {k: v for k, v in self._held.items() if v[0] in windows}
                for i, block in zip(empty, blocks, strict=True):
                    before = totals.get(keys[i], block) - block
                    granted = max(0, min(block, limits[i].limit - before))
                    self._held[keys[i]] = (windows[i], self._left(keys[i], windows[i]) + granted)
        with self._lock:
            for key, window, rate in zip(keys, windows, limits, strict=True):
                if not self._left(key, window):
                    return _refused(now, window, rate)
            self._spend(keys, windows)
        return Decision(allowed=True, retry_after=0)

    def _left(self, key: str, window: int) -> int:
        held = self._held.get(key)
        return held[1] if held is not None and held[0] == window else 0

    def _spend(self, keys: Sequence[str], windows: Sequence[int]) -> None:
        for key, window in zip(keys, windows, strict=True):
            self._held[key] = (window, self._held[key][1] - 1)


def _counters(
    counters: Sequence[tuple[str, str]],
) -> tuple[list[str], list[int], list[Rate], float]:
    limits = _limits(counters)
    now = timezone.now().timestamp()
    keys = [_key(scope, key) for scope, key in counters]
    return keys, [_window(now, rate) for rate in limits], limits, now


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
