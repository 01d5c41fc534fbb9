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


# Where a memory comes from the owner: their own apps and the imports of their own archive.
_OWNER_ORIGINS = frozenset({"dashboard", "api", "cli", "import"})
OWNER, ASSISTANT = "owner", "assistant"


def voice(memory: Any) -> str:
    """Who stands behind a memory, as every answer to an app says (never which app): "owner"
    when the owner wrote it, edited its text or accepted or confirmed it; "assistant" when an
    app wrote it and the owner has not. Assistants weigh what they read by it."""
    by_owner = memory.origin in _OWNER_ORIGINS or memory.user_edited_at or memory.owner_confirmed_at
    return OWNER if by_owner else ASSISTANT


def text_for(memory: Any, *, owner: bool) -> str:
    """The text an entry point answers with: the memory's own for the owner's own apps; for an
    app, what apps read (the owner's text with its credentials withheld, memories/services/
    harm.py), which is the text itself for nearly every memory."""
    if owner or memory.app_text is None:
        return str(memory.text)
    return str(memory.app_text)
