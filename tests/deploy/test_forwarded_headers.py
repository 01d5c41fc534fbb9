"""X-Forwarded-For counts only from a configured proxy (issue 14, item 7): a client that invents
one per request is still one address to allauth's per-IP limits and in the access log."""

from __future__ import annotations

import random
import runpy
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from django.db import connection

from tests.deploy.gunicorn_server import ROOT, Gunicorn

REGISTRATION = {
    "client_name": "Spoofer",
    "redirect_uris": ["http://127.0.0.1:33418/callback"],
    "token_endpoint_auth_method": "none",
    "grant_types": ["authorization_code"],
    "response_types": ["code"],
}


def _invented() -> str:
    return ".".join(str(random.randint(1, 254)) for _ in range(4))


def _limit_counters() -> list[str]:
    """allauth's per-address registration counters (cache keys end with the address counted)."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT cache_key FROM contextlayer_cache WHERE cache_key LIKE %s",
            ["%:client_registration:%"],
        )
        return sorted(row[0] for row in cur.fetchall())


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(900)
def test_seventy_registrations_with_invented_addresses_are_limited_like_one_address(
    gunicorn: Gunicorn,
) -> None:
    """This client (127.0.0.1) is not the proxy the server trusts (tests/deploy/conftest.py)."""
    invented = [_invented() for _ in range(70)]

    def register(ip: str) -> int:
        headers = {"X-Forwarded-For": ip, "X-Real-IP": ip, "Forwarded": f"for={ip}"}
        url = f"{gunicorn.url}/identity/o/api/clients"
        return httpx.post(url, json=REGISTRATION, headers=headers, timeout=60).status_code

    with ThreadPoolExecutor(4) as pool:
        statuses = list(pool.map(register, invented))
    log = gunicorn.log_text()
    # Every registration was counted against the one real address, none against an invented one.
    assert _limit_counters() == [_limit_counters()[0]]
    assert _limit_counters()[0].endswith(":ip:127.0.0.1")
    assert statuses.count(201) == 60 and statuses.count(429) == 10
    assert "127.0.0.1" in log and not any(ip in log for ip in invented)


def test_by_default_only_a_proxy_on_this_machine_is_trusted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["forwarded_allow_ips"] == "127.0.0.1,::1"
    monkeypatch.setenv("TRUSTED_PROXIES", "10.0.0.2, 10.0.0.3")
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["forwarded_allow_ips"] == "10.0.0.2,10.0.0.3"


def test_compose_publishes_the_port_on_loopback_and_documents_the_proxy() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    assert '"127.0.0.1:${PORT:-8000}:8000"' in compose
    assert "TRUSTED_PROXIES" in compose
    assert "TRUSTED_PROXIES" in (ROOT / "docs" / "deploy.md").read_text()
