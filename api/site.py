"""The REST API under /api/v1/: one NinjaAPI, one router per subject, one error shape.

Adding a capability is one line in ROUTERS: a router module's `router`, mounted at its prefix.
"""

from __future__ import annotations

from ninja import NinjaAPI, Router
from ninja.operation import Operation

from accounts.api_auth import API_AUTH
from api.access_events import events_router
from api.apps import router as apps_router
from api.categories import categories_router
from api.memories import router as memories_router
from api.profile import profile_router
from api.review import proposals_router
from api.search import search_router
from api.transfer import erase_router, export_router, imports_router
from api.trash import trash_router
from api.versions import versions_router
from kernel.api_errors import install_error_handlers

ROUTERS: tuple[tuple[str, Router], ...] = (
    # /search and /profile before /{memory_id}, which would take them.
    ("/memories", search_router),
    ("/memories", profile_router),
    ("/memories", memories_router),
    ("/memories", versions_router),
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
# these keep the names they had before the routes moved into api/ (tests/api/openapi_ids.json).
_OPERATION_ID_MODULES = {
    "api.memories": "memories.api",
    "api.search": "memories.api",
    "api.profile": "memories.api",
    "api.versions": "memories.api",
    "api.categories": "memories.api",
    "api.trash": "memories.api",
    "api.review": "memories.api",
    "api.access_events": "memories.api",
    "api.transfer": "memories.api_transfer",
    "api.apps": "accounts.api",
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
