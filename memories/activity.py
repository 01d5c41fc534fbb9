"""The access log as the owner reads it: who did what to which memories, filtered, newest first."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from accounts.actors import Actor
from accounts.services import require_owner
from memories.errors import InvalidInput
from memories.models import AccessEvent

MAX_EVENTS_PAGE = 200


@dataclass(frozen=True)
class EventFilters:
    app_id: int | None = None
    action: str | None = None
    memory_id: uuid.UUID | None = None
    created_after: datetime | None = None
    created_before: datetime | None = None


@dataclass(frozen=True)
class EventPage:
    items: list[AccessEvent]
    next_cursor: str | None


def _decode_cursor(cursor: str) -> int:
    # Event ids only grow, so "older than id N" is a stable keyset cursor.
    if not cursor.isdigit() or len(cursor) > 18:
        raise InvalidInput("The cursor is not one this server issued.", field="cursor")
    return int(cursor)


def access_event_list(
    *,
    actor: Actor,
    filters: EventFilters | None = None,
    cursor: str | None = None,
    limit: int = 50,
) -> EventPage:
    """The owner's access events (content-free), keyset-paginated by id."""
    require_owner(actor)
    if not 1 <= limit <= MAX_EVENTS_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_EVENTS_PAGE}.", field="limit")
    f = filters or EventFilters()
    if f.action is not None and f.action not in AccessEvent.Action.values:
        raise InvalidInput(f"Unknown action {f.action!r}.", field="action")
    qs = AccessEvent.objects.filter(owner=actor.user)
    if f.app_id is not None:
        qs = qs.filter(app_id=f.app_id)
    if f.action:
        qs = qs.filter(action=f.action)
    if f.memory_id is not None:
        qs = qs.filter(memory_ids__contains=[f.memory_id])
    if f.created_after:
        qs = qs.filter(created_at__gte=f.created_after)
    if f.created_before:
        qs = qs.filter(created_at__lt=f.created_before)
    if cursor:
        qs = qs.filter(pk__lt=_decode_cursor(cursor))
    rows = list(qs.order_by("-pk")[: limit + 1])
    items = rows[:limit]
    next_cursor = str(items[-1].pk) if len(rows) > limit else None
    return EventPage(items=items, next_cursor=next_cursor)
