"""The REST API under /api/v1/: one NinjaAPI, one router per app, one error shape.

Adding a capability is one line in ROUTERS: a router module's `router`, mounted at its prefix.
"""

from __future__ import annotations

from ninja import NinjaAPI, Router
from ninja.operation import Operation

from accounts.api import router as apps_router
from accounts.api_auth import API_AUTH
from activity.api import events_router
from kernel.api_errors import install_error_handlers
from memories.api.memories import categories_router, proposals_router, trash_router
from memories.api.memories import router as memories_router
from memories.api.transfer import erase_router, export_router, imports_router

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

# Operation ids (what API clients generate code from) are named after the module a route lives in;
# these kept the names they had before the routes moved (ARCHITECTURE.md, "The tree").
_OPERATION_ID_MODULES = {
    "memories.api.memories": "memories.api",
    "activity.api": "memories.api",
    "memories.api.transfer": "memories.api_transfer",
}


class _Api(NinjaAPI):
    def get_openapi_operation_id(self, operation: Operation) -> str:
        module = operation.view_func.__module__
        module = _OPERATION_ID_MODULES.get(module, module)
        return f"{module}_{operation.view_func.__name__}".replace(".", "_")


api = _Api(
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
