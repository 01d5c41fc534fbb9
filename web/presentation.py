"""How a memory is described to a person: where it came from, and what an edit changed."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from activity.models import AccessEvent
from memories.models import Memory, MemoryState, MemoryVersion, Origin
from memories.search.embeddings import E5_MODEL, MINILM_MODEL

# A message that offers to undo a delete carries the delete's trash batch in its extra tags
# (templates/_messages.html shows an Undo button for it).
_UNDO = "undo:"


def undo_tag(batch_id: object) -> str:
    """`extra_tags` for a message about a delete the person can undo."""
    return f"{_UNDO}{batch_id}"


def undo_batch(extra_tags: str) -> str:
    """The trash batch a message offers to undo, or ''."""
    return next((t[len(_UNDO) :] for t in extra_tags.split() if t.startswith(_UNDO)), "")


_APP_LABELS: dict[str, Promise] = {
    "dashboard": gettext_lazy("you, in the dashboard"),
    "api": gettext_lazy("the API"),
    "cli": gettext_lazy("the command line"),
}


def app_display_name(name: str) -> str:
    """One of the owner's own apps ("dashboard", "cli (admin:x)") in words; an app's name as it
    is."""
    builtin, _sep, rest = name.partition(" ")
    return f"{_APP_LABELS[builtin]} {rest}".strip() if builtin in _APP_LABELS else name


# An import's source (memories.ingest.types.SOURCES) as a person names it.
SOURCE_NAMES: dict[str, str | Promise] = {
    "claude": "Claude",
    "chatgpt": "ChatGPT",
    "contextlayer": gettext_lazy("Context Layer export"),
}
# How an import turns messages into memories, in words.
EXTRACTOR_NAMES: dict[str, Promise] = {
    "llm": gettext_lazy("an LLM"),
    "local": gettext_lazy("local"),
    "none": gettext_lazy("none (every message as written)"),
}


def join_names(names: Sequence[str]) -> str:
    """ "Claude", "Claude and Cursor", "Claude, Cursor and Zed", as the page's language lists."""
    if len(names) < 2:
        return "".join(names)
    head = pgettext("list separator", ", ").join(names[:-1])
    return _("%(names)s and %(last)s") % {"names": head, "last": names[-1]}


def source_name(source: str) -> str:
    """ "chatgpt" -> "ChatGPT"; an unknown source as it is."""
    return str(SOURCE_NAMES.get(source, source))


# Provenance keys the memory page lists, named for a person; another key is shown as it is
# written, made readable ("import_run" -> "Import run").
_PROVENANCE_LABELS: dict[str, Promise] = {
    "conversation_id": gettext_lazy("Conversation id"),
    "message_id": gettext_lazy("Message id"),
    "message_ids": gettext_lazy("Message ids"),
    "message_created_at": gettext_lazy("Message sent"),
    "extractor": gettext_lazy("Extractor"),
    "run": gettext_lazy("Import run"),
    "import_run": gettext_lazy("Import run"),
    "client": gettext_lazy("Client"),
    "recorded_at": gettext_lazy("Recorded at"),
}


def provenance_label(key: str) -> str:
    """A provenance key as the memory page's "Where it came from" names it."""
    label = _PROVENANCE_LABELS.get(key)
    return str(label) if label else key.replace("_", " ").capitalize()


@dataclass(frozen=True)
class OriginInfo:
    label: str  # "Claude Desktop", "imported from ChatGPT"
    conversation: str  # the source conversation's title, if known
    source: str  # e.g. "chatgpt"
    app_named: bool = False  # the label is an app's name, written as the app writes it
    imported: bool = False  # the label already says "imported from …"

    @property
    def standalone(self) -> str:
        """The label on its own (the memory page's "Origin"): our words start with a capital;
        an app's name stays as it is everywhere else ("claude-desktop", not "Claude-desktop")."""
        return self.label if self.app_named else self.label[:1].upper() + self.label[1:]

    @property
    def phrase(self) -> str:
        """Where it came from, after a memory's date: "from Cursor", "imported from Claude"."""
        if self.imported:
            return self.label
        return _("from %(origin)s") % {"origin": self.label}


def origin_of(memory: Memory) -> OriginInfo:
    """Read only the memory's own columns (no joins), so a page of rows costs no extra queries."""
    prov: dict[str, Any] = memory.provenance if isinstance(memory.provenance, dict) else {}
    conversation = prov.get("conversation_title") or prov.get("title") or ""
    source = str(prov.get("source") or "")
    app = memory.origin_app_name or str(prov.get("app") or "")
    if memory.origin == Origin.IMPORT:
        name = source_name(source) if source in SOURCE_NAMES else app.removesuffix(" import")
        label = _("imported from %(source)s") % {"source": name} if name else _("imported")
        named = False
    else:
        label = str(_APP_LABELS.get(app, app)) if memory.origin != Origin.APP else app
        named = bool(app) and label == app
    return OriginInfo(
        label=label or _("unknown"),
        conversation=str(conversation),
        source=source,
        app_named=named,
        imported=memory.origin == Origin.IMPORT,
    )


@dataclass(frozen=True)
class SourceInfo:
    """Why the memory knows this: the conversation and message it was imported or extracted
    from. The owner's only (memories/provenance.py); never built for an app."""

    conversation: str  # the conversation's title, '' if it had none
    said_at: datetime | None  # when the message was sent, if known
    excerpt: str  # the message, or the excerpt of it the memory came from ('' for old imports)
    source: str  # e.g. "chatgpt"; '' for an extraction from an app's text


def source_of(memory: Memory) -> SourceInfo | None:
    """The memory's source for its page, or None when it was written as it is (by hand, or by
    an app without extraction): only imports and extractions have one."""
    prov: dict[str, Any] = memory.provenance if isinstance(memory.provenance, dict) else {}
    text = str(prov.get("excerpt") or "")
    source = str(prov.get("source") or "") if memory.origin == Origin.IMPORT else ""
    if not (text or source):
        return None
    when: datetime | None = None
    raw = prov.get("message_created_at")
    if isinstance(raw, str):
        try:
            when = datetime.fromisoformat(raw)
        except ValueError:
            when = None
    title = prov.get("conversation_title") or prov.get("title") or ""
    return SourceInfo(conversation=str(title), said_at=when, excerpt=text, source=source)


def _cats(slugs: Any) -> str:
    if slugs == "default":  # a grant never edited (accounts.services._logged_grant)
        return _("every category not sensitive")
    if isinstance(slugs, list) and slugs:
        return pgettext("list separator", ", ").join(str(c) for c in slugs)
    return pgettext("no categories", "none")


def _from_to(change: dict[str, Any]) -> str:
    return f"{_cats(change.get('from'))} → {_cats(change.get('to'))}"


def change_summary(event: AccessEvent) -> str:
    """What a write in the access log changed, in a few words ("categories: health → hobbies",
    "active → archived", "made private", "pinned to the profile"; for a profile read, "loaded as
    the profile"); "" for other reads and events that say nothing more."""
    d = event.detail if isinstance(event.detail, dict) else {}
    parts: list[str] = []
    if "app_id" in d:  # a change to a connected app (accounts.services.app_change_record)
        app = str(d.get("app", ""))
        if isinstance(d.get("scopes"), dict):
            parts.append(
                _("%(app)s scopes: %(change)s") % {"app": app, "change": _from_to(d["scopes"])}
            )
        if isinstance(d.get("categories"), dict):
            change = _from_to(d["categories"])
            parts.append(_("%(app)s categories: %(change)s") % {"app": app, "change": change})
        if isinstance(d.get("paused"), dict):
            paused = d["paused"].get("to")
            parts.append((_("paused %(app)s") if paused else _("resumed %(app)s")) % {"app": app})
        if isinstance(d.get("review_writes"), dict):
            on = d["review_writes"].get("to")
            sentence = (
                _("reviewing %(app)s's changes")
                if on
                else _("no longer reviewing %(app)s's changes")
            )
            parts.append(sentence % {"app": app})
        if d.get("revoked"):
            parts.append(_("disconnected %(app)s") % {"app": app})
        if d.get("created"):
            parts.append(_("connected %(app)s (%(how)s)") % {"app": app, "how": d["created"]})
        return _separator().join(parts)
    if event.action in (AccessEvent.Action.ACCEPT, AccessEvent.Action.DECLINE):
        # the owner's answer to an app's held write (memories/services/app_review.py)
        values = {"app": d.get("app") or _("an app"), "kind": _kind(d.get("kind"))}
        if event.action == AccessEvent.Action.ACCEPT:
            return _("accepted %(app)s's %(kind)s") % values
        return _("declined %(app)s's %(kind)s") % values
    if event.action == AccessEvent.Action.PROPOSE:
        return _("%(kind)s waits for your review") % {"kind": _kind(d.get("kind"))}
    parts = [str(label) for key, label in _CHANGE_LABELS.items() if key in d]
    if isinstance(d.get("categories"), dict):
        parts.append(_("categories: %(change)s") % {"change": _from_to(d["categories"])})
    before, after = d.get("from"), d.get("to")
    if isinstance(before, str) and isinstance(after, str):
        parts.append(f"{state_name(before)} → {state_name(after)}")
    elif isinstance(before, dict) and isinstance(after, dict):
        if before.get("private") != after.get("private"):
            parts.append(_("made private") if after.get("private") else _("no longer private"))
        if before.get("hidden_from") != after.get("hidden_from"):
            parts.append(_("hidden from an app, or shown again"))
        if "seen_only_by" in before and "seen_only_by" not in after:
            parts.append(_("shown again to every app its categories let see it"))
        if before.get("pinned") != after.get("pinned"):
            parts.append(_("pinned to the profile") if after.get("pinned") else _("unpinned"))
    return _separator().join(parts)


def _separator() -> str:
    return pgettext("between the parts of a change", "; ")


_CHANGE_LABELS: dict[str, Promise] = {
    "text": gettext_lazy("edited the text"),
    "restored": gettext_lazy("restored an earlier text"),
    "superseded": gettext_lazy("replaced by a newer memory"),
    "proposal": gettext_lazy("proposed a change for your review"),
    "categorized": gettext_lazy("categorised automatically"),
    "profile": gettext_lazy("loaded as the profile"),
}
# A held write's kind (memories.models.Proposal.Kind), as a noun.
_KINDS: dict[str, Promise] = {
    "add": gettext_lazy("add"),
    "update": gettext_lazy("update"),
    "delete": gettext_lazy("delete"),
    "change": gettext_lazy("change"),
}


def _kind(kind: object) -> str:
    return str(_KINDS.get(str(kind or "change"), kind))


def state_name(state: str) -> str:
    """A memory's state ("active", "paused", "archived") in the page's language."""
    return str(MemoryState(state).label) if state in MemoryState.values else state


def changed_by_label(memory: Memory) -> str:
    """Who last changed the memory once written, in words ("Cursor on laptop", "you, in the
    dashboard"); "" when nobody has."""
    return app_display_name(memory.changed_by_name) if memory.changed_by_name else ""


@dataclass(frozen=True)
class DiffPart:
    op: str  # "same", "del", "ins"
    text: str


_TOKENS = re.compile(r"\s+|\w+|[^\w\s]")
# Steps (diagonals tried plus tokens compared) the diff may spend looking for the shortest edit.
# A page renders a diff per version, so this bounds what one version can cost: a few tens of
# milliseconds. Past it the changed middle is shown as one removal and one addition.
DIFF_BUDGET = 50_000

Opcode = tuple[str, int, int, int, int]  # ("equal" | "replace", i1, i2, j1, j2), as in difflib


def tokens(text: str) -> list[str]:
    """Words, runs of whitespace and single punctuation marks: the units a diff compares."""
    return _TOKENS.findall(text)


def word_diff(old: str, new: str) -> list[DiffPart]:
    """A word-level diff a person can read: what was removed and what was added, in order."""
    a, b = tokens(old), tokens(new)
    parts: list[DiffPart] = []
    for tag, i1, i2, j1, j2 in diff_opcodes(a, b):
        if tag == "equal":
            parts.append(DiffPart("same", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            parts.append(DiffPart("del", "".join(a[i1:i2])))
        if j2 > j1:
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
    kind: str = ""  # "current", "original" or "": the label's class, the same in every language


_BECAME: dict[str, Promise] = {
    MemoryVersion.Kind.EDIT: gettext_lazy("Edited"),
    MemoryVersion.Kind.RESTORE: gettext_lazy("Restored from an earlier version"),
    MemoryVersion.Kind.SUPERSEDE: gettext_lazy("Replaced an older memory"),
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
            became = str(_BECAME.get(change.kind, change.get_kind_display()))
            by, at = app_display_name(change.changed_by), change.created_at
            diff = word_diff(texts[i + 1], text)
        elif versions[-1].kind == MemoryVersion.Kind.SUPERSEDE:
            became, by, at, diff = _("The older memory this one replaced"), "", None, []
        else:
            became, by, at, diff = _("Added"), origin, memory.created_at, []
        label = _("Current") if i == 0 else _("Original") if oldest else ""
        kind = "current" if i == 0 else "original" if oldest else ""
        entries.append(HistoryEntry(text, label, became, by, at, diff, rows[i], kind))
    return entries


@dataclass(frozen=True)
class Restatement:
    """The same fact said again in other words, by an app, merged into this memory by local
    reconciliation (`reconcile_local.note_restated`): the owner sees each wording, not only the
    text kept."""

    text: str
    by: str
    at: Any  # ISO datetime string, or None


def restatements(memory: Memory) -> list[Restatement]:
    """The wordings merged into the memory, newest first."""
    said = (memory.metadata or {}).get("restated_as") or []
    return [
        Restatement(str(r.get("text", "")), str(r.get("by", "")), r.get("at"))
        for r in reversed(said)
        if isinstance(r, dict) and r.get("text")
    ]


def diff_opcodes(a: Sequence[str], b: Sequence[str], budget: int = DIFF_BUDGET) -> list[Opcode]:
    """Equal runs and the changes between them, with bounded work.

    `difflib.SequenceMatcher` is quadratic or worse on repetitive input ("a a a …" against
    "a b a b …" at 5,000 characters ran for more than ten minutes). This is Myers' O((N+M)·D)
    shortest edit script after trimming the common prefix and suffix; it gives up once it has
    spent `budget` steps and shows the changed middle as one replacement instead, so the work is
    at most `budget` plus a linear pass, whatever the texts.
    """
    n, m = len(a), len(b)
    head = 0
    while head < n and head < m and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < n - head and tail < m - head and a[n - 1 - tail] == b[m - 1 - tail]:
        tail += 1
    middle = _myers(a[head : n - tail], b[head : m - tail], budget)
    if middle is None:
        middle = [("replace", 0, n - head - tail, 0, m - head - tail)]
    ops: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    ops += [(tag, i1 + head, i2 + head, j1 + head, j2 + head) for tag, i1, i2, j1, j2 in middle]
    if tail:
        ops.append(("equal", n - tail, n, m - tail, m))
    return [op for op in ops if op[2] > op[1] or op[4] > op[3]]


def _myers(a: Sequence[str], b: Sequence[str], budget: int) -> list[Opcode] | None:
    """The shortest edit script as opcodes, or None once it costs more than `budget` steps."""
    n, m = len(a), len(b)
    if not n or not m:
        return [("replace", 0, n, 0, m)] if n or m else []
    offset = n + m + 1
    frontier = [0] * (2 * offset + 1)  # furthest x reached on each diagonal k = x - y
    # Each round's frontier on diagonals -d-1 … d+1, to walk the path back: O(D²) <= budget.
    trail: list[list[int]] = []
    steps = 0
    for d in range(n + m + 1):
        trail.append(frontier[offset - d - 1 : offset + d + 2])
        for k in range(-d, d + 1, 2):
            steps += 1
            if k == -d or (k != d and frontier[offset + k - 1] < frontier[offset + k + 1]):
                x = frontier[offset + k + 1]  # from the diagonal above: an insertion
            else:
                x = frontier[offset + k - 1] + 1  # from the diagonal below: a deletion
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x, y = x + 1, y + 1
                steps += 1
            frontier[offset + k] = x
            if x >= n and y >= m:
                return _opcodes(_matches(trail, n, m), n, m)
            if steps > budget:
                return None
    return None  # pragma: no cover - round n + m always reaches the end


def _matches(trail: list[list[int]], n: int, m: int) -> list[tuple[int, int]]:
    """Walk the rounds back from (n, m): the pairs of equal tokens on the path, in order."""
    x, y = n, m
    pairs: list[tuple[int, int]] = []
    for d in range(len(trail) - 1, -1, -1):
        before = trail[d]  # before[k + d + 1] is the frontier on diagonal k before round d

        k = x - y
        if k == -d or (k != d and before[k - 1 + d + 1] < before[k + 1 + d + 1]):
            prev_k = k + 1
        else:
            prev_k = k - 1
        prev_x = before[prev_k + d + 1]
        prev_y = prev_x - prev_k
        while x > prev_x and y > prev_y:  # the run of equal tokens this round ended with
            x, y = x - 1, y - 1
            pairs.append((x, y))
        x, y = prev_x, prev_y
    pairs.reverse()
    return pairs


def _opcodes(pairs: list[tuple[int, int]], n: int, m: int) -> list[Opcode]:
    """Equal runs from the matched pairs; whatever lies between two runs is one replacement."""
    ops: list[Opcode] = []
    i = j = index = 0
    while index < len(pairs):
        x, y = pairs[index]
        if x > i or y > j:
            ops.append(("replace", i, x, j, y))
        run = 1
        while index + run < len(pairs) and pairs[index + run] == (x + run, y + run):
            run += 1
        ops.append(("equal", x, x + run, y, y + run))
        i, j, index = x + run, y + run, index + run
    if i < n or j < m:
        ops.append(("replace", i, n, j, m))
    return ops


# The search models a person may choose (memories/services/search_model.py), as the Search page
# names them.
SEARCH_MODEL_NAMES: dict[str, Promise] = {
    MINILM_MODEL: gettext_lazy("English"),
    E5_MODEL: gettext_lazy("Many languages"),
}
# What the Search page says of each model beside its name.
SEARCH_MODEL_HELP: dict[str, Promise] = {
    MINILM_MODEL: gettext_lazy("the quickest; memories in other languages are found poorly."),
    E5_MODEL: gettext_lazy(
        "Chinese, Japanese, German, Spanish, French, Portuguese, Russian and English, and a "
        "memory in one language with a query in another; a search takes about three times as "
        "long."
    ),
}


def search_model_name(model: str) -> str:
    """A model as the Search page names it; a model the operator set that is not offered keeps
    its own name."""
    return str(SEARCH_MODEL_NAMES.get(model, model))
