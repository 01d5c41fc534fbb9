"""The `vector` type is read once per database connection (`memories/services/batch_insert.py`,
`_vector_type`): a write on a new connection reads it again, and every memory keeps the vector its
text was embedded to, whatever order writes and reconnections come in."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from django.db import connection
from psycopg.types import TypeInfo

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import Memory
from memories.search.embeddings import get_embedder
from memories.services import adding, batch_insert

pytestmark = pytest.mark.django_db(transaction=True)


class _Counted:
    """`TypeInfo` as the service sees it, counting its catalogue reads."""

    reads = 0

    @classmethod
    def fetch(cls, conn: Any, name: str) -> TypeInfo | None:
        cls.reads += 1
        return TypeInfo.fetch(conn, name)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_connection_reads_the_vector_type_once_and_every_write_keeps_its_vector(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    monkeypatch.setattr(batch_insert, "TypeInfo", _Counted)
    _Counted.reads = 0
    actor = owner_actor(User.objects.create_user(f"cache{seed}@example.com", "a long passphrase"))
    rng = random.Random(seed)
    written: dict[Any, str] = {}
    segments_with_writes = 0
    wrote_here = False
    for step in range(20):
        if rng.random() < 0.35:
            connection.close()  # the next query opens a new connection
            wrote_here = False
            continue
        pet = rng.choice(["bees", "ferrets", "orchids", "snails"])
        text = f"Note {seed}-{step}: I look after {rng.randint(2, 40)} {pet} at home."
        written[adding.memory_create(actor=actor, text=text).memory.id] = text
        if not wrote_here:
            segments_with_writes += 1
            wrote_here = True

    assert _Counted.reads == segments_with_writes
    embedder = get_embedder()
    for memory in Memory.objects.filter(id__in=written):
        expected = embedder.embed([written[memory.id]])[0]
        stored = np.asarray(memory.embedding, dtype=np.float32)
        assert float(stored @ expected) > 0.999, written[memory.id]
