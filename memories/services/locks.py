"""The rows a write locks before it changes anything: memories by id (only those the actor may
see), the user's categories it names, and the memory holding a text. Shared by every write."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence

from django.db.models import F
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from kernel.errors import Conflict, InvalidInput, NotFound
from memories.models import UNSHOWN_COLUMNS, Memory, MemoryState
from memories.selectors.memories import get_visible, parse_memory_id
from memories.services import categories as user_categories
from memories.visibility import dedup_q, visible_q


def locked(actor: Actor, memory_id: object) -> Memory:
    """The memory, row-locked, if the actor may see it; NotFound otherwise (same for others')."""
    mid = parse_memory_id(memory_id)
    memory = get_visible(actor, mid, for_update=True)
    if memory is None:
        raise NotFound()
    return memory


def locked_many(actor: Actor, memory_ids: Sequence[object]) -> list[Memory]:
    """These memories, row-locked in id order, if the actor may see every one; NotFound for a
    batch with any other id (all or nothing, and the same answer for another user's id)."""
    mids = [parse_memory_id(m) for m in memory_ids]
    if not mids:
        raise InvalidInput(gettext_noop("No memories given."), field="memory_ids")
    memories = list(
        Memory.objects.select_for_update()
        .filter(id__in=mids)
        .filter(visible_q(actor))
        .defer(*UNSHOWN_COLUMNS)
        .order_by("id")
    )
    if len(memories) != len(set(mids)):
        raise NotFound()
    return memories


def hold_categories(actor: Actor, labels: Iterable[str]) -> None:
    """Lock the user's own categories these labels name until the write commits (a concurrent
    rename, merge or delete waits); refuse the write if one went away meanwhile."""
    if user_categories.categories_lock(actor, labels):
        raise Conflict(
            gettext_noop("The categories changed while this was being stored; try again.")
        )


def text_holders(actor: Actor, keys: set[str]) -> tuple[dict[str, uuid.UUID], dict[str, Memory]]:
    """For these text keys: the active memory holding each (locked, so two writes of a text
    the caller may not see make one echo, not two), and the one the caller may see — that
    memory itself, or else the caller's own echo of it. The second decides "already known".

    Both queries run even for no keys (a key that never matches stands in), so a write whose
    text was new does the same work as one whose text a hidden memory holds.
    """
    keys = {*keys, ""}
    holders = dict(
        Memory.objects.select_for_update()
        .filter(
            owner=actor.user,
            text_key__in=sorted(keys),
            state=MemoryState.ACTIVE,
            superseded_by__isnull=True,
            echo_of__isnull=True,
        )
        .order_by("id")
        .values_list("text_key", "id")
    )
    return holders, known_texts(actor, keys)


def known_texts(actor: Actor, keys: set[str]) -> dict[str, Memory]:
    """For these text keys, the active memory the caller may see holding each: the memory
    itself, or else the caller's own echo of it. Run even for no keys (see `text_holders`)."""
    known: dict[str, Memory] = {}
    seen = (
        Memory.objects.filter(
            dedup_q(actor),
            text_key__in=sorted({*keys, ""}),
            state=MemoryState.ACTIVE,
            superseded_by__isnull=True,
        )
        .defer(*UNSHOWN_COLUMNS)
        .order_by(F("echo_of").asc(nulls_first=True), "created_at", "id")
    )
    for memory in seen:
        known.setdefault(memory.text_key, memory)
    return known
