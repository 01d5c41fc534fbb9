"""Memories holding everything a restore from the trash must bring back (an earlier text,
categories, hiding), a measured store of forty, and a snapshot of every row to compare after
the trip."""

from __future__ import annotations

from typing import Any

from accounts.actors import Actor, owner_actor
from accounts.models import ConnectedApp, User


def memory_with_history(
    owner_dash: Actor, text: str, *, hide_from: ConnectedApp | None = None
) -> Any:
    """A memory holding everything a restore from the trash must bring back: an earlier text
    (a version), categories the owner chose, and, with `hide_from`, hidden from that app."""
    from memories.services import adding, changing, marks

    memory = adding.memory_create(actor=owner_dash, text=f"{text} (first draft)").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text=text)
    changing.memory_set_categories(actor=owner_dash, memory_id=memory.id, categories=["hobbies"])
    if hide_from is not None:
        marks.memory_set_visibility(
            actor=owner_dash, memory_id=memory.id, hide_from_app=hide_from.pk
        )
    return memory


def forty_memories(owner: User) -> None:
    """Issue 23's measured store: 40 memories a stdio app with the default grant sees (every
    one it may delete), two of them with an earlier text and one hidden from another app."""
    from accounts.actors import stdio_app
    from memories.services import adding

    owner_dash = owner_actor(owner)
    cursor = stdio_app(owner, "cursor")
    memory_with_history(owner_dash, "Plays the piano on weekends")
    memory_with_history(owner_dash, "Brews coffee with an AeroPress", hide_from=cursor)
    items = [
        adding.NewMemory(text=f"Fact number {n} about the owner", categories=["hobbies"])
        for n in range(38)
    ]
    adding.memory_create_many(actor=owner_dash, items=items)


def memory_snapshot(owner: User) -> dict[Any, tuple[Any, ...]]:
    """Every memory row of `owner` with what a trip through the trash must leave as it was:
    text, state, categories (and who set them), privacy, hiding, supersession, versions."""
    from memories.models import Memory, MemoryVersion

    return {
        m.id: (
            m.text,
            m.state,
            list(m.categories),
            m.categories_set_by_user,
            m.is_private,
            list(m.hidden_from),
            m.superseded_by_id,
            m.echo_of_id,
            m.updated_at,
            list(
                MemoryVersion.objects.filter(owner=owner, memory=m)
                .order_by("pk")
                .values_list("text", "kind", "changed_by")
            ),
        )
        for m in Memory.objects.filter(owner=owner)
    }
