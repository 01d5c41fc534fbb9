"""Oversized bodies get 413 at every door: /mcp (declared or streamed), the REST API (JSON and
the import upload) and dashboard forms, over real HTTP against the ASGI app under uvicorn."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx2
import pytest
from django.test import Client

from accounts.models import User
from memories.models import Memory
from tests.personas import issue_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

RPC = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


@pytest.fixture
def token(owner: User) -> str:
    scopes = ["memories:read", "memories:write"]
    return issue_token(owner, name="Big sender", scopes=scopes).secret


def _add_memory(text: str) -> bytes:
    return (
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add_memory", '
        b'"arguments": {"text": "' + text.encode() + b'"}}}'
    )


def test_mcp_refuses_a_body_over_its_limit_whether_declared_or_streamed(
    server_url: str, token: str, settings: Any
) -> None:
    settings.MCP_MAX_BODY_BYTES = 10_000
    headers = {**RPC, "authorization": f"Bearer {token}", "mcp-protocol-version": "2025-06-18"}
    body = _add_memory("x" * 20_000)

    declared = httpx2.post(f"{server_url}/mcp", content=body, headers=headers)
    assert declared.status_code == 413
    assert "MCP_MAX_BODY_BYTES" in declared.json()["error_description"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: read until the limit, then refuse
        for at in range(0, len(body), 4096):
            yield body[at : at + 4096]

    streamed = httpx2.post(f"{server_url}/mcp", content=chunks(), headers=headers)
    assert streamed.status_code == 413
    assert not Memory.objects.exists()

    fits = httpx2.post(f"{server_url}/mcp", content=_add_memory("Small enough"), headers=headers)
    assert fits.status_code == 200 and not fits.json()["result"]["isError"]


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/api/v1/memories", "application/json"),
        ("/api/v1/imports", "multipart/form-data; boundary=x"),
        ("/import/", "multipart/form-data; boundary=x"),
        ("/memories/add/", "application/x-www-form-urlencoded"),
    ],
)
def test_a_body_larger_than_any_view_accepts_is_413_before_django_reads_it(
    server_url: str, token: str, settings: Any, path: str, content_type: str
) -> None:
    settings.IMPORT_MAX_UPLOAD_BYTES = 1000
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = b"x" * (1024 * 1024 + 2000)  # over the largest body plus multipart slack
    response = httpx2.post(
        f"{server_url}{path}",
        content=body,
        headers={"content-type": content_type, "authorization": f"Bearer {token}"},
    )
    assert response.status_code == 413
    if path.startswith("/api/"):
        assert response.json()["error"]["code"] == "too_large"


@pytest.fixture
def signed_in(owner: User) -> Callable[[], Client]:
    def make() -> Client:
        client = Client()
        client.force_login(owner)
        return client

    return make


def test_a_dashboard_form_over_the_data_upload_limit_is_413_not_400(
    signed_in: Callable[[], Client], settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = signed_in().post("/memories/add/", {"text": "x" * 5000})
    assert response.status_code == 413
    assert not Memory.objects.exists()
    ok = signed_in().post("/memories/add/", {"text": "Short enough to keep"})
    assert ok.status_code in (200, 302)
    assert Memory.objects.filter(text="Short enough to keep").exists()
