"""The in-memory search index and its per-app masks (`memories/search_index.py`): a node whose
cache went through deletes, VACUUM, adds, an eviction and a re-read answers exactly what a node
that never cached anything answers, and a store that does not fit `SEARCH_CACHE_MB` is searched
in PostgreSQL, never read in full at every search."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from accounts.actors import Actor, actor_for
from accounts.models import ALL_SCOPES, ConnectedApp, User
from memories import search_index, services
from memories.selectors import memory_search
from memories.trash import trash_delete_forever

ORDINARY = [
    "Walks the dog along the canal before breakfast",
    "Keeps the spare key under the blue flowerpot",
    "Prefers aisle seats on long flights",
    "Learning the cello on Tuesday evenings",
    "Buys oat milk from the corner shop",
    "Plays five-a-side football on Thursdays",
    "Reads crime novels on the train to work",
    "Grows tomatoes and basil on the balcony",
]
HEALTH = [
    "Has a medical condition that needs a daily tablet",
    "Sees a specialist about the medical condition every March",
    "The medical condition flares up in cold weather",
]


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    search_index.clear()
    yield
    search_index.clear()


def _app(owner: User, name: str, **grant: Any) -> Actor:
    app = ConnectedApp.objects.create(
        owner=owner, kind=ConnectedApp.Kind.TOKEN, name=name, scopes=list(ALL_SCOPES), **grant
    )
    return actor_for(owner, app)


def _answer(actor: Actor, query: str, **options: Any) -> list[tuple[str, float]]:
    hits = memory_search(actor=actor, query=query, record=False, **options)
    return [(h.memory.text, round(h.score, 9)) for h in hits]


def _fresh_node_answer(actor: Actor, query: str, **options: Any) -> list[tuple[str, float]]:
    """What a node that never cached this user answers (its own cache, read in full)."""
    with search_index.serving(search_index.SearchCache()):
        return _answer(actor, query, **options)


@pytest.mark.django_db(transaction=True)
def test_a_mask_is_never_applied_to_an_index_read_again_in_another_row_order(
    owner: User, owner_dash: Actor
) -> None:
    """Issue 24 item 2. The default-grant app may not see the three health memories. Its mask
    was remembered for the index brought up to date (changed rows appended); that index was
    evicted, and another app's search read the store again in physical order at the same
    generation. The first app's next search must not pair the old mask with the new order."""
    created = [services.memory_create(actor=owner_dash, text=t).memory for t in ORDINARY]
    for text in HEALTH:
        memory = services.memory_create(actor=owner_dash, text=text).memory
        services.memory_set_categories(actor=owner_dash, memory_id=memory.id, categories=["health"])
    default_app = _app(owner, "default grant")  # health is sensitive: hidden from it
    health_app = _app(owner, "health grant", categories=["health"])
    query = "medical condition"
    assert _answer(default_app, query, limit=3, min_score=0)  # index read, its mask remembered

    # Deletes for good, VACUUM (the freed slots are reused), adds: the refreshed index appends
    # the new rows, a full read finds them where the old ones were.
    for memory in created[:4]:
        services.memory_delete(actor=owner_dash, memory_id=memory.id)
    trash_delete_forever(actor=owner_dash, everything=True)
    with connection.cursor() as cur:
        cur.execute("VACUUM memories_memory")
    for i in range(4):
        services.memory_create(actor=owner_dash, text=f"Bakes sourdough bread, batch {i}")
    before = _answer(default_app, query, limit=3, min_score=0)  # brought up to date

    key = search_index._key(owner.pk)
    search_index.current().indexes.forget(lambda k: k == key)  # evicted by another user's search
    _answer(health_app, query, limit=3, min_score=0)  # read again in full, same generation

    for limit in (1, 3, 10):
        assert _answer(default_app, query, limit=limit, min_score=0) == _fresh_node_answer(
            default_app, query, limit=limit, min_score=0
        ), limit
    assert _answer(default_app, query, limit=3, min_score=0) == before
    assert not {t for t, _ in _answer(default_app, query, limit=20, min_score=0)} & set(HEALTH)
