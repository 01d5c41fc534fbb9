"""What an app reads back of its own writes held for the owner's review (memories/services/
app_review.py holds them): a list, a memory's, and what a search shows (`memory_search` lists
them with its hits)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, QuerySet

from accounts.actors import Actor
from memories.models import Memory, MemoryProposal
from memories.search import lexical
from memories.visibility import visible_q

PENDING_PREFIX = "pending-"


@dataclass(frozen=True)
class PendingWrite:
    """One of the calling app's writes waiting for the owner, as the app reads it back."""

    id: str  # "pending-<n>": not a memory id (the memory exists only once accepted)
    kind: str  # add / update / delete
    memory_id: uuid.UUID | None  # the memory changed or deleted (None for an add)
    text: str  # the text it asked for ("" when it did not change the text, and for a delete)
    categories: list[str] | None
    state: str
    created_at: datetime

    @classmethod
    def of(cls, proposal: MemoryProposal) -> PendingWrite:
        return cls(
            id=f"{PENDING_PREFIX}{proposal.pk}",
            kind=proposal.kind,
            memory_id=proposal.memory_id,
            text=proposal.proposed_text,
            categories=proposal.proposed_categories,
            state=proposal.proposed_state,
            created_at=proposal.created_at,
        )


def own_pending(actor: Actor) -> QuerySet[MemoryProposal]:
    """The app's own writes waiting for the owner (not the owner's edits of them)."""
    return MemoryProposal.objects.filter(
        owner=actor.user, app=actor.app, status=MemoryProposal.Status.PENDING
    ).exclude(kind=MemoryProposal.Kind.EDIT)


def pending_writes(
    actor: Actor, *, memory_ids: Iterable[uuid.UUID] | None = None, adds: bool = True
) -> list[PendingWrite]:
    """The calling app's own pending writes, oldest first: its adds (`adds`), and its changes of
    memories it may still see (of `memory_ids` only, when given). Empty for the owner's own apps,
    and for an app that is not reviewed and has nothing pending (no query then)."""
    if actor.app.is_owner_app or not actor.app.review_writes:
        return []
    seen = Q(memory__in=Memory.objects.filter(visible_q(actor)))
    if memory_ids is not None:
        seen &= Q(memory_id__in=list(memory_ids))
    which = (Q(memory__isnull=True) if adds else Q(pk__in=[])) | seen
    return [
        PendingWrite.of(p) for p in own_pending(actor).filter(which).order_by("created_at", "id")
    ]


def pending_matching(
    actor: Actor, lexemes: Sequence[str], memory_ids: Iterable[uuid.UUID]
) -> list[PendingWrite]:
    """What a search shows of the app's own pending writes: its changes of the memories found,
    and its pending adds and text changes whose text holds one of the query's `lexemes` (the
    search's own, `UserSearch.lexemes`), matched as the lexical arm matches a memory
    (`lexical.holding`): they are not embedded until the owner accepts them."""
    found = set(memory_ids)
    waiting = pending_writes(actor)
    worded = lexical.holding([p.text for p in waiting], lexemes)
    return [p for p, held in zip(waiting, worded, strict=True) if p.memory_id in found or held]
