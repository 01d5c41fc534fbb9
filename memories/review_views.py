"""The review page: changes a model proposed to memories the user edited by hand.

Owner-only; another user's proposal is a 404 like a missing one. Accept/decline are one-click
POSTs (CSRF-protected); with htmx only the proposal's row is swapped out.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.actors import owner_actor
from memories.errors import NotFound
from memories.proposals import proposal_accept, proposal_decline, proposal_list


@require_GET
@login_required
def review(request: HttpRequest) -> HttpResponse:
    actor = owner_actor(request.user)  # type: ignore[arg-type]
    return render(request, "memories/review.html", {"proposals": proposal_list(actor=actor)})


@require_POST
@login_required
def decide(request: HttpRequest, proposal_id: int, decision: str) -> HttpResponse:
    actor = owner_actor(request.user)  # type: ignore[arg-type]
    action = {"accept": proposal_accept, "decline": proposal_decline}.get(decision)
    if action is None:
        raise Http404
    try:
        proposal = action(actor=actor, proposal_id=proposal_id)
    except NotFound:
        raise Http404 from None
    if getattr(request, "htmx", False):
        return render(request, "memories/review.html#decided", {"proposal": proposal})
    return redirect("review:list")
