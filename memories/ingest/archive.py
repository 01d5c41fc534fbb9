"""Read an export (ZIP, unzipped folder, or a single JSON file) without trusting it.

A ZIP is never extracted: members are read into memory through a bounded reader, and the archive
is refused before any decompression when its central directory names a path outside the archive,
a symlink, an encrypted member, overlapping members, too many members, too many declared bytes,
or a compression ratio only a zip bomb has. This Python's zipfile predates the 3.11.8 overlap
check, so the checks here do not rely on it.
"""

from __future__ import annotations

import itertools
import lzma
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from django.conf import settings

from memories.ingest.types import IngestError

_CONVERSATIONS = re.compile(r"(?:^|/)conversations(?:-\d+)?\.json$", re.IGNORECASE)
_CHUNK = 1 << 20
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

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(
            max_json_bytes=settings.IMPORT_MAX_JSON_BYTES,
            max_archive_bytes=settings.IMPORT_MAX_ARCHIVE_BYTES,
            max_members=settings.IMPORT_MAX_ZIP_MEMBERS,
            max_ratio=settings.IMPORT_MAX_COMPRESSION_RATIO,
        )


@dataclass(frozen=True)
class Document:
    name: str
    data: bytes


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
    return [Document(shown, _read_file(path, limits.max_json_bytes, shown))]


def _read_file(path: Path, budget: int, shown: str) -> bytes:
    if path.stat().st_size > budget:
        raise IngestError(
            f"{shown} is {path.stat().st_size:,} bytes; the limit is {budget:,} "
            "(IMPORT_MAX_JSON_BYTES)."
        )
    with path.open("rb") as handle:
        return _bounded_read(handle, budget, shown)


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
        data = _read_file(file, budget, file.name)
        budget -= len(data)
        docs.append(Document(file.name, data))
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
            try:
                with archive.open(info) as member:
                    data = _bounded_read(member, info.file_size, info.filename)
            except _DAMAGED as exc:
                raise IngestError(
                    f"{info.filename} in {shown} cannot be read: the archive is damaged or "
                    f"truncated ({exc})."
                ) from None
            budget -= len(data)
            docs.append(Document(info.filename, data))
        return docs


def _bounded_read(stream: IO[bytes], limit: int, name: str) -> bytes:
    """Read at most `limit` bytes; one byte more means the declared size lied: refuse."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(min(_CHUNK, limit - total + 1))
        if not chunk:
            break
        total += len(chunk)
        if total > limit:
            raise IngestError(f"{name} is larger than declared or allowed ({limit:,} bytes).")
        chunks.append(chunk)
    return b"".join(chunks)
