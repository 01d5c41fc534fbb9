"""What each gunicorn worker keeps in memory between calls stays within its bounds across
processes: a revoked or paused app is refused within `CREDENTIAL_CACHE_SECONDS` (1 s, the
default) of the change made in another process, and the rate limit holds for the workers
together although each counts from its own share (kernel/ratelimit.py, `Leases`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx2
import pytest

from accounts.actors import owner_actor
from accounts.client_tokens import client_token_revoke
from accounts.models import ClientToken, User
from accounts.services import app_set_paused
from tests.deploy.gunicorn_server import Gunicorn, gunicorn_on_test_database, mcp_search
from tests.personas import issue_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

BOUND = 1.0  # seconds: CREDENTIAL_CACHE_SECONDS as shipped
LIMIT = 64  # calls an hour per client: 4 calls a block, so the workers really count in memory


@pytest.fixture(scope="module")
def two_workers(django_db_setup: None, django_db_blocker: Any) -> Iterator[Gunicorn]:
    with (
        django_db_blocker.unblock(),
        gunicorn_on_test_database(WEB_CONCURRENCY="2", RATE_LIMIT_MCP=f"{LIMIT}/h") as server,
    ):
        yield server


def burst(url: str, token: str, calls: int) -> list[httpx2.Response]:
    """Calls at once from several connections, so both workers answer some of them."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(lambda n: mcp_search(url, token, n), range(calls)))


def test_a_revoked_token_is_refused_by_every_worker_within_the_bound(
    two_workers: Gunicorn, owner: User
) -> None:
    issued = issue_token(owner, name="revoked soon")
    assert {r.status_code for r in burst(two_workers.url, issued.secret, 16)} == {200}
    client_token_revoke(actor=owner_actor(owner), token=issued.token.prefix)
    revoked_at = time.monotonic()
    time.sleep(max(0.0, revoked_at + BOUND - time.monotonic()))
    assert {r.status_code for r in burst(two_workers.url, issued.secret, 16)} == {401}


def test_a_paused_app_is_refused_by_every_worker_within_the_bound(
    two_workers: Gunicorn, owner: User
) -> None:
    issued = issue_token(owner, name="paused soon")
    answers = burst(two_workers.url, issued.secret, 16)
    assert all(not r.json()["result"]["isError"] for r in answers)
    app_id = ClientToken.objects.get(pk=issued.token.pk).app_id
    app_set_paused(actor=owner_actor(owner), app_id=app_id, paused=True)
    paused_at = time.monotonic()
    time.sleep(max(0.0, paused_at + BOUND - time.monotonic()))
    answers = burst(two_workers.url, issued.secret, 16)
    assert all(r.json()["result"]["isError"] for r in answers)
    assert all("paused" in r.json()["result"]["content"][0]["text"] for r in answers)


def test_the_workers_together_admit_no_more_than_the_limit(
    two_workers: Gunicorn, owner: User
) -> None:
    issued = issue_token(owner, name="busy client")
    statuses = [r.status_code for r in burst(two_workers.url, issued.secret, LIMIT + 24)]
    admitted = statuses.count(200)
    assert set(statuses) == {200, 429}
    # Never more than the limit; fewer only by what the two workers may still hold unspent (a
    # block of 4 each, less the call that took it).
    assert LIMIT - 2 * 3 <= admitted <= LIMIT
