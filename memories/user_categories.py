"""Categories: the default vocabulary plus each user's own, and (re)classification of memories.

Services and the selector for categories live together here; classification itself is local
(memories/classify.py), so it works offline in every extraction mode.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.actors import Actor, require, require_owner
from accounts.models import SCOPE_READ, SCOPE_WRITE, User
from activity import audit
from activity.models import AccessEvent
from contextlayer.errors import Conflict, InvalidInput
from memories.categories import DEFAULT_CATEGORIES, DEFAULT_SLUGS, Category
from memories.classify import classifier_for
from memories.embeddings import current_model, get_embedder
from memories.models import Memory, UserCategory
from memories.ownership import mark_changed_by, protected_categories
from memories.visibility import visible_q

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


@dataclass(frozen=True)
class CategoryInfo:
    slug: str
    description: str
    sensitive: bool
    custom: bool  # added by the user


def _user_categories(user: User) -> list[Category]:
    rows = UserCategory.objects.filter(owner=user).order_by("slug")
    return [Category(r.slug, r.description, r.sensitive) for r in rows]


def classify_for_owner(user: User, vectors: Sequence[Any], texts: Sequence[str]) -> list[list[str]]:
    """Categories for these memories (embeddings and texts), from the default vocabulary and
    the user's own."""
    if not len(vectors):
        return []
    return classifier_for(_user_categories(user)).classify(vectors, texts)


def category_list(*, actor: Actor) -> list[CategoryInfo]:
    require(actor, SCOPE_READ)
    defaults = [CategoryInfo(c.slug, c.description, c.sensitive, False) for c in DEFAULT_CATEGORIES]
    own = [
        CategoryInfo(c.slug, c.description, c.sensitive, True) for c in _user_categories(actor.user)
    ]
    return defaults + own


def category_add(
    *, actor: Actor, slug: str, description: str, sensitive: bool = False
) -> CategoryInfo:
    """Add a category of the user's own; its description teaches the local classifier."""
    require_owner(actor, SCOPE_WRITE)
    slug = (slug or "").strip().lower()
    if not _SLUG.match(slug):
        raise InvalidInput(
            "A category name is 1-64 lowercase letters, digits or dashes.", field="slug"
        )
    if slug in DEFAULT_SLUGS:
        raise Conflict(f"{slug!r} is already a default category.")
    description = (description or "").strip()
    if not description or len(description) > 300:
        raise InvalidInput("Describe the category in 1-300 characters.", field="description")
    try:
        with transaction.atomic():
            UserCategory.objects.create(
                owner=actor.user, slug=slug, description=description, sensitive=sensitive
            )
    except IntegrityError:
        raise Conflict(f"You already have a category {slug!r}.") from None
    return CategoryInfo(slug, description, sensitive, True)


def memory_recategorize(
    *,
    actor: Actor,
    all_memories: bool = False,
    batch: int = 256,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Re-run local classification on memories whose categories the user did not choose.

    By default only uncategorised memories; `all_memories` re-labels every automatic one too.
    """
    require(actor, SCOPE_WRITE)
    qs = Memory.objects.filter(visible_q(actor), categories_set_by_user=False)
    if not all_memories:
        qs = qs.filter(categories__len=0)
    ids = list(qs.order_by("created_at", "id").values_list("id", flat=True))
    classifier = classifier_for(_user_categories(actor.user))
    model = current_model()
    changed = 0
    for start in range(0, len(ids), batch):
        with transaction.atomic():
            rows = list(
                Memory.objects.select_for_update()
                .filter(
                    owner=actor.user,
                    id__in=ids[start : start + batch],
                    categories_set_by_user=False,
                )
                .order_by("created_at", "id")
            )
            stale = [m for m in rows if m.embedding is None or m.embedding_model != model]
            fresh = dict(
                zip(
                    [m.id for m in stale],
                    get_embedder().embed([m.text for m in stale]),
                    strict=True,
                )
            )
            vectors: list[Any] = [fresh.get(m.id, m.embedding) for m in rows]
            labels = classifier.classify(vectors, [m.text for m in rows]) if rows else []
            now = timezone.now()
            updated = []
            fields = ["categories", "updated_at"]
            for memory, cats in zip(rows, labels, strict=True):
                # What this actor may not remove stays (for an app: memories:write is not the
                # owner's say over labels, memories/ownership.py).
                keep = protected_categories(actor, memory)
                cats = [*cats, *(c for c in memory.categories if c in keep and c not in cats)]
                if list(memory.categories) != cats:
                    memory.categories = cats
                    memory.updated_at = now
                    fields[2:] = mark_changed_by(actor, memory, now)
                    updated.append(memory)
            owned = Memory.objects.filter(owner=actor.user)
            owned.bulk_update(updated, fields)
            if updated:
                audit.record(
                    actor,
                    AccessEvent.Action.UPDATE,
                    [m.id for m in updated],
                    detail={"categorized": len(updated)},
                )
            changed += len(updated)
        if progress:
            progress(min(start + batch, len(ids)), len(ids))
    return changed
