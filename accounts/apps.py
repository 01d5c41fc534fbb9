from django.apps import AppConfig
from django.db.models.signals import pre_save


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and connected apps"

    def ready(self) -> None:
        from allauth.idp.oidc.models import Client

        from accounts.admin import replace_allauth_admins
        from accounts.oidc import widen_cimd_client

        pre_save.connect(widen_cimd_client, sender=Client, dispatch_uid="widen_cimd_client")
        replace_allauth_admins()  # allauth's admins show TOTP secrets and session keys
