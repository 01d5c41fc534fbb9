"""A user's search generation only grows, in the order writes commit, even when writes wait for
each other: a process that read the user's memories between two commits brings its index up to
date from the change log, and finds what the later commit wrote (issue 24 item 3)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import psycopg
import pytest
from django.db import connection, transaction

from accounts.actors import Actor
from accounts.models import User
from memories.models import SearchStats
from memories.search import index as search_index
from memories.selectors.memories import memory_search
from memories.services import adding, changing


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    search_index.clear()
    yield
    search_index.clear()


def _generation(owner: User) -> int:
    return int(SearchStats.objects.get(owner=owner).generation)


def _waits_for_a_lock(pid: int) -> bool:
    with connection.cursor() as cur:
        cur.execute("SELECT count(*) FROM pg_locks WHERE pid = %s AND NOT granted", [pid])
        return bool(cur.fetchone()[0])


def _texts(owner_dash: Actor, query: str) -> set[str]:
    return {
        h.memory.text
        for h in memory_search(actor=owner_dash, query=query, limit=20, min_score=0, record=False)
    }


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("write", ["create", "update"])
def test_a_write_that_waited_for_the_statistics_row_is_found_by_every_process(
    owner: User, owner_dash: Actor, write: str
) -> None:
    """T2 holds the user's statistics row (a first write) while T1's write waits in the trigger;
    T2 writes once more and commits; another process searches between T2's commit and T1's; T1
    commits. T1's generation must be above T2's last, and that process must find T1's memory."""
    first = adding.memory_create(actor=owner_dash, text="Walks the dog along the canal").memory
    other = adding.memory_create(actor=owner_dash, text="Keeps bees in the orchard").memory
    node = search_index.SearchCache()  # another server process
    with search_index.serving(node):
        assert _texts(owner_dash, "canal dog")

    t1: Callable[[], object]
    if write == "create":

        def t1() -> object:
            return adding.memory_create(actor=owner_dash, text="Collects vintage harmonicas")

    else:

        def t1() -> object:
            return changing.memory_update(
                actor=owner_dash, memory_id=other.id, text="Collects vintage harmonicas"
            )

    pid: list[int] = []
    written, commit, failed = threading.Event(), threading.Event(), []

    def writer() -> None:
        try:
            connection.ensure_connection()
            pid.append(connection.connection.info.backend_pid)
            with transaction.atomic():
                t1()
                written.set()
                assert commit.wait(60)
        except BaseException as exc:  # reported by the test below
            failed.append(exc)
            written.set()
        finally:
            connection.close()

    t2 = psycopg.connect(**connection.get_connection_params())
    try:
        touch = "UPDATE memories_memory SET tsv = tsv WHERE owner_id = %s AND id = %s"
        t2.execute(touch, [owner.pk, first.id])  # T2 holds the statistics row
        thread = threading.Thread(target=writer)
        thread.start()
        deadline = time.monotonic() + 60  # a bound for a loaded machine, not a speed test
        while not (pid and _waits_for_a_lock(pid[0])) and time.monotonic() < deadline:
            assert not written.is_set(), failed or "T1 did not wait for T2"
            time.sleep(0.02)
        assert _waits_for_a_lock(pid[0]), "T1 never reached the statistics row"
        t2.execute(touch, [owner.pk, first.id])  # T2's second generation
        t2.commit()
    finally:
        t2.close()
    assert written.wait(60) and not failed, failed
    t2_generation = _generation(owner)
    with search_index.serving(node):  # between the two commits: T2's state is read
        assert "Collects vintage harmonicas" not in _texts(owner_dash, "vintage harmonicas")
    commit.set()
    thread.join(60)
    assert not failed, failed

    assert _generation(owner) > t2_generation
    with search_index.serving(node):
        assert "Collects vintage harmonicas" in _texts(owner_dash, "vintage harmonicas")
