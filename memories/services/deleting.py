"""Deleting memories: into the owner's trash (memories/services/trash.py) as one restorable
delete, held for the owner's review when the app's writes are, with the access event naming
the apps that had read them."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from accounts.actors import Actor
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.gates import SCOPE_DELETE, require
from memories.models import UNSHOWN_COLUMNS, Memory
from memories.selectors.memories import readers_of
from memories.selectors.pending import PendingWrite
from memories.services import app_review, trash
from memories.services.locks import locked, locked_many
from memories.visibility import visible_q


@dataclass(frozen=True)
class DeleteResult:
    """What a delete answers, per memory."""

    memory_id: uuid.UUID
    # Apps that had read it, for the owner's own apps (we cannot make them forget, but the owner
    # must know); None for an app, which is not told which other apps the owner connected.
    read_by: list[str] | None
    # The delete it went to the trash with (an undo restores the batch); None while held.
    trash_batch: uuid.UUID | None
    pending: PendingWrite | None = None  # held for the owner's review: not deleted

    @property
    def batch_id(self) -> uuid.UUID:
        """The trash batch of a delete that happened (a held one has none: ask `pending`)."""
        if self.trash_batch is None:
            raise ValueError("This delete waits for the owner's review; nothing is in the trash.")
        return self.trash_batch


def memory_delete(*, actor: Actor, memory_id: object) -> DeleteResult:
    """Into the owner's trash (memories/services/trash.py): restorable for TRASH_DAYS, then
    purged."""
    require(actor, SCOPE_DELETE)
    with transaction.atomic():
        memory = locked(actor, memory_id)
        if app_review.held(actor):
            pending = app_review.propose_deletes(actor, [memory])[0]
            return DeleteResult(memory.id, None, None, pending=pending)
        readers = readers_of(actor.user.pk, [memory.id])
        batch = trash.move_to_trash(actor, [memory])
        access_event_create(
            actor,
            AccessEvent.Action.DELETE,
            [memory.id],
            detail={"read_by": readers, "trash": str(batch.id)},
        )
    return DeleteResult(memory.id, _told(actor, readers), batch.id)


def _told(actor: Actor, readers: list[str]) -> list[str] | None:
    """Which apps had read a deleted memory, as the deleting app is told: the owner's own apps
    hear it; an app is not told which other apps the owner connected."""
    return readers if actor.app.is_owner_app else None


def memory_delete_many(*, actor: Actor, memory_ids: Sequence[object]) -> list[DeleteResult]:
    """Several memories into the trash as one delete (one undo), all or none."""
    require(actor, SCOPE_DELETE)
    with transaction.atomic():
        memories = locked_many(actor, memory_ids)
        if app_review.held(actor):
            held = app_review.propose_deletes(actor, memories)
            return [
                DeleteResult(m.id, None, None, pending=p)
                for m, p in zip(memories, held, strict=True)
            ]
        batch = trash.move_to_trash(actor, memories)
        results = [
            DeleteResult(m.id, _told(actor, readers_of(actor.user.pk, [m.id])), batch.id)
            for m in memories
        ]
        access_event_create(
            actor,
            AccessEvent.Action.DELETE,
            [m.id for m in memories],
            detail={"trash": str(batch.id)},
        )
    return results


def memory_delete_all(*, actor: Actor) -> int:
    """Move every memory this actor can see (for one of the owner's own apps: all of the user's
    memories) to the owner's trash, as one delete the owner can restore at once."""
    require(actor, SCOPE_DELETE)
    with transaction.atomic():
        memories = list(
            Memory.objects.select_for_update().filter(visible_q(actor)).defer(*UNSHOWN_COLUMNS)
        )
        if app_review.held(actor):  # one proposal per memory: the owner decides each
            return len(app_review.propose_deletes(actor, memories))
        batch = trash.move_to_trash(actor, memories)
        access_event_create(  # each memory's trail shows who deleted it, in bulk or not
            actor,
            AccessEvent.Action.DELETE,
            [m.id for m in memories],
            count=batch.memories_deleted,
            detail={"all": True, "trash": str(batch.id)},
        )
    # Memories, not rows: for the owner, predecessors go with their memory, uncounted.
    return batch.memories_deleted
