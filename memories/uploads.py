"""A file upload handler that refuses anything above IMPORT_MAX_UPLOAD_BYTES while it streams,
so an oversized upload never fills the disk."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import StopUpload, TemporaryFileUploadHandler


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


def keep_upload(upload: UploadedFile) -> Path:
    """Move an upload under IMPORT_UPLOAD_DIR with a server-chosen name (never the client's)."""
    folder = Path(settings.IMPORT_UPLOAD_DIR)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = folder / f"{uuid.uuid4().hex}.upload"
    with target.open("wb") as out:
        upload.seek(0)
        shutil.copyfileobj(upload, out, 1 << 20)
    return target
