"""REST routes for memories themselves: list, remember, get, change, delete, pin, and the bulk
actions: schema → service → out."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from django.conf import settings
from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status

from accounts.api_auth import request_actor
from api.schemas import (
    CategoryName,
    FilterText,
    HeldOut,
    MemoryId,
    MemoryOut,
    MemoryText,
    PendingOut,
    StateName,
)
from kernel.api_errors import error_responses
from kernel.api_types import StoredText, UtcDatetime
from memories.models import Memory
from memories.selectors import memories as memory_reads
from memories.selectors.pending import pending_writes
from memories.services import app_review, changing, deleting, marks, remember

router = Router(tags=["memories"])


class MemoryPageOut(Schema):
    items: list[MemoryOut]
    next_cursor: str | None
    pending: list[PendingOut] = Field(
        default_factory=list,
        description="On the first page, for an app whose changes the owner reviews: its own "
        "writes still waiting for the owner (adds, and changes of memories it may see).",
    )


class MemoryListQuery(Schema):
    state: Literal["active", "paused", "archived", "all"] = "active"
    category: CategoryName | None = None
    app: FilterText | None = Field(
        None, description="Name of the app the memory came from, or that last changed it."
    )
    created_after: UtcDatetime | None = None
    created_before: UtcDatetime | None = None
    text: FilterText | None = Field(None, description="Case-insensitive substring of the text.")
    cursor: FilterText | None = Field(None, description="`next_cursor` of the previous page.")
    limit: int = Field(50, ge=1, le=memory_reads.MAX_PAGE)


class PinOut(Schema):
    memory: MemoryOut
    changed: bool = Field(description="False when it already was as asked.")


class MemoryIn(Schema):
    text: MemoryText
    categories: list[CategoryName] = Field(default_factory=list, max_length=32)


class RememberOut(Schema):
    memory: MemoryOut | None = Field(
        description="The memory stored or matched (the first, when the model extracted several); "
        "null when nothing was stored."
    )
    memories: list[MemoryOut] = Field(
        description="Every memory this call stored or matched; empty when the model found no "
        "lasting fact in the text."
    )
    created: bool = Field(description="True when at least one memory is new.")
    note: str


class MemoryPatch(Schema):
    text: MemoryText | None = None
    reason: Annotated[StoredText, Field(max_length=500)] = ""
    categories: list[CategoryName] | None = Field(None, max_length=32)
    state: StateName | None = None
    private: bool | None = None


class MemoryChangeOut(MemoryOut):
    note: str = Field(
        description="For an app: where its change left the memory when that is outside its "
        "grant or its sight (then a later get is a 404); empty otherwise."
    )

    @staticmethod
    def resolve_note(obj: Memory, context: dict[str, Any] | None) -> str:
        return str((context or {}).get("note", ""))


class MemoryGetOut(MemoryOut):
    pending: list[PendingOut] = Field(
        description="For an app whose changes the owner reviews: its own changes of this memory "
        "still waiting for the owner (the memory is shown as it is until they are accepted)."
    )

    @staticmethod
    def resolve_pending(obj: Memory, context: dict[str, Any] | None) -> list[Any]:
        return list((context or {}).get("pending", []))


class DeleteOut(Schema):
    id: uuid.UUID
    read_by: list[str] | None = Field(
        description="Apps that had read it (they may still remember it), told to the owner's "
        "own apps; null for a connected app, which is not told which other apps exist."
    )
    restorable_days: int = Field(
        description="It went to the owner's trash: the owner can restore it for this many days, "
        "then it is deleted for good."
    )


class BulkIds(Schema):
    memory_ids: list[uuid.UUID] = Field(min_length=1, max_length=settings.MEMORY_BATCH_MAX)


class BulkStateIn(BulkIds):
    state: StateName


class BulkStateOut(Schema):
    changed: int


class BulkPrivateIn(BulkIds):
    private: bool


class BulkDeleteOut(Schema):
    deleted: list[DeleteOut]


@router.get("", response={200: MemoryPageOut, **error_responses()}, summary="List memories")
def list_memories(request: HttpRequest, filters: Query[MemoryListQuery]) -> Any:
    """Newest first. Pass `next_cursor` back as `cursor` for the next page."""
    page = memory_reads.memory_list(
        actor=request_actor(request),
        filters=memory_reads.MemoryFilters(
            state=None if filters.state == "all" else filters.state,
            category=filters.category,
            app_name=filters.app,
            created_after=filters.created_after,
            created_before=filters.created_before,
            text=filters.text,
        ),
        cursor=filters.cursor,
        limit=filters.limit,
    )
    actor = request_actor(request)
    held = pending_writes(actor) if filters.cursor is None else []
    return {"items": page.items, "next_cursor": page.next_cursor, "pending": held}


@router.post(
    "",
    response={201: RememberOut, 200: RememberOut, 202: HeldOut, **error_responses(413)},
    summary="Remember something",
)
def create_memory(request: HttpRequest, payload: MemoryIn) -> Any:
    """201 when a memory is new; 200 with the identical memory that already existed, or, when
    an LLM extraction mode finds no lasting fact in the text, or an app's text held nothing
    but credentials, 200 with no memory and a note; 202 with the proposal when the owner
    reviews this app's changes first or the text instructs assistants. The note says what was
    not kept, and why, when the text held a credential."""
    result = remember.memory_remember(
        actor=request_actor(request), text=payload.text, categories=payload.categories
    )
    held = [r.pending for r in result.results if r.pending is not None]
    if held:
        return Status(202, {"pending": held, "note": result.note or app_review.pending_note(held)})
    memories = [r.memory for r in result.results]
    created = any(r.created for r in result.results)
    body = {
        "memory": memories[0] if memories else None,
        "memories": memories,
        "created": created,
        "note": result.note,
    }
    return Status(201 if created else 200, body)


@router.post(
    "/bulk/state",
    response={200: BulkStateOut, 202: HeldOut, **error_responses(404, 409, 413)},
    summary="Change the state of several memories",
)
def bulk_state(request: HttpRequest, payload: BulkStateIn) -> Any:
    """All or nothing: one id that is missing (or someone else's) refuses the whole batch.
    202 when the owner reviews this app's changes first (one proposal per memory)."""
    actor = request_actor(request)
    changed = changing.memory_set_state(
        actor=actor, memory_ids=payload.memory_ids, state=payload.state
    )
    if app_review.held(actor):
        held = pending_writes(actor, memory_ids=payload.memory_ids, adds=False)
        return Status(202, {"pending": held, "note": app_review.pending_note(held)})
    return {"changed": changed}


@router.post(
    "/bulk/private",
    response={200: BulkStateOut, **error_responses(404, 413)},
    summary="Mark several memories private, or no longer private (owner)",
)
def bulk_private(request: HttpRequest, payload: BulkPrivateIn) -> Any:
    """All or nothing; no app sees a private memory. A connected app's token: 403 owner_only."""
    changed = marks.memory_set_private_many(
        actor=request_actor(request), memory_ids=payload.memory_ids, private=payload.private
    )
    return {"changed": changed}


@router.post(
    "/bulk/delete",
    response={200: BulkDeleteOut, 202: HeldOut, **error_responses(404, 413)},
    summary="Delete several memories",
)
def bulk_delete(request: HttpRequest, payload: BulkIds) -> Any:
    """All or nothing, into the owner's trash as one delete; each result says which apps had
    read that memory. 202 when the owner reviews this app's changes first."""
    results = deleting.memory_delete_many(
        actor=request_actor(request), memory_ids=payload.memory_ids
    )
    held = [r.pending for r in results if r.pending is not None]
    if held:
        return Status(202, {"pending": held, "note": app_review.pending_note(held)})
    return {"deleted": [_deleted(r) for r in results]}


def _deleted(result: deleting.DeleteResult) -> dict[str, Any]:
    days = settings.TRASH_DAYS
    return {"id": result.memory_id, "read_by": result.read_by, "restorable_days": days}


@router.get("/{memory_id}", response={200: MemoryGetOut, **error_responses(404)}, summary="Get one")
def get_memory(request: HttpRequest, memory_id: MemoryId) -> Any:
    """As MCP's get_memory: the memory, and the calling app's own changes of it under review."""
    actor = request_actor(request)
    memory = memory_reads.memory_get(actor=actor, memory_id=memory_id)
    held = pending_writes(actor, memory_ids=[memory.id], adds=False)
    return MemoryGetOut.model_validate(memory, context={"request": request, "pending": held})


@router.patch(
    "/{memory_id}",
    response={200: MemoryChangeOut, 202: HeldOut, **error_responses(404, 409, 413)},
    summary="Change a memory",
)
def update_memory(request: HttpRequest, memory_id: MemoryId, payload: MemoryPatch) -> Any:
    """Only the fields given change, all or none (one refused part changes nothing). A new text
    keeps the old one as a version. A connected app may add categories it was granted, and
    remove them only from memories it wrote that the owner has not labelled (never a sensitive
    one); `private` is the owner's alone (403 `owner_only`)."""
    changed = changing.memory_change(
        actor=request_actor(request),
        memory_id=memory_id,
        text=payload.text,
        reason=payload.reason,
        categories=payload.categories,
        state=payload.state,
        private=payload.private,
    )
    if changed.pending is not None:
        return Status(202, {"pending": [changed.pending], "note": changed.note})
    return MemoryChangeOut.model_validate(
        changed.memory, context={"request": request, "note": changed.note}
    )


@router.delete(
    "/{memory_id}",
    response={200: DeleteOut, 202: HeldOut, **error_responses(404)},
    summary="Delete a memory",
)
def delete_memory(request: HttpRequest, memory_id: MemoryId) -> Any:
    """Into the owner's trash, restorable for `restorable_days`, then deleted for real (text,
    embedding, versions); `read_by` names apps that had read it."""
    result = deleting.memory_delete(actor=request_actor(request), memory_id=memory_id)
    if result.pending is not None:
        return Status(202, {"pending": [result.pending], "note": app_review.PENDING_NOTE})
    return _deleted(result)


@router.post(
    "/{memory_id}/pin",
    response={200: PinOut, **error_responses(404)},
    summary="Pin a memory to the profile (owner)",
)
def pin_memory(request: HttpRequest, memory_id: MemoryId) -> Any:
    """Pinned memories open the profile every app loads first (each app sees only those its
    access allows). The owner's alone: a connected app's token gets 403 `owner_only`."""
    return _pinned(request, memory_id, pinned=True)


@router.delete(
    "/{memory_id}/pin",
    response={200: PinOut, **error_responses(404)},
    summary="Unpin a memory (owner)",
)
def unpin_memory(request: HttpRequest, memory_id: MemoryId) -> Any:
    """The owner's alone: a connected app's token gets 403 `owner_only`."""
    return _pinned(request, memory_id, pinned=False)


def _pinned(request: HttpRequest, memory_id: MemoryId, *, pinned: bool) -> dict[str, Any]:
    actor = request_actor(request)
    changed = marks.memory_set_pinned(actor=actor, memory_ids=[memory_id], pinned=pinned)
    memory = memory_reads.memory_get(actor=actor, memory_id=memory_id, record=False)
    return {"memory": memory, "changed": bool(changed)}
