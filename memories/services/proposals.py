"""The owner's Review queue: changes a model proposed to memories the user edited by hand (a model
never rewrites such a memory), and the adds, updates and deletes of apps whose writes the owner
reviews (memories/services/app_review.py). The owner accepts or declines each one on the Review
page.

An app's accepted write is applied through the same service as any write, as that app (so the
memory says who wrote or changed it, and an accepted delete goes to the trash), with an `accept`
access event; a declined one changes nothing and is recorded as `decline`."""

from __future__ import annotations

import dataclasses

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor, actor_for
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.errors import Conflict, NotFound
from kernel.gates import SCOPE_WRITE, require, require_owner
from memories.models import LIVE_STATES, Memory, MemoryProposal
from memories.services.adding import NewMemory, memory_create_many
from memories.services.changing import memory_change, memory_update
from memories.services.deleting import memory_delete
from memories.text import text_key


def proposal_create(
    *, actor: Actor, memory: Memory, proposed_text: str, reason: str
) -> MemoryProposal:
    """Record a proposal (once: the same pending text for the same memory is not repeated)."""
    require(actor, SCOPE_WRITE)
    key = text_key(proposed_text)
    for pending in MemoryProposal.objects.filter(
        owner=memory.owner, memory=memory, status=MemoryProposal.Status.PENDING
    ):
        if text_key(pending.proposed_text) == key:
            return pending
    proposal = MemoryProposal.objects.create(
        owner=memory.owner,
        memory=memory,
        proposed_text=proposed_text,
        reason=reason[:500],
        proposed_by=actor.label,
    )
    access_event_create(
        actor, AccessEvent.Action.UPDATE, [memory.id], detail={"proposal": proposal.pk}
    )
    return proposal


def _pending(actor: Actor, proposal_id: object) -> MemoryProposal:
    require_owner(actor, SCOPE_WRITE)
    try:
        pk = int(str(proposal_id))
    except ValueError:
        raise NotFound() from None
    proposal = (
        MemoryProposal.objects.select_for_update()
        .filter(owner=actor.user, pk=pk, status=MemoryProposal.Status.PENDING)
        .first()
    )
    if proposal is None:
        raise NotFound()
    return proposal


def proposal_accept(*, actor: Actor, proposal_id: object) -> MemoryProposal:
    """Apply the proposal. A model's edit: the current text becomes a version with its reason.
    An app's write: applied as that app, through the service any write takes."""
    with transaction.atomic():
        proposal = _pending(actor, proposal_id)
        if proposal.kind == MemoryProposal.Kind.EDIT:
            reason = f"Accepted a proposed change: {proposal.reason}".strip()
            memory_update(
                actor=actor,
                memory_id=proposal.memory_id,
                text=proposal.proposed_text,
                reason=reason,
            )
        else:
            _apply_app_write(actor, proposal)
        _decide(actor, proposal, MemoryProposal.Status.ACCEPTED)
    return proposal


def _apply_app_write(owner: Actor, proposal: MemoryProposal) -> None:
    """An app's held write, applied as the app (its grant and sight as they are now). When the
    app is gone, or may no longer see the memory, the owner is told so and nothing changes."""
    app = proposal.app
    if app is None or app.revoked_at is not None:
        raise Conflict(
            gettext_noop("The app that proposed this is no longer connected; decline it instead.")
        )
    writer = dataclasses.replace(actor_for(owner.user, app), reviewed=True)
    try:
        if proposal.kind == MemoryProposal.Kind.ADD:
            state = proposal.proposed_state if proposal.proposed_state in LIVE_STATES else "active"
            item = NewMemory(
                text=proposal.proposed_text,
                categories=tuple(proposal.proposed_categories or ()),
                state=state,
            )
            proposal.memory = memory_create_many(actor=writer, items=[item], reconcile=False)[
                0
            ].memory
            proposal.save(update_fields=["memory"])
            _confirmed(owner, proposal.memory)
        elif proposal.kind == MemoryProposal.Kind.UPDATE:
            changed = memory_change(
                actor=writer,
                memory_id=proposal.memory_id,
                text=proposal.proposed_text or None,
                categories=proposal.proposed_categories,
                state=proposal.proposed_state or None,
            )
            if proposal.proposed_text:
                _confirmed(owner, changed.memory)
        else:
            memory_delete(actor=writer, memory_id=proposal.memory_id)
    except NotFound:
        raise Conflict(
            gettext_noop(
                "%(app)s may no longer see this memory, so its change cannot be applied; "
                "decline it, or change the memory yourself."
            ),
            app=app.name,
        ) from None


def _confirmed(owner: Actor, memory: Memory) -> None:
    """The owner accepted this text: it is theirs to stand behind (answers to apps say so, and
    the store's check does not hold it again: memories/services/harm.py)."""
    if memory.pk is not None:
        memory.owner_confirmed_at = timezone.now()
        Memory.objects.filter(owner=owner.user, pk=memory.pk).update(
            owner_confirmed_at=memory.owner_confirmed_at
        )


def _decide(actor: Actor, proposal: MemoryProposal, status: str) -> None:
    proposal.status = status
    proposal.decided_at = timezone.now()
    proposal.save(update_fields=["status", "decided_at"])
    if proposal.kind != MemoryProposal.Kind.EDIT:
        action = (
            AccessEvent.Action.ACCEPT
            if status == MemoryProposal.Status.ACCEPTED
            else AccessEvent.Action.DECLINE
        )
        access_event_create(
            actor,
            action,
            [proposal.memory_id] if proposal.memory_id else [],
            detail={
                "proposal": proposal.pk,
                "kind": proposal.kind,
                "app": proposal.app.name if proposal.app else proposal.proposed_by,
            },
        )


def proposal_decline(*, actor: Actor, proposal_id: object) -> MemoryProposal:
    with transaction.atomic():
        proposal = _pending(actor, proposal_id)
        _decide(actor, proposal, MemoryProposal.Status.DECLINED)
    return proposal
