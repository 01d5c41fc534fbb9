"""The owner's Review queue as the Review page reads it (its decisions are
`memories.services.proposals`)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from accounts.actors import Actor
from kernel.gates import SCOPE_READ, require_owner
from memories.models import Memory, MemoryProposal
from memories.visibility import visible_q


def _waiting(actor: Actor) -> QuerySet[MemoryProposal]:
    """Pending proposals the owner can act on (not those of memories in the trash: they wait
    there with their memory). Only the owner's own apps see them."""
    require_owner(actor, SCOPE_READ)
    return MemoryProposal.objects.filter(
        owner=actor.user, status=MemoryProposal.Status.PENDING
    ).filter(Q(memory__isnull=True) | Q(memory__in=Memory.objects.filter(visible_q(actor))))


def proposal_list(*, actor: Actor) -> list[MemoryProposal]:
    """Pending proposals, newest first."""
    return list(_waiting(actor).select_related("memory", "app").order_by("-created_at", "-id"))


def proposal_count(*, actor: Actor) -> int:
    """How many proposals wait for the owner (the Review link's count)."""
    return _waiting(actor).count()
