"""Doing an import again: what an earlier import of the same archive left, and replacing it.

An archive is recognised by its conversations: those of a new upload already in the manifest
(`ImportedConversation`, same source). The memories of that archive are the ones its source's
import app wrote with provenance in those conversations (superseded ones are history of
another memory and are left out, like the apps' echoes).

A redo (an `ImportRun` with `redo`) reads every message of the archive again with the chosen
extractor, conversation by conversation, each in the one transaction the engine already uses
(`memories.services.import_plans.commit`): the conversation's replaceable memories go to the run's
single trash batch (so "Restore all" on the Trash page undoes the redo's deletes), its new memories
are written ignoring the archive's tombstones, and its manifest row names the redo run. A crash
mid-run leaves every conversation either as the earlier import left it or fully redone; resuming
skips the redone ones (their manifest row names this run).

"Edited", what stays: anything someone decided about the memory after the import: its text
changed (a version: the owner's edit, an app's edit or a restored version), the owner's own
categories, private or hidden from an app, paused or archived. Automatic re-labelling and the
import's own repeat counts are not edits. Memories of the archive in the trash are deleted ones:
their messages are read again ("come back"); the trashed rows stay in the trash as they were.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Exists, Min, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.actors import Actor
from accounts.models import ConnectedApp
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.errors import Conflict
from memories.ingest.types import Conversation, ParsedExport
from memories.models import (
    UNSHOWN_COLUMNS,
    Memory,
    MemoryState,
    MemoryTombstone,
    MemoryVersion,
    Origin,
    TrashBatch,
)
from memories.provenance import source_ref_hash
from memories.services.trash import move_to_trash
from memories.transfer_models import ImportedConversation, ImportRun

REDOABLE_SOURCES = ("claude", "chatgpt")  # our own export restores as it was: no extractor


REDO_BUSY = "An import is already being done again; start this one when it has finished."


def refuse_second_redo(user: Any) -> None:
    """One redo at a time per owner: two would each trash what the other wrote for the same
    conversations and leave both sets. Call inside the transaction that starts the redo: the
    owner's row is locked, so two starts at once are taken one after the other. A redo whose
    worker is gone (no sign for IMPORT_STALE_SECONDS, `ImportRun.interrupted`) does not count."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    stale = timezone.now() - timedelta(seconds=settings.IMPORT_STALE_SECONDS)
    busy = (
        ImportRun.objects.alias(last_sign=Coalesce("heartbeat_at", "started_at", "created_at"))
        .filter(owner=user, redo=True, status=ImportRun.Status.RUNNING, last_sign__gte=stale)
        .exists()
    )
    if busy:
        raise Conflict(REDO_BUSY)


def edited_q(user: Any) -> Q:
    """The memories someone changed after the import wrote them (see the module's docstring)."""
    changed_text = MemoryVersion.objects.filter(
        owner=user,
        memory_id=OuterRef("pk"),
        kind__in=[MemoryVersion.Kind.EDIT, MemoryVersion.Kind.RESTORE],
    )
    return (
        Q(user_edited_at__isnull=False)
        | Q(categories_set_by_user=True)
        | Q(is_private=True)
        | ~Q(hidden_from=[])
        | Q(state__in=[MemoryState.PAUSED, MemoryState.ARCHIVED])
        | Q(Exists(changed_text))
    )


def archive_memories(user: Any, source: str, conversation_ids: Sequence[str]) -> QuerySet[Memory]:
    """The memories the source's import app wrote from these conversations, the trash included."""
    return Memory.objects.filter(
        owner=user,
        origin=Origin.IMPORT,
        origin_app_name=ConnectedApp.IMPORT_NAMES[source],
        provenance__source=source,
        provenance__conversation_id__in=list(conversation_ids),
        superseded_by__isnull=True,
        echo_of__isnull=True,
    )


def replaceable(user: Any, source: str, conversation_ids: Sequence[str]) -> QuerySet[Memory]:
    """What a redo moves to the trash: the archive's memories outside the trash nobody edited."""
    return (
        archive_memories(user, source, conversation_ids)
        .exclude(state=MemoryState.TRASHED)
        .exclude(edited_q(user))
    )


@dataclass(frozen=True)
class Previous:
    """An earlier import of the archive, as the check page warns of it and a redo would treat it."""

    imported_at: str  # ISO time: when the archive was (last wholly) imported
    extractor: str
    conversations: int  # of the upload's conversations, how many were imported before
    deleted: int  # its memories deleted since (in the trash or gone): they would come back
    replaced: int  # its memories nobody edited: a redo moves them to the trash
    stays: int  # its memories someone edited: they stay as they are

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def previous_import(user: Any, export: ParsedExport) -> Previous | None:
    """Whether this archive was imported before, and what a redo would replace, bring back and
    leave. "Since": since the archive's conversations were last written by an import, so what a
    redo brought back is not counted as deleted again; the redo's own deletes are not counted."""
    if export.source not in REDOABLE_SOURCES:
        return None
    ids = [c.id[:255] for c in export.conversations]
    rows = ImportedConversation.objects.filter(
        owner=user, source=export.source, conversation_id__in=ids
    )
    summary = rows.aggregate(since=Min("updated_at"))
    if summary["since"] is None:
        return None
    latest = rows.select_related("run").order_by("-updated_at").first()
    run = latest.run if latest else None
    # The owner's deletes since are few next to an archive's messages (up to millions): read
    # those and match them here, rather than send every message's hash to the database.
    since_then = (
        MemoryTombstone.objects.filter(owner=user, deleted_at__gte=summary["since"])
        .exclude(source_ref_hash="")
        .exclude(deleted_by=ConnectedApp.IMPORT_NAMES[export.source])
        .values_list("source_ref_hash", flat=True)
    )
    refs = _refs(export.source, export.conversations)
    deleted = sum(1 for ref in since_then if ref in refs)
    live = archive_memories(user, export.source, ids).exclude(state=MemoryState.TRASHED)
    stays = live.filter(edited_q(user)).count()
    return Previous(
        imported_at=summary["since"].isoformat(),
        extractor=run.extractor if run else "",
        conversations=rows.count(),
        deleted=deleted,
        replaced=live.count() - stays,
        stays=stays,
    )


def _refs(source: str, conversations: Sequence[Conversation]) -> set[str]:
    return {
        source_ref_hash({"source": source, "conversation_id": c.id, "message_id": m.id})
        for c in conversations
        for m in c.messages
        if m.role == "user"
    }


@dataclass
class Redo:
    """A running redo: its trash batch, and the archive's replaceable memories by conversation,
    found once when the run starts (one query, not one per conversation)."""

    batch: TrashBatch
    targets: dict[str, list[uuid.UUID]]

    @classmethod
    def start(
        cls, batch: TrashBatch, user: Any, source: str, conversation_ids: Sequence[str]
    ) -> Redo:
        targets: dict[str, list[uuid.UUID]] = {}
        rows = replaceable(user, source, conversation_ids).values_list(
            "id", "provenance__conversation_id"
        )
        for memory_id, conversation_id in rows:
            targets.setdefault(str(conversation_id), []).append(memory_id)
        return cls(batch, targets)

    def replace(self, writer: Actor, conversation: Conversation, run_id: str) -> int:
        """Move the conversation's replaceable memories to the batch, in the caller's transaction
        (the conversation's), with the access event. Asked again under the row locks: one the
        owner edited or deleted since the run started stays as it is. Returns how many went."""
        ids = self.targets.get(conversation.id[:255])
        if not ids:
            return 0
        memories = list(
            Memory.objects.select_for_update()
            .filter(owner=writer.user, pk__in=ids)
            .exclude(state=MemoryState.TRASHED)
            .exclude(edited_q(writer.user))
            .defer(*UNSHOWN_COLUMNS)
        )
        if not memories:
            return 0
        move_to_trash(writer, memories, self.batch)
        access_event_create(
            writer,
            AccessEvent.Action.DELETE,
            [m.id for m in memories],
            detail={"trash": str(self.batch.id), "redo": run_id},
        )
        return len(memories)
