"""Abuse limits: per client on MCP, per user or token on the API; 429 with Retry-After."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from django.test import Client

from accounts.models import User
from tests.mcpbridge.mcp_clients import INIT, JSON, McpHttp
from tests.personas import issue_token, signed_in


@pytest.mark.django_db(transaction=True)
def test_mcp_requests_past_the_rate_get_429_with_retry_after_per_client(
    owner: User, mcp_for: Callable[..., McpHttp], server_url: str, settings: Any
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "mcp": "3/h"}
    limited = mcp_for(owner, name="chatty")
    other = mcp_for(owner, name="quiet")
    headers = {**JSON, "authorization": f"Bearer {limited.token}"}
    statuses = [httpx2.post(f"{server_url}/mcp", json=INIT, headers=headers) for _ in range(4)]
    assert [r.status_code for r in statuses[:3]] == [200, 200, 200]
    assert statuses[3].status_code == 429
    assert 0 < int(statuses[3].headers["retry-after"]) <= 3600
    assert statuses[3].json()["error"] == "rate_limited"
    quiet = {**JSON, "authorization": f"Bearer {other.token}"}
    assert httpx2.post(f"{server_url}/mcp", json=INIT, headers=quiet).status_code == 200


def test_api_calls_past_the_rate_get_429_with_retry_after(owner: User, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "api": "2/h"}
    issued = issue_token(owner, name="script", scopes=["read"])
    client = Client(headers={"Authorization": f"Bearer {issued.secret}"})
    assert [client.get("/api/v1/memories").status_code for _ in range(2)] == [200, 200]
    refused = client.get("/api/v1/memories")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert 0 < int(refused["Retry-After"]) <= 3600
    browser = signed_in(owner)
    assert browser.get("/api/v1/memories").status_code == 200  # the session has its own budget


@pytest.mark.django_db(transaction=True)
def test_many_clients_of_one_user_share_the_users_mcp_budget(
    owner: User, stranger: User, mcp_for: Callable[..., McpHttp], server_url: str, settings: Any
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "mcp": "100/h", "mcp_user": "3/h"}
    clients = [mcp_for(owner, name=f"client {n}") for n in range(4)]
    statuses = [
        httpx2.post(
            f"{server_url}/mcp", json=INIT, headers={**JSON, "authorization": f"Bearer {c.token}"}
        ).status_code
        for c in clients
    ]
    assert statuses == [200, 200, 200, 429]
    theirs = mcp_for(stranger, name="someone else")
    headers = {**JSON, "authorization": f"Bearer {theirs.token}"}
    assert httpx2.post(f"{server_url}/mcp", json=INIT, headers=headers).status_code == 200


def test_many_api_tokens_of_one_user_share_the_users_budget(
    owner: User, stranger: User, settings: Any
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "api": "100/h", "api_user": "3/h"}
    tokens = [
        issue_token(
            owner,
            name=f"script {n}",
            scopes=["read"],
        ).secret
        for n in range(4)
    ]
    statuses = [
        Client(headers={"Authorization": f"Bearer {t}"}).get("/api/v1/memories").status_code
        for t in tokens
    ]
    assert statuses == [200, 200, 200, 429]
    theirs = issue_token(
        stranger,
        name="theirs",
        scopes=["read"],
    ).secret
    other = Client(headers={"Authorization": f"Bearer {theirs}"})
    assert other.get("/api/v1/memories").status_code == 200
