"""Static files through the ASGI application, as `serve` and gunicorn's workers serve them."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

from asgiref.testing import ApplicationCommunicator
from django.core.asgi import get_asgi_application


async def _get(path: str) -> tuple[int, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
    }
    app = ApplicationCommunicator(get_asgi_application(), scope)
    await app.send_input({"type": "http.request", "body": b"", "more_body": False})
    start: dict[str, Any] = await app.receive_output(10)
    body = b""
    while True:
        message = await app.receive_output(10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await app.wait(10)
    return start["status"], body


def test_a_static_file_is_served_over_asgi_without_the_sync_iterator_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status, body = asyncio.run(_get("/static/css/app.css"))
    assert status == 200 and b"Context Layer dashboard" in body
    assert [str(w.message) for w in caught if "iterator" in str(w.message)] == []
