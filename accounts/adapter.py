"""allauth policy: who may sign up on a self-hosted server, and sign-in for operator-made users."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from accounts import invitations, sign_in_limits


def _invite_token(request: HttpRequest) -> str:
    """The invitation token from the link (?invite=…), remembered in the session across the form."""
    token = request.GET.get("invite", "")
    if token:
        request.session[invitations.SESSION_KEY] = token
        return token
    return str(request.session.get(invitations.SESSION_KEY, ""))


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        from accounts.models import User

        policy = settings.SIGNUP_POLICY
        if policy == "open":
            return True
        if policy == "auto":
            # The first account may be created from the browser; after that sign-up is closed.
            return not User.objects.exists()
        if policy == "invite":
            return invitations.invitation_lookup(_invite_token(request)) is not None
        return False

    def clean_email(self, email: str) -> str:
        email = super().clean_email(email)
        request = self.request
        if settings.SIGNUP_POLICY == "invite" and request is not None:
            invitation = invitations.invitation_lookup(_invite_token(request))
            if invitation is not None and not invitations.invitation_accepts(invitation, email):
                raise ValidationError(_("This invitation is for another email address."))
        return email

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        if settings.SIGNUP_POLICY != "invite" or not commit:
            return super().save_user(request, user, form, commit=commit)
        token = _invite_token(request)
        with transaction.atomic():
            user = super().save_user(request, user, form, commit=True)
            if not invitations.invitation_use(token=token, user=user):
                raise PermissionDenied("This invitation link was already used or has expired.")
        request.session.pop(invitations.SESSION_KEY, None)
        return user

    def get_reauthentication_methods(self, user: Any) -> list[dict[str, Any]]:
        # A user with a second factor confirms it is them with that factor: a session plus a
        # leaked password must not be enough to erase, delete the account or mint a token.
        # allauth's re-authentication views refuse (redirect away from) methods not listed here.
        methods = super().get_reauthentication_methods(user)
        second_factor = [m for m in methods if m["id"].startswith("mfa_reauthenticate")]
        return second_factor or methods

    def pre_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse | None:
        # An account made with `createsuperuser` has no allauth email record. The operator typed
        # the address on the server, so it counts as verified: mandatory verification must not lock
        # the operator out of their own instance.
        if user.is_superuser and not EmailAddress.objects.filter(user=user).exists():
            EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
        return super().pre_login(request, user, **kwargs)

    # --- failed sign-ins: limited without locking the owner out (accounts/sign_in_limits.py) ---

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        # Replaces allauth's count (per client address and per e-mail address, which anyone can
        # exhaust for someone else's address). Counted before the password is checked; whether
        # the attempt may go on is decided after, in `authenticate`.
        address = str(credentials.get("email") or credentials.get("username") or "")
        self._attempt = sign_in_limits.Attempt(request, address)
        if not self._attempt.may_try():  # no password is checked for a throttled guesser
            raise self.validation_error("too_many_login_attempts")

    def authenticate(self, request: HttpRequest, **credentials: Any) -> Any:
        from allauth.mfa.utils import is_mfa_enabled

        user = super().authenticate(request, **credentials)
        attempt: sign_in_limits.Attempt = self._attempt
        if not attempt.allows(user, has_second_factor=bool(user) and is_mfa_enabled(user)):
            raise self.validation_error("too_many_login_attempts")
        return user

    def _rollback_login_failed_rl_usage(self) -> None:
        # allauth calls this when the password was right.
        attempt = getattr(self, "_attempt", None)
        if attempt is not None:
            attempt.succeeded()

    def _delete_login_attempts_cached_email(self, request: HttpRequest, **credentials: Any) -> None:
        # allauth calls this after a password reset, for each of the user's addresses.
        sign_in_limits.forget_failures(request, str(credentials.get("email") or ""))

    def post_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse:
        # Signed in completely (second factor included): this browser is a known device.
        response = super().post_login(request, user, **kwargs)
        sign_in_limits.remember_device(request, response, user)
        return response
