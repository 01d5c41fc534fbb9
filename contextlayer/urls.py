"""Every route prefix of the server, in one place.

In front of Django (contextlayer/asgi.py dispatches before any URLconf):
- `/mcp` and `/.well-known/oauth-protected-resource[/mcp]`: MCP over HTTP and its resource metadata
  (mcpbridge.http; the paths are kernel.origin's MCP_PATH and PRM_PATH);
- uploads (`/api/v1/imports`, `/import/`) and bodies over the size limit are answered first by
  contextlayer/body_limit.py, before Django spools them.

Django (below):
- `/health`, `/ready`: contextlayer.views; `/admin/`: the operator's admin;
- `/api/v1/`: the one NinjaAPI, its routers by prefix in api/site.py (ROUTERS);
- `/accounts/`: allauth (sign-in, second factors, passkeys, sessions);
- `/identity/o/...`, `/.well-known/oauth-authorization-server`, `/.well-known/openid-configuration`:
  the OAuth authorization server (oauth, around allauth's IdP);
- `/apps/`: the connected apps page (web.apps_urls);
- `/review/`: proposals held for review; the dashboard at `/` (web.urls).
"""

from allauth.account.decorators import secure_admin_login
from allauth.idp.oidc import views as oidc_views
from django.contrib import admin
from django.urls import include, path

from api.site import api
from contextlayer import views
from oauth import token_endpoint
from oauth import views as oauth_views
from oauth.client_registration import client_registration
from oauth.errors import oauth_not_found
from oauth.oidc import authorization_endpoint
from web.urls import review_urlpatterns

# The admin has no sign-in form of its own: /admin/login/ sends to allauth's, so the second factor,
# passkeys and the failed-sign-in limit hold at every entry point.
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("health", views.health, name="health"),
    path("ready", views.ready, name="ready"),
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("accounts/", include("allauth.urls")),
    path("review/", include(review_urlpatterns)),
    # OAuth 2.1 authorization server (allauth IdP). Our consent page and token wrapper come first
    # so they take allauth's paths; RFC 8414 metadata is the same document as OIDC discovery.
    path(
        "identity/o/authorize",
        authorization_endpoint(oauth_views.consent),
        name="oauth_authorize",
    ),
    path("identity/o/api/token", token_endpoint.token, name="oauth_token"),
    # Bounded metadata before allauth stores a registration (anyone may register).
    path("identity/o/api/clients", client_registration, name="oauth_client_registration"),
    path(".well-known/oauth-authorization-server", oidc_views.configuration),
    # No device grant is offered (nor advertised): its two allauth routes are not served.
    path("identity/o/api/device/code", oauth_not_found),
    path("identity/o/device", oauth_not_found),
    path("", include("allauth.idp.urls")),
    path("apps/", include("web.apps_urls")),
    path("", include("web.urls")),
]

# A form body over DATA_UPLOAD_MAX_MEMORY_SIZE is a 413, not a bare 400.
handler400 = "contextlayer.views.bad_request"
