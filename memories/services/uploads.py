"""Import uploads on disk: streamed under IMPORT_MAX_UPLOAD_BYTES, kept only for a caller that may
import, and never left behind — an upload that does not become an import run is deleted at once,
and one its run no longer needs is cleaned up (`uploads_cleanup`, hourly and at start)."""

from __future__ import annotations

import shutil
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.files.uploadhandler import StopUpload, TemporaryFileUploadHandler
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.actors import Actor
from kernel.gates import SCOPE_WRITE, require_owner
from kernel.tenancy import cross_tenant
from memories.transfer_models import ImportRun

# A file in the upload folder that no run names is being kept by a request right now, or was
# left by a crash; requests turn theirs into a run well within this.
ORPHAN_AFTER = timedelta(hours=1)
SUFFIX = ".upload"


class LimitedUploadHandler(TemporaryFileUploadHandler):
    def __init__(self, request: Any = None, limit: int | None = None) -> None:
        super().__init__(request)
        self.limit = limit or settings.IMPORT_MAX_UPLOAD_BYTES
        self.received = 0
        self.too_large = False

    def handle_raw_input(
        self,
        input_data: Any,
        META: Any,
        content_length: int,
        boundary: Any,
        encoding: str | None = None,
    ) -> None:
        if content_length and content_length > self.limit + 64 * 1024:  # headers and boundaries
            self.too_large = True

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        if self.too_large:
            raise StopUpload(connection_reset=True)
        super().new_file(*args, **kwargs)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        if self.received > self.limit:
            self.too_large = True
            self.file.close()
            raise StopUpload(connection_reset=True)
        return super().receive_data_chunk(raw_data, start)


def may_upload(actor: Actor) -> None:
    """Only the owner's own apps import (raises like `import_prepare`): asked before an upload is
    read (contextlayer/body_limit.py) and before it is kept."""
    require_owner(actor, SCOPE_WRITE)


def keep_upload(upload: IO[bytes], *, actor: Actor) -> Path:
    """Copy an upload under IMPORT_UPLOAD_DIR with a server-chosen name (never the client's), for
    an actor that may import: anyone else is refused before a byte is written."""
    may_upload(actor)
    folder = Path(settings.IMPORT_UPLOAD_DIR)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = folder / f"{uuid.uuid4().hex}{SUFFIX}"
    try:
        with target.open("wb") as out:
            upload.seek(0)
            shutil.copyfileobj(upload, out, 1 << 20)
    except BaseException:
        target.unlink(missing_ok=True)  # a full disk or a dropped request keeps nothing
        raise
    return target


def uploads_cleanup() -> dict[str, int]:
    """Delete what no import will read: the uploads of runs left waiting (never started, or
    interrupted and not resumed) for IMPORT_UPLOAD_KEEP_HOURS, which are marked failed, and files
    no run names. Runs hourly with the OAuth clean-up, which `serve` also starts at once."""
    now = timezone.now()
    cutoff = now - timedelta(hours=settings.IMPORT_UPLOAD_KEEP_HOURS)
    message = (
        f"The uploaded file was removed after {settings.IMPORT_UPLOAD_KEEP_HOURS} hours without "
        "the import running; upload it again (what was imported stays, and is not doubled)."
    )
    expired = 0
    with cross_tenant("the upload clean-up looks at every user's waiting runs"):
        waiting = (
            ImportRun.objects.alias(last_sign=Coalesce("heartbeat_at", "started_at", "created_at"))
            .filter(Q(status=ImportRun.Status.PENDING) | Q(status=ImportRun.Status.RUNNING))
            .filter(last_sign__lt=cutoff)
            .exclude(upload_path="")
        )
        for run in waiting:
            Path(run.upload_path).unlink(missing_ok=True)
            ImportRun.objects.filter(pk=run.pk, owner_id=run.owner_id).update(
                status=ImportRun.Status.FAILED,
                upload_path="",
                errors=[*run.errors, {"id": "", "error": message}],
                finished_at=now,
            )
            expired += 1
        named = set(ImportRun.objects.exclude(upload_path="").values_list("upload_path", flat=True))
    orphans = 0
    folder = Path(settings.IMPORT_UPLOAD_DIR)
    old = time.time() - ORPHAN_AFTER.total_seconds()
    for path in folder.glob(f"*{SUFFIX}") if folder.is_dir() else ():
        if str(path) not in named and path.stat().st_mtime < old:
            path.unlink(missing_ok=True)
            orphans += 1
    return {"expired_uploads": expired, "orphan_uploads": orphans}
