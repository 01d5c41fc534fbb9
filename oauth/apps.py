from django.apps import AppConfig
from django.db.models.signals import pre_save


class OAuthConfig(AppConfig):
    """The OAuth authorization server; its tables (grants, rotated tokens) stay in accounts."""

    name = "oauth"
    verbose_name = "OAuth authorization server"

    def ready(self) -> None:
        from allauth.idp.oidc.models import Client

        from oauth.oidc import widen_cimd_client

        pre_save.connect(widen_cimd_client, sender=Client, dispatch_uid="widen_cimd_client")
