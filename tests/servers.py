"""Servers the tests start: a free loopback port, the test database's URL for a server started as
a subprocess, and an ASGI app under uvicorn in a thread of the test process (it reads the test
database through its own connections)."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from urllib.parse import quote

import uvicorn


def subprocess_database_url() -> str:
    """This run's test database (on the embedded server), for a server started as a subprocess."""
    from django.db import connection

    connection.ensure_connection()
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{quote(db['HOST'], safe='')}/{db['NAME']}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    url: str
    server: uvicorn.Server
    thread: threading.Thread


def start_server(
    app: object,
    port: int | None = None,
    host: str = "127.0.0.1",
    *,
    start_timeout: float = 30,
    **config: object,
) -> LiveServer:
    """`app` (an ASGI app or its import string) under uvicorn, started and answering."""
    port = port or free_port()
    cfg = uvicorn.Config(app, host=host, port=port, log_level="warning", **config)  # type: ignore[arg-type]
    server = uvicorn.Server(cfg)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    scheme = "https" if config.get("ssl_certfile") else "http"
    return LiveServer(url=f"{scheme}://{host}:{port}", server=server, thread=thread)


def start_whole_app() -> LiveServer:
    """The whole app (dashboard, API and MCP) under uvicorn, as `serve` runs it, with an MCP app
    of its own (the SDK's session manager runs once per instance, and other test packages may run
    the module's singleton). Static files are collected into this run's STATIC_ROOT first, before
    WhiteNoise (created with the ASGI handler) scans it."""
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)
    from contextlayer.asgi import build_application
    from mcpbridge.http import MCPHttpApp

    return start_server(build_application(MCPHttpApp()))


def stop_server(live: LiveServer) -> None:
    """Stop it and end the database connections its worker threads kept, so the test database
    can be flushed and dropped."""
    from django.db import connection

    live.server.should_exit = True
    live.thread.join(timeout=10)
    with connection.cursor() as cur:
        cur.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
