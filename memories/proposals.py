"""Changes a model proposed to memories the user edited by hand. A model never rewrites such a
memory; the owner accepts or declines each proposal on the review page."""

from __future__ import annotations

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.actors import Actor, require, require_owner
from accounts.models import SCOPE_READ, SCOPE_WRITE
from activity import audit
from activity.models import AccessEvent
from contextlayer.errors import NotFound
from memories.models import Memory, MemoryProposal
from memories.services import memory_update
from memories.text import text_key
from memories.visibility import visible_q


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
    audit.record(actor, AccessEvent.Action.UPDATE, [memory.id], detail={"proposal": proposal.pk})
    return proposal


def _waiting(actor: Actor) -> QuerySet[MemoryProposal]:
    """Pending proposals the owner can act on (not those of memories in the trash: they wait
    there with their memory). Only the owner's own doors see them."""
    require_owner(actor, SCOPE_READ)
    return MemoryProposal.objects.filter(
        owner=actor.user,
        status=MemoryProposal.Status.PENDING,
        memory__in=Memory.objects.filter(visible_q(actor)),
    )


def proposal_list(*, actor: Actor) -> list[MemoryProposal]:
    """Pending proposals, newest first."""
    return list(_waiting(actor).select_related("memory").order_by("-created_at", "-id"))


def proposal_count(*, actor: Actor) -> int:
    """How many proposals wait for the owner (the Review link's count)."""
    return _waiting(actor).count()


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
    """Apply the proposed text; the current text becomes a version with the model's reason."""
    with transaction.atomic():
        proposal = _pending(actor, proposal_id)
        reason = f"Accepted a proposed change: {proposal.reason}".strip()
        memory_update(
            actor=actor, memory_id=proposal.memory_id, text=proposal.proposed_text, reason=reason
        )
        proposal.status = MemoryProposal.Status.ACCEPTED
        proposal.decided_at = timezone.now()
        proposal.save(update_fields=["status", "decided_at"])
    return proposal


def proposal_decline(*, actor: Actor, proposal_id: object) -> MemoryProposal:
    with transaction.atomic():
        proposal = _pending(actor, proposal_id)
        proposal.status = MemoryProposal.Status.DECLINED
        proposal.decided_at = timezone.now()
        proposal.save(update_fields=["status", "decided_at"])
    return proposal
