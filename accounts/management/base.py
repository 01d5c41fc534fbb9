"""What every command run for one user shares: finding the user by email, and domain errors
turned into `CommandError` once (a clear message and exit status 1, never a traceback)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from kernel.errors import DomainError


class UserCommand(BaseCommand):
    # Django's system checks import every URL and view (the API, the admin, allauth): about a
    # second per command. `serve`, `migrate` and `check` still run them.
    requires_system_checks: list[str] = []

    def execute(self, *args: Any, **options: Any) -> str | None:
        try:
            return super().execute(*args, **options)
        except DomainError as exc:
            raise CommandError(exc.message) from None

    def user_by_email(self, email: str, *, active_only: bool = False) -> User:
        users = User.objects.filter(email__iexact=email.strip())
        if active_only:
            users = users.filter(is_active=True)
        user = users.first()
        if user is None:
            raise CommandError(
                f"No {'active ' if active_only else ''}user with the email {email!r}."
            )
        return user
