"""REST routes for the activity log (/api/v1/access-events): who did what, when. Owner only."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from activity.models import AccessEvent
from activity.selectors import MAX_PAGE, ActivityFilters, activity_events
from kernel.api_errors import error_responses
from kernel.api_types import DbId, StoredText, UtcDatetime
from kernel.errors import InvalidInput
from kernel.gates import request_acting, require_owner

events_router = Router(tags=["access events"])


class AccessEventOut(Schema):
    id: int
    app_id: int | None
    app_name: str
    # An OAuth client, which named itself: never one of the owner's own apps.
    app_third_party: bool
    actor: str
    action: str
    memory_ids: list[uuid.UUID]
    count: int
    detail: dict[str, Any]
    created_at: datetime

    @staticmethod
    def resolve_app_third_party(obj: AccessEvent) -> bool:
        return obj.app is not None and obj.app.is_third_party


class AccessEventPageOut(Schema):
    items: list[AccessEventOut]
    next_cursor: str | None


class AccessEventQuery(Schema):
    app_id: DbId | None = None
    action: Literal[tuple(AccessEvent.Action.values)] | None = None  # type: ignore[valid-type]
    memory_id: uuid.UUID | None = None
    created_after: UtcDatetime | None = None
    created_before: UtcDatetime | None = None
    cursor: Annotated[StoredText, Field(max_length=200)] | None = None
    limit: int = Field(50, ge=1, le=MAX_PAGE)


@events_router.get(
    "", response={200: AccessEventPageOut, **error_responses()}, summary="Who did what, when"
)
def list_access_events(request: HttpRequest, filters: Query[AccessEventQuery]) -> Any:
    """The access log, newest first; content-free (ids, never text). Owner only."""
    actor = request_acting(request)
    require_owner(actor)  # a connected app's token: 403 owner_only, not an empty log
    if filters.cursor and not (filters.cursor.isdigit() and len(filters.cursor) <= 18):
        raise InvalidInput("The cursor is not one this server issued.", field="cursor")
    page = activity_events(
        actor=actor,
        filters=ActivityFilters(
            app_id=filters.app_id,
            action=filters.action,
            memory_id=filters.memory_id,
            since=filters.created_after,
            until=filters.created_before,
        ),
        before=int(filters.cursor) if filters.cursor else None,
        limit=filters.limit,
    )
    next_cursor = str(page.next_before) if page.next_before is not None else None
    return {"items": page.items, "next_cursor": next_cursor}
