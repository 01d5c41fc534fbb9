"""The review page: changes a model proposed to memories the user edited by hand, the adds,
updates and deletes of apps whose changes the owner reviews first
(memories/services/app_review.py) or that instruct assistants, and the memories the store's
check holds (memories/services/harm_check.py).

Owner-only; another user's proposal is a 404 like a missing one. Accept/decline are one-click
POSTs (CSRF-protected); with htmx only the proposal's row is swapped out.
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from kernel.errors import Conflict
from memories.models import MemoryProposal
from memories.selectors.harm import held_memories
from memories.selectors.proposals import proposal_list
from memories.services.harm_check import CONFIRM, DECISIONS, PRIVATE, REDACT, harm_decide
from memories.services.proposals import proposal_accept, proposal_decline
from web.dashboard import DashboardRequest, actor_for_request, dashboard_view, error_sentence
from web.presentation import word_diff


@require_GET
@dashboard_view
def review(request: DashboardRequest) -> HttpResponse:
    actor = actor_for_request(request)
    proposals = proposal_list(actor=actor)
    rows = [(p, _diff(p)) for p in proposals]
    held = held_memories(actor=actor)
    return render(request, "memories/review.html", {"rows": rows, "held": held})


def _diff(proposal: MemoryProposal) -> list[object]:
    """What a text change would do to the memory, word by word (none for adds and deletes)."""
    if proposal.memory is None or not proposal.proposed_text:
        return []
    if proposal.kind == MemoryProposal.Kind.DELETE:
        return []
    return list(word_diff(proposal.memory.text, proposal.proposed_text))


@require_POST
@dashboard_view
def decide(request: DashboardRequest, proposal_id: int, decision: str) -> HttpResponse:
    action = {"accept": proposal_accept, "decline": proposal_decline}.get(decision)
    if action is None:
        raise Http404
    try:
        proposal = action(actor=actor_for_request(request), proposal_id=proposal_id)
    except Conflict as exc:  # e.g. the app may no longer see the memory: say so, change nothing
        messages.error(request, error_sentence(exc))
        return redirect("review:list")
    if request.htmx:
        return render(request, "memories/review.html#decided", {"proposal": proposal})
    return redirect("review:list")


@require_POST
@dashboard_view
def check_decide(request: DashboardRequest, memory_id: uuid.UUID, decision: str) -> HttpResponse:
    """The owner's decision about a memory the store's check holds: redact, keep private, or
    confirm it is fine (memories/services/harm_check.py)."""
    if decision not in DECISIONS:
        raise Http404
    harm_decide(actor=actor_for_request(request), memory_id=memory_id, decision=decision)
    messages.success(request, _DECIDED[decision])
    return redirect("review:list")


_DECIDED = {
    REDACT: "Redacted: the credential is gone from the memory and its history.",
    PRIVATE: "Kept private: no app reads it.",
    CONFIRM: "Confirmed: apps read it again, and it will not be held again.",
}
