"""The search cache's sweep: a memory deleted, or a user erased, through another server process
leaves this process's in-memory index (vectors and lexeme keys) within seconds, not at its next
search for that user.

"Another process" is a write this process's cache does not hear of: the services' own hooks
(`search_index.forget` after an erase) run on commit, which a test's transaction never reaches,
and nothing else tells a cache that the table changed."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories.search import index as search_index
from memories.search.user_index import UserIndex
from memories.selectors.memories import memory_search
from memories.services import adding, deleting
from memories.services.erasure import user_erase

TEXTS = [
    "The spare key is under the blue flowerpot",
    "Allergic to penicillin since childhood",
    "Prefers aisle seats on long flights",
    "Learning the cello on Tuesday evenings",
]


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    search_index.clear()
    yield
    search_index.sweeper.stop()
    search_index.clear()


def _cached(owner: User) -> UserIndex | None:
    return search_index._indexes.get(search_index._key(owner.pk))


def _holds(owner: User, memory_id: uuid.UUID) -> bool:
    index = _cached(owner)
    return index is not None and index.row_of(memory_id) is not None


def _store(owner_dash: Actor) -> list[uuid.UUID]:
    ids = [adding.memory_create(actor=owner_dash, text=t).memory.id for t in TEXTS]
    assert memory_search(actor=owner_dash, query="spare key")  # the index is read and cached
    return ids


@pytest.mark.django_db
def test_a_memory_deleted_elsewhere_leaves_the_cache_at_the_next_sweep(
    owner: User, owner_dash: Actor
) -> None:
    key, *kept = _store(owner_dash)
    deleting.memory_delete(actor=owner_dash, memory_id=key)
    assert _holds(owner, key)  # no search since: the vector is still in this process

    assert search_index.sweep() == 1
    assert not _holds(owner, key)
    assert all(_holds(owner, m) for m in kept)  # brought up to date, not dropped
    assert search_index.sweep() == 0  # nothing changed since


@pytest.mark.django_db
def test_an_erase_elsewhere_drops_the_user_from_the_cache_at_the_next_sweep(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    ids = _store(owner_dash)
    _store(stranger_dash)
    user_erase(actor=owner_dash)
    assert all(_holds(owner, m) for m in ids)

    search_index.sweep()
    assert not any(_holds(owner, m) for m in ids)
    assert _cached(stranger) is not None  # another user's index is left alone


@pytest.mark.django_db(transaction=True)
def test_each_process_sweeps_on_its_own_every_few_seconds(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    settings.SEARCH_CACHE_SWEEP_SECONDS = 1
    key, *_ = _store(owner_dash)  # caching the index starts this process's sweeper
    deleting.memory_delete(actor=owner_dash, memory_id=key)
    assert _holds(owner, key)
    deadline = time.monotonic() + 60  # a generous bound for a loaded machine, not a speed test
    while _holds(owner, key) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _holds(owner, key)
