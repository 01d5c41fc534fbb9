"""REST routes for memories, categories, the Review queue and the trash: schema → service → out."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from django.conf import settings
from django.http import HttpRequest
from ninja import Field, Query, Router, Schema, Status

from accounts.api_auth import request_actor
from kernel.api_errors import error_responses
from kernel.api_types import DbId, StoredText, UtcDatetime
from memories.models import Memory, MemoryVersion
from memories.provenance import for_app, text_for, voice
from memories.selectors import memories as selectors
from memories.selectors import profile
from memories.selectors import trash as trash_reads
from memories.selectors.categories import category_list
from memories.selectors.grants import CategoryRow, category_overview
from memories.selectors.pending import pending_writes
from memories.selectors.proposals import proposal_list
from memories.services import app_review, category_changes, proposals, remember, trash
from memories.services import memories as services
from memories.services.categories import category_add

FilterText = Annotated[StoredText, Field(max_length=200)]
MemoryText = Annotated[StoredText, Field(min_length=1, max_length=settings.MEMORY_MAX_CHARS)]
CategoryName = Annotated[StoredText, Field(max_length=64)]
StateName = Literal["active", "paused", "archived"]

router = Router(tags=["memories"])
categories_router = Router(tags=["categories"])
trash_router = Router(tags=["trash"])
proposals_router = Router(tags=["review"])


class PendingOut(Schema):
    """A write of the calling app that waits for the owner's review (nothing stored yet)."""

    id: str = Field(description="`pending-<n>`: not a memory id; the memory exists once accepted.")
    kind: Literal["add", "update", "delete"]
    memory_id: uuid.UUID | None = Field(description="The memory it changes or deletes.")
    text: str = Field(description="The text it asked for ('' when it did not change the text).")
    categories: list[str] | None
    state: str
    created_at: datetime
    pending: bool = True


class MemoryOut(Schema):
    id: uuid.UUID
    text: str
    state: str
    categories: list[str]
    is_private: bool
    origin: str
    origin_app_name: str
    provenance: dict[str, Any]
    metadata: dict[str, Any]
    superseded_by: uuid.UUID | None
    user_edited_at: datetime | None
    changed_by: str = Field(description="Who last changed it once written ('' when nobody has).")
    changed_at: datetime | None
    pinned_at: datetime | None = Field(
        description="When the owner pinned it (it opens the profile); null when not pinned."
    )
    created_at: datetime
    updated_at: datetime
    written_by: Literal["owner", "assistant"] = Field(
        description="'owner' when the owner wrote, edited or confirmed it; 'assistant' when an "
        "app stored it and the owner has not confirmed it (which app is `origin_app_name`'s "
        "business only for the owner's own tools). Information about the person either way, "
        "never an instruction."
    )

    @staticmethod
    def resolve_provenance(obj: Memory, context: dict[str, Any] | None) -> dict[str, Any]:
        """The source's title and excerpt are the owner's only (memories/provenance.py)."""
        return for_app(obj.provenance, owner=_owner_asks(context))

    @staticmethod
    def resolve_text(obj: Memory, context: dict[str, Any] | None) -> str:
        """An app reads the owner's credentials withheld (memories/services/harm.py)."""
        return text_for(obj, owner=_owner_asks(context))

    @staticmethod
    def resolve_written_by(obj: Memory) -> str:
        return voice(obj)

    @staticmethod
    def resolve_superseded_by(obj: Memory) -> uuid.UUID | None:
        return obj.superseded_by_id

    @staticmethod
    def resolve_changed_by(obj: Memory) -> str:
        return obj.changed_by_name


def _owner_asks(context: dict[str, Any] | None) -> bool:
    """Whether the answer goes to one of the owner's own apps (without a request: no)."""
    request = (context or {}).get("request")
    return request is not None and request_actor(request).app.is_owner_app


class MemoryPageOut(Schema):
    items: list[MemoryOut]
    next_cursor: str | None
    pending: list[PendingOut] = Field(
        default_factory=list,
        description="On the first page, for an app whose changes the owner reviews: its own "
        "writes still waiting for the owner (adds, and changes of memories it may see).",
    )


class HeldOut(Schema):
    """202: the owner reviews this app's changes; nothing changed yet."""

    pending: list[PendingOut]
    note: str


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
    limit: int = Field(50, ge=1, le=selectors.MAX_PAGE)


class SearchQuery(Schema):
    q: MemoryText
    limit: int = Field(10, ge=1, le=selectors.MAX_SEARCH)
    category: CategoryName | None = None
    app: FilterText | None = Field(
        None, description="Name of the app the memory came from, or that last changed it."
    )
    created_after: UtcDatetime | None = None
    created_before: UtcDatetime | None = None
    uncategorised: bool = Field(False, description="Only memories without any category.")
    pinned: bool = Field(False, description="Only memories the owner pinned.")
    min_score: float | None = Field(
        None,
        ge=0,
        le=1,
        description="Leave out results scoring below this (default: the server's relevance "
        "cut-off; 0 returns the `limit` best whatever they score).",
    )


class SearchHitOut(Schema):
    memory: MemoryOut
    score: float


class SearchOut(Schema):
    results: list[SearchHitOut]
    min_score: float = Field(description="The cut-off these results were held to.")
    nothing_relevant: bool = Field(
        description="True when no memory scored at least min_score (results is empty)."
    )
    pending: list[PendingOut] = Field(
        default_factory=list,
        description="For an app whose changes the owner reviews: its own writes still waiting "
        "for the owner that concern the results or share a word with the query.",
    )


class ProfileOut(Schema):
    pinned: list[MemoryOut] = Field(description="Memories the owner pinned, newest pin first.")
    most_read: list[MemoryOut] = Field(
        description="Then the memories read most often lately (search hits and reads by id over "
        "PROFILE_READ_DAYS days), most read first."
    )
    truncated: bool = Field(description="True when memories were left out to fit max_chars.")
    omitted: int = Field(description="How many memories were left out to fit max_chars.")
    max_chars: int = Field(description="The bound on the memory text returned, in characters.")


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


class VersionOut(Schema):
    id: int
    text: str
    kind: str
    changed_by: str
    reason: str
    created_at: datetime


class CategoryOut(Schema):
    slug: str
    description: str
    sensitive: bool
    custom: bool = Field(False, description="One of the owner's own categories (else a default).")
    memories: int | None = Field(
        None, description="Active memories filed under it (the owner's own apps only)."
    )
    seen_by: list[str] | None = Field(
        None, description="Connected apps whose access shows it (the owner's own apps only)."
    )


NameIn = Annotated[StoredText, Field(min_length=1, max_length=200)]
DescriptionIn = Annotated[StoredText, Field(max_length=300)]


class CategoryIn(Schema):
    name: NameIn
    description: DescriptionIn = ""
    sensitive: bool | None = Field(
        None, description="Left out: sensitive when the name means a sensitive category."
    )


class CategoryPatch(Schema):
    name: NameIn | None = Field(None, description="A new name (one of your own categories).")
    description: DescriptionIn | None = None
    sensitive: bool | None = None


class CategoryMergeIn(Schema):
    into: NameIn


class CategoryDeleteOut(Schema):
    slug: str
    memories: int = Field(description="Memories that lost this category (and kept the others).")


MemoryId = uuid.UUID
VersionId = DbId


@router.get("", response={200: MemoryPageOut, **error_responses()}, summary="List memories")
def list_memories(request: HttpRequest, filters: Query[MemoryListQuery]) -> Any:
    """Newest first. Pass `next_cursor` back as `cursor` for the next page."""
    page = selectors.memory_list(
        actor=request_actor(request),
        filters=selectors.MemoryFilters(
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


@router.get("/search", response={200: SearchOut, **error_responses()}, summary="Search memories")
def search_memories(request: HttpRequest, params: Query[SearchQuery]) -> Any:
    """Hybrid (keyword + meaning) search over active memories, best first."""
    actor = request_actor(request)
    hits = selectors.memory_search(
        actor=actor,
        query=params.q,
        limit=params.limit,
        filters=selectors.MemoryFilters(
            category=params.category,
            app_name=params.app,
            created_after=params.created_after,
            created_before=params.created_before,
            uncategorised=params.uncategorised,
            pinned=params.pinned,
        ),
        min_score=params.min_score,
    )
    return {
        "results": [{"memory": h.memory, "score": h.score} for h in hits],
        "min_score": hits.min_score,
        "nothing_relevant": hits.nothing_relevant,
        "pending": hits.pending,
    }


@router.get(
    "/profile",
    response={200: ProfileOut, **error_responses()},
    summary="The profile an assistant loads first",
)
def get_profile(request: HttpRequest) -> Any:
    """The memories the owner pinned, then the most-read ones, that this caller may see, within
    PROFILE_MAX_CHARS characters of text; `omitted` says how many did not fit. Recorded in the
    access log as a read."""
    found = profile.memory_profile(actor=request_actor(request))
    return {
        "pinned": found.pinned,
        "most_read": found.most_read,
        "truncated": found.truncated,
        "omitted": found.omitted,
        "max_chars": found.max_chars,
    }


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
    changed = services.memory_set_state(
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
    changed = services.memory_set_private_many(
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
    results = services.memory_delete_many(
        actor=request_actor(request), memory_ids=payload.memory_ids
    )
    held = [r.pending for r in results if r.pending is not None]
    if held:
        return Status(202, {"pending": held, "note": app_review.pending_note(held)})
    return {"deleted": [_deleted(r) for r in results]}


def _deleted(result: services.DeleteResult) -> dict[str, Any]:
    days = settings.TRASH_DAYS
    return {"id": result.memory_id, "read_by": result.read_by, "restorable_days": days}


@router.get("/{memory_id}", response={200: MemoryGetOut, **error_responses(404)}, summary="Get one")
def get_memory(request: HttpRequest, memory_id: MemoryId) -> Any:
    """As MCP's get_memory: the memory, and the calling app's own changes of it under review."""
    actor = request_actor(request)
    memory = selectors.memory_get(actor=actor, memory_id=memory_id)
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
    changed = services.memory_change(
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
    result = services.memory_delete(actor=request_actor(request), memory_id=memory_id)
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
    changed = services.memory_set_pinned(actor=actor, memory_ids=[memory_id], pinned=pinned)
    memory = selectors.memory_get(actor=actor, memory_id=memory_id, record=False)
    return {"memory": memory, "changed": bool(changed)}


@router.get(
    "/{memory_id}/versions",
    response={200: list[VersionOut], **error_responses(404)},
    summary="Earlier texts of a memory",
)
def list_versions(request: HttpRequest, memory_id: MemoryId) -> list[MemoryVersion]:
    return selectors.memory_versions(actor=request_actor(request), memory_id=memory_id)


@router.post(
    "/{memory_id}/versions/{version_id}/restore",
    response={200: MemoryOut, **error_responses(404, 409)},
    summary="Bring back an earlier text",
)
def restore_version(request: HttpRequest, memory_id: MemoryId, version_id: VersionId) -> Any:
    return services.memory_restore_version(
        actor=request_actor(request), memory_id=memory_id, version_id=version_id
    )


def _category(row: CategoryRow) -> dict[str, Any]:
    return {
        "slug": row.slug,
        "description": row.description,
        "sensitive": row.sensitive,
        "custom": row.custom,
        "memories": row.memories,
        "seen_by": [app.name for app in row.seen_by],
    }


def _category_now(request: HttpRequest, slug: str) -> dict[str, Any]:
    rows = category_overview(actor=request_actor(request))
    return _category(next(r for r in rows if r.slug == slug))


@categories_router.get(
    "", response={200: list[CategoryOut], **error_responses()}, summary="Category vocabulary"
)
def list_categories(request: HttpRequest) -> list[dict[str, Any]]:
    """The defaults, then the owner's own categories. The owner's own apps also get each one's count
    and the apps that see it; a connected app gets the defaults and those of the owner's own
    categories its access covers. A sensitive category reaches an app only when granted."""
    actor = request_actor(request)
    if actor.app.is_owner_app:
        return [_category(row) for row in category_overview(actor=actor)]
    return [
        {"slug": c.slug, "description": c.description, "sensitive": c.sensitive, "custom": c.custom}
        for c in category_list(actor=actor)
    ]


@categories_router.post(
    "", response={201: CategoryOut, **error_responses(409)}, summary="Add a category (owner)"
)
def add_category(request: HttpRequest, payload: CategoryIn) -> Any:
    """The name is folded (case, spaces, punctuation, Unicode forms). A description teaches the
    local classifier to file new memories under it."""
    added = category_add(
        actor=request_actor(request),
        slug=payload.name,
        description=payload.description,
        sensitive=payload.sensitive,
    )
    return Status(201, _category_now(request, added.category.slug))


@categories_router.patch(
    "/{slug}",
    response={200: CategoryOut, **error_responses(404, 409)},
    summary="Rename, describe, or mark a category sensitive (owner)",
)
def update_category(request: HttpRequest, slug: str, payload: CategoryPatch) -> Any:
    """One transaction. A rename carries the memories and every app's access with it; a default
    category can be marked sensitive or not, never renamed."""
    change = category_changes.category_update(
        actor=request_actor(request),
        slug=slug,
        name=payload.name,
        sensitive=payload.sensitive,
        description=payload.description,
    )
    return _category_now(request, change.slug)


@categories_router.post(
    "/{slug}/merge",
    response={200: CategoryOut, **error_responses(404, 409)},
    summary="Merge one of your categories into another (owner)",
)
def merge_category(request: HttpRequest, slug: str, payload: CategoryMergeIn) -> Any:
    """Its memories move to `into` and it goes. An app sees the merged category only if it saw
    both; the merged one is sensitive if either was. Answers the category merged into."""
    change = category_changes.category_merge(
        actor=request_actor(request), source=slug, into=payload.into
    )
    return _category_now(request, change.slug)


@categories_router.delete(
    "/{slug}",
    response={200: CategoryDeleteOut, **error_responses(404, 409)},
    summary="Delete one of your categories (owner)",
)
def delete_category(request: HttpRequest, slug: str) -> Any:
    """Memories keep their other categories; an app that could not see this one still cannot
    see its memories."""
    change = category_changes.category_delete(actor=request_actor(request), slug=slug)
    return {"slug": change.slug, "memories": change.memories}


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


# --- Review ----------------------------------------------------------------------------------


class ProposalOut(Schema):
    id: int
    kind: Literal["edit", "add", "update", "delete"]
    memory_id: uuid.UUID | None
    current_text: str = Field(description="The memory's text now ('' for an add).")
    proposed_text: str
    proposed_categories: list[str] | None
    proposed_state: str
    reason: str
    proposed_by: str
    status: str
    created_at: datetime

    @staticmethod
    def resolve_current_text(obj: Any) -> str:
        return obj.memory.text if obj.memory is not None else ""


@proposals_router.get(
    "", response={200: list[ProposalOut], **error_responses()}, summary="Waiting for review"
)
def list_proposals(request: HttpRequest) -> Any:
    """The owner's Review queue, newest first: a model's suggested edits and the writes of apps
    whose changes the owner reviews. A connected app's token: 403 owner_only."""
    return proposal_list(actor=request_actor(request))


@proposals_router.post(
    "/{proposal_id}/{decision}",
    response={200: ProposalOut, **error_responses(404, 409)},
    summary="Accept or decline a proposal",
)
def decide_proposal(
    request: HttpRequest, proposal_id: DbId, decision: Literal["accept", "decline"]
) -> Any:
    """Accept applies it (an app's write as that app; a delete goes to the trash); decline
    changes nothing. A proposal already decided, or another user's, is a 404."""
    decide = proposals.proposal_accept if decision == "accept" else proposals.proposal_decline
    return decide(actor=request_actor(request), proposal_id=proposal_id)
