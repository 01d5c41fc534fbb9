from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and connected apps"

    def ready(self) -> None:
        from accounts.admin import replace_allauth_admins

        replace_allauth_admins()  # allauth's admins show TOTP secrets and session keys
