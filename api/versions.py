"""A memory's earlier texts over REST: list them, bring one back."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest
from ninja import Router, Schema

from accounts.api_auth import request_actor
from api.schemas import MemoryId, MemoryOut
from kernel.api_errors import error_responses
from kernel.api_types import DbId
from memories.models import MemoryVersion
from memories.selectors import memories as memory_reads
from memories.services import text_changes

versions_router = Router(tags=["memories"])

VersionId = DbId


class VersionOut(Schema):
    id: int
    text: str
    kind: str
    changed_by: str
    reason: str
    created_at: datetime


@versions_router.get(
    "/{memory_id}/versions",
    response={200: list[VersionOut], **error_responses(404)},
    summary="Earlier texts of a memory",
)
def list_versions(request: HttpRequest, memory_id: MemoryId) -> list[MemoryVersion]:
    return memory_reads.memory_versions(actor=request_actor(request), memory_id=memory_id)


@versions_router.post(
    "/{memory_id}/versions/{version_id}/restore",
    response={200: MemoryOut, **error_responses(404, 409)},
    summary="Bring back an earlier text",
)
def restore_version(request: HttpRequest, memory_id: MemoryId, version_id: VersionId) -> Any:
    return text_changes.memory_restore_version(
        actor=request_actor(request), memory_id=memory_id, version_id=version_id
    )
