"""Write review per app: the owner may choose to see an app's adds, updates and deletes before
they are saved (`ConnectedApp.review_writes`, off by default). The write services ask `held`
first; a held write becomes a `MemoryProposal` (kind add/update/delete) on the Review page, with
a `propose` access event in the same transaction, and nothing in the store changes until the
owner accepts it (memories/proposals.py applies it through the same service, as the app).

The app reads back its own pending writes, marked pending (`pending_writes`): its adds, and its
changes of memories it may still see. A pending change of a memory since hidden from it is left
out, so what it reads never says anything about a memory it may not see."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, QuerySet

from accounts.actors import Actor
from activity import audit
from activity.models import AccessEvent
from memories import write_budget
from memories.models import Memory, MemoryProposal
from memories.visibility import visible_q

PENDING_NOTE = (
    "The user reviews this app's changes before they are saved: this waits on their Review "
    "page and changes nothing until they accept it."
)
PENDING_PREFIX = "pending-"


def held(actor: Actor) -> bool:
    """Whether this actor's writes wait for the owner: an app the owner set to review, never
    the owner's own doors, an operator, or a write the owner already accepted."""
    app = actor.app
    return app.review_writes and not app.is_owner_door and not actor.operator and not actor.reviewed


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


def _new(actor: Actor, kind: str, memory: Memory | None, **fields: object) -> MemoryProposal:
    return MemoryProposal(
        owner=actor.user,
        kind=kind,
        memory=memory,
        app=actor.app,
        proposed_by=actor.label[:120],
        **fields,
    )


def _store(actor: Actor, proposals: list[MemoryProposal], memory_ids: list[uuid.UUID]) -> None:
    """Save the proposals with their access event; they count against the app's write budget
    like the writes they stand for, so a held app cannot flood the owner's Review page."""
    write_budget.charge(actor, len(proposals))
    MemoryProposal.objects.bulk_create(proposals)
    audit.record(
        actor,
        AccessEvent.Action.PROPOSE,
        memory_ids,
        count=len(proposals),
        detail={"kind": proposals[0].kind, "proposals": [p.pk for p in proposals]},
    )


def propose_adds(actor: Actor, items: Sequence[tuple[str, list[str], str]]) -> list[PendingWrite]:
    """Hold new memories (text, categories, state; already validated) for the owner. The same
    text proposed again while pending is answered with the pending proposal, not repeated."""
    mine = {
        (p.proposed_text, tuple(p.proposed_categories or ())): p
        for p in _own(actor).filter(kind=MemoryProposal.Kind.ADD)
    }
    fresh: dict[tuple[str, tuple[str, ...]], MemoryProposal] = {}
    for text, cats, state in items:
        key = (text, tuple(cats))
        if key not in mine and key not in fresh:
            fresh[key] = _new(
                actor,
                MemoryProposal.Kind.ADD,
                None,
                proposed_text=text,
                proposed_categories=cats,
                proposed_state=state,
            )
    if fresh:
        _store(actor, list(fresh.values()), [])
    every = {**mine, **fresh}
    return [PendingWrite.of(every[(text, tuple(cats))]) for text, cats, _ in items]


def propose_change(
    actor: Actor,
    memory: Memory,
    *,
    text: str | None,
    categories: list[str] | None,
    state: str | None,
) -> PendingWrite:
    """Hold a change of one memory the app may see (locked and checked by the caller)."""
    proposal = _new(
        actor,
        MemoryProposal.Kind.UPDATE,
        memory,
        proposed_text=text or "",
        proposed_categories=categories,
        proposed_state=state or "",
    )
    _store(actor, [proposal], [memory.id])
    return PendingWrite.of(proposal)


def propose_deletes(actor: Actor, memories: Sequence[Memory]) -> list[PendingWrite]:
    """Hold deletes; the memories stay where they are (and in every app's sight) meanwhile."""
    if not memories:
        return []
    proposals = [_new(actor, MemoryProposal.Kind.DELETE, m) for m in memories]
    _store(actor, proposals, [m.id for m in memories])
    return [PendingWrite.of(p) for p in proposals]


def _own(actor: Actor) -> QuerySet[MemoryProposal]:
    return MemoryProposal.objects.filter(
        owner=actor.user, app=actor.app, status=MemoryProposal.Status.PENDING
    ).exclude(kind=MemoryProposal.Kind.EDIT)


def pending_writes(
    actor: Actor, *, memory_ids: Iterable[uuid.UUID] | None = None, adds: bool = True
) -> list[PendingWrite]:
    """The calling app's own pending writes, oldest first: its adds (`adds`), and its changes of
    memories it may still see (of `memory_ids` only, when given). Empty for the owner's doors,
    and for an app that is not reviewed and has nothing pending (no query then)."""
    if actor.app.is_owner_door or not actor.app.review_writes:
        return []
    seen = Q(memory__in=Memory.objects.filter(visible_q(actor)))
    if memory_ids is not None:
        seen &= Q(memory_id__in=list(memory_ids))
    which = (Q(memory__isnull=True) if adds else Q(pk__in=[])) | seen
    return [PendingWrite.of(p) for p in _own(actor).filter(which).order_by("created_at", "id")]


def pending_matching(
    actor: Actor, query: str, memory_ids: Iterable[uuid.UUID]
) -> list[PendingWrite]:
    """What a search shows of the app's own pending writes: its changes of the memories found,
    and its pending adds and text changes that share a word with the query (a plain word match:
    they are not embedded until the owner accepts them)."""
    words = {w for w in query.casefold().split() if len(w) > 2}
    found = set(memory_ids)
    return [
        p
        for p in pending_writes(actor)
        if p.memory_id in found or (words and any(w in p.text.casefold() for w in words))
    ]
