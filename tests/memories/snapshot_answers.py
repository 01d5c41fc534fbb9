"""The two answers every search snapshot test compares: what a process that does not hold the
user's index answers (from the snapshot or its file, if any), and what one answers that reads
every memory row."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
import pytest

from accounts.actors import Actor
from memories.models import Memory
from memories.search import index as search_index
from memories.search import snapshot as search_snapshot
from memories.selectors.memories import memory_search
from memories.services import adding

TEXTS = [
    "The spare key is under the blue flowerpot",
    "Allergic to penicillin since childhood",
    "Prefers aisle seats on long flights",
    "Learning the cello on Tuesday evenings",
    "Her sister Maya lives in Lisbon",
]


def cold_answer(actor: Actor, query: str) -> list[tuple[str, float]]:
    """What a process that does not hold the user's index answers: texts and scores."""
    with search_index.serving(search_index.SearchCache()):
        hits = memory_search(actor=actor, query=query, record=False)
    return [(h.memory.text, round(h.score, 9)) for h in hits]


def full_read_answer(actor: Actor, query: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """What a process answers that reads every memory row (no snapshot, none written)."""
    with monkeypatch.context() as m:
        m.setattr(search_snapshot, "read", lambda owner_id: None)
        m.setattr(search_index, "save_snapshot", lambda owner_id, index: False)
        return cold_answer(actor, query)


def store(actor: Actor, texts: list[str] = TEXTS) -> list[uuid.UUID]:
    """The texts as the actor's memories, then a cold search: a full read, which writes the
    snapshot (and this machine's file of it)."""
    ids = [adding.memory_create(actor=actor, text=t).memory.id for t in texts]
    cold_answer(actor, "spare key")
    return ids


def vector_bytes(memory_id: uuid.UUID) -> bytes:
    """The memory's vector as a snapshot lays it out."""
    embedding = Memory.objects.values_list("embedding", flat=True).get(pk=memory_id)
    return np.asarray(embedding, dtype="<f4").tobytes()
