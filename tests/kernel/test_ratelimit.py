import threading
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from kernel.env import Rate, env_rate, parse_rate
from kernel.ratelimit import Leases, hit


def test_rates_parse_and_bad_ones_fail_loudly() -> None:
    assert parse_rate("120/m") == Rate(limit=120, period=60)
    assert parse_rate("5/10s") == Rate(limit=5, period=10)
    for bad in ("", "ten/m", "5/x", "0/m", "5"):
        with pytest.raises(ImproperlyConfigured):
            parse_rate(bad)


@pytest.mark.django_db
def test_calls_over_the_limit_are_refused_with_a_retry_after() -> None:
    rate = Rate(limit=3, period=3600)
    decisions = [hit("mcp", "client-a", rate=rate) for _ in range(4)]
    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert 0 < decisions[-1].retry_after <= 3600
    assert hit("mcp", "client-b", rate=rate).allowed, "another key has its own budget"


@pytest.mark.django_db(transaction=True)
def test_concurrent_workers_share_one_count() -> None:
    rate = Rate(limit=10, period=3600)
    allowed: list[bool] = []
    lock = threading.Lock()

    def worker() -> None:
        try:
            for _ in range(5):
                decision = hit("api", "shared", rate=rate)
                with lock:
                    allowed.append(decision.allowed)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(allowed) == 20
    assert allowed.count(True) == 10


def test_a_bad_rate_in_the_environment_fails_at_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RATE_LIMIT_MCP", "lots")
    with pytest.raises(ImproperlyConfigured, match="RATE_LIMIT_MCP"):
        env_rate("RATE_LIMIT_MCP", "240/m")
    monkeypatch.setenv("RATE_LIMIT_MCP", "30/s")
    assert env_rate("RATE_LIMIT_MCP", "240/m") == "30/s"


@pytest.mark.django_db
def test_a_worker_spends_its_block_from_memory_and_two_workers_never_pass_the_limit(
    settings: Any, django_assert_num_queries: Any
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "mcp": "64/h"}  # blocks of 4
    first, second = Leases(), Leases()  # two worker processes' memories
    counters = [("mcp", "app:busy")]
    assert first.take(counters).allowed  # one statement takes a block of 4
    with django_assert_num_queries(0):
        assert [first.take_local(counters) for _ in range(4)] == [True, True, True, False]
    admitted = 4
    for n in range(120):
        worker = first if n % 3 else second
        if worker.take_local(counters) or worker.take(counters).allowed:
            admitted += 1
    refused = second.take(counters)
    assert not refused.allowed and 0 < refused.retry_after <= 3600
    # Never more than the limit; fewer only by what the two may still hold unspent.
    assert 64 - 2 * 3 <= admitted <= 64
