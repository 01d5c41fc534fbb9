"""The owner's trash: every delete, through every entry point, lands here; the owner restores from
it, and what stays TRASH_DAYS is purged (physically, like a delete used to be).

A trashed memory keeps its row whole (text, embedding, versions, categories, privacy, hiding);
only its state changes, to `trashed`, with the state before kept in `trash_state`. So every rule
that names `active` (search and its statistics, the apps' consent rule, the unique active text)
leaves it out without knowing about the trash, and the owner's own apps leave it out through
`visibility.visible_q`: only the trash's modules read it (this and `memories.selectors.trash`).
Each delete is a `TrashBatch` (which app, who, when): "Deleted · Undo" and an app's delete
notice restore that batch.

A memory takes with it what only exists through it: the predecessors it superseded and the apps'
echoes of it (`trashed_with` names it), and they come back or go with it. Its tombstone (no
content) is written when it enters the trash, so no import brings it back while it is there or
after; a restore removes it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor, owner_actor
from accounts.models import ConnectedApp
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.errors import Conflict
from kernel.gates import SCOPE_DELETE, SCOPE_WRITE, require_owner
from kernel.tenancy import cross_tenant
from memories.models import (
    UNSHOWN_COLUMNS,
    Memory,
    MemoryState,
    MemoryTombstone,
    TrashBatch,
)
from memories.provenance import source_ref_hash
from memories.search import snapshot_files
from memories.selectors.memories import parse_memory_id
from memories.selectors.trash import trash_picked, trash_q

# --- Into the trash ------------------------------------------------------------------------------


def trash_batch_create(actor: Actor, *, seen: bool = False) -> TrashBatch:
    """An empty delete of this actor's, for `move_to_trash` to fill (a redo of an import fills
    one over many transactions; `seen`: the owner asked for it, so it is no notice)."""
    return TrashBatch.objects.create(
        owner_id=actor.user.pk,
        app=actor.app,
        app_name=actor.app.name,
        deleted_by=actor.label,
        memories_deleted=0,
        seen_at=timezone.now() if seen else None,
    )


def move_to_trash(
    actor: Actor, memories: Sequence[Memory], batch: TrashBatch | None = None
) -> TrashBatch:
    """Move these memories (locked by the caller, in its transaction) to the owner's trash as one
    batch (a new one, or `batch`, added to), with the predecessors and echoes that go with them.
    The caller records the event."""
    owner_id = actor.user.pk
    fresh = batch is None
    if batch is None:
        batch = trash_batch_create(actor)
    rows: dict[uuid.UUID, Memory] = {m.id: m for m in memories}
    # What exists only through them: the predecessors they superseded (to the end of the chain),
    # and the apps' echoes of any of those. Rows already in the trash stay in their own batch.
    frontier = list(rows)
    while frontier:
        older = [
            m for m in _movable(owner_id).filter(superseded_by_id__in=frontier) if m.id not in rows
        ]
        rows.update((m.id, m) for m in older)
        frontier = [m.id for m in older]
    rows.update((m.id, m) for m in _movable(owner_id).filter(echo_of_id__in=list(rows)))
    roots = {mid: _root(mid, rows) for mid in rows}
    named = sum(1 for mid, root in roots.items() if root is None)
    if fresh:
        batch.memories_deleted = named
        batch.save(update_fields=["memories_deleted"])
    elif named:
        TrashBatch.objects.filter(owner_id=owner_id, pk=batch.pk).update(
            memories_deleted=F("memories_deleted") + named
        )
    with connection.cursor() as cur:
        cur.execute(
            """
            UPDATE memories_memory m
            SET trash_state = m.state, state = %(trashed)s, trash_batch_id = %(batch)s,
                trashed_with_id = u.root
            FROM unnest(%(ids)s::uuid[], %(roots)s::uuid[]) AS u(id, root)
            WHERE m.owner_id = %(owner)s AND m.id = u.id AND m.state <> %(trashed)s
            """,
            {
                "trashed": MemoryState.TRASHED,
                "batch": batch.id,
                "ids": list(roots),
                "roots": list(roots.values()),
                "owner": owner_id,
            },
        )
    MemoryTombstone.objects.bulk_create(
        [
            MemoryTombstone(
                memory_id=m.id,
                owner_id=owner_id,
                deleted_by=actor.label,
                source_ref_hash=source_ref_hash(m.provenance),
            )
            for m in rows.values()
        ],
        ignore_conflicts=True,
    )
    return batch


def _movable(owner_id: int) -> QuerySet[Memory]:
    return (
        Memory.objects.select_for_update()
        .filter(owner_id=owner_id)
        .exclude(state=MemoryState.TRASHED)
        .only("id", "owner_id", "state", "provenance", "superseded_by_id", "echo_of_id")
    )


def _root(mid: uuid.UUID, rows: dict[uuid.UUID, Memory]) -> uuid.UUID | None:
    """The memory of this delete that row `mid` goes with (None: it is one the delete named,
    or the newest of a chain it named)."""
    top = None
    memory = rows[mid]
    while True:
        up = memory.superseded_by_id if memory.superseded_by_id in rows else None
        if up is None and memory.echo_of_id in rows:
            up = memory.echo_of_id
        if up is None:
            return top
        top = up
        memory = rows[up]


# --- Out of the trash ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    memory: Memory
    reason: str


@dataclass(frozen=True)
class RestoreResult:
    restored: list[uuid.UUID]
    refused: list[Refusal]


SAME_TEXT = gettext_noop(
    "The same text is an active memory again; delete or edit that one to restore this."
)


def trash_restore(
    *, actor: Actor, memory_ids: Sequence[object] = (), batch_id: object | None = None
) -> RestoreResult:
    """Bring memories back from the trash as they were: state, text, versions, categories,
    privacy and hiding, with what went with them. `batch_id`: everything one delete took.

    A memory whose text is now held by an active memory stays in the trash and is listed in
    `refused` (one active memory per text); the others come back. The owner's own apps only."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        roots = list(
            trash_picked(actor, memory_ids, batch_id)
            .select_for_update()
            .defer(*UNSHOWN_COLUMNS)
            .order_by("created_at", "id")
        )
        refused = _text_taken(actor, roots)
        back = [m for m in roots if m.id not in refused]
        ids = [m.id for m in back]
        if ids:
            try:
                with transaction.atomic(), connection.cursor() as cur:
                    cur.execute(
                        """
                        UPDATE memories_memory
                        SET state = trash_state, trash_state = '', trash_batch_id = NULL,
                            trashed_with_id = NULL
                        WHERE owner_id = %(owner)s AND state = %(trashed)s
                          AND (id = ANY(%(ids)s::uuid[]) OR trashed_with_id = ANY(%(ids)s::uuid[]))
                        RETURNING id
                        """,
                        {"owner": actor.user.pk, "trashed": MemoryState.TRASHED, "ids": ids},
                    )
                    every = [row[0] for row in cur.fetchall()]
            except IntegrityError:  # the same text was stored meanwhile
                raise Conflict(
                    gettext_noop("The memories changed while restoring; try again.")
                ) from None
            MemoryTombstone.objects.filter(owner=actor.user, memory_id__in=every).delete()
        batches = {m.trash_batch_id for m in roots if m.trash_batch_id}
        _drop_empty(actor.user.pk, batches)
        TrashBatch.objects.filter(owner=actor.user, pk__in=batches, seen_at=None).update(
            seen_at=timezone.now()
        )
        if ids:
            detail = {"refused": len(refused)} if refused else None
            access_event_create(actor, AccessEvent.Action.RESTORE, ids, detail=detail)
    return RestoreResult(
        restored=ids,
        refused=[Refusal(m, SAME_TEXT) for m in roots if m.id in refused],
    )


def _text_taken(actor: Actor, roots: list[Memory]) -> set[uuid.UUID]:
    """Memories that would come back active with a text an active memory holds (or one restored
    before them in this call): the unique active text refuses them."""
    wanted = [
        m
        for m in roots
        if m.trash_state == MemoryState.ACTIVE
        and m.superseded_by_id is None
        and m.echo_of_id is None
    ]
    taken = set(
        Memory.objects.filter(
            owner=actor.user,
            state=MemoryState.ACTIVE,
            superseded_by__isnull=True,
            echo_of__isnull=True,
            text_key__in=[m.text_key for m in wanted],
        ).values_list("text_key", flat=True)
    )
    refused = set()
    for memory in wanted:
        if memory.text_key in taken:
            refused.add(memory.id)
        taken.add(memory.text_key)
    return refused


def trash_batch_drop_if_empty(actor: Actor, batch_id: object) -> None:
    """A delete that took nothing leaves no empty batch behind."""
    _drop_empty(actor.user.pk, {batch_id})


def _drop_empty(owner_id: int, batch_ids: set[Any]) -> None:
    """Batches with nothing left in the trash are gone (their notice with them)."""
    TrashBatch.objects.filter(owner_id=owner_id, pk__in=batch_ids).exclude(
        pk__in=Memory.objects.filter(owner_id=owner_id, trash_batch_id__in=batch_ids).values(
            "trash_batch_id"
        )
    ).delete()


# --- Gone for good -------------------------------------------------------------------------------


def trash_delete_forever(
    *,
    actor: Actor,
    memory_ids: Sequence[object] = (),
    batch_id: object | None = None,
    everything: bool = False,
) -> int:
    """Purge memories from the trash now (the owner's "Delete forever" and "Empty trash"): the
    rows go with their text, embedding, versions and what went with them; the tombstones stay.
    Returns how many of the owner's memories went."""
    require_owner(actor, SCOPE_DELETE)
    with transaction.atomic():
        qs = trash_q(actor) if everything else trash_picked(actor, memory_ids, batch_id)
        roots = list(qs.select_for_update().values_list("id", "trash_batch_id"))
        _purge(actor, [mid for mid, _ in roots], {batch for _, batch in roots}, why="owner")
    return len(roots)


def _purge(actor: Actor, ids: list[uuid.UUID], batches: set[Any], *, why: str) -> None:
    """Delete trashed memories for real, in the caller's transaction: the rows that went with
    them cascade (`trashed_with`, `superseded_by`, `echo_of`), with every version. Batches left
    empty go too (a delete that found nothing to delete made one)."""
    owner_id = actor.user.pk
    if ids:
        Memory.objects.filter(owner_id=owner_id, state=MemoryState.TRASHED, pk__in=ids).delete()
        access_event_create(actor, AccessEvent.Action.PURGE, ids, detail={"why": why})
        # The delete dropped the user's search snapshot row; this machine's copy goes with it.
        transaction.on_commit(lambda: snapshot_files.remove(owner_id))
    _drop_empty(owner_id, batches)


@dataclass(frozen=True)
class PurgeReport:
    users: int
    memories: int


def trash_purge_expired(*, now: datetime | None = None) -> PurgeReport:
    """Purge every batch older than TRASH_DAYS, for every user (the hourly clean-up task and
    `manage.py cleanup`). One transaction per user; the owner's access log records it."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.TRASH_DAYS)
    with cross_tenant("the scheduled purge finds every user's trash past TRASH_DAYS"):
        expired = list(
            TrashBatch.objects.filter(created_at__lt=cutoff)
            .select_related("owner")
            .order_by("owner_id", "created_at")
        )
    per_owner: dict[int, list[TrashBatch]] = {}
    for batch in expired:
        per_owner.setdefault(batch.owner_id, []).append(batch)
    purged = 0
    for batches in per_owner.values():
        owner = batches[0].owner
        actor = owner_actor(
            owner, ConnectedApp.CLI, operator=f"trash (kept {settings.TRASH_DAYS} days)"
        )
        with transaction.atomic():
            ids = list(
                trash_q(actor)
                .filter(trash_batch_id__in=[b.id for b in batches])
                .select_for_update()
                .values_list("id", flat=True)
            )
            _purge(actor, ids, {b.id for b in batches}, why="expired")
        purged += len(ids)
    return PurgeReport(users=len(per_owner), memories=purged)


def trash_notice_seen(*, actor: Actor, batch_id: object) -> None:
    """The owner dismissed an app's delete notice (what it deleted stays in the trash)."""
    require_owner(actor, SCOPE_WRITE)
    TrashBatch.objects.filter(owner=actor.user, pk=parse_memory_id(batch_id), seen_at=None).update(
        seen_at=timezone.now()
    )
