"""Write review per app: the owner may choose to see an app's adds, updates and deletes before
they are saved (`ConnectedApp.review_writes`, off by default). The write services ask `held`
first; a held write becomes a `MemoryProposal` (kind add/update/delete) on the Review page, with
a `propose` access event in the same transaction, and nothing in the store changes until the
owner accepts it (memories/services/proposals.py applies it through the same service, as the app).

The app reads back its own pending writes (`memories/selectors/pending.py`): its adds, and its
changes of memories it may still see. A pending change of a memory since hidden from it is left
out, so what it reads never says anything about a memory it may not see."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from accounts.actors import Actor
from activity.models import AccessEvent
from activity.services import access_event_create
from memories import write_budget
from memories.models import Memory, MemoryProposal
from memories.selectors.pending import PendingWrite, own_pending

PENDING_NOTE = (
    "The user reviews this app's changes before they are saved: this waits on their Review "
    "page and changes nothing until they accept it."
)
# An add that looks like a change of a stored memory, held by local reconciliation
# (memories/services/reconcile_local.py) whatever the app's review setting.
LOOKS_LIKE_UPDATE_NOTE = (
    "This looks like a change of a memory already stored: it waits on the user's Review page "
    "as an update of that memory and changes nothing until they accept it."
)


def pending_note(pending: Sequence[PendingWrite]) -> str:
    """What an app is told about its held adds: reviewed, or held as a likely update."""
    return PENDING_NOTE if any(p.kind != "update" for p in pending) else LOOKS_LIKE_UPDATE_NOTE


def held(actor: Actor) -> bool:
    """Whether this actor's writes wait for the owner: an app the owner set to review, never
    the owner's own apps, an operator, or a write the owner already accepted."""
    app = actor.app
    return app.review_writes and not app.is_owner_app and not actor.operator and not actor.reviewed


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
    access_event_create(
        actor,
        AccessEvent.Action.PROPOSE,
        memory_ids,
        count=len(proposals),
        detail={"kind": proposals[0].kind, "proposals": [p.pk for p in proposals]},
    )


def propose_adds(
    actor: Actor, items: Sequence[tuple[str, list[str], str]], reasons: Sequence[str] = ()
) -> list[PendingWrite]:
    """Hold new memories (text, categories, state; already validated) for the owner, each with
    the reason it waits when there is one (an instruction to assistants: memories/services/
    harm.py). The same text proposed again while pending is answered with the pending proposal,
    not repeated."""
    mine = {
        (p.proposed_text, tuple(p.proposed_categories or ())): p
        for p in own_pending(actor).filter(kind=MemoryProposal.Kind.ADD)
    }
    fresh: dict[tuple[str, tuple[str, ...]], MemoryProposal] = {}
    for index, (text, cats, state) in enumerate(items):
        key = (text, tuple(cats))
        if key not in mine and key not in fresh:
            fresh[key] = _new(
                actor,
                MemoryProposal.Kind.ADD,
                None,
                proposed_text=text,
                proposed_categories=cats,
                proposed_state=state,
                reason=reasons[index][:500] if index < len(reasons) else "",
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
    reason: str = "",
) -> PendingWrite:
    """Hold a change of one memory the app may see (locked and checked by the caller); `reason`
    says why it waits when the app did not ask for a review (local reconciliation was unsure)."""
    proposal = _new(
        actor,
        MemoryProposal.Kind.UPDATE,
        memory,
        proposed_text=text or "",
        proposed_categories=categories,
        proposed_state=state or "",
        reason=reason[:500],
    )
    _store(actor, [proposal], [memory.id])
    return PendingWrite.of(proposal)


def propose_text_changes(
    actor: Actor, changes: Sequence[tuple[Memory, str, str]]
) -> list[PendingWrite]:
    """Hold new texts for memories the app may see (memory, text, reason; locked and checked by
    the caller), saved together: a batch's unsure reconciliations (`reconcile_local`)."""
    if not changes:
        return []
    proposals = [
        _new(
            actor,
            MemoryProposal.Kind.UPDATE,
            memory,
            proposed_text=text,
            proposed_categories=None,
            proposed_state="",
            reason=reason[:500],
        )
        for memory, text, reason in changes
    ]
    _store(actor, proposals, [memory.id for memory, _, _ in changes])
    return [PendingWrite.of(p) for p in proposals]


def propose_deletes(actor: Actor, memories: Sequence[Memory]) -> list[PendingWrite]:
    """Hold deletes; the memories stay where they are (and in every app's sight) meanwhile."""
    if not memories:
        return []
    proposals = [_new(actor, MemoryProposal.Kind.DELETE, m) for m in memories]
    _store(actor, proposals, [m.id for m in memories])
    return [PendingWrite.of(p) for p in proposals]
