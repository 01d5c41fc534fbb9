"""REST routes for moving data in and out: imports (dry run, start, progress), export, erase.

Thin entry points onto the same services the commands and the dashboard use
(memories/services/imports.py, memories/services/export.py, memories/services/erasure.py); only the
owner's own apps may use them.
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from allauth.account.decorators import reauthentication_required
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from ninja import File, Form, Router, Schema, Status
from ninja.files import UploadedFile

from accounts.api_auth import request_actor
from kernel.api_errors import error_responses
from kernel.errors import InvalidInput
from memories.selectors.imports import import_run_get, import_run_list
from memories.services.erasure import ERASE_PHRASE, receipt_as_dict, user_erase
from memories.services.export import export_build, export_markdown
from memories.services.import_runs import import_prepare, import_run_start
from memories.services.uploads import keep_upload

imports_router = Router(tags=["import, export, erase"])
export_router = Router(tags=["import, export, erase"])
erase_router = Router(tags=["import, export, erase"])


class ImportRunOut(Schema):
    id: uuid.UUID
    source: str
    extractor: str
    status: str
    interrupted: bool  # running, but its worker stopped; POST .../start resumes it
    filename: str
    estimate: dict[str, Any]
    conversations_total: int
    conversations_done: int
    conversations_imported: int
    conversations_skipped: int
    conversations_failed: int
    memories_created: int
    memories_existing: int
    messages_examined: int  # the local extractor: user messages read
    messages_kept: int  # ... and how many of them yielded a memory
    redo: bool  # replaces an earlier import of the same archive (POST .../redo)
    memories_replaced: int  # a redo: earlier memories nobody edited, moved to the trash
    errors: list[Any]


class EraseIn(Schema):
    confirm: str
    delete_account: bool = False


class ReceiptOut(Schema):
    id: str
    subject: str
    erased_at: str
    erased_by: str
    account_deleted: bool
    counts: dict[str, int]
    apps_that_read: list[str]


@imports_router.post(
    "",
    response={201: ImportRunOut, **error_responses(413)},
    summary="Upload an export and get its dry-run estimate (nothing imported yet)",
)
def import_create(
    request: HttpRequest,
    file: UploadedFile = File(...),  # noqa: B008 - ninja's declaration style
    source: Literal["auto", "claude", "chatgpt", "contextlayer"] = Form("auto"),
    extractor: Literal["auto", "local", "llm", "none"] = Form("auto"),
) -> Any:
    actor = request_actor(request)
    if (file.size or 0) > settings.IMPORT_MAX_UPLOAD_BYTES:
        raise InvalidInput("The file is larger than the upload limit.", field="file")
    run = import_prepare(
        actor=actor,
        path=keep_upload(file, actor=actor),
        filename=file.name or "",
        source=source,
        extractor=extractor,
    )
    return Status(201, run)


@imports_router.get("", response={200: list[ImportRunOut]}, summary="Recent imports")
def import_list(request: HttpRequest) -> Any:
    return import_run_list(actor=request_actor(request))


@imports_router.get(
    "/{run_id}", response={200: ImportRunOut, **error_responses(404)}, summary="Import progress"
)
def import_get(request: HttpRequest, run_id: uuid.UUID) -> Any:
    return import_run_get(actor=request_actor(request), run_id=run_id)


@imports_router.post(
    "/{run_id}/start",
    response={202: ImportRunOut, **error_responses(404)},
    summary="Run a prepared import in the background, or resume an interrupted one",
)
def import_start(request: HttpRequest, run_id: uuid.UUID) -> Any:
    return Status(202, import_run_start(actor=request_actor(request), run_id=run_id))


@imports_router.post(
    "/{run_id}/redo",
    response={202: ImportRunOut, **error_responses(404)},
    summary="Import this archive again, replacing what its earlier import made",
    description="For a prepared run whose estimate names `previous` (the archive was imported"
    " before): the earlier import's memories nobody edited go to the trash (one delete, restorable"
    " from the Trash page), and every message is read again with this run's extractor, deleted"
    " ones included; memories the owner edited stay. 400 if the archive was not imported before.",
)
def import_redo(request: HttpRequest, run_id: uuid.UUID) -> Any:
    return Status(202, import_run_start(actor=request_actor(request), run_id=run_id, redo=True))


@export_router.post(
    "",
    response={200: dict[str, Any], **error_responses()},
    summary="Export everything as JSON (versioned schema: docs/export.schema.json)",
)
def export_json(request: HttpRequest) -> Any:
    """POST, not GET: an export is recorded in the access log."""
    return export_build(actor=request_actor(request))


@export_router.post(
    "/markdown",
    response={**error_responses()},
    summary="Export everything as a Markdown document grouped by category",
    openapi_extra={
        "responses": {
            "200": {
                "description": "The Markdown document",
                "content": {"text/markdown": {"schema": {"type": "string"}}},
            }
        }
    },
)
def export_md(request: HttpRequest) -> HttpResponse:
    return HttpResponse(export_markdown(actor=request_actor(request)), content_type="text/markdown")


@reauthentication_required
def _reauthenticated(request: HttpRequest) -> None:
    """allauth's gate as a call (ninja cannot read a decorated route's signature): raises
    ReauthenticationRequired, a 403, unless this session re-authenticated minutes ago."""


@erase_router.post(
    "",
    response={200: ReceiptOut, **error_responses(404)},
    summary="Erase every memory and trace of this user; returns the erasure receipt",
    description="Only a browser session that re-authenticated in the last few minutes may erase"
    " (403 `reauthentication_required` otherwise).",
)
def erase(request: HttpRequest, payload: EraseIn) -> Any:
    if payload.confirm.strip().lower() != ERASE_PHRASE:  # before the password: nothing lost
        raise InvalidInput(f'Type "{ERASE_PHRASE}" to confirm.', field="confirm")
    _reauthenticated(request)
    receipt = user_erase(actor=request_actor(request), delete_account=payload.delete_account)
    return receipt_as_dict(receipt)
