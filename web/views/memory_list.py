"""The memories page: list, search, filters, add, bulk actions, the stats header fragment."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import reswap, retarget, trigger_client_event

from accounts.actors import Actor
from kernel.errors import Conflict, InvalidInput
from memories.models import MemoryState
from memories.selectors.grants import category_notices
from memories.selectors.memories import memory_list, memory_readers, memory_search
from memories.selectors.stats import MemoryStats, memory_categories, memory_changers, memory_stats
from memories.services import changing, deleting, marks
from memories.services.remember import memory_remember
from web.dashboard import (
    DashboardRequest,
    actor_for_request,
    dashboard_view,
    error_sentence,
    service_sentence,
)
from web.forms import AddMemoryForm, BulkForm, MemoryFilterForm, split_categories
from web.presentation import undo_tag

PAGE_SIZE = 50
TEMPLATE = "memories/list.html"
CHANGED = "memories-changed"  # htmx event: the stats header refreshes itself


def _results(actor: Actor, data: QueryDict, cursor: str | None = None) -> dict[str, Any]:
    """The rows for the current filters: hybrid search when there is a query, else newest first."""
    form = MemoryFilterForm(data)
    filters = form.filters()
    query = form.query()
    next_cursor = None
    searched = nothing_relevant = False
    if query and filters.state == MemoryState.ACTIVE:
        # The same hybrid search the assistants use (it covers active memories), narrowed by
        # the filters in the search itself, so a page is full when enough memories match.
        hits = memory_search(
            actor=actor, query=query, limit=PAGE_SIZE, filters=filters, record=False
        )
        items = [h.memory for h in hits]
        searched = True
        nothing_relevant = hits.nothing_relevant
    else:
        if query:  # paused or archived memories are outside search: match the words instead
            filters = replace(filters, text=query)
        page = memory_list(
            actor=actor, filters=filters, cursor=cursor, limit=PAGE_SIZE, record=False
        )
        items, next_cursor = page.items, page.next_cursor
    return {
        "filter_form": form,
        "items": items,
        "next_cursor": next_cursor,
        "searched": searched,
        "nothing_relevant": nothing_relevant,
        "query": query,
        "filtered": form.is_filtered(),
        "filters_set": form.filters_set(),
        "filter_query": _filter_query(form),
        "max_chars": settings.MEMORY_MAX_CHARS,
    }


def _filter_query(form: MemoryFilterForm) -> str:
    """The current filters as a query string, for 'load more' and links that keep them."""
    data = QueryDict(mutable=True)
    if form.is_bound:
        for name in form.fields:
            value = form.data.get(name)
            if value:
                data[name] = value
    return data.urlencode()


@require_GET
@vary_on_headers("HX-Request")
@dashboard_view
def memory_list_page(request: DashboardRequest) -> HttpResponse:
    actor = actor_for_request(request)
    try:
        context = _results(actor, request.GET, cursor=request.GET.get("cursor") or None)
    except InvalidInput as err:
        context = _results(actor, QueryDict())
        context["error"] = error_sentence(err)
    htmx = request.htmx
    if htmx and not htmx.history_restore_request:
        fragment = "rows" if request.GET.get("cursor") else "results"
        return render(request, f"{TEMPLATE}#{fragment}", context)
    return _full_page(request, actor, context)


def _full_page(
    request: DashboardRequest, actor: Actor, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    stats = memory_stats(actor=actor)
    context.setdefault("add_form", AddMemoryForm())
    context.setdefault("add_open", not context["items"] and not context["filtered"])
    context.update(
        bulk_form=BulkForm(),
        notices=category_notices(actor=actor),
        categories=memory_categories(actor=actor),
        apps=_app_names(stats, memory_changers(actor=actor)),
        stats=stats,  # the stats header reuses them
    )
    return render(request, TEMPLATE, context, status=status)


def _app_names(stats: MemoryStats, changers: list[str]) -> list[str]:
    """The app filter's choices: where memories came from (most first), then who changed them."""
    origins = [name for name, _ in stats.by_app]
    return [*origins, *(name for name in changers if name not in origins)]


def _render_results(request: DashboardRequest, actor: Actor, **extra: Any) -> HttpResponse:
    """The rows after a change, and the notices of new categories it may have brought in."""
    context = _results(actor, request.POST)
    context.update(
        clear_confirm=True, notices_oob=True, notices=category_notices(actor=actor), **extra
    )
    response = render(request, f"{TEMPLATE}#results", context)
    return trigger_client_event(response, CHANGED)


@require_POST
@dashboard_view
def memory_add(request: DashboardRequest) -> HttpResponse:
    """Saved: the list with the new memory, the add form closed and emptied, one message.
    Refused: the add form again, open, holding what the person wrote, with the reason. Nothing
    worth remembering (an LLM extraction mode found no lasting fact): the form again too, holding
    the text with the model's note, so the person can rephrase it instead of typing it again."""
    actor = actor_for_request(request)
    form = AddMemoryForm(request.POST)
    error = note = ""
    if form.is_valid():
        try:
            result = memory_remember(
                actor=actor,
                text=form.cleaned_data["text"],
                categories=split_categories(form.cleaned_data["categories"]),
            )
            if result.results:
                messages.success(request, service_sentence(result.note) or _("Memory added."))
            else:  # the model found nothing worth remembering: not an error, not a success
                note = service_sentence(result.note)
        except (InvalidInput, Conflict) as err:
            error = error_sentence(err)
    else:
        error = _("Write the memory first.")
    htmx = request.htmx
    if error or note:
        again = {"add_form": form, "add_error": error, "add_note": note, "add_open": True}
        if not htmx:
            context = {**_results(actor, QueryDict()), **again}
            return _full_page(request, actor, context, status=400 if error else 200)
        response = render(
            request,
            f"{TEMPLATE}#add-memory",
            {**again, "max_chars": settings.MEMORY_MAX_CHARS},
        )
        return reswap(retarget(response, "#add-memory"), "outerHTML")
    if not htmx:
        return redirect("memories:home")
    return _render_results(request, actor, close_add=True, add_form=AddMemoryForm())


@require_POST
@dashboard_view
def memory_bulk(request: DashboardRequest) -> HttpResponse:
    actor = actor_for_request(request)
    form = BulkForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Select at least one memory and an action."))
        if not request.htmx:
            return redirect("memories:home")
        return _render_results(request, actor)
    action, ids = form.cleaned_data["action"], form.cleaned_data["ids"]
    if action == "delete" and not form.cleaned_data["confirm"]:
        context = {"ids": ids, "readers": memory_readers(actor=actor, memory_ids=ids)}
        if not request.htmx:
            return render(request, "memories/confirm_bulk_delete.html", context)
        response = render(request, f"{TEMPLATE}#bulk-confirm", context)
        return reswap(retarget(response, "#bulk-confirm"), "innerHTML")
    try:
        if action == "delete":
            results = deleting.memory_delete_many(actor=actor, memory_ids=ids)
            n = len(results)
            undo = undo_tag(results[0].batch_id)
            said = ngettext("Deleted %(n)d memory.", "Deleted %(n)d memories.", n) % {"n": n}
            messages.success(request, said, extra_tags=undo)
        else:
            messages.success(request, _bulk_apply(actor, action, ids, form.cleaned_data))
    except (InvalidInput, Conflict) as err:
        messages.error(request, error_sentence(err))
    if not request.htmx:
        return redirect("memories:home")
    return _render_results(request, actor)


def _bulk_apply(actor: Actor, action: str, ids: list[str], data: dict[str, Any]) -> str:
    """Apply one bulk action other than delete; what to tell the person."""
    if action == "categories":
        cats = split_categories(data["categories"])
        n = changing.memory_set_categories_many(actor=actor, memory_ids=ids, categories=cats)
        return ngettext(
            "Set categories on %(n)d memory.", "Set categories on %(n)d memories.", n
        ) % {"n": n}
    if action in ("pin", "unpin"):
        pinned = action == "pin"
        n = marks.memory_set_pinned(actor=actor, memory_ids=ids, pinned=pinned)
        if pinned:
            return ngettext(
                "%(n)d memory pinned to the profile.", "%(n)d memories pinned to the profile.", n
            ) % {"n": n}
        return ngettext("%(n)d memory unpinned.", "%(n)d memories unpinned.", n) % {"n": n}
    if action in ("private", "not-private"):
        private = action == "private"
        n = marks.memory_set_private_many(actor=actor, memory_ids=ids, private=private)
        if private:
            return ngettext(
                "%(n)d memory now private: no app sees it.",
                "%(n)d memories now private: no app sees them.",
                n,
            ) % {"n": n}
        return ngettext(
            "%(n)d memory no longer private.", "%(n)d memories no longer private.", n
        ) % {"n": n}
    n = changing.memory_set_state(actor=actor, memory_ids=ids, state=action)
    label = str(dict(MemoryState.choices)[action]).lower()
    return ngettext("%(n)d memory now %(state)s.", "%(n)d memories now %(state)s.", n) % {
        "n": n,
        "state": label,
    }


@require_GET
@dashboard_view
def stats_fragment(request: DashboardRequest) -> HttpResponse:
    actor = actor_for_request(request)
    return render(request, "memories/_stats.html", {"stats": memory_stats(actor=actor)})
