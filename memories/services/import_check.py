"""Checking an import before it runs: which extractor it uses, the import app it writes as, and
the dry run (`import_estimate`), which reads nothing from and writes nothing to the store."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.conf import settings

from accounts.actors import live_app
from accounts.models import ConnectedApp
from kernel.errors import InvalidInput, LLMNotConfigured
from kernel.gates import SCOPE_WRITE
from memories.categories.vocabulary import SENSITIVE
from memories.extraction.llm import llm_configured
from memories.extraction.local import Turn, local_extractor, other_languages, other_languages_note
from memories.extraction.local_context import extended
from memories.extraction.repeats import RepeatIndex
from memories.ingest.types import Conversation, Message, ParsedExport

EXTRACTORS = ("auto", "local", "llm", "none")


# Input prices (USD per million tokens) used for the dry-run estimate in LLM modes.
LLM_PRICE_PER_MTOK = {"anthropic": 3.0, "openai": 2.5, "ollama": 0.0}


CHARS_PER_TOKEN = 4


ESTIMATE_SAMPLE = 200  # user messages a dry run extracts (it runs inside the upload request)


SAMPLE_SHOWN = 5  # memories a dry run shows as examples


def import_app(user: Any, source: str) -> ConnectedApp:
    """The user's import app for this source: write-only, allowed every category."""
    name = ConnectedApp.IMPORT_NAMES[source]
    kind = ConnectedApp.Kind.IMPORT
    return live_app(user, kind, name, scopes=[SCOPE_WRITE], categories=sorted(SENSITIVE))


def resolve_extractor(extractor: str) -> str:
    """'auto' means an LLM when EXTRACTION_MODE names one, else the local extractor."""
    if extractor not in EXTRACTORS:
        raise InvalidInput(f"Extractor must be one of {', '.join(EXTRACTORS)}.", field="extractor")
    if extractor == "auto":
        return "llm" if llm_configured() else "local"
    if extractor == "llm" and not llm_configured():
        raise LLMNotConfigured()
    return extractor


@dataclass(frozen=True)
class Estimate:
    source: str
    extractor: str
    conversations: int
    messages: int
    user_messages: int
    memories: int  # our own export: memories to restore
    characters: int
    tokens: int
    cost_usd: float
    note: str
    # The local extractor, measured on up to ESTIMATE_SAMPLE of the user's messages (exact when
    # there are no more): messages that would yield a memory, the memories, a few examples.
    kept_messages: int | None = None
    kept_memories: int | None = None
    sampled_messages: int = 0
    sample: list[str] = field(default_factory=list)
    # The messages the local extractor does not read as English, by language (most first), and
    # what that means for them: said at the check step, before anything is imported.
    other_languages: list[tuple[str, int]] = field(default_factory=list)
    other_languages_note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def limited(export: ParsedExport, limit: int | None) -> ParsedExport:
    if limit is None:
        return export
    if limit < 1:
        raise InvalidInput("--limit must be at least 1.", field="limit")
    return ParsedExport(
        source=export.source,
        conversations=export.conversations[:limit],
        memories=export.memories[:limit],
    )


def import_estimate(
    *, export: ParsedExport, extractor: str = "auto", limit: int | None = None
) -> Estimate:
    """What an import would process and cost. Reads nothing from and writes nothing to the store."""
    mode = "none" if export.source == "contextlayer" else resolve_extractor(extractor)
    export = limited(export, limit)
    messages = [m for c in export.conversations for m in c.messages]
    user = [m for m in messages if m.role == "user"]
    preview: _Preview | None = None
    if export.source == "contextlayer":
        chars = sum(len(m.text) for m in export.memories)
        note = "Restores memories as exported; everything is worked out on this server."
        cost = 0.0
    elif mode == "none":
        chars = sum(len(m.text) for m in user)
        note = "One memory per message you wrote; everything is worked out on this server."
        cost = 0.0
    elif mode == "local":
        chars = sum(len(m.text) for m in user)
        preview = _local_preview(
            [(c, m) for c in export.conversations for m in c.messages if m.role == "user"]
        )
        note = (
            "Keeps only what your messages say about you (who you are, work, home, people, "
            "preferences, tools, health, plans), worked out on this server. The same "
            "fact said in several chats becomes one memory."
        )
        cost = 0.0
    else:
        chars = sum(len(m.text) for m in messages)
        price = LLM_PRICE_PER_MTOK.get(settings.EXTRACTION_MODE, 0.0)
        cost = round(chars / CHARS_PER_TOKEN / 1_000_000 * price, 4)
        note = (
            f"Each conversation is sent to the {settings.EXTRACTION_MODE} LLM for extraction; "
            f"input tokens at ${price}/M (output tokens not included)."
        )
    return Estimate(
        source=export.source,
        extractor=mode,
        conversations=len(export.conversations),
        messages=len(messages),
        user_messages=len(user),
        memories=len(export.memories),
        characters=chars,
        tokens=chars // CHARS_PER_TOKEN,
        cost_usd=cost,
        note=note,
        **(asdict(preview) if preview else {}),
    )


@dataclass(frozen=True)
class _Preview:
    kept_messages: int
    kept_memories: int
    sampled_messages: int
    sample: list[str]
    other_languages: list[tuple[str, int]]
    other_languages_note: str


def _local_preview(messages: Sequence[tuple[Conversation, Message]]) -> _Preview:
    """What the local extractor would keep, from messages spread evenly over the export, each
    read in its conversation as the import will read it (a sample lacks the skipped ones)."""
    n = len(messages)
    if n <= ESTIMATE_SAMPLE:
        chosen = list(messages)
    else:
        chosen = [messages[i * n // ESTIMATE_SAMPLE] for i in range(ESTIMATE_SAMPLE)]
    extracted = local_extractor().extract(
        [Turn(m.text, c.id, c.title, c.asked_before(m)) for c, m in chosen]
    )
    seen: RepeatIndex[int] = RepeatIndex()
    texts: list[str] = []  # what the import would write, a joined memory in its anchor's place
    for kept in extracted:
        for k in kept:
            at = extended(texts, k.text)
            if at is None and seen.find(k.text, k.vector) is not None:
                continue
            at = len(texts) if at is None else at
            seen.add(at, k.text, k.vector)
            texts[at : at + 1] = [k.text]
    sample = [t if len(t) <= 200 else t[:199] + "…" for t in texts[:SAMPLE_SHOWN]]
    kept_messages = sum(1 for kept in extracted if kept)
    scale = n / len(chosen) if chosen else 0.0
    other = other_languages([m.text for _, m in messages])
    return _Preview(
        kept_messages=round(kept_messages * scale),
        kept_memories=round(len(texts) * scale),
        sampled_messages=len(chosen),
        sample=sample,
        other_languages=other,
        other_languages_note=other_languages_note(other, n),
    )
