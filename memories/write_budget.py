"""How much a connected app may add to its owner's store: the per-app write budget.

An app with write scope could otherwise grow a store without bound (up to MEMORY_BATCH_MAX
memories a call, call after call): every memory it stores, and every text it changes (each keeps
a version), is counted against `RATE_LIMIT_APP_WRITES` (per hour) and
`RATE_LIMIT_APP_WRITES_DAY` (per day), in PostgreSQL, so every worker and node spends the same
budget. Counted in the write's own transaction: a write past the budget stores nothing and
counts nothing. The owner's own apps (dashboard, their API session, the command line) and
imports (which have their own limits) are not counted.

What is counted is what the caller is told it stored (new memories, echoes included, and text
changes), never a duplicate it was answered with, so the budget says nothing the answer did not.
"""

from __future__ import annotations

from django.conf import settings

from accounts.actors import Actor
from accounts.models import ConnectedApp
from kernel.env import parse_rate
from kernel.ratelimit import RateLimited, take

SCOPES = ("app_writes", "app_writes_day")


class WriteBudgetExceeded(RateLimited):
    """Past the app's write budget: nothing was stored (429 with Retry-After over HTTP)."""

    def __init__(self, retry_after: int, reason: str) -> None:
        super().__init__(retry_after)
        self.message = f"{reason} Nothing was stored."
        self.args = (self.message,)


def _limited(actor: Actor) -> bool:
    app = actor.app
    # A write the owner accepted on the Review page was charged when the app proposed it.
    return not app.is_owner_app and app.kind != ConnectedApp.Kind.IMPORT and not actor.reviewed


def charge(actor: Actor, count: int) -> None:
    """Spend `count` of the actor's app's budget, in the caller's transaction, or raise
    `WriteBudgetExceeded` (the caller's transaction then rolls back the write)."""
    if not _limited(actor):
        return
    for scope in SCOPES:
        rate = parse_rate(settings.RATE_LIMITS[scope])
        if count > rate.limit:
            raise WriteBudgetExceeded(
                rate.period,
                f"This app may store or change at most {rate.limit} memories per "
                f"{_period(rate.period)}; this call would store {count}: send fewer at a time.",
            )
    decision = take([(scope, f"app:{actor.app.pk}") for scope in SCOPES], count)
    if not decision.allowed:
        raise WriteBudgetExceeded(
            decision.retry_after,
            f"This app has stored or changed as many memories as it may for now "
            f"({settings.RATE_LIMITS['app_writes']}, {settings.RATE_LIMITS['app_writes_day']}); "
            f"try again in {decision.retry_after} s.",
        )


def _period(seconds: int) -> str:
    named = {60: "minute", 3600: "hour", 86400: "day"}
    return named.get(seconds, f"{seconds} s")
