"""Users sign in by email; every way into a user's memory is a ConnectedApp."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils import timezone

from kernel.gates import SCOPE_DELETE, SCOPE_READ, SCOPE_WRITE
from kernel.tenancy import OwnedRow

ALL_SCOPES = (SCOPE_READ, SCOPE_WRITE, SCOPE_DELETE)
# How a scope reads to the owner: on the consent page, the grant form and the token form.
SCOPE_LABELS = {
    SCOPE_READ: "Read your memories",
    SCOPE_WRITE: "Add and change memories",
    SCOPE_DELETE: "Delete memories",
}
# What a new app gets unless the owner grants more (a client token, a stdio client): read and
# write, not delete. The owner's own apps have every scope.
DEFAULT_APP_SCOPES = (SCOPE_READ, SCOPE_WRITE)


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def _create(self, email: str, password: str | None, **extra: Any) -> User:
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create(email, password, **extra)

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra["is_staff"] = True
        extra["is_superuser"] = True
        return self._create(email, password, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    email = models.EmailField(unique=True)
    name = models.CharField(max_length=150, blank=True)
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)
    date_joined = models.DateTimeField(default=timezone.now)

    objects: ClassVar[UserManager] = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    def __str__(self) -> str:
        return self.email


class ConnectedApp(OwnedRow):
    """One way into one user's memory: a built-in app, a stdio client, a token client, OAuth.

    The row holds the grant (scopes and categories) and the pause switch, so every app can be
    paused, limited and audited the same way.
    """

    class Kind(models.TextChoices):
        BUILTIN = "builtin", "Built-in"
        STDIO = "stdio", "Local (stdio)"
        TOKEN = "token", "Client token"
        OAUTH = "oauth", "OAuth"
        IMPORT = "import", "Import"

    # Built-in apps used by the owner themself; they see everything the owner sees.
    DASHBOARD = "dashboard"
    API = "api"
    CLI = "cli"
    OWNER_APPS = (DASHBOARD, API, CLI)
    # Each export source writes through its own import app, named for people and reserved.
    IMPORT_NAMES: ClassVar[dict[str, str]] = {
        "claude": "Claude import",
        "chatgpt": "ChatGPT import",
        "contextlayer": "Context Layer import",
    }

    owner = models.ForeignKey(User, on_delete=models.CASCADE, related_name="connected_apps")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    name = models.CharField(max_length=120)
    scopes = ArrayField(models.CharField(max_length=32), default=list, blank=True)
    # The grant, as the owner ticked it (memories/visibility.py turns it into the rule):
    # `categories` were ticked, `hidden_categories` unticked; a memory in any unticked category is
    # hidden, and so is one in a sensitive category that was not ticked. A category created after
    # the grant is in neither list: hidden if sensitive, visible if not.
    categories = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    hidden_categories = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    sees_uncategorised = models.BooleanField(default=True)
    paused = models.BooleanField(default=False)
    # The owner reviews this app's adds, updates and deletes before they are saved: each becomes
    # a proposal on the Review page (memories/services/app_review.py). Off by default.
    review_writes = models.BooleanField(default=False, db_default=False)
    # The registration this app was last granted through, and the key (client name + redirect
    # origins, accounts/oauth_clients.py) that makes re-registrations of the same client this app.
    oauth_client_id = models.CharField(max_length=255, blank=True)
    oauth_client_key = models.CharField(max_length=1000, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["owner", "kind", "name"],
                condition=models.Q(revoked_at__isnull=True),
                name="connectedapp_unique_live_name",
            ),
            models.UniqueConstraint(
                fields=["owner", "oauth_client_key"],
                condition=models.Q(revoked_at__isnull=True, kind="oauth")
                & ~models.Q(oauth_client_key=""),
                name="connectedapp_unique_live_oauth_key",
            ),
        ]
        indexes: ClassVar = [models.Index(fields=["owner", "kind"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"

    @property
    def is_owner_app(self) -> bool:
        return self.kind == self.Kind.BUILTIN and self.name in self.OWNER_APPS

    @property
    def is_third_party(self) -> bool:
        """An OAuth client: it chose its own name, so every list marks it as someone else's."""
        return self.kind == self.Kind.OAUTH


class DisconnectedApp(OwnedRow):
    """A local (stdio) app the owner disconnected, by the name its command gives
    (`manage.py mcp --app NAME`): a client such as Claude Desktop relaunches that command by
    itself, so the name stays refused until the owner allows it again (on the Connected apps
    page, or with `--allow-again`). An erase disconnects every app and keeps these rows; they go
    with the account. Other kinds need no such row: their credentials die with the app."""

    owner = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=120)
    disconnected_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["owner", "name"], name="disconnectedapp_unique_name")
        ]

    def __str__(self) -> str:
        return f"{self.name} (disconnected)"


# Kinds the owner manages on the connected apps page (built-in apps are always theirs).
MANAGED_KINDS = (ConnectedApp.Kind.OAUTH, ConnectedApp.Kind.TOKEN, ConnectedApp.Kind.STDIO)


class ClientToken(OwnedRow):
    """A named, scoped secret for one client that sends `Authorization: Bearer` (Cursor, VS Code).

    Only a sha256 of the secret is stored; the secret is shown once. Each token is its own
    ConnectedApp (kind=token, named after the token), so it can be paused, limited and audited
    like every other app, and revoking the token revokes that app.
    """

    owner = models.ForeignKey(User, on_delete=models.CASCADE, related_name="client_tokens")
    app = models.ForeignKey(ConnectedApp, on_delete=models.CASCADE, related_name="client_tokens")
    name = models.CharField(max_length=120)
    prefix = models.CharField(max_length=16, db_index=True)  # shown in lists, accepted by revoke
    token_hash = models.CharField(max_length=64, unique=True)  # sha256 hex of the whole secret
    scopes = ArrayField(models.CharField(max_length=32), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes: ClassVar = [models.Index(fields=["owner", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_live(self) -> bool:
        if self.revoked_at is not None:
            return False
        return self.expires_at is None or self.expires_at > timezone.now()


class Invitation(models.Model):
    """A single-use sign-up link, for SIGNUP_POLICY=invite. Only the token's hash is stored."""

    token_hash = models.CharField(max_length=64, unique=True)
    email = models.EmailField(blank=True)  # when set, only this address may use the link
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"Invitation {self.pk} ({self.email or 'any address'})"

    @property
    def is_usable(self) -> bool:
        return self.used_at is None and self.expires_at > timezone.now()


class RotatedRefreshToken(models.Model):
    """A refresh token that was exchanged for a new one, remembered by hash (RFC 9700 §4.14.2).

    allauth deletes a refresh token when it rotates it, so a second use of it looks like any
    unknown token. Presented again, it means two parties hold the grant (the token was stolen,
    or leaked from the client): the token endpoint then revokes the whole grant. Rows go when
    the token would have expired, or when their grant has no token left (`oauth_cleanup`).
    """

    hash = models.CharField(max_length=255, unique=True)  # allauth's hash of the token value
    grant_id = models.CharField(max_length=64)
    client_id = models.CharField(max_length=255)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    rotated_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Rotated refresh token of grant {self.grant_id}"
