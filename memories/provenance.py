"""Provenance copied onto each memory, and the content-free reference kept after deletion.

A memory that came from an import or an extraction also keeps where it was said: the
conversation's title and a bounded excerpt of the message (or text) it came from, so the owner
can see why their memory knows it. Those are words the owner wrote elsewhere, not the memory
itself, so they are the owner's only: `for_app` takes them out of every answer to an app, and
they live and die with the memory's row (erase and purge remove them with it).
"""

from __future__ import annotations

import hashlib
from typing import Any

EXCERPT_MAX = 1000  # characters of the source message kept on a memory
# Keys only the owner's own apps see: an app gets the memory, never what it was cut from.
OWNER_ONLY = frozenset({"excerpt", "conversation_title", "title"})
_ELLIPSIS = "…"


def source_ref_hash(provenance: dict[str, Any]) -> str:
    """A hash of where a memory came from (source + conversation + message), or '' if unknown.

    Kept in the tombstone, so re-importing a conversation does not bring a deleted memory back.
    """
    source = provenance.get("source")
    conversation = provenance.get("conversation_id")
    message = provenance.get("message_id")
    if not (source and (conversation or message)):
        return ""
    raw = f"{source}\x1f{conversation or ''}\x1f{message or ''}"
    return hashlib.sha256(raw.encode()).hexdigest()


def excerpt(text: str, around: str = "", limit: int = EXCERPT_MAX) -> str:
    """At most `limit` characters of `text`: all of it when short, else a window around where
    `around` (the memory) was said when it is found there, else the start."""
    text = text.strip()
    if len(text) <= limit:
        return text
    width = limit - 2 * len(_ELLIPSIS)
    probe = around.strip()[:60]
    at = text.lower().find(probe.lower()) if probe else -1
    # Centred on what was said, or from its start when it is longer than the window.
    start = 0 if at < 0 else max(0, min(at - max(0, width - len(around)) // 2, len(text) - width))
    window = text[start : start + width]
    head = _ELLIPSIS if start else ""
    tail = _ELLIPSIS if start + width < len(text) else ""
    return f"{head}{window}{tail}"


def for_app(provenance: dict[str, Any] | Any, *, owner: bool) -> dict[str, Any]:
    """The provenance an entry point may answer with: all of it for the owner's own apps, without
    the owner-only keys (source title and excerpt) for an app."""
    if not isinstance(provenance, dict):
        return {}
    if owner:
        return provenance
    return {k: v for k, v in provenance.items() if k not in OWNER_ONLY}
