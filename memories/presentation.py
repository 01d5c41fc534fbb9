"""How a memory is described to a person: where it came from, and what an edit changed."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from memories.models import Memory, Origin

_APP_LABELS = {"dashboard": "you, in the dashboard", "api": "the API", "cli": "the command line"}


@dataclass(frozen=True)
class OriginInfo:
    label: str  # "Claude Desktop", "Import: ChatGPT export"
    conversation: str  # the source conversation's title, if known
    source: str  # e.g. "chatgpt"


def origin_of(memory: Memory) -> OriginInfo:
    """Read only the memory's own columns (no joins), so a page of rows costs no extra queries."""
    prov: dict[str, Any] = memory.provenance if isinstance(memory.provenance, dict) else {}
    conversation = prov.get("conversation_title") or prov.get("title") or ""
    source = str(prov.get("source") or "")
    app = memory.origin_app_name or str(prov.get("app") or "")
    if memory.origin == Origin.IMPORT:
        label = f"import ({app or source})" if (app or source) else "an import"
    else:
        label = _APP_LABELS.get(app, app) if memory.origin != Origin.APP else app
    return OriginInfo(label=label or "unknown", conversation=str(conversation), source=source)


@dataclass(frozen=True)
class DiffPart:
    op: str  # "same", "del", "ins"
    text: str


_TOKENS = re.compile(r"\s+|\w+|[^\w\s]")


def word_diff(old: str, new: str) -> list[DiffPart]:
    """A word-level diff a person can read: what was removed and what was added, in order."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    parts: list[DiffPart] = []
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            parts.append(DiffPart("same", "".join(a[i1:i2])))
            continue
        if tag in ("delete", "replace"):
            parts.append(DiffPart("del", "".join(a[i1:i2])))
        if tag in ("insert", "replace"):
            parts.append(DiffPart("ins", "".join(b[j1:j2])))
    return parts
