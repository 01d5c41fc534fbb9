"""The machine's search files through real gunicorn workers: every worker maps a user's snapshot
from the one file a search left (not a copy each), new workers after a reload map it too, and an
erase run by another process of the machine removes it; within the sweep no worker still maps it
(the vectors leave every worker's memory, not only the disk)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from accounts.actors import owner_actor
from accounts.models import User
from memories.search import snapshot_files
from memories.search.index import SNAPSHOT_MIN_MEMORIES
from memories.services.adding import NewMemory, memory_create_many
from memories.services.erasure import user_erase
from tests.deploy.gunicorn_server import Gunicorn, gunicorn_on_test_database, mcp_search
from tests.personas import issue_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

SWEEP = 1  # seconds between the workers' sweeps here (30 as shipped)


@pytest.fixture(scope="module")
def two_workers(django_db_setup: None, django_db_blocker: Any) -> Iterator[Gunicorn]:
    """Two workers on this machine, sharing this test process's snapshot folder."""
    with (
        django_db_blocker.unblock(),
        gunicorn_on_test_database(
            WEB_CONCURRENCY="2",
            SEARCH_SNAPSHOT_DIR=settings.SEARCH_SNAPSHOT_DIR,
            SEARCH_CACHE_SWEEP_SECONDS=str(SWEEP),
            # Bursts until both workers answered: no client or user limit in the way.
            RATE_LIMIT_MCP="100000/m",
            RATE_LIMIT_MCP_USER="100000/m",
        ) as server,
    ):
        yield server


def _until(check: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def _mapping(pid: int, path: Path) -> bool:
    """Whether the process maps `path` (also once it was removed: "(deleted)")."""
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except FileNotFoundError:
        return False
    return str(path) in maps


def _burst(server: Gunicorn, token: str) -> bool:
    """Searches from many connections at once, so that each worker answers some."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        for r in pool.map(
            lambda n: mcp_search(server.url, token, n, "which colour is the kite"), range(16)
        ):
            assert r.status_code == 200 and not r.json()["result"]["isError"]
    return True


def test_every_worker_maps_the_one_file_and_an_erase_takes_it_from_all(
    two_workers: Gunicorn, owner: User
) -> None:
    colours = ["red", "blue", "green", "amber", "violet"]
    items = [
        NewMemory(text=f"Kite number {n} is {colours[n % 5]} with a tail of {n} ribbons")
        for n in range(SNAPSHOT_MIN_MEMORIES)
    ]
    memory_create_many(actor=owner_actor(owner), items=items)
    token = issue_token(owner, name="Claude").secret
    folder = snapshot_files.folder(owner.pk)
    assert folder is not None
    snapshot = folder / "index.snap"

    _burst(two_workers, token)  # a full read, then the row and the file
    assert _until(snapshot.exists, 30), "no worker wrote the user's file"

    # New workers, as after a deploy or a recycling: both map the same file.
    os.kill(two_workers.pid, signal.SIGHUP)
    old = set(two_workers.workers())
    assert _until(lambda: not (set(two_workers.workers()) & old), 60)  # the old ones gone
    assert _until(lambda: len(two_workers.workers()) == 2, 60)
    workers = set(two_workers.workers())
    mapped = _until(
        lambda: _burst(two_workers, token) and all(_mapping(pid, snapshot) for pid in workers), 60
    )
    assert mapped, "a worker read its own copy instead of mapping the machine's file"
    assert any(folder.glob("*.mask"))  # the app's mask of the file's rows, kept beside it

    user_erase(actor=owner_actor(owner))  # in this process, on the same machine
    assert not folder.exists()
    assert _until(lambda: not any(_mapping(pid, snapshot) for pid in workers), 5 * SWEEP + 5), (
        "a worker still maps the erased user's vectors"
    )
