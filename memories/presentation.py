"""How a memory is described to a person: where it came from, and what an edit changed."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from memories.models import Memory, MemoryVersion, Origin

_APP_LABELS = {"dashboard": "you, in the dashboard", "api": "the API", "cli": "the command line"}


def door_label(name: str) -> str:
    """An owner's door ("dashboard", "cli (admin:x)") in words; an app's name as it is."""
    door, _, rest = name.partition(" ")
    return f"{_APP_LABELS[door]} {rest}".strip() if door in _APP_LABELS else name


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


@dataclass(frozen=True)
class HistoryEntry:
    """One text the memory has had, newest first: what it said, when it became that, and how.

    `version` is the stored row holding this text (None for the current text), so "Restore this
    version" brings back exactly the `text` shown. `diff` compares it with the text before it.
    """

    text: str
    label: str  # "Current", "Original" or "" (an intermediate text)
    became: str  # how it came to say this: "Edited", "Added", ...
    by: str
    at: Any  # datetime, or None when unknown (an original taken over from a superseded memory)
    diff: list[DiffPart]
    version: MemoryVersion | None


_BECAME: dict[str, str] = {
    MemoryVersion.Kind.EDIT: "Edited",
    MemoryVersion.Kind.RESTORE: "Restored from an earlier version",
    MemoryVersion.Kind.SUPERSEDE: "Replaced an older memory",
}


def history_entries(memory: Memory, versions: list[MemoryVersion]) -> list[HistoryEntry]:
    """The memory's texts, current first. A version row holds the text a change *replaced*, and
    when and by whom it was replaced; so text i became current through the change recorded on
    the row of text i+1, and the oldest text is the original."""
    if not versions:
        return []
    texts = [memory.text, *(v.text for v in versions)]
    rows: list[MemoryVersion | None] = [None, *versions]
    origin = origin_of(memory).label
    entries = []
    for i, text in enumerate(texts):
        oldest = i == len(texts) - 1
        if not oldest:
            change = versions[i]  # replaced texts[i + 1] with texts[i]
            became = _BECAME.get(change.kind, change.get_kind_display())
            by, at = door_label(change.changed_by), change.created_at
            diff = word_diff(texts[i + 1], text)
        elif versions[-1].kind == MemoryVersion.Kind.SUPERSEDE:
            became, by, at, diff = "The older memory this one replaced", "", None, []
        else:
            became, by, at, diff = "Added", origin, memory.created_at, []
        label = "Current" if i == 0 else "Original" if oldest else ""
        entries.append(HistoryEntry(text, label, became, by, at, diff, rows[i]))
    return entries
