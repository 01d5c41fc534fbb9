"""Our own export (see docs/export.schema.json): memories with their text, categories, state,
provenance, timestamps and version history, restored as they were."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.conf import settings

from memories.ingest.types import (
    ExportedMemory,
    ExportedVersion,
    IngestError,
    expect,
    parse_timestamp,
)

FORMAT = "context-layer-export"
VERSION = 1
# Provenance and metadata of one memory, as JSON (ours are a few hundred characters).
MAX_DETAIL_CHARS = 64 * 1024
MAX_ID_CHARS = 255  # ours are UUIDs; the manifest keeps an id in 255 characters


def looks_like(doc: Any) -> bool:
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def check_version(header: dict[str, Any], name: str) -> None:
    version = header.get("version")
    if version != VERSION:
        raise IngestError(
            f"{name}: export format version {version!r} is not supported (this server reads "
            f"version {VERSION})."
        )


def _required_time(raw: dict[str, Any], key: str, where: str) -> datetime:
    value = parse_timestamp(raw.get(key))
    expect(value is not None, where, f"'{key}' must be an ISO 8601 timestamp.")
    assert value is not None
    return value


def memory(raw: Any, where: str) -> ExportedMemory:
    expect(isinstance(raw, dict), where, "a memory must be an object.")
    text = raw.get("text")
    expect(
        isinstance(text, str) and bool(text.strip()), where, "'text' must be a non-empty string."
    )
    categories = raw.get("categories", [])
    expect(
        isinstance(categories, list) and all(isinstance(c, str) for c in categories),
        where,
        "'categories' must be a list of strings.",
    )
    _check_details(raw, where)
    versions = _versions(raw, where)
    # The id is how a restore recognises a memory it brought back before (the manifest's key).
    memory_id = _scalar(raw.get("id"))
    expect(bool(memory_id.strip()), where, "'id' must be a non-empty string.")
    expect(len(memory_id) <= MAX_ID_CHARS, where, f"'id' is longer than {MAX_ID_CHARS} characters.")
    superseded_by = _scalar(raw.get("superseded_by"))
    return ExportedMemory(
        id=memory_id,
        text=text,
        categories=tuple(categories),
        state=_scalar(raw.get("state")) or "active",
        provenance=dict(raw.get("provenance") or {}),
        metadata=dict(raw.get("metadata") or {}),
        created_at=_required_time(raw, "created_at", where),
        updated_at=_required_time(raw, "updated_at", where),
        user_edited_at=parse_timestamp(raw.get("user_edited_at")),
        categories_set_by_user=bool(raw.get("categories_set_by_user")),
        is_private=bool(raw.get("is_private")),
        origin=_scalar(raw.get("origin")) or "import",
        origin_app_name=_scalar(raw.get("origin_app_name")),
        superseded_by=superseded_by or None,
        versions=versions,
        in_trash=bool(raw.get("trash")),
        pinned_at=parse_timestamp(raw.get("pinned_at")),
    )


def _scalar(value: Any) -> str:
    """A string field as text; a number is written out, anything else (an object, a list) is
    treated as absent rather than turned into its repr."""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool) and value:
        return str(value)
    return ""


def _check_details(raw: dict[str, Any], where: str) -> None:
    for key in ("provenance", "metadata"):
        expect(isinstance(raw.get(key, {}), dict), where, f"'{key}' must be an object.")
        # Kept whole with each memory until the import writes it: bounded like a memory's text.
        expect(
            len(json.dumps(raw.get(key) or {})) <= MAX_DETAIL_CHARS,
            where,
            f"'{key}' is larger than {MAX_DETAIL_CHARS:,} characters.",
        )


def _versions(raw: dict[str, Any], where: str) -> tuple[ExportedVersion, ...]:
    versions = []
    raw_versions = raw.get("versions") or []
    expect(isinstance(raw_versions, list), where, "'versions' must be a list.")
    for index, item in enumerate(raw_versions):
        vwhere = f"{where}.versions[{index}]"
        expect(isinstance(item, dict) and isinstance(item.get("text"), str), vwhere, "bad version.")
        # A version is a memory's former text: no longer than a memory may be, so the history
        # page's diffs stay bounded (web/presentation.py).
        expect(
            len(item["text"]) <= settings.MEMORY_MAX_CHARS,
            vwhere,
            f"'text' is longer than {settings.MEMORY_MAX_CHARS} characters.",
        )
        versions.append(
            ExportedVersion(
                text=item["text"],
                kind=_scalar(item.get("kind")) or "edit",
                changed_by=_scalar(item.get("changed_by")),
                reason=_scalar(item.get("reason")),
                created_at=parse_timestamp(item.get("created_at")),
            )
        )
    return tuple(versions)
