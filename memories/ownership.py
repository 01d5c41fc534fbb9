"""What an app may change about a memory, beside the consent rule (`visibility.py`: what it may
see): the owner outranks every app.

- An app never removes a category the owner set (`categories_set_by_user`), nor a sensitive
  category (the default ones, and the owner's own flagged sensitive), nor a category of a memory
  it did not write. It may re-categorise only memories it wrote that the owner has not labelled.
- An app may add to a memory only categories it was granted. A new memory an app writes may go
  into any category, given or classified (it only narrows who sees the app's own statement, and
  the app is told: `services.changing.readback_note`).
- Private and hidden are the owner's alone (`require_owner` in `memory_set_visibility`).
- A text change re-classifies automatic labels; for an app, the categories it may not remove
  stay (`reclassified`), so a rewrite cannot carry a memory out of a sensitive category either.

Every service that changes a memory's categories or text asks here: `memory_change` (text and
categories, for the API, MCP and the dashboard), `memory_supersede` and the deferred extraction
(through `services._retire_into`), and `memory_recategorize`. Refusals are `OwnersChoice`
(403 `owners_choice`), one sentence saying why; the memory was found under the consent rule, so
the answer tells the app only about a memory it may see.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from accounts.actors import Actor
from kernel.errors import OwnersChoice
from memories.models import Memory
from memories.visibility import categories_outside_grant, sensitive_categories
from memories.wording import category_names


def protected_categories(actor: Actor, memory: Memory) -> set[str]:
    """The categories of `memory` this actor may not remove: none for the owner's own apps; for an
    app, every one when the owner labelled the memory or another app wrote it, else the
    sensitive ones."""
    if actor.app.is_owner_app:
        return set()
    current = set(memory.categories)
    if memory.categories_set_by_user or memory.origin_app_id != actor.app.pk:
        return current
    return current & sensitive_categories(memory.owner_id)


def check_relabel(
    actor: Actor, memory: Memory, categories: Sequence[str], new_sensitive: Iterable[str] = ()
) -> None:
    """Refuse a change of `memory`'s categories to `categories` that this actor may not make.
    `new_sensitive`: names this change would create that start sensitive (no grant has them)."""
    if actor.app.is_owner_app:
        return
    removed = set(memory.categories) - set(categories)
    if removed:
        if memory.categories_set_by_user:
            raise OwnersChoice(
                "Refused: the owner chose this memory's categories, so an app may add "
                f"categories to it but not remove {category_names(removed)}."
            )
        if memory.origin_app_id != actor.app.pk:
            raise OwnersChoice(
                "Refused: this app did not write this memory, so it may add categories to it "
                f"but not remove {category_names(removed)}."
            )
        sensitive = removed & sensitive_categories(memory.owner_id)
        if sensitive:
            kind = "is a sensitive category" if len(sensitive) == 1 else "are sensitive categories"
            raise OwnersChoice(
                f"Refused: {category_names(sensitive)} {kind}, which only the owner may remove "
                "from a memory."
            )
    added = [c for c in categories if c not in memory.categories]
    outside = categories_outside_grant(actor.app, added, new_sensitive)
    if outside:
        raise OwnersChoice(
            "Refused: an app may add only categories it was granted, and this app was not "
            f"granted {category_names(outside, 'or')}."
        )


def reclassified(actor: Actor, memory: Memory, automatic: Sequence[str]) -> list[str]:
    """The categories `memory` has after `actor` changed its text and the classifier labelled the
    new text `automatic`: the owner's labels stay; automatic ones follow the text (or stay, when
    the classifier found none), keeping what this actor may not remove."""
    if memory.categories_set_by_user:
        return list(memory.categories)
    labels = list(automatic) or list(memory.categories)
    keep = protected_categories(actor, memory)
    return [*labels, *(c for c in memory.categories if c in keep and c not in labels)]


def changed_by(actor: Actor, now: datetime) -> dict[str, Any]:
    """Who changed a memory last, by field (shown to the owner as "changed by Cursor on laptop,
    2 min ago", and found by the app filter): decided here only, for a saved instance
    (`mark_changed_by`), a bulk update or a text change's SQL."""
    return {"changed_by_app": actor.app, "changed_by_name": actor.label[:120], "changed_at": now}


def mark_changed_by(actor: Actor, memory: Memory, now: datetime) -> list[str]:
    """Record on `memory` who changed it last (`changed_by`); returns the fields to save."""
    values = changed_by(actor, now)
    for name, value in values.items():
        setattr(memory, name, value)
    return list(values)
