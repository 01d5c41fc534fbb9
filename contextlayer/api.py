"""The REST API under /api/v1/: one NinjaAPI, one router per app, one error shape.

Adding a capability is one line in ROUTERS: a router module's `router`, mounted at its prefix.
"""

from __future__ import annotations

from ninja import NinjaAPI, Router

from accounts.api import router as apps_router
from contextlayer.api_auth import API_AUTH
from contextlayer.api_errors import install_error_handlers
from memories.api import categories_router, events_router, proposals_router, trash_router
from memories.api import router as memories_router
from memories.api_transfer import erase_router, export_router, imports_router

ROUTERS: tuple[tuple[str, Router], ...] = (
    ("/memories", memories_router),
    ("/categories", categories_router),
    ("/apps", apps_router),
    ("/access-events", events_router),
    ("/trash", trash_router),
    ("/proposals", proposals_router),
    ("/imports", imports_router),
    ("/export", export_router),
    ("/erase", erase_router),
)

api = NinjaAPI(
    title="Context Layer API",
    version="1",
    description=(
        "Your memory store over HTTP. Authenticate with the browser session (send the CSRF token "
        "on unsafe methods) or `Authorization: Bearer <token>`. Errors are "
        '`{"error": {"code", "message", "field"}}`.'
    ),
    auth=API_AUTH,
    urls_namespace="api-v1",
    docs_url="/docs",
    openapi_url="/openapi.json",
)
install_error_handlers(api)
for prefix, router in ROUTERS:
    api.add_router(prefix, router)
