"""The review page: changes a model proposed to memories the user edited by hand.

Owner-only; another user's proposal is a 404 like a missing one. Accept/decline are one-click
POSTs (CSRF-protected); with htmx only the proposal's row is swapped out.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from accounts.dashboard import DashboardRequest, actor_for_request, dashboard_view
from memories.proposals import proposal_accept, proposal_decline, proposal_list


@require_GET
@dashboard_view
def review(request: DashboardRequest) -> HttpResponse:
    proposals = proposal_list(actor=actor_for_request(request))
    return render(request, "memories/review.html", {"proposals": proposals})


@require_POST
@dashboard_view
def decide(request: DashboardRequest, proposal_id: int, decision: str) -> HttpResponse:
    action = {"accept": proposal_accept, "decline": proposal_decline}.get(decision)
    if action is None:
        raise Http404
    proposal = action(actor=actor_for_request(request), proposal_id=proposal_id)
    if request.htmx:
        return render(request, "memories/review.html#decided", {"proposal": proposal})
    return redirect("review:list")
