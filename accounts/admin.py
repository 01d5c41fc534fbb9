"""Admin for operators: connected apps, and allauth's models shown without a secret (the
users' list, with memory counts and last activity, is registered by memories/admin.py).

The operator is a custodian: actions go through the service layer as the owner's `cli` app with
the operator named, so the owner's access log shows who did it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, ClassVar

from django.apps import apps
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from accounts import services, sign_in_state
from accounts.actors import Actor, owner_actor
from accounts.models import ConnectedApp, User
from kernel.errors import DomainError
from kernel.tenancy import cross_tenant


def operator_actor(request: HttpRequest, owner: User) -> Actor:
    """The owner's `cli` app, acted through by this admin user (recorded as the actor)."""
    operator = getattr(request.user, "email", "") or str(request.user)
    return owner_actor(owner, ConnectedApp.CLI, operator=f"admin:{operator}")


_OPERATOR = "the operator's admin (staff only) works across users by design"


class OperatorAdmin(admin.ModelAdmin):
    """Admin pages look across tenants, so each view runs (and renders) inside cross_tenant;
    its actions still go through the service layer as the owner's app."""

    def _across(self, view: Callable[..., HttpResponse], *args: Any, **kwargs: Any) -> Any:
        with cross_tenant(_OPERATOR):
            response = view(*args, **kwargs)
            if isinstance(response, TemplateResponse):
                response.render()  # lazy querysets are evaluated here, still inside the block
            return response

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        return self._across(super().changelist_view, request, extra_context)

    def changeform_view(self, *args: Any, **kwargs: Any) -> Any:
        return self._across(super().changeform_view, *args, **kwargs)

    def delete_view(self, *args: Any, **kwargs: Any) -> Any:
        return self._across(super().delete_view, *args, **kwargs)

    def history_view(self, *args: Any, **kwargs: Any) -> Any:
        return self._across(super().history_view, *args, **kwargs)


@admin.register(ConnectedApp)
class ConnectedAppAdmin(OperatorAdmin):
    list_display = ("name", "kind", "owner", "scopes", "paused", "last_seen_at", "revoked_at")
    list_filter = ("kind", "paused", ("revoked_at", admin.EmptyFieldListFilter))
    search_fields = ("name", "owner__email", "oauth_client_id")
    list_select_related = ("owner",)
    readonly_fields = (
        "owner",
        "kind",
        "name",
        "scopes",
        "categories",
        "hidden_categories",
        "sees_uncategorised",
        "paused",
        "oauth_client_id",
        "oauth_client_key",
        "created_at",
        "last_seen_at",
        "revoked_at",
    )
    actions = ("pause_apps", "resume_apps", "revoke_apps")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # revoke instead: it keeps the audit trail

    def _apply(self, request: HttpRequest, queryset: QuerySet[ConnectedApp], verb: str) -> None:
        done = 0
        for app in queryset.select_related("owner"):
            actor = operator_actor(request, app.owner)
            try:
                if verb == "revoke":
                    services.app_revoke(actor=actor, app_id=app.pk)
                else:
                    services.app_set_paused(actor=actor, app_id=app.pk, paused=verb == "pause")
            except DomainError as exc:
                self.message_user(request, f"{app}: {exc.message}", messages.WARNING)
                continue
            done += 1
        self.message_user(request, f"{verb.capitalize()}d {done} app(s).", messages.SUCCESS)

    @admin.action(description="Pause selected apps")
    def pause_apps(self, request: HttpRequest, queryset: QuerySet[ConnectedApp]) -> None:
        self._apply(request, queryset, "pause")

    @admin.action(description="Resume selected apps")
    def resume_apps(self, request: HttpRequest, queryset: QuerySet[ConnectedApp]) -> None:
        self._apply(request, queryset, "resume")

    @admin.action(description="Revoke selected apps")
    def revoke_apps(self, request: HttpRequest, queryset: QuerySet[ConnectedApp]) -> None:
        self._apply(request, queryset, "revoke")


# --- allauth's own models: never a credential an operator could use or make ------------------
# allauth registers these with every field shown and editable: an Authenticator's `data` holds
# the TOTP secret and recovery-code seed in clear, a UserSession's `session_key` is the user's
# session cookie, a Token row is a bearer credential the operator could mint (any hash, any
# user, any client), a Client's callbacks and `skip_consent` decide where codes go, and an
# EmailAddress is where a password reset is sent. Each would let the operator become the user.
# Here they are read-only lists of what they are for (never a secret, hash or key); the only
# change an operator may make on a user's request is removing a lost authenticator or ending a
# session, through the audited services (accounts/sign_in_state.py). Revoking an app's tokens is
# the connected app's "Revoke" action (audited too).


class _NoSecretsAdmin(OperatorAdmin):
    """Shown fields only, read-only, filtered only by them; removable only when `remove` names
    the audited service that removes such rows on the owner's request."""

    remove: ClassVar[str] = ""  # "authenticators" or "sessions"

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.fields or ()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the change page is a view (Django's view permission), with no Save

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(self.remove) and super().has_delete_permission(request, obj)

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        field = lookup.split("__", 1)[0]
        return field in (self.fields or ()) and super().lookup_allowed(lookup, value, request)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        self.delete_queryset(request, self.model._default_manager.filter(pk=obj.pk))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        by_user: dict[User, list[Any]] = defaultdict(list)
        for row in queryset.select_related("user"):
            by_user[row.user].append(row.pk)
        for user, ids in by_user.items():
            actor = operator_actor(request, user)
            if self.remove == "authenticators":
                sign_in_state.authenticators_remove(actor=actor, authenticator_ids=ids)
            elif self.remove == "sessions":
                sign_in_state.sessions_end(actor=actor, session_ids=ids)


class AuthenticatorAdmin(_NoSecretsAdmin):
    fields = ("user", "type", "created_at", "last_used_at")
    list_display = fields
    list_filter = ("type",)
    list_select_related = ("user",)
    remove = "authenticators"  # a user who lost their phone asks the operator to remove it


class UserSessionAdmin(_NoSecretsAdmin):
    fields = ("user", "created_at", "last_seen_at", "ip", "user_agent")
    list_display = fields
    list_select_related = ("user",)
    search_fields = ("user__email", "ip")
    remove = "sessions"  # signs that browser out


class TokenAdmin(_NoSecretsAdmin):
    fields = ("user", "client", "type", "scopes", "created_at", "expires_at")
    list_display = fields
    list_filter = ("type",)
    list_select_related = ("user", "client")


class ClientAdmin(_NoSecretsAdmin):
    fields = ("name", "id", "type", "skip_consent", "redirect_uris", "scopes", "created_at")
    list_display = ("name", "id", "type", "skip_consent", "created_at")
    list_filter = ("type", "skip_consent")
    search_fields = ("id", "name")


class EmailAddressAdmin(_NoSecretsAdmin):
    fields = ("email", "user", "primary", "verified")
    list_display = fields
    list_filter = ("primary", "verified")
    list_select_related = ("user",)
    search_fields = ("email", "user__email")


def replace_allauth_admins() -> None:
    """Called from AccountsConfig.ready(), after the admin has imported allauth's own."""
    for app, model, admin_class in (
        ("allauth.mfa", "mfa.Authenticator", AuthenticatorAdmin),
        ("allauth.usersessions", "usersessions.UserSession", UserSessionAdmin),
        ("allauth.idp.oidc", "allauth_idp_oidc.Token", TokenAdmin),
        ("allauth.idp.oidc", "allauth_idp_oidc.Client", ClientAdmin),
        ("allauth.account", "account.EmailAddress", EmailAddressAdmin),
    ):
        if apps.is_installed(app):
            registered = apps.get_model(model)
            if admin.site.is_registered(registered):
                admin.site.unregister(registered)
            admin.site.register(registered, admin_class)
