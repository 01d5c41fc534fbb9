from allauth.account.decorators import secure_admin_login
from allauth.idp.oidc import views as oidc_views
from django.contrib import admin
from django.urls import include, path

from accounts import token_endpoint
from accounts import views as account_views
from accounts.client_registration import client_registration
from accounts.oauth_errors import oauth_not_found
from accounts.oidc import authorization_endpoint
from contextlayer import views
from contextlayer.api import api
from memories.urls import review_urlpatterns

# The admin has no sign-in form of its own: /admin/login/ sends to allauth's, so the second factor,
# passkeys and the failed-sign-in limit hold at every door.
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
        authorization_endpoint(account_views.consent),
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
    path("", include("accounts.urls")),
    path("", include("memories.urls")),
]

# A form body over DATA_UPLOAD_MAX_MEMORY_SIZE is a 413, not a bare 400.
handler400 = "contextlayer.views.bad_request"
