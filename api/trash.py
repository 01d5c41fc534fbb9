"""REST routes for the owner's trash: what a delete took, restore it, or delete it for good."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja import Field, Router, Schema

from accounts.api_auth import request_actor
from api.schemas import MemoryOut
from kernel.api_errors import error_responses
from memories.selectors import trash as trash_reads
from memories.services import trash

trash_router = Router(tags=["trash"])


class TrashedOut(Schema):
    memory: MemoryOut
    state_before: str = Field(description="The state it comes back in.")


class TrashDeleteOut(Schema):
    id: uuid.UUID = Field(description="Pass as `batch` to restore everything this delete took.")
    app_name: str
    deleted_by: str
    deleted_at: datetime
    restorable_until: datetime
    count: int = Field(description="Memories of this delete still in the trash.")
    memories: list[TrashedOut] = Field(
        description=f"Up to {trash_reads.TRASH_SHOWN}, oldest first."
    )


class TrashPicked(Schema):
    memory_ids: list[uuid.UUID] = Field(default_factory=list, max_length=settings.MEMORY_BATCH_MAX)
    batch: uuid.UUID | None = Field(None, description="Every memory of one delete instead.")


class TrashPurgeIn(TrashPicked):
    everything: bool = Field(False, description="Empty the whole trash.")


class RefusedOut(Schema):
    id: uuid.UUID
    reason: str


class RestoreOut(Schema):
    restored: list[uuid.UUID]
    refused: list[RefusedOut] = Field(description="Left in the trash, and why.")


class PurgeOut(Schema):
    deleted: int


@trash_router.get(
    "", response={200: list[TrashDeleteOut], **error_responses()}, summary="The trash"
)
def list_trash(request: HttpRequest) -> Any:
    """Deleted memories, newest delete first: restorable until `restorable_until`. Owner only."""
    return [
        {
            "id": g.batch.id,
            "app_name": g.batch.app_name,
            "deleted_by": g.batch.deleted_by,
            "deleted_at": g.batch.created_at,
            "restorable_until": g.purge_at,
            "count": g.count,
            "memories": [{"memory": m, "state_before": m.trash_state} for m in g.memories],
        }
        for g in trash_reads.trash_groups(actor=request_actor(request))
    ]


@trash_router.post(
    "/restore",
    response={200: RestoreOut, **error_responses(404, 409)},
    summary="Restore from the trash",
)
def restore_trash(request: HttpRequest, payload: TrashPicked) -> Any:
    """The memories named (or the whole `batch`) come back as they were. One whose text is an
    active memory again stays in the trash and is listed in `refused`. Owner only."""
    result = trash.trash_restore(
        actor=request_actor(request), memory_ids=payload.memory_ids, batch_id=payload.batch
    )
    return {
        "restored": result.restored,
        "refused": [{"id": r.memory.id, "reason": r.reason} for r in result.refused],
    }


@trash_router.post(
    "/delete",
    response={200: PurgeOut, **error_responses(404)},
    summary="Delete from the trash for good",
)
def purge_trash(request: HttpRequest, payload: TrashPurgeIn) -> Any:
    """The memories named, the whole `batch`, or `everything`: gone now (text, embedding,
    versions), not restorable. Owner only."""
    deleted = trash.trash_delete_forever(
        actor=request_actor(request),
        memory_ids=payload.memory_ids,
        batch_id=payload.batch,
        everything=payload.everything,
    )
    return {"deleted": deleted}
