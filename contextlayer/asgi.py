"""One ASGI application: MCP at `/mcp` (and its OAuth metadata), Django for everything else.

Django's handler rejects lifespan scopes, so this dispatcher answers them itself and holds the MCP
session manager's task group open for as long as the server runs.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
os.environ["MEM0_TELEMETRY"] = "False"

from django.core.asgi import get_asgi_application

django_app = get_asgi_application()  # sets Django up before the MCP app imports models

from contextlayer import body_limit  # noqa: E402
from mcpbridge.http import MCPHttpApp  # noqa: E402


def build_application(mcp: MCPHttpApp) -> Any:
    """The dispatcher around one MCP app. An MCP session manager runs only once, so a process
    that serves twice (tests) builds a second application around a fresh MCPHttpApp."""

    async def application(scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "lifespan":
            message = await receive()  # lifespan.startup
            phase = "startup"
            try:
                async with mcp.lifespan():
                    await send({"type": "lifespan.startup.complete"})
                    phase = "shutdown"
                    while message["type"] != "lifespan.shutdown":
                        message = await receive()
            except Exception as exc:
                await send({"type": f"lifespan.{phase}.failed", "message": str(exc)})
                return
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] == "http" and MCPHttpApp.handles(scope["path"]):
            await mcp(scope, receive, send)
            return
        if scope["type"] == "http" and body_limit.declared_too_large(scope):
            await body_limit.refuse(scope, send)
            return
        if scope["type"] == "http" and await body_limit.refuse_upload(scope, send):
            return
        await django_app(scope, receive, send)

    return application


mcp_app = MCPHttpApp()
application = build_application(mcp_app)
