"""The dashboard's Import, Export and Erase pages. Owner only; GET never changes anything."""

from __future__ import annotations

import json

from allauth.account.decorators import reauthentication_required
from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_POST

from accounts.actors import owner_actor
from memories.erasure import ERASE_PHRASE, receipt_as_dict, user_erase
from memories.errors import DomainError, NotFound
from memories.export import export_build, export_markdown
from memories.imports import import_prepare, import_run_get, import_run_list, import_run_start
from memories.ingest.types import SOURCES
from memories.models import ImportRun
from memories.uploads import LimitedUploadHandler, keep_upload


def _actor(request: HttpRequest):  # type: ignore[no-untyped-def]
    return owner_actor(request.user)  # type: ignore[arg-type]


@login_required
@csrf_exempt  # the upload handler must be set before CSRF reads the body; checked just below
def import_page(request: HttpRequest) -> HttpResponse:
    handler = LimitedUploadHandler(request)
    if request.method == "POST":
        request.upload_handlers = [handler]
    return _import_page(request, handler)


@csrf_protect
@require_http_methods(["GET", "POST"])
def _import_page(request: HttpRequest, handler: LimitedUploadHandler) -> HttpResponse:
    actor = _actor(request)
    context: dict[str, object] = {
        "runs": import_run_list(actor=actor),
        "sources": SOURCES,
        "max_mb": settings.IMPORT_MAX_UPLOAD_BYTES // (1024 * 1024),
    }
    if request.method == "GET":
        return render(request, "memories/import.html", context)
    upload = request.FILES.get("file")
    if handler.too_large:
        context["error"] = f"The file is larger than {context['max_mb']} MB."
        return render(request, "memories/import.html", context, status=413)
    if upload is None:
        context["error"] = "Choose an export file (.zip or conversations.json)."
        return render(request, "memories/import.html", context, status=400)
    try:
        run = import_prepare(
            actor=actor,
            path=keep_upload(upload, actor=actor),
            filename=upload.name or "",
            source=request.POST.get("source", "auto"),
            extractor=request.POST.get("extractor", "auto"),
        )
    except DomainError as exc:
        context["error"] = exc.message
        return render(request, "memories/import.html", context, status=400)
    return redirect("memories:import_run", run_id=run.pk)


def _own_run(request: HttpRequest, run_id: str) -> ImportRun:
    try:
        return import_run_get(actor=_actor(request), run_id=run_id)
    except NotFound:
        raise Http404 from None


@login_required
def import_run_page(request: HttpRequest, run_id: str) -> HttpResponse:
    run = _own_run(request, run_id)
    template = "memories/import_run.html"
    if request.htmx:  # type: ignore[attr-defined]
        template += "#progress"
    return render(request, template, {"run": run, "estimate": run.estimate})


@login_required
@require_POST
def import_start(request: HttpRequest, run_id: str) -> HttpResponse:
    try:
        run = import_run_start(actor=_actor(request), run_id=run_id)
    except NotFound:
        raise Http404 from None
    return redirect("memories:import_run", run_id=run.pk)


@login_required
@require_http_methods(["GET", "POST"])
def export_page(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return render(request, "memories/export.html")
    actor = _actor(request)
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


@login_required
@require_http_methods(["GET", "POST"])
@reauthentication_required(allow_get=True)  # a session alone cannot erase or delete the account
def erase_page(request: HttpRequest) -> HttpResponse:
    context: dict[str, object] = {"phrase": ERASE_PHRASE}
    if request.method == "GET":
        return render(request, "memories/erase.html", context)
    if request.POST.get("confirm", "").strip().lower() != ERASE_PHRASE:
        context["error"] = f"Type “{ERASE_PHRASE}” to confirm."
        return render(request, "memories/erase.html", context, status=400)
    delete_account = request.POST.get("delete_account") == "on"
    receipt = user_erase(actor=_actor(request), delete_account=delete_account)
    if delete_account:
        logout(request)
    return render(request, "memories/erase_receipt.html", {"receipt": receipt_as_dict(receipt)})
