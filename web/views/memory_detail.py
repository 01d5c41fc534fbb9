"""One memory: detail page and its actions (edit, state, categories, restore, delete)."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, trigger_client_event

from accounts.selectors import app_names
from kernel.errors import Conflict, InvalidInput
from memories.categories.vocabulary import UNCHECKED
from memories.models import Memory
from memories.selectors.grants import category_notices
from memories.selectors.memories import (
    memory_access_trail,
    memory_echoes,
    memory_get,
    memory_readers,
    memory_related,
    memory_versions,
)
from memories.services import changing, deleting, marks, text_changes
from web.dashboard import DashboardRequest, actor_for_request, dashboard_view, error_sentence
from web.forms import CategoriesForm, MemoryTextForm, StateForm, split_categories
from web.presentation import history_entries, join_names, restatements, undo_tag
from web.views.common import next_url
from web.views.memory_list import CHANGED, TEMPLATE


def _detail_url(memory_id: uuid.UUID) -> str:
    return reverse("memories:detail", args=[memory_id])


def _row(
    request: DashboardRequest, memory: Memory, partial: str = "row", **extra: Any
) -> HttpResponse:
    context = {"m": memory, "max_chars": settings.MEMORY_MAX_CHARS, **extra}
    return render(request, f"{TEMPLATE}#{partial}", context)


@require_GET
@dashboard_view
def memory_detail(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    return _detail_page(request, memory_id)


def _detail_page(
    request: DashboardRequest, memory_id: uuid.UUID, *, text: str | None = None, error: str = ""
) -> HttpResponse:
    """The detail page; after a refused edit it holds the text the person wrote, and why."""
    actor = actor_for_request(request)
    memory = memory_get(actor=actor, memory_id=memory_id, record=False)
    versions = memory_versions(actor=actor, memory_id=memory_id)
    context = {
        "m": memory,
        "history": history_entries(memory, versions),
        "restated": restatements(memory),
        "related": memory_related(actor=actor, memory_id=memory_id),
        "trail": memory_access_trail(actor=actor, memory_id=memory_id),
        "echoes": memory_echoes(actor=actor, memory_id=memory_id),
        "readers": memory_readers(actor=actor, memory_ids=[memory.id]),
        "kept_for": None
        if memory.seen_only_by is None
        else app_names(actor=actor, app_ids=list(memory.seen_only_by)),
        "notices": category_notices(actor=actor),
        # In a language the classifier cannot check (memories/classify.py): what clears it.
        "unchecked": UNCHECKED in memory.categories,
        "checked_categories": [c for c in memory.categories if c != UNCHECKED],
        "edit_text": memory.text if text is None else text,
        "edit_error": error,
        "max_chars": settings.MEMORY_MAX_CHARS,
    }
    return render(request, "memories/detail.html", context, status=400 if error else 200)


@require_GET
@dashboard_view
def memory_row(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    actor = actor_for_request(request)
    memory = memory_get(actor=actor, memory_id=memory_id, record=False)
    if not request.htmx:
        return redirect(_detail_url(memory.id))
    return _row(request, memory)


@require_http_methods(["GET", "POST"])
@dashboard_view
def memory_edit(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    """GET: the inline edit form. POST: save; the previous text is kept as a version."""
    actor = actor_for_request(request)
    memory = memory_get(actor=actor, memory_id=memory_id, record=False)
    htmx = request.htmx
    if request.method == "GET":
        form = MemoryTextForm(initial={"text": memory.text})
        if htmx:
            return _row(request, memory, "edit", form=form)
        return redirect(_detail_url(memory.id))
    form = MemoryTextForm(request.POST)
    error = note = ""
    if form.is_valid():
        try:
            changed = changing.memory_change(
                actor=actor, memory_id=memory.id, text=form.cleaned_data["text"]
            )
            memory, note = changed.memory, changed.note
        except (InvalidInput, Conflict) as err:
            error = error_sentence(err)
    else:
        error = _("The memory cannot be empty.")
    if error:  # shown with the text as written, never thrown away
        if not htmx:
            return _detail_page(request, memory.id, text=request.POST.get("text", ""), error=error)
        return _row(request, memory, "edit", form=form, error=error)
    messages.success(request, note or _("Saved."))
    if not htmx:
        return redirect(next_url(request, _detail_url(memory.id)))
    return trigger_client_event(_row(request, memory), CHANGED)


@require_POST
@dashboard_view
def memory_state(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    actor = actor_for_request(request)
    form = StateForm(request.POST)
    memory = memory_get(actor=actor, memory_id=memory_id, record=False)
    error = ""
    if form.is_valid():
        try:
            changing.memory_set_state(
                actor=actor, memory_ids=[memory.id], state=form.cleaned_data["state"]
            )
        except Conflict as err:
            error = error_sentence(err)
    else:
        error = _("Unknown state.")
    memory = memory_get(actor=actor, memory_id=memory_id, record=False)
    if error:
        messages.error(request, error)
    if not request.htmx:
        return redirect(next_url(request, _detail_url(memory.id)))
    return trigger_client_event(_row(request, memory), CHANGED)


PRIVATE_SAID = {
    True: gettext_lazy("Private: no app sees it now."),
    False: gettext_lazy("No longer private: apps see it as their access allows."),
}


@require_POST
@dashboard_view
def memory_private(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    """Mark the memory private or not (the row's and the detail page's toggle)."""
    actor = actor_for_request(request)
    private = request.POST.get("private") == "on"
    memory = marks.memory_set_visibility(actor=actor, memory_id=memory_id, private=private)
    return _toggled(request, memory, PRIVATE_SAID[private], counts_changed=True)


PIN_SAID = {
    True: gettext_lazy(
        "Pinned: it opens the profile every app loads first, as each app's access allows."
    ),
    False: gettext_lazy("Unpinned."),
}


@require_POST
@dashboard_view
def memory_pin(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    """Pin the memory to the profile or unpin it (the row's and the detail page's toggle)."""
    actor = actor_for_request(request)
    pinned = request.POST.get("pinned") == "on"
    marks.memory_set_pinned(actor=actor, memory_ids=[memory_id], pinned=pinned)
    memory = memory_get(actor=actor, memory_id=memory_id, record=False)
    return _toggled(request, memory, PIN_SAID[pinned], counts_changed=False)


def _toggled(
    request: DashboardRequest, memory: Memory, said: object, *, counts_changed: bool
) -> HttpResponse:
    """The answer of a row's and the detail page's on/off switch: say it, then back to the page
    (no script) or the row swapped in place, telling the header when its counts moved."""
    messages.success(request, str(said))
    if not request.htmx:
        return redirect(next_url(request, _detail_url(memory.id)))
    row = _row(request, memory)
    return trigger_client_event(row, CHANGED) if counts_changed else row


@require_POST
@dashboard_view
def memory_unrestrict(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    """Let every app whose grant covers the memory see it again, after a sensitive category
    was deleted from it (it was kept for the apps that could see that category)."""
    actor = actor_for_request(request)
    marks.memory_set_visibility(actor=actor, memory_id=memory_id, unrestrict=True)
    messages.success(request, _("Apps see it again as their access allows."))
    return redirect(_detail_url(memory_id))


@require_POST
@dashboard_view
def memory_hide_from_app(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    """Hide the memory from one app, which also hides that app's own statement of it (echo)."""
    actor = actor_for_request(request)
    app_id = request.POST.get("app", "")
    if not app_id.isdigit() or len(app_id) > 18:
        messages.error(request, _("Choose an app to hide this memory from."))
    else:
        marks.memory_set_visibility(actor=actor, memory_id=memory_id, hide_from_app=int(app_id))
        messages.success(request, _("Hidden from that app, and so is its own statement of it."))
    return redirect(_detail_url(memory_id))


@require_POST
@dashboard_view
def memory_categories_edit(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    actor = actor_for_request(request)
    form = CategoriesForm(request.POST)
    if form.is_valid():
        try:
            changing.memory_set_categories(
                actor=actor,
                memory_id=memory_id,
                categories=split_categories(form.cleaned_data["categories"]),
            )
            messages.success(request, _("Categories saved."))
        except InvalidInput as err:
            messages.error(request, error_sentence(err))
    return redirect(next_url(request, _detail_url(memory_id)))


@require_POST
@dashboard_view
def memory_restore(
    request: DashboardRequest, memory_id: uuid.UUID, version_id: int
) -> HttpResponse:
    actor = actor_for_request(request)
    try:
        text_changes.memory_restore_version(actor=actor, memory_id=memory_id, version_id=version_id)
        messages.success(request, _("Restored. The text it replaced is kept in the history."))
    except Conflict as err:
        messages.error(request, error_sentence(err))
    return redirect(_detail_url(memory_id))


@require_http_methods(["GET", "POST"])
@dashboard_view
def memory_delete(request: DashboardRequest, memory_id: uuid.UUID) -> HttpResponse:
    """GET: a confirmation naming the apps that read it. POST: move it to the trash; the message
    offers Undo."""
    actor = actor_for_request(request)
    htmx = request.htmx
    if request.method == "GET":
        memory = memory_get(actor=actor, memory_id=memory_id, record=False)
        context = {"m": memory, "readers": memory_readers(actor=actor, memory_ids=[memory.id])}
        if htmx:
            return render(request, f"{TEMPLATE}#confirm-delete", context)
        return render(request, "memories/confirm_delete.html", context)
    result = deleting.memory_delete(actor=actor, memory_id=memory_id)
    said = _("Deleted.")
    if result.read_by:
        said += " " + _("%(apps)s had read it.") % {"apps": join_names(result.read_by)}
    messages.success(request, said, extra_tags=undo_tag(result.batch_id))
    if not htmx:
        return redirect("memories:home")
    # The row goes; the message says so, and the focus moves to the next row (static/js/app.js).
    return trigger_client_event(reswap(HttpResponse(), "delete"), CHANGED)
