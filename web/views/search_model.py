"""The Search page (Account menu): which model the owner's memories are searched with, and the
choice of another (memories/services/search_model.py). Owner only; GET changes nothing. While a
move runs, its "Now" section reloads itself every two seconds (htmx), so the count of memories
ready and the switch show without a reload."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from kernel.errors import InvalidInput
from memories.extraction.local import LANGUAGE_NAMES
from memories.search.embeddings import E5_MODEL
from memories.selectors.search_model import search_model_state
from memories.services.search_model import OFFERED, search_model_choose
from memories.tasks import schedule_move
from web.dashboard import DashboardRequest, actor_for_request, dashboard_view, error_sentence
from web.presentation import SEARCH_MODEL_HELP, search_model_name


@require_http_methods(["GET", "POST"])
@dashboard_view
def search_model_page(request: DashboardRequest) -> HttpResponse:
    actor = actor_for_request(request)
    if request.method == "POST":
        try:
            moving = search_model_choose(actor=actor, model=request.POST.get("model", ""))
        except InvalidInput as err:
            messages.error(request, error_sentence(err))
            return redirect("memories:search_model")
        if moving:
            schedule_move()  # the worker embeds the memories again; search answers meanwhile
            messages.success(
                request,
                _(
                    "Saved. Your memories are being prepared for the new model; search keeps "
                    "working with the current one until they are all ready."
                ),
            )
        else:
            messages.success(request, _("Saved."))
        return redirect("memories:search_model")
    state = search_model_state(actor=actor)
    context = {
        "state": state,
        "live_name": search_model_name(state.live),
        "moving_name": search_model_name(state.moving_to),
        "server_name": search_model_name(state.server),
        "offered": [
            (model, search_model_name(model), SEARCH_MODEL_HELP[model]) for model in OFFERED
        ],
        "languages": [(str(LANGUAGE_NAMES.get(code, code)), n) for code, n in state.languages],
        "suggest": state.suggests_multilingual and E5_MODEL not in (state.live, state.moving_to),
    }
    # While a move runs, the "Now" section asks for itself again (htmx) until the switch.
    template = "memories/search_model.html" + ("#now" if request.htmx else "")
    return render(request, template, context)
