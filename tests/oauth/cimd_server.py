"""An https server for Client ID Metadata Documents over real TLS (a trustme CA); the
`metadata_server` fixture (tests/accounts/conftest.py) runs one per test."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trustme

from tests.servers import LiveServer


@dataclass
class MetadataServer:
    """An https server for Client ID Metadata Documents; `document` is what it serves."""

    url: str
    live: LiveServer
    document: dict[str, Any] = field(default_factory=dict)

    @property
    def client_id(self) -> str:
        return f"{self.url}/oauth/client.json"


def document_app(document: dict[str, Any]) -> Any:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        found = scope["path"] == "/oauth/client.json"
        body = json.dumps(document).encode() if found else b"{}"
        await send(
            {
                "type": "http.response.start",
                "status": 200 if found else 404,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return app


def tls_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *names: str) -> tuple[str, str]:
    """A certificate for `names` from a test CA that the server's CIMD fetches (requests) trust."""
    ca = trustme.CA()
    cert = ca.issue_cert(*names)
    cert_file, key_file, ca_file = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    cert.private_key_and_cert_chain_pem.write_to_path(str(cert_file))
    cert.private_key_pem.write_to_path(str(key_file))
    ca.cert_pem.write_to_path(str(ca_file))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(ca_file))
    return str(cert_file), str(key_file)
