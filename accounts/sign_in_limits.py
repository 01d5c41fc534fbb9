"""Failed sign-ins: limits that slow a guesser without letting anyone lock the owner out.

allauth's default counts failures per client address and per e-mail address; five wrong
passwords for your address in five minutes, from anywhere, and even your right one is refused.
Here:

- **Per client address** (`login_failed_ip`): always. A guesser's own addresses are throttled.
- **Per e-mail address**, with back-off (`login_failed_address`: a few in minutes, more in an
  hour, more in a day), only for browsers that never completed a sign-in to that account.
- **A known device** (a browser holding a signed cookie from an earlier complete sign-in,
  second factor and all) is counted on its own (`login_failed_device`) instead: what strangers
  do to the address never blocks it.
- **A second factor passes the address lock.** Past the per-address limit, a right password for
  an account with a second factor goes on to the second step (which has its own limit per
  user): the password alone opens nothing there. Anything else past the limit gets the same
  "too many attempts", right password or wrong, existing account or not.

A person without a second factor, on a new device, while their address is under attack, waits
for the window to pass or resets their password (the reset clears the address's count).
"""

from __future__ import annotations

import secrets
from typing import Any

from allauth.core.internal import ratelimit
from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponseBase

from accounts.models import User

APP = "contextlayer.sign_in"
COOKIE = "cl_known_device"
_SALT = "contextlayer.known-device"
_MAX_AGE = 180 * 86400  # a device unused for this long is a stranger again
_KEPT = 5  # accounts remembered per browser


def _config() -> dict[str, str]:
    return dict(settings.SIGN_IN_LIMITS)


def _known(request: HttpRequest) -> list[list[Any]]:
    """[user id, device id] pairs this browser earned by signing in, newest first."""
    raw = request.COOKIES.get(COOKIE, "")
    if not raw:
        return []
    try:
        pairs = signing.loads(raw, salt=_SALT, max_age=_MAX_AGE)
    except signing.BadSignature:
        return []
    return [p for p in pairs if isinstance(p, list) and len(p) == 2][:_KEPT]


def known_device(request: HttpRequest, address: str) -> str | None:
    """This browser's device id for the account with `address`, if it signed in to it before."""
    pairs = _known(request)
    if not pairs or not address:
        return None
    user_id = User.objects.filter(email__iexact=address).values_list("pk", flat=True).first()
    return next((str(device) for uid, device in pairs if uid == user_id), None)


def remember_device(request: HttpRequest, response: HttpResponseBase, user: Any) -> None:
    """After a complete sign-in: this browser is a known device of `user` from now on."""
    pairs = [p for p in _known(request) if p[0] != user.pk]
    device = next((d for uid, d in _known(request) if uid == user.pk), secrets.token_urlsafe(16))
    value = signing.dumps([[user.pk, device], *pairs][:_KEPT], salt=_SALT)
    response.set_cookie(
        COOKIE,
        value,
        max_age=_MAX_AGE,
        httponly=True,
        secure=settings.SESSION_COOKIE_SECURE,
        samesite="Lax",
    )


class Attempt:
    """One sign-in attempt's counts, taken before the password is checked."""

    def __init__(self, request: HttpRequest, address: str) -> None:
        self.request = request
        self.address = address.strip().lower()
        self.device = known_device(request, self.address)
        self.usages: list[Any] = []
        self.over_ip = not self._consume("login_failed_ip", None)
        if self.device is not None:
            self.over_account = not self._consume("login_failed_device", f"device:{self.device}")
        else:
            self.over_account = not self._consume("login_failed_address", self.address)

    def _consume(self, action: str, key: str | None) -> bool:
        usage = ratelimit.consume(self.request, app=APP, action=action, config=_config(), key=key)
        if usage:
            self.usages.append(usage)
        return bool(usage)

    def may_try(self) -> bool:
        """Whether the password is worth checking at all: not from a throttled client address,
        nor from a known device past its own limit (only a stranger's browser can pass the
        address lock, with a second factor)."""
        return not self.over_ip and not (self.over_account and self.device is not None)

    def allows(self, user: Any, *, has_second_factor: bool) -> bool:
        """Whether this attempt may go on, now that the password check gave `user` (or None)."""
        if self.over_ip:
            return False
        if not self.over_account:
            return True
        return user is not None and has_second_factor and self.device is None

    def succeeded(self) -> None:
        """A right password costs nothing (allauth does the same): roll the counts back."""
        for usage in self.usages:
            usage.rollback()


def forget_failures(request: HttpRequest, address: str) -> None:
    """A password reset proves the mailbox: the address's count starts again."""
    ratelimit.clear(
        request,
        app=APP,
        action="login_failed_address",
        config=_config(),
        key=address.strip().lower(),
    )
