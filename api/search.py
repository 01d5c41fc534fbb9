"""REST search over memories (`GET /api/v1/memories/search`): hybrid ranking, and the calling
app's own writes still under review that the results or the query concern."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema

from accounts.api_auth import request_actor
from api.schemas import CategoryName, FilterText, MemoryOut, MemoryText, PendingOut
from kernel.api_errors import error_responses
from kernel.api_types import UtcDatetime
from memories.selectors import memories as memory_reads

search_router = Router(tags=["memories"])


class SearchQuery(Schema):
    q: MemoryText
    limit: int = Field(10, ge=1, le=memory_reads.MAX_SEARCH)
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


@search_router.get(
    "/search", response={200: SearchOut, **error_responses()}, summary="Search memories"
)
def search_memories(request: HttpRequest, params: Query[SearchQuery]) -> Any:
    """Hybrid (keyword + meaning) search over active memories, best first."""
    actor = request_actor(request)
    hits = memory_reads.memory_search(
        actor=actor,
        query=params.q,
        limit=params.limit,
        filters=memory_reads.MemoryFilters(
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
