"""Fixtures of the OAuth tests: a Client ID Metadata Document server, and empty rate-limit
counters for every test (the whole app on a free port, `live_url`, is in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.accounts.oauth_client import CALLBACK
from tests.oauth.cimd_server import MetadataServer, document_app, tls_files
from tests.servers import start_server


@pytest.fixture
def metadata_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MetadataServer]:
    """A client identified by a metadata document over real TLS (a trustme CA), as Claude and
    ChatGPT do: no registration request, the AS fetches the document."""
    cert, key = tls_files(tmp_path, monkeypatch, "127.0.0.1")
    document: dict[str, Any] = {}
    live = start_server(document_app(document), ssl_certfile=cert, ssl_keyfile=key, lifespan="off")
    server = MetadataServer(url=live.url, live=live, document=document)
    document.update(
        client_id=server.client_id,
        client_name="Metadata Client",
        redirect_uris=[CALLBACK],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )
    try:
        yield server
    finally:
        live.server.should_exit = True
        live.thread.join(timeout=10)


@pytest.fixture(autouse=True)
def _fresh_rate_limits(fresh_rate_limits: None) -> None:
    """Every test here starts with empty rate-limit counters (tests/conftest.py)."""
