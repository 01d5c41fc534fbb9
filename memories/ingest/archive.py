"""Read an export (ZIP, unzipped folder, or a single JSON file) without trusting it.

A ZIP is never extracted: members are streamed through a bounded reader, and the archive is
refused before any decompression when its central directory names a path outside the archive,
a symlink, an encrypted member, overlapping members, too many members, too many declared bytes,
or a compression ratio only a zip bomb has. This Python's zipfile predates the 3.11.8 overlap
check, so the checks here do not rely on it. Documents are opened, not read: the parser streams
them (memories/ingest/stream.py), so no document is ever held whole in memory.
"""

from __future__ import annotations

import io
import itertools
import lzma
import re
import stat
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import IO

from django.conf import settings

from memories.ingest.types import IngestError

_CONVERSATIONS = re.compile(r"(?:^|/)conversations(?:-\d+)?\.json$", re.IGNORECASE)
_ZIP_LOCAL_HEADER = 30
_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)
# What reading a damaged member can raise, from zipfile itself or the decompressor under it.
_DAMAGED = (
    zipfile.BadZipFile,
    EOFError,
    OSError,
    ValueError,
    RuntimeError,  # NotImplementedError too: e.g. a local header that asks for patched data
    zlib.error,
    lzma.LZMAError,
)


@dataclass(frozen=True)
class Limits:
    max_json_bytes: int  # total bytes of the JSON documents actually read
    max_archive_bytes: int  # total declared uncompressed size of every member
    max_members: int
    max_ratio: int  # uncompressed / compressed, for members above ratio_floor bytes
    ratio_floor: int = 1 << 20
    # What parsing may build (memories/ingest/stream.py, detect.py): one item (a conversation, or
    # a memory of our export) is decoded at a time, within these; the totals bound what is kept.
    max_item_bytes: int = 64 * 1024 * 1024
    max_item_values: int = 1_000_000
    max_items: int = 200_000  # conversations, or memories of our export
    max_texts: int = 2_000_000  # messages kept, memories and their versions

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(
            max_json_bytes=settings.IMPORT_MAX_JSON_BYTES,
            max_archive_bytes=settings.IMPORT_MAX_ARCHIVE_BYTES,
            max_members=settings.IMPORT_MAX_ZIP_MEMBERS,
            max_ratio=settings.IMPORT_MAX_COMPRESSION_RATIO,
            max_item_bytes=settings.IMPORT_MAX_ITEM_BYTES,
            max_item_values=settings.IMPORT_MAX_ITEM_VALUES,
            max_items=settings.IMPORT_MAX_ITEMS,
            max_texts=settings.IMPORT_MAX_TEXTS,
        )


@dataclass(frozen=True)
class Document:
    """One JSON document of an export: its bytes (small, in tests) or how to stream them."""

    name: str
    data: bytes = b""
    opener: Callable[[], IO[bytes]] | None = None

    def open(self) -> IO[bytes]:
        return self.opener() if self.opener is not None else io.BytesIO(self.data)


class _Bounded:
    """A stream read through `read(n)` that refuses to go past `limit` bytes (a size that lied,
    or a budget) and turns a damaged archive's errors into a clear refusal."""

    def __init__(
        self,
        stream: IO[bytes],
        limit: int,
        name: str,
        damaged: str,
        archive: zipfile.ZipFile | None = None,
    ) -> None:
        self.stream, self.limit, self.name, self.damaged = stream, limit, name, damaged
        self.archive = archive  # closed with the member it was opened for
        self.total = 0

    def read(self, size: int = -1) -> bytes:
        want = self.limit - self.total + 1 if size < 0 else min(size, self.limit - self.total + 1)
        try:
            chunk = self.stream.read(want)
        except _DAMAGED as exc:
            raise IngestError(f"{self.damaged} ({exc}).") from None
        self.total += len(chunk)
        if self.total > self.limit:
            raise IngestError(
                f"{self.name} is larger than declared or allowed ({self.limit:,} bytes)."
            )
        return chunk

    def __enter__(self) -> _Bounded:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stream.close()
        if self.archive is not None:
            self.archive.close()


def read_export(
    path: Path, limits: Limits | None = None, *, name: str | None = None
) -> list[Document]:
    """The JSON documents of an export: `conversations*.json`, or else every `.json` file.
    `name` is what messages call a single file or archive (default: its own name)."""
    limits = limits or Limits.from_settings()
    shown = name or path.name
    if path.is_symlink():
        raise IngestError(f"{shown}: refusing a symbolic link; give the file itself.")
    if path.is_dir():
        return _read_folder(path, limits)
    if not path.is_file():
        raise IngestError(f"{path}: no such file or folder.")
    with path.open("rb") as handle:
        head = handle.read(4)
    if head.startswith(b"PK"):
        return _read_zip(path, limits, shown)
    return [_read_file(path, limits.max_json_bytes, shown)]


def _read_file(path: Path, budget: int, shown: str) -> Document:
    size = path.stat().st_size
    if size > budget:
        raise IngestError(
            f"{shown} is {size:,} bytes; the limit is {budget:,} (IMPORT_MAX_JSON_BYTES)."
        )

    def opener() -> IO[bytes]:
        return _Bounded(path.open("rb"), size, shown, f"{shown} cannot be read")  # type: ignore[return-value]

    return Document(shown, opener=opener)


def _read_folder(folder: Path, limits: Limits) -> list[Document]:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".json")
    chosen = [p for p in files if _CONVERSATIONS.search(p.name)] or files
    if not chosen:
        raise IngestError(
            f"{folder.name}/ holds no conversations.json (nor any .json file): "
            "is this an unzipped Claude or ChatGPT export?"
        )
    docs: list[Document] = []
    budget = limits.max_json_bytes
    for file in chosen:
        if file.is_symlink() or not file.is_file():
            raise IngestError(f"{file.name}: refusing a symbolic link or special file.")
        docs.append(_read_file(file, budget, file.name))
        budget -= file.stat().st_size
    return docs


def _check_name(name: str) -> None:
    posix = name.replace("\\", "/")
    parts = PurePosixPath(posix).parts
    if (
        "\x00" in name
        or posix.startswith("/")
        or re.match(r"^[A-Za-z]:", posix)
        or any(part == ".." for part in parts)
    ):
        raise IngestError(f"The archive names a path outside itself ({name!r}): refused.")


def _check_members(infos: list[zipfile.ZipInfo], limits: Limits, archive_size: int) -> None:
    if len(infos) > limits.max_members:
        raise IngestError(
            f"The archive has {len(infos):,} members; the limit is {limits.max_members:,} "
            "(IMPORT_MAX_ZIP_MEMBERS)."
        )
    declared = 0
    for info in infos:
        _check_name(info.filename)
        mode = info.external_attr >> 16
        if stat.S_ISLNK(mode):
            raise IngestError(f"The archive member {info.filename!r} is a symbolic link: refused.")
        if info.flag_bits & 0x1:
            raise IngestError(f"The archive member {info.filename!r} is encrypted: refused.")
        if info.compress_type not in _METHODS:
            raise IngestError(
                f"The archive member {info.filename!r} uses compression method "
                f"{info.compress_type}, which this server does not read: refused."
            )
        declared += info.file_size
        if info.file_size > limits.ratio_floor and (
            info.compress_size == 0 or info.file_size / info.compress_size > limits.max_ratio
        ):
            raise IngestError(
                f"The archive member {info.filename!r} expands {info.compress_size:,} bytes to "
                f"{info.file_size:,} (more than {limits.max_ratio}x): this looks like a zip bomb; "
                "refused."
            )
    if declared > limits.max_archive_bytes:
        raise IngestError(
            f"The archive expands to {declared:,} bytes; the limit is "
            f"{limits.max_archive_bytes:,} (IMPORT_MAX_ARCHIVE_BYTES): refused."
        )
    # Members must not share compressed bytes (the overlapping-entry zip bomb).
    spans = sorted(
        (i.header_offset, i.header_offset + _ZIP_LOCAL_HEADER + i.compress_size) for i in infos
    )
    for (_, end), (next_start, _) in itertools.pairwise(spans):
        if next_start < end:
            raise IngestError("The archive has overlapping members (a zip bomb): refused.")
    if spans and spans[-1][1] > archive_size:
        raise IngestError("The archive is truncated: a member runs past its end.")


def _read_zip(path: Path, limits: Limits, shown: str) -> list[Document]:
    try:
        archive = zipfile.ZipFile(path)
    except _DAMAGED as exc:  # NotImplementedError too: e.g. a member needing zip version 11.6
        raise IngestError(f"{shown} is not a readable ZIP archive ({exc}).") from None
    with archive:
        infos = [i for i in archive.infolist() if not i.is_dir()]
        _check_members(infos, limits, path.stat().st_size)
        wanted = [i for i in infos if not i.filename.startswith("__MACOSX/")]
        chosen = [i for i in wanted if _CONVERSATIONS.search(i.filename)] or [
            i for i in wanted if i.filename.lower().endswith(".json")
        ]
        if not chosen:
            raise IngestError(
                f"{shown} holds no conversations.json (nor any .json file): "
                "is this a Claude or ChatGPT export?"
            )
        chosen.sort(key=lambda i: i.filename)
        docs: list[Document] = []
        budget = limits.max_json_bytes
        for info in chosen:
            if info.file_size > budget:
                raise IngestError(
                    f"{info.filename} is {info.file_size:,} bytes uncompressed; the limit is "
                    f"{limits.max_json_bytes:,} (IMPORT_MAX_JSON_BYTES)."
                )
            budget -= info.file_size
            docs.append(Document(info.filename, opener=_member_opener(path, info, shown)))
        return docs


def _member_opener(path: Path, info: zipfile.ZipInfo, shown: str) -> Callable[[], IO[bytes]]:
    """Stream one member, at most its declared size (the archive's directory was checked)."""
    damaged = f"{info.filename} in {shown} cannot be read: the archive is damaged or truncated"

    def opener() -> IO[bytes]:
        archive = zipfile.ZipFile(path)  # _Bounded closes it with the member
        try:
            member = archive.open(info)
        except _DAMAGED as exc:
            archive.close()
            raise IngestError(f"{damaged} ({exc}).") from None
        bounded = _Bounded(member, info.file_size, info.filename, damaged, archive)
        return bounded  # type: ignore[return-value]

    return opener
