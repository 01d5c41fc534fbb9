"""The owner's trash as the Trash page and the dashboard's notices read it: each delete with
what is left of it, until when it can come back, and what a "Delete forever" would take. The
moves in and out are `memories.services.trash`."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, F, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from accounts.actors import Actor
from accounts.models import ConnectedApp
from kernel.errors import InvalidInput, NotFound
from kernel.gates import SCOPE_READ, require_owner
from memories.models import (
    UNSHOWN_COLUMNS,
    Memory,
    TrashBatch,
)
from memories.selectors.memories import parse_memory_id
from memories.visibility import trashed_q

# --- Into the trash ------------------------------------------------------------------------------


def restorable_until(moment: datetime) -> datetime:
    """When a memory trashed at `moment` is purged."""
    return moment + timedelta(days=settings.TRASH_DAYS)


def trash_picked(
    actor: Actor, memory_ids: Sequence[object], batch_id: object | None
) -> QuerySet[Memory]:
    """The trashed memories named (each must be one), or those of one batch."""
    roots = trash_q(actor)
    if batch_id is not None:
        qs = roots.filter(trash_batch_id=parse_memory_id(batch_id))
        if not qs.exists():
            raise NotFound("batch")
        return qs
    mids = {parse_memory_id(m) for m in memory_ids}
    if not mids:
        raise InvalidInput("No memories given.", field="memory_ids")
    qs = roots.filter(pk__in=mids)
    if qs.count() != len(mids):
        raise NotFound()
    return qs


def trash_picked_count(
    *,
    actor: Actor,
    memory_ids: Sequence[object] = (),
    batch_id: object | None = None,
    everything: bool = False,
) -> int:
    """How many memories a "Delete forever" of this choice would take (for its confirmation)."""
    require_owner(actor, SCOPE_READ)
    return (trash_q(actor) if everything else trash_picked(actor, memory_ids, batch_id)).count()


def trash_q(actor: Actor) -> QuerySet[Memory]:
    """The memories in the owner's trash that a delete named (not those that went with them)."""
    return Memory.objects.filter(trashed_q(actor))


@dataclass(frozen=True)
class TrashGroup:
    """One delete, as the Trash page shows it: who, when, until when, and what is left of it."""

    batch: TrashBatch
    memories: list[Memory]  # up to TRASH_SHOWN per batch, oldest first
    count: int  # how many are still in the trash
    purge_at: datetime

    @property
    def more(self) -> int:
        return self.count - len(self.memories)


TRASH_SHOWN = 100  # memories listed per delete; the rest come back with "Restore all"


TRASH_BATCHES = 50  # deletes listed per page, newest first


def trash_groups(*, actor: Actor) -> list[TrashGroup]:
    """The owner's trash, newest delete first."""
    require_owner(actor, SCOPE_READ)
    batches = list(
        TrashBatch.objects.filter(owner=actor.user)
        .annotate(left=Count("memories", filter=Q(memories__trashed_with__isnull=True)))
        .filter(left__gt=0)
        .order_by("-created_at", "-id")[:TRASH_BATCHES]
    )
    shown: dict[uuid.UUID, list[Memory]] = {b.id: [] for b in batches}
    oldest_first = [F("created_at").asc(), F("id").asc()]
    rows = (
        trash_q(actor)
        .filter(trash_batch_id__in=list(shown))
        .annotate(n=Window(RowNumber(), partition_by=[F("trash_batch_id")], order_by=oldest_first))
        .filter(n__lte=TRASH_SHOWN)  # a delete of 10,000 memories lists its first hundred
        .defer(*UNSHOWN_COLUMNS)
        .select_related("echo_app")
        .order_by("trash_batch_id", "created_at", "id")
    )
    for memory in rows:
        shown[memory.trash_batch_id].append(memory)  # type: ignore[index]  # filtered on it
    return [TrashGroup(b, shown[b.id], b.left, restorable_until(b.created_at)) for b in batches]


def trash_notices(*, actor: Actor, limit: int = 5) -> list[TrashBatch]:
    """Deletes the owner did not make in the dashboard (an app, the API, the command line, an
    operator) and has not acknowledged, newest first, each with how many are still in the trash."""
    require_owner(actor, SCOPE_READ)
    return list(
        TrashBatch.objects.filter(owner=actor.user, seen_at=None)
        .exclude(app__kind=ConnectedApp.Kind.BUILTIN, app__name=ConnectedApp.DASHBOARD)
        .annotate(left=Count("memories", filter=Q(memories__trashed_with__isnull=True)))
        .filter(left__gt=0)
        .order_by("-created_at", "-id")[:limit]
    )
