"""The categories a caller may know of: the default vocabulary, then the owner's own (the
changes to them are `memories.services.categories` and `.category_changes`)."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.actors import Actor
from kernel.gates import SCOPE_READ, require
from memories.categories.vocabulary import DEFAULT_CATEGORIES, DEFAULT_SLUGS
from memories.models import UserCategory
from memories.visibility import hidden_categories, sensitive_categories


@dataclass(frozen=True)
class CategoryInfo:
    slug: str
    description: str
    sensitive: bool
    custom: bool  # added by the user


def category_list(*, actor: Actor) -> list[CategoryInfo]:
    """The defaults, then the user's own. An app is told the defaults and those of the owner's
    own categories its grant lets it see (a name can say what the memories in it are about)."""
    require(actor, SCOPE_READ)
    sensitive = sensitive_categories(actor.user.pk)
    defaults = [
        CategoryInfo(c.slug, c.description, c.slug in sensitive, False) for c in DEFAULT_CATEGORIES
    ]
    rows = UserCategory.objects.filter(owner=actor.user).exclude(slug__in=DEFAULT_SLUGS)
    own = [CategoryInfo(r.slug, r.description, r.sensitive, True) for r in rows.order_by("slug")]
    if not actor.app.is_owner_app:
        hidden = set(hidden_categories(actor.app, sensitive))
        own = [c for c in own if c.slug not in hidden]
    return defaults + own
