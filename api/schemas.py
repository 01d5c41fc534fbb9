"""The shapes every memory route shares: a memory as an app may see it, a write held for review,
and the bounded texts the routes take."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from django.conf import settings
from ninja import Field, Schema

from accounts.api_auth import request_actor
from kernel.api_types import StoredText
from memories.models import Memory
from memories.provenance import for_app, text_for, voice

FilterText = Annotated[StoredText, Field(max_length=200)]
MemoryText = Annotated[StoredText, Field(min_length=1, max_length=settings.MEMORY_MAX_CHARS)]
CategoryName = Annotated[StoredText, Field(max_length=64)]
StateName = Literal["active", "paused", "archived"]

MemoryId = uuid.UUID


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


class HeldOut(Schema):
    """202: the owner reviews this app's changes; nothing changed yet."""

    pending: list[PendingOut]
    note: str
