"""An import through the local extractor: a window's messages extracted in a worker thread, only
what it keeps written, and a fact said again (in this import or an earlier one) counted on the
memory that said it first."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

from accounts.actors import Actor
from memories.extraction.local import Kept, Turn, local_extractor
from memories.extraction.local_context import extended
from memories.extraction.repeats import RepeatIndex
from memories.ingest.types import Conversation
from memories.models import Memory, MemoryState
from memories.provenance import excerpt
from memories.search import moves
from memories.search.embeddings import current_model
from memories.services.adding import NewMemory
from memories.services.changing import memory_note_mentions
from memories.services.import_plans import (
    Counter,
    Plan,
    commit,
    create_all,
    message_provenance,
    pipelined,
    plans_of,
    windows_of,
)


def _oldest_first(conversations: Sequence[Conversation]) -> list[Conversation]:
    """So that of a fact said in many chats, the earliest saying is the one kept."""
    never = datetime.max.replace(tzinfo=UTC)
    return sorted(conversations, key=lambda c: c.created_at or never)


def _said_before(
    user: Any, source: str, conversations: Sequence[Conversation], counter: Counter
) -> RepeatIndex[uuid.UUID]:
    """Memories the local extractor made in earlier imports (any source, any state): a fact
    said again is counted on them, not added twice, and an archived one is not brought back.
    A redo leaves out the archive's memories it replaces and those in the trash."""
    index: RepeatIndex[uuid.UUID] = RepeatIndex()
    rows = Memory.objects.filter(
        owner=user, superseded_by__isnull=True, provenance__extractor="local"
    )
    if counter.redo is not None:
        ids = [c.id[:255] for c in conversations]
        rows = rows.exclude(pk__in=[i for same in counter.redo.targets.values() for i in same])
        rows = rows.exclude(
            state=MemoryState.TRASHED,
            provenance__source=source,
            provenance__conversation_id__in=ids,
        )
    said = list(rows.order_by("created_at").values_list("id", "text"))
    # Vectors of the extractor's model, whatever model the user's own vectors are in (a store
    # moving to another one: memories/search/moves.py).
    vectors = moves.vectors_of(
        user.pk, current_model(), [i for i, _ in said], [text for _, text in said]
    )
    for (memory_id, text), vector in zip(said, vectors, strict=True):
        index.add(memory_id, text, vector)
    return index


def import_local(
    writer: Actor, source: str, conversations: Sequence[Conversation], counter: Counter
) -> None:
    """Like `_import_messages`, but a window's messages go through the local extractor (in the
    worker thread) and only what it keeps is written, repeats counted on the earlier memory."""
    extractor = local_extractor()
    said = _said_before(writer.user, source, conversations, counter)
    pipelined(
        (
            plans_of(writer, source, window, counter, examine=True)
            for window in windows_of(_oldest_first(conversations))
        ),
        # Each message with its conversation and title: a later message's "it" or "her name
        # is ..." is read against the earlier ones, a short answer against the assistant's
        # question before it.
        lambda plans: extractor.extract(
            [
                Turn(
                    m.text, p.conversation.id, p.conversation.title, p.conversation.asked_before(m)
                )
                for p in plans
                for m in p.messages
            ]
        ),
        lambda plans, kept: _write_local_window(writer, source, plans, kept, said, counter),
        thread="import-extract",
    )


def _write_local_window(
    writer: Actor,
    source: str,
    plans: list[Plan],
    extracted: list[list[Kept]],
    said: RepeatIndex[uuid.UUID],
    counter: Counter,
) -> None:
    offset = 0
    for plan in plans:
        kept = extracted[offset : offset + len(plan.messages)]
        offset += len(plan.messages)
        new: list[tuple[uuid.UUID, str, Any]] = []
        write = partial(_write_kept, writer, source, plan, kept, said, new)
        if commit(writer, source, plan, counter, write):
            said.extend(new)  # only once committed
            counter.run.messages_examined += len(plan.messages)
            counter.run.messages_kept += sum(1 for k in kept if k)


def _write_kept(
    writer: Actor,
    source: str,
    plan: Plan,
    kept: Sequence[list[Kept]],
    said: RepeatIndex[uuid.UUID],
    new: list[tuple[uuid.UUID, str, Any]],
) -> tuple[int, int]:
    """One conversation's kept memories: new ones created (appended to `new` for the index),
    repeats counted on the memory they repeat. Returns (created, already known or repeated)."""
    c = plan.conversation
    items: list[NewMemory] = []
    vectors: list[Any] = []
    here: RepeatIndex[int] = RepeatIndex()  # this conversation's new memories, by item index
    repeats: dict[uuid.UUID, list[dict[str, Any]]] = {}
    repeats_here: dict[int, list[dict[str, Any]]] = {}
    repeated = 0
    for message, memories in zip(plan.messages, kept, strict=True):
        provenance = {**message_provenance(source, c, message), "extractor": "local"}
        for k in memories:
            place = {key: provenance[key] for key in _PLACE}
            # A later message's clause joined to a memory kept earlier here holds it whole:
            # one memory, in the earlier one's place ("I run three times a week; mostly easy").
            at = extended([e.text for e in items], k.text)
            earlier = said.find(k.text, k.vector) if at is None else None
            item = here.find(k.text, k.vector) if earlier is None and at is None else None
            if earlier is not None:
                repeats.setdefault(earlier, []).append(place)
            elif item is not None:
                repeats_here.setdefault(item, []).append(place)
            if earlier is not None or item is not None:
                repeated += 1
                continue
            when = message.created_at or c.created_at
            own = {**provenance, "excerpt": excerpt(message.text, k.text)}
            at = len(items) if at is None else at
            here.add(at, k.text, k.vector)
            items[at : at + 1] = [NewMemory(text=k.text, provenance=own, created_at=when)]
            vectors[at : at + 1] = [k.vector]
    results = create_all(writer, items, vectors) if items else []
    for index, result in enumerate(results):
        if result.created:
            new.append((result.memory.id, result.memory.text, vectors[index]))
            if index in repeats_here:
                repeats.setdefault(result.memory.id, []).extend(repeats_here[index])
    memory_note_mentions(actor=writer, mentions=repeats)
    return len(new), len(results) - len(new) + repeated


_PLACE = ("source", "conversation_id", "message_id", "message_created_at")
