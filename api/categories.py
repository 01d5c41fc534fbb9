"""REST routes for the category vocabulary: list, and the owner's add, rename, merge, delete."""

from __future__ import annotations

from typing import Annotated, Any

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status

from accounts.api_auth import request_actor
from kernel.api_errors import error_responses
from kernel.api_types import StoredText
from memories.selectors.categories import category_list
from memories.selectors.grants import CategoryRow, category_overview
from memories.services import category_changes
from memories.services.categories import category_add

categories_router = Router(tags=["categories"])


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
