"""allauth policy: who may sign up on a self-hosted server."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        from accounts.models import User

        policy = settings.SIGNUP_POLICY
        if policy == "open":
            return True
        if policy == "auto":
            # The first account may be created from the browser; after that the door is closed.
            return not User.objects.exists()
        return False
