"""The Trash page: what was deleted, by which app, until when; restore one, several or a whole
delete ("Undo" and an app's delete notice post here too), or delete for good after a
confirmation. Plain forms: every action works without JavaScript."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import truncatechars
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from kernel.errors import Conflict, InvalidInput
from memories.selectors import trash as trash_reads
from memories.services import trash
from web.dashboard import (
    DashboardRequest,
    actor_for_request,
    dashboard_view,
    error_sentence,
    service_sentence,
)
from web.views.common import next_url


def _trash_url() -> str:
    return reverse("memories:trash")


@require_GET
@dashboard_view
def trash_page(request: DashboardRequest) -> HttpResponse:
    groups = trash_reads.trash_groups(actor=actor_for_request(request))
    return render(request, "memories/trash.html", {"groups": groups})


@require_POST
@dashboard_view
def trash_restore(request: DashboardRequest) -> HttpResponse:
    """Restore the memories ticked (`ids`) or a whole delete (`batch`); back to `next`. One that
    is not in the trash (restored already, purged, or never this owner's) is a 404 like every
    missing id."""
    actor = actor_for_request(request)
    batch = request.POST.get("batch") or None
    try:
        result = trash.trash_restore(
            actor=actor, memory_ids=request.POST.getlist("ids"), batch_id=batch
        )
    except (InvalidInput, Conflict) as err:
        messages.error(request, error_sentence(err))
        return redirect(next_url(request, _trash_url()))
    if result.restored:
        n = len(result.restored)
        messages.success(
            request, ngettext("Restored %(n)d memory.", "Restored %(n)d memories.", n) % {"n": n}
        )
    for refusal in result.refused:
        text = truncatechars(refusal.memory.text, 80)
        said = _("“%(text)s” stays in the trash.") % {"text": text}
        messages.warning(request, f"{said} {service_sentence(refusal.reason)}")
    return redirect(next_url(request, _trash_url()))


@require_POST
@dashboard_view
def trash_delete(request: DashboardRequest) -> HttpResponse:
    """Delete from the trash for good: first a page that says what cannot be undone, then, with
    `confirm`, the purge."""
    actor = actor_for_request(request)
    ids = request.POST.getlist("ids")
    batch = request.POST.get("batch") or None
    everything = request.POST.get("everything") == "on"
    try:
        if not request.POST.get("confirm"):
            n = trash_reads.trash_picked_count(
                actor=actor, memory_ids=ids, batch_id=batch, everything=everything
            )
            context = {"ids": ids, "batch": batch, "everything": everything, "count": n}
            return render(request, "memories/confirm_trash_delete.html", context)
        n = trash.trash_delete_forever(
            actor=actor, memory_ids=ids, batch_id=batch, everything=everything
        )
    except InvalidInput as err:
        messages.error(request, error_sentence(err))
        return redirect(_trash_url())
    messages.success(
        request,
        ngettext("Deleted %(n)d memory for good.", "Deleted %(n)d memories for good.", n)
        % {"n": n},
    )
    return redirect(_trash_url())


@require_POST
@dashboard_view
def trash_seen(request: DashboardRequest, batch_id: uuid.UUID) -> HttpResponse:
    """Dismiss an app's delete notice; what it deleted stays in the trash."""
    trash.trash_notice_seen(actor=actor_for_request(request), batch_id=batch_id)
    return redirect(next_url(request, _trash_url()))
