"""One connected app per OAuth client name + redirect origins, not one per registration.

Claude and Claude Code register a new client on every connect; each used to become its own app.
`oauth_client_key` (accounts/oauth_clients.py) names what re-registrations have in common.
"""

from django.db import migrations, models
from django.utils import timezone

from accounts.oauth_clients import client_key_from


def forwards(apps, schema_editor):
    """Key every live OAuth app; of several live apps with one key (the pile-up), the newest
    stays and the others are ended: their tokens now speak for the one that stays."""
    ConnectedApp = apps.get_model("accounts", "ConnectedApp")
    Client = apps.get_model("allauth_idp_oidc", "Client")
    seen: set[tuple[int, str]] = set()
    live = ConnectedApp.objects.filter(kind="oauth", revoked_at=None).exclude(oauth_client_id="")
    for app in live.order_by("-created_at", "-pk"):
        client = Client.objects.filter(id=app.oauth_client_id).first()
        if client is None:
            continue
        uris = [u.strip() for u in client.redirect_uris.split("\n") if u.strip()]
        key = client_key_from(client.name or "", uris)
        if (app.owner_id, key) in seen:
            app.revoked_at = timezone.now()
            app.save(update_fields=["revoked_at"])
            continue
        seen.add((app.owner_id, key))
        app.oauth_client_key = key
        app.save(update_fields=["oauth_client_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_grant_hidden_categories"),
        ("allauth_idp_oidc", "0003_client_allow_uri_wildcards"),
    ]

    operations = [
        migrations.AddField(
            model_name="connectedapp",
            name="oauth_client_key",
            field=models.CharField(blank=True, max_length=1000),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="connectedapp",
            constraint=models.UniqueConstraint(
                condition=models.Q(("kind", "oauth"), ("revoked_at__isnull", True))
                & ~models.Q(("oauth_client_key", "")),
                fields=("owner", "oauth_client_key"),
                name="connectedapp_unique_live_oauth_key",
            ),
        ),
    ]
