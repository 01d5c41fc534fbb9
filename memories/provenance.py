"""Provenance copied onto each memory, and the content-free reference kept after deletion."""

from __future__ import annotations

import hashlib
from typing import Any


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
