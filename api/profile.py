"""The profile an assistant loads first (`GET /api/v1/memories/profile`): pinned, then most read."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Router, Schema

from accounts.api_auth import request_actor
from api.schemas import MemoryOut
from kernel.api_errors import error_responses
from memories.selectors import profile

profile_router = Router(tags=["memories"])


class ProfileOut(Schema):
    pinned: list[MemoryOut] = Field(description="Memories the owner pinned, newest pin first.")
    most_read: list[MemoryOut] = Field(
        description="Then the memories read most often lately (search hits and reads by id over "
        "PROFILE_READ_DAYS days), most read first."
    )
    truncated: bool = Field(description="True when memories were left out to fit max_chars.")
    omitted: int = Field(description="How many memories were left out to fit max_chars.")
    max_chars: int = Field(description="The bound on the memory text returned, in characters.")


@profile_router.get(
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
