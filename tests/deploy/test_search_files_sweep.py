"""Two machines: this test process (node A) and a gunicorn worker with a search folder of its own
(node B) that never answers a search. An erase on A removes A's file at once; B's copy goes
within B's sweep interval (SEARCH_CACHE_SWEEP_SECONDS, the promised bound), because B's sweeper
starts with the worker, not at its first search. Measured before the fix (issue 39, item 4): the
file stayed 80 s and more, until some other user's search on B."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.test import override_settings

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import SearchSnapshot
from memories.search import index as search_index
from memories.search import snapshot_files
from memories.services.erasure import user_erase
from tests.deploy.gunicorn_server import gunicorn_on_test_database
from tests.memories.snapshot_answers import TEXTS, store

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

SWEEP = 2  # node B's SEARCH_CACHE_SWEEP_SECONDS here (30 as shipped)
SLACK = 5  # a sweep's own time on a busy machine


def _gone_within(path: Path, seconds: float) -> float | None:
    """How long `path` took to disappear, or None if it outlived `seconds`."""
    start = time.monotonic()
    while path.exists():
        if time.monotonic() - start > seconds:
            return None
        time.sleep(0.05)
    return time.monotonic() - start


def test_a_node_that_never_searched_removes_an_erased_users_file_within_its_sweep(
    owner: User, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_index, "SNAPSHOT_MIN_MEMORIES", 1)
    search_index.clear()
    store(owner_actor(owner), TEXTS)  # node A: the snapshot row and A's file
    mine = snapshot_files.folder(owner.pk)
    assert mine is not None and (mine / "index.snap").exists()

    # Node B held a copy of the same snapshot before it restarted (a deploy, a recycled worker).
    node_b = tmp_path / "node-b-search"
    row = SearchSnapshot.objects.get(owner=owner)
    with override_settings(SEARCH_SNAPSHOT_DIR=str(node_b)):
        assert snapshot_files.write(owner.pk, row.generation, row.written_at, bytes(row.data))
        theirs = snapshot_files.folder(owner.pk)
    assert theirs is not None and theirs.parent.parent == node_b
    stray = theirs.parent / "99999999"  # a file where a user's folder should be
    stray.write_bytes(b"not a folder")

    with gunicorn_on_test_database(
        SEARCH_SNAPSHOT_DIR=str(node_b), SEARCH_CACHE_SWEEP_SECONDS=str(SWEEP)
    ):
        # B sweeps from its start: the stray entry goes, the current file stays.
        assert _gone_within(stray, SWEEP + SLACK + 60) is not None, "B never swept"
        time.sleep(2 * SWEEP)
        assert (theirs / "index.snap").exists(), "B removed a file that is still current"

        user_erase(actor=owner_actor(owner))  # on node A, committed
        assert not mine.exists()  # A's own file: at once
        took = _gone_within(theirs, SWEEP + SLACK)
        assert took is not None, f"B kept the erased user's file longer than {SWEEP + SLACK} s"
    print(f"\nnode B removed the erased user's file {took:.2f} s after the erase (bound {SWEEP} s)")
