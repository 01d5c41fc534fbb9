"""One ASGI application: Django for pages and the API; MCP is dispatched here too (mcpbridge)."""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
os.environ["MEM0_TELEMETRY"] = "False"

from django.core.asgi import get_asgi_application

django_app = get_asgi_application()


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    if scope["type"] == "lifespan":
        # Django rejects lifespan scopes; acknowledge them here.
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await django_app(scope, receive, send)
