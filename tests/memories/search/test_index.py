"""The in-memory search index and its per-app masks (`memories/search/index.py`): a node whose
cache went through deletes, VACUUM, adds, an eviction and a re-read answers exactly what a node
that never cached anything answers, and a store that does not fit `SEARCH_CACHE_MB` is searched
in PostgreSQL, never read in full at every search."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor, actor_for
from accounts.models import ALL_SCOPES, ConnectedApp, User
from memories.models import SearchStats
from memories.search import index as search_index
from memories.search.user_index import predicted_bytes
from memories.selectors.memories import memory_search
from memories.services import adding, changing, deleting
from memories.services.trash import trash_delete_forever

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
    created = [adding.memory_create(actor=owner_dash, text=t).memory for t in ORDINARY]
    for text in HEALTH:
        memory = adding.memory_create(actor=owner_dash, text=text).memory
        changing.memory_set_categories(actor=owner_dash, memory_id=memory.id, categories=["health"])
    default_app = _app(owner, "default grant")  # health is sensitive: hidden from it
    health_app = _app(owner, "health grant", categories=["health"])
    query = "medical condition"
    assert _answer(default_app, query, limit=3, min_score=0)  # index read, its mask remembered

    # Deletes for good, VACUUM (the freed slots are reused), adds: the refreshed index appends
    # the new rows, a full read finds them where the old ones were.
    for memory in created[:4]:
        deleting.memory_delete(actor=owner_dash, memory_id=memory.id)
    trash_delete_forever(actor=owner_dash, everything=True)
    with connection.cursor() as cur:
        cur.execute("VACUUM memories_memory")
    for i in range(4):
        adding.memory_create(actor=owner_dash, text=f"Bakes sourdough bread, batch {i}")
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


def _wordy_store(owner: User, memories: int, words: int) -> None:
    """`memories` memories of `words` distinct made-up words each (about 7 KB of text): few
    memories, many postings. Straight into the table: no model needed for the lexical arm."""
    rng = random.Random(owner.pk)
    letters = "bcdfghjklmnpqrstvwxz"
    with connection.cursor() as cur:
        for n in range(memories):
            text = " ".join("".join(rng.choices(letters, k=6)) for _ in range(words))
            text = f"Lisbon trip notes {n}: {text}"
            cur.execute(
                """
                INSERT INTO memories_memory (id, owner_id, text, text_key, embedding_model, tsv,
                    state, categories, categories_set_by_user, is_private, hidden_from, origin,
                    origin_app_name, provenance, metadata, created_at, updated_at)
                VALUES (%s, %s, %s, md5(%s), '', to_tsvector('english', %s), 'active', '{}',
                        false, false, '{}', 'app', 'raw', '{}', '{}', now(), now())
                """,
                [uuid.uuid4(), owner.pk, text, text, text],
            )


def _reads() -> Any:
    return mock.patch.object(search_index, "_read", wraps=search_index._read)


@pytest.mark.django_db
def test_a_store_bigger_than_the_cache_is_searched_in_postgresql_not_read_at_every_search(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    """Issue 24 item 4. Sixty memories of a thousand distinct words each: 1.3 MB of index, where
    the old admission (about fifteen postings a memory) reckoned 111 KB. Under SEARCH_CACHE_MB=1
    the index was read in full at every search and never kept."""
    _wordy_store(owner, memories=60, words=1000)
    settings.SEARCH_CACHE_MB = 0  # the cache off: PostgreSQL's answer
    expected = [_answer(owner_dash, q, min_score=0) for q in ("Lisbon trip", "notes 7")]

    settings.SEARCH_CACHE_MB = 1
    with _reads() as reads:
        answers = [_answer(owner_dash, q, min_score=0) for q in ("Lisbon trip", "notes 7")]
        answers += [_answer(owner_dash, "Lisbon trip", min_score=0)]
    assert answers == [*expected, expected[0]]
    assert reads.call_count == 0  # admitted by its real size: none
    assert search_index.current().indexes.items() == []

    settings.SEARCH_CACHE_MB = 4  # it fits: read once, then kept
    with _reads() as reads:
        for _ in range(3):
            assert _answer(owner_dash, "Lisbon trip", min_score=0) == expected[0]
    assert reads.call_count == 1
    ((_, index),) = search_index.current().indexes.items()
    assert 1024 * 1024 < index.nbytes < 4 * 1024 * 1024


@pytest.mark.django_db
def test_the_index_is_accounted_at_its_real_size(owner: User, owner_dash: Actor) -> None:
    """What admission reckons from the user's statistics is what the index holds: every array
    of the index, postings included."""
    _wordy_store(owner, memories=5, words=300)
    adding.memory_create(actor=owner_dash, text="Prefers aisle seats on long flights")
    _answer(owner_dash, "Lisbon")
    ((_, index),) = search_index.current().indexes.items()
    arrays = [v for v in vars(index).values() if hasattr(v, "nbytes")]
    assert index.nbytes == sum(a.nbytes for a in arrays)
    stats = SearchStats.objects.get(owner=owner)
    assert predicted_bytes(stats.documents, stats.length) == index.nbytes


@pytest.mark.django_db
def test_a_store_that_its_apps_echoes_push_over_the_budget_is_read_once_then_searched_in_sql(
    owner: User, owner_dash: Actor
) -> None:
    """The statistics count the owner's memories, not apps' echoes: an index that the echoes
    take past the budget is read once, and its echoes' size remembered, so the next search goes
    to PostgreSQL without reading it again."""
    _wordy_store(owner, memories=3, words=200)
    secret = adding.memory_create(actor=owner_dash, text=HEALTH[0]).memory
    changing.memory_set_categories(actor=owner_dash, memory_id=secret.id, categories=["health"])
    app = _app(owner, "default grant")
    assert adding.memory_create(actor=app, text=HEALTH[0]).memory.echo_of_id == secret.id
    stats = SearchStats.objects.get(owner=owner)
    room = predicted_bytes(stats.documents, stats.length) + 100  # but no echo
    expected = _answer(owner_dash, "Lisbon trip medical", min_score=0)  # the full budget
    search_index.clear()
    with mock.patch.object(search_index, "budget_bytes", return_value=room), _reads() as reads:
        for _ in range(3):
            assert _answer(owner_dash, "Lisbon trip medical", min_score=0) == expected
    assert reads.call_count == 1
    assert search_index.current().indexes.items() == []
