"""The dashboard's Import, Export and Erase pages. Owner only; GET never changes anything."""

from __future__ import annotations

import json
import uuid
from urllib.parse import quote, urlencode

from allauth.account.decorators import reauthentication_required
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

from accounts.models import ConnectedApp
from kernel.errors import Conflict, DomainError, LLMNotConfigured
from memories.extraction.llm import llm_configured
from memories.ingest.types import SOURCES
from memories.selectors.imports import import_run_get, import_run_list
from memories.services.erasure import (
    ERASE_PHRASE,
    receipt_as_dict,
    receipt_lines,
    receipt_of,
    receipts_of,
    user_erase,
)
from memories.services.export import export_build, export_markdown
from memories.services.import_runs import import_prepare, import_run_start
from memories.services.uploads import LimitedUploadHandler, keep_upload
from memories.transfer_models import ErasureReceipt, ImportRun
from web.dashboard import DashboardRequest, actor_for_request, dashboard_view, error_sentence
from web.presentation import app_display_name, source_name
from web.views.memory_list import CHANGED


@dashboard_view
@csrf_exempt  # the upload handler must be set before CSRF reads the body; checked just below
def import_page(request: DashboardRequest) -> HttpResponse:
    handler = LimitedUploadHandler(request)
    if request.method == "POST":
        request.upload_handlers = [handler]
    return _import_page(request, handler)


@csrf_protect
@require_http_methods(["GET", "POST"])
def _import_page(request: DashboardRequest, handler: LimitedUploadHandler) -> HttpResponse:
    actor = actor_for_request(request)
    context: dict[str, object] = {
        "runs": import_run_list(actor=actor),
        "sources": [(source, source_name(source)) for source in SOURCES],
        "max_mb": settings.IMPORT_MAX_UPLOAD_BYTES // (1024 * 1024),
        # The LLM choice is only offered when one is configured; without one, local is the default.
        "llm_mode": settings.EXTRACTION_MODE if llm_configured() else "",
    }
    if request.method == "GET":
        return render(request, "memories/import.html", context)
    upload = request.FILES.get("file")
    if handler.too_large:
        context["error"] = _("The file is larger than %(mb)s MB.") % {"mb": context["max_mb"]}
        return render(request, "memories/import.html", context, status=413)
    if upload is None:
        context["error"] = _("Choose an export file (.zip or conversations.json).")
        return render(request, "memories/import.html", context, status=400)
    try:
        run = import_prepare(
            actor=actor,
            path=keep_upload(upload, actor=actor),
            filename=upload.name or "",
            source=request.POST.get("source", "auto"),
            extractor=request.POST.get("extractor", "auto"),
        )
    except LLMNotConfigured:
        context["error"] = _(
            "This server has no LLM set up for extraction, so that choice is not available. "
            "Choose Local or None."
        )
        return render(request, "memories/import.html", context, status=400)
    except DomainError as exc:
        context["error"] = error_sentence(exc)
        return render(request, "memories/import.html", context, status=400)
    return redirect("memories:import_run", run_id=run.pk)


@dashboard_view
def import_run_page(request: DashboardRequest, run_id: str) -> HttpResponse:
    run = import_run_get(actor=actor_for_request(request), run_id=run_id)
    template = "memories/import_run.html"
    htmx = request.htmx
    if htmx:
        template += "#progress"
    # The memories an import brought in carry its source's import app as their origin.
    app = ConnectedApp.IMPORT_NAMES.get(run.source, "")
    imported = "/?" + urlencode({"app": app, "state": "all"}) if app else ""
    previous = dict(run.estimate.get("previous") or {})
    if previous:
        previous["imported_at"] = parse_datetime(previous["imported_at"])
    context = {
        "run": run,
        "estimate": run.estimate,
        "previous": previous,
        "imported_href": imported,
        "source_label": app.removesuffix(" import"),
    }
    response = render(request, template, context)
    if htmx and run.status in (ImportRun.Status.DONE, ImportRun.Status.FAILED):
        # The last poll: the stats header counts the new memories without a reload.
        trigger_client_event(response, CHANGED)
    return response


@require_POST
@dashboard_view
def import_start(request: DashboardRequest, run_id: str) -> HttpResponse:
    run = import_run_start(actor=actor_for_request(request), run_id=run_id)
    return redirect("memories:import_run", run_id=run.pk)


@require_POST
@dashboard_view
def import_redo(request: DashboardRequest, run_id: str) -> HttpResponse:
    """The check page's "Import again, replacing the earlier import"
    (memories/services/import_redo.py)."""
    try:
        run = import_run_start(actor=actor_for_request(request), run_id=run_id, redo=True)
    except Conflict as err:  # another redo is running: this one stays ready to start
        messages.error(request, str(err))
        return redirect("memories:import_run", run_id=run_id)
    return redirect("memories:import_run", run_id=run.pk)


@require_http_methods(["GET", "POST"])
@dashboard_view
def export_page(request: DashboardRequest) -> HttpResponse:
    if request.method == "GET":
        return render(request, "memories/export.html")
    actor = actor_for_request(request)
    stamp = timezone.now().strftime("%Y%m%d-%H%M")
    if request.POST.get("format") == "markdown":
        response = HttpResponse(export_markdown(actor=actor), content_type="text/markdown")
        name = f"context-layer-{stamp}.md"
    else:
        body = json.dumps(export_build(actor=actor), ensure_ascii=False, indent=2)
        response = HttpResponse(body, content_type="application/json")
        name = f"context-layer-{stamp}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _erase_context(request: DashboardRequest) -> dict[str, object]:
    return {"phrase": ERASE_PHRASE, "receipts": receipts_of(request.user)}


@require_http_methods(["GET", "POST"])
@dashboard_view
def erase_page(request: DashboardRequest) -> HttpResponse:
    """The typed phrase is checked before the password is asked for: a wrong one comes back at
    once, as typed (it was asked after, and the password's detour then emptied the form)."""
    typed = request.POST.get("confirm", "")
    if request.method == "POST" and typed.strip().lower() != ERASE_PHRASE:
        context = {
            **_erase_context(request),
            "error": _("Type “%(phrase)s” to confirm.") % {"phrase": ERASE_PHRASE},
            "typed": typed[:100],
            "delete_account": request.POST.get("delete_account") == "on",
        }
        return render(request, "memories/erase.html", context, status=400)
    return _erase_reauthenticated(request)


@reauthentication_required(allow_get=True)  # a session alone cannot erase or delete the account
def _erase_reauthenticated(request: DashboardRequest) -> HttpResponse:
    if request.method == "GET":
        return render(request, "memories/erase.html", _erase_context(request))
    delete_account = request.POST.get("delete_account") == "on"
    receipt = user_erase(actor=actor_for_request(request), delete_account=delete_account)
    if delete_account:
        logout(request)
    return _receipt_page(request, receipt, just_erased=True)


@require_GET
@dashboard_view
def erase_receipt_page(request: DashboardRequest, receipt_id: uuid.UUID) -> HttpResponse:
    """An earlier erasure's receipt, found again by the signed-in user (it has no foreign key to
    them: it is looked up by the keyed hash of their id)."""
    receipt = receipt_of(request.user, receipt_id)
    return _receipt_page(request, receipt, just_erased=False)


def _receipt_page(
    request: DashboardRequest, receipt: ErasureReceipt, *, just_erased: bool
) -> HttpResponse:
    """Readable, and downloadable as the JSON the API returns. The download is a data: URL in the
    page, so it works after an account deletion too, when no signed-in request could fetch it."""
    data = receipt_as_dict(receipt)
    context = {
        "receipt": receipt,
        "lines": receipt_lines(receipt),
        "erased_by": app_display_name(receipt.erased_by),
        "download_href": "data:application/json;charset=utf-8,"
        + quote(json.dumps(data, indent=2, ensure_ascii=False)),
        "download_name": f"erasure-receipt-{receipt.pk}.json",
        "just_erased": just_erased,
    }
    return render(request, "memories/erase_receipt.html", context)
