"""Reads of the activity log: the owner's events, filtered and paginated, the apps in it, and
reads and writes per day. Owner only: an app never reads the log."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.db.models import Count, Q, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone

from activity.models import AccessEvent
from kernel.errors import InvalidInput, NotFound
from kernel.gates import SCOPE_READ, Acting, require_owner

MAX_PAGE = 200  # events per page


@dataclass(frozen=True)
class ActivityFilters:
    app_name: str | None = None
    app_id: int | None = None
    action: str | None = None
    memory_id: uuid.UUID | None = None
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True)
class EventPage:
    items: list[AccessEvent]
    next_before: int | None  # pass as `before` for the next page


def _events(actor: Acting, filters: ActivityFilters) -> QuerySet[AccessEvent]:
    qs = AccessEvent.objects.filter(owner=actor.user)
    if filters.app_name:
        qs = qs.filter(app_name=filters.app_name)
    if filters.app_id is not None:
        qs = qs.filter(app_id=filters.app_id)
    if filters.memory_id is not None:
        qs = qs.filter(memory_ids__contains=[filters.memory_id])
    if filters.action:
        if filters.action not in AccessEvent.Action.values:
            raise InvalidInput(f"Unknown action {filters.action!r}.", field="action")
        qs = qs.filter(action=filters.action)
    if filters.since:
        qs = qs.filter(created_at__gte=filters.since)
    if filters.until:
        qs = qs.filter(created_at__lt=filters.until)
    return qs


def activity_events(
    *,
    actor: Acting,
    filters: ActivityFilters | None = None,
    before: int | None = None,
    limit: int = 50,
) -> EventPage:
    """The access log, newest first, keyset-paginated by id."""
    require_owner(actor, SCOPE_READ)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}.", field="limit")
    qs = _events(actor, filters or ActivityFilters())
    if before is not None:
        qs = qs.filter(id__lt=before)
    rows = list(qs.select_related("app").order_by("-id")[: limit + 1])
    items = rows[:limit]
    return EventPage(items=items, next_before=items[-1].id if len(rows) > limit else None)


def activity_event(*, actor: Acting, event_id: object) -> AccessEvent:
    """One event of the owner's log; another user's, or a missing one, is NotFound."""
    require_owner(actor, SCOPE_READ)
    try:
        pk = int(str(event_id))
    except ValueError:
        raise NotFound("event") from None
    event = AccessEvent.objects.filter(owner=actor.user, pk=pk).select_related("app").first()
    if event is None:
        raise NotFound("event")
    return event


def activity_apps(*, actor: Acting) -> list[str]:
    """Names of every app that appears in the activity log, for filter menus."""
    require_owner(actor, SCOPE_READ)
    return sorted(
        set(AccessEvent.objects.filter(owner=actor.user).values_list("app_name", flat=True))
    )


@dataclass(frozen=True)
class DailyActivity:
    app_name: str
    day: date
    reads: int
    writes: int


def activity_daily(
    *, actor: Acting, days: int = 14, filters: ActivityFilters | None = None
) -> list[DailyActivity]:
    """Reads and writes per app per day over the last `days` days, one grouped query. Days are
    those of the active time zone (the owner's, on the dashboard: kernel/owner_zone.py)."""
    require_owner(actor, SCOPE_READ)
    since = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(
        days=days - 1
    )
    f = filters or ActivityFilters()
    qs = _events(actor, ActivityFilters(app_name=f.app_name, action=f.action, since=since))
    rows = (
        qs.annotate(day=TruncDate("created_at"))
        .values("app_name", "day")
        .annotate(
            reads=Count("id", filter=Q(action__in=AccessEvent.READS)),
            writes=Count("id", filter=Q(action__in=AccessEvent.WRITES)),
        )
        .order_by("app_name", "day")
    )
    return [DailyActivity(r["app_name"], r["day"], r["reads"], r["writes"]) for r in rows]
