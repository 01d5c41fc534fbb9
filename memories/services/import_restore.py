"""Restoring our own export: memories brought back as exported (text, categories, state,
provenance, timestamps, pins, history), in batches that fail item by item, skipping what is
already here, deleted by the owner or named twice."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from accounts.actors import Actor
from memories.ingest.types import ExportedMemory
from memories.models import Memory, MemoryState, MemoryTombstone, MemoryVersion
from memories.provenance import source_ref_hash
from memories.services.adding import NewMemory, memory_create_many
from memories.services.import_plans import Counter
from memories.transfer_models import ImportedConversation

RESTORE_BATCH = 100  # memories per transaction when restoring our own export


def restore_export(writer: Actor, memories: Sequence[ExportedMemory], counter: Counter) -> None:
    """Bring memories back as exported: text, categories, state, provenance, timestamps, pins,
    history.

    Superseded memories are not restored as memories: their text is in their successor's
    history. Memories that were in the trash are not brought back (counted as deleted by the
    user), nor is one whose id is still the owner's memory (a restore onto the account it was
    exported from): it is there, or in the trash. An id the file names again is skipped, with a
    message: only its first occurrence is restored. hidden_from (app ids of the old server) is
    not restored.
    """
    user = writer.user
    seen: set[str] = set()  # the file's ids met so far, across batches
    for start in range(0, len(memories), RESTORE_BATCH):
        batch = memories[start : start + RESTORE_BATCH]
        done = set(
            ImportedConversation.objects.filter(
                owner=user, source="contextlayer", conversation_id__in=[m.id for m in batch]
            ).values_list("conversation_id", flat=True)
        )
        deleted = set(
            MemoryTombstone.objects.filter(
                owner=user,
                source_ref_hash__in=[h for m in batch if (h := source_ref_hash(m.provenance))],
            ).values_list("source_ref_hash", flat=True)
        )
        held = _still_held(user, batch)
        todo: list[ExportedMemory] = []
        for m in batch:
            if m.id in seen:
                counter.skip(m.id, repeated_id_message(m.id))
                continue
            seen.add(m.id)
            trashed = held.get(m.id)  # None: not a memory of the owner's on this server
            if m.id in done or m.superseded_by or trashed is False:
                counter.run.conversations_skipped += 1
                counter.step()
            elif m.in_trash or trashed or ((h := source_ref_hash(m.provenance)) and h in deleted):
                counter.run.messages_skipped_deleted += 1
                counter.run.conversations_skipped += 1
                counter.step()
            else:
                todo.append(m)
        if todo:
            _restore_group(writer, todo, counter)


def repeated_id_message(memory_id: str) -> str:
    """What the owner reads about an id their file names more than once."""
    return (
        f"The file names memory {memory_id} more than once: only its first occurrence is "
        "restored, and this repeat was skipped."
    )


def _still_held(user: Any, batch: Sequence[ExportedMemory]) -> dict[str, bool]:
    """The batch's ids that are the owner's own memories on this server: id -> in the trash."""
    ids: dict[uuid.UUID, str] = {}
    for m in batch:
        try:
            ids[uuid.UUID(m.id)] = m.id
        except ValueError:
            continue
    rows = Memory.objects.filter(owner=user, pk__in=list(ids)).values_list("pk", "state")
    return {ids[pk]: state == MemoryState.TRASHED for pk, state in rows}


def _restore_group(writer: Actor, todo: list[ExportedMemory], counter: Counter) -> None:
    """Restore `todo` in one transaction; if that fails, each item in its own, so one bad item
    fails alone and every item is restored whole (memory, history, manifest row) or not at all."""
    try:
        with transaction.atomic():
            created, existing = _restore_batch(writer, todo)
    except Exception as exc:
        if len(todo) > 1:
            for m in todo:
                _restore_group(writer, [m], counter)
        else:
            counter.fail(todo[0].id, exc)
            counter.step()
        return
    counter.run.conversations_imported += len(todo)
    counter.run.memories_created += created
    counter.run.memories_existing += existing
    for _ in todo:
        counter.step()


def _restore_batch(writer: Actor, todo: list[ExportedMemory]) -> tuple[int, int]:
    results = memory_create_many(
        actor=writer,
        reconcile=False,
        items=[
            NewMemory(
                text=m.text,
                categories=m.categories,
                provenance=m.provenance,
                metadata=m.metadata,
                created_at=m.created_at,
                state=m.state,
            )
            for m in todo
        ],
    )
    created = 0
    for exported, result in zip(todo, results, strict=True):
        if result.created:
            created += 1
            _restore_fields(result.memory, exported)
        ImportedConversation.objects.create(
            owner=writer.user,
            source="contextlayer",
            conversation_id=exported.id,
            content_hash=exported.content_hash,
            message_ids=[exported.id],
        )
    return created, len(todo) - created


def _restore_fields(memory: Memory, exported: ExportedMemory) -> None:
    Memory.objects.filter(owner_id=memory.owner_id, pk=memory.pk).update(
        updated_at=exported.updated_at,
        user_edited_at=exported.user_edited_at,
        categories_set_by_user=exported.categories_set_by_user,
        # A memory that holds a credential stays private whatever an older export said
        # (memories/services/harm.py made it so when it was written again).
        is_private=exported.is_private or memory.is_private,
        pinned_at=exported.pinned_at,
        origin=exported.origin,
        origin_app_name=exported.origin_app_name,
    )
    for version in exported.versions:
        row = MemoryVersion.objects.create(
            memory=memory,
            owner=memory.owner,
            text=version.text,
            kind=version.kind,
            changed_by=version.changed_by[:120],
            reason=version.reason[:500],
        )
        if version.created_at:
            MemoryVersion.objects.filter(owner_id=row.owner_id, pk=row.pk).update(
                created_at=version.created_at
            )
