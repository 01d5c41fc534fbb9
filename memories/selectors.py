"""Reads. Every function takes an explicit actor; another tenant's memory is simply not there."""

from __future__ import annotations

import base64
import binascii
import uuid
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, QuerySet

from accounts.actors import Actor
from accounts.models import SCOPE_READ
from memories import audit, search
from memories.embeddings import get_embedder
from memories.errors import InvalidInput, NotFound
from memories.models import AccessEvent, Memory, MemoryState, MemoryVersion
from memories.text import clean_text
from memories.visibility import require, visible_q, visible_sql

MAX_PAGE = 200
MAX_SEARCH = 100


def parse_memory_id(value: object) -> uuid.UUID:
    """A malformed id is a missing memory, exactly like another user's id."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (ValueError, TypeError, AttributeError):
        raise NotFound() from None


def get_visible(actor: Actor, memory_id: uuid.UUID, *, for_update: bool = False) -> Memory | None:
    qs = Memory.objects.filter(visible_q(actor), id=memory_id)
    if for_update:
        qs = qs.select_for_update()
    return qs.first()


def memory_get(*, actor: Actor, memory_id: object) -> Memory:
    require(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    audit.record(actor, AccessEvent.Action.READ, [memory.id])
    return memory


@dataclass(frozen=True)
class MemoryFilters:
    state: str | None = MemoryState.ACTIVE  # None: every state
    category: str | None = None
    app_name: str | None = None
    created_after: datetime | None = None
    created_before: datetime | None = None
    text: str | None = None  # substring match (case-insensitive)


@dataclass(frozen=True)
class Page:
    items: list[Memory]
    next_cursor: str | None


def _encode_cursor(memory: Memory) -> str:
    raw = f"{memory.created_at.isoformat()}|{memory.id}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[datetime, uuid.UUID]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        created, mid = base64.urlsafe_b64decode(padded.encode()).decode().split("|")
        return datetime.fromisoformat(created), uuid.UUID(mid)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidInput("The cursor is not one this server issued.", field="cursor") from None


def _filtered(actor: Actor, filters: MemoryFilters) -> QuerySet[Memory]:
    qs = Memory.objects.filter(visible_q(actor))
    if filters.state is not None:
        if filters.state not in MemoryState.values:
            raise InvalidInput(f"Unknown state {filters.state!r}.", field="state")
        qs = qs.filter(state=filters.state)
        if filters.state == MemoryState.ACTIVE:
            qs = qs.filter(superseded_by__isnull=True)
    if filters.category:
        qs = qs.filter(categories__contains=[filters.category.strip().lower()])
    if filters.app_name:
        qs = qs.filter(origin_app_name=filters.app_name)
    if filters.created_after:
        qs = qs.filter(created_at__gte=filters.created_after)
    if filters.created_before:
        qs = qs.filter(created_at__lt=filters.created_before)
    if filters.text:
        qs = qs.filter(text__icontains=filters.text)
    return qs


def memory_list(
    *,
    actor: Actor,
    filters: MemoryFilters | None = None,
    cursor: str | None = None,
    limit: int = 50,
    record: bool = True,
) -> Page:
    """Newest first, keyset-paginated (stable under concurrent writes)."""
    require(actor, SCOPE_READ)
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}.", field="limit")
    qs = _filtered(actor, filters or MemoryFilters())
    if cursor:
        created, mid = _decode_cursor(cursor)
        qs = qs.filter(Q(created_at__lt=created) | Q(created_at=created, id__lt=mid))
    rows = list(qs.order_by("-created_at", "-id")[: limit + 1])
    items = rows[:limit]
    next_cursor = _encode_cursor(items[-1]) if len(rows) > limit else None
    if record:
        audit.record(actor, AccessEvent.Action.LIST, [m.id for m in items])
    return Page(items=items, next_cursor=next_cursor)


def memory_count(*, actor: Actor, filters: MemoryFilters | None = None) -> int:
    require(actor, SCOPE_READ)
    return _filtered(actor, filters or MemoryFilters()).count()


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    score: float


def memory_search(
    *,
    actor: Actor,
    query: str,
    limit: int = 10,
    category: str | None = None,
    record: bool = True,
) -> list[SearchHit]:
    """Hybrid search over the actor's active memories, best first.

    `record=False` is for the server's own look-ups (reconciliation), which no app reads.
    """
    require(actor, SCOPE_READ)
    query = clean_text(query, field="query")
    if not 1 <= limit <= MAX_SEARCH:
        raise InvalidInput(f"limit must be between 1 and {MAX_SEARCH}.", field="limit")
    qvec = get_embedder().embed_query(query)
    visible, params = visible_sql(actor)
    cat = category.strip().lower() if category else None
    candidates = search.hybrid(
        query, qvec, visible=visible, params=params, category=cat, limit=limit
    )
    rows = Memory.objects.in_bulk([c.id for c in candidates])
    hits = [SearchHit(memory=rows[c.id], score=c.score) for c in candidates if c.id in rows]
    if record:
        audit.record(actor, AccessEvent.Action.SEARCH, [h.memory.id for h in hits])
    return hits


def memory_versions(*, actor: Actor, memory_id: object) -> list[MemoryVersion]:
    require(actor, SCOPE_READ)
    memory = get_visible(actor, parse_memory_id(memory_id))
    if memory is None:
        raise NotFound()
    return list(
        MemoryVersion.objects.filter(memory=memory, owner=actor.user).order_by("-created_at")
    )
