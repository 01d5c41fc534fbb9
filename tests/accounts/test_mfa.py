"""Two-factor sign-in: TOTP enrolment and a sign-in that needs the code."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.core.cache import cache
from django.test import Client as Browser

from accounts.models import User
from tests.accounts.totp_clock import TotpClock

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def test_totp_enrolment_then_sign_in_needs_the_code(owner: User, totp_clock: TotpClock) -> None:
    browser = Browser()
    r = browser.post("/accounts/login/", {"login": owner.email, "password": PASSWORD})
    assert r.status_code == 302
    page = browser.get("/accounts/2fa/totp/activate/", follow=True)
    if page.redirect_chain:  # changing security settings asks for the password again
        page = browser.post(page.redirect_chain[-1][0], {"password": PASSWORD}, follow=True)
    assert page.status_code == 200
    secret = browser.session["mfa.totp.secret"]
    assert secret in page.content.decode()  # shown for manual entry next to the QR code
    wrong = browser.post("/accounts/2fa/totp/activate/", {"code": "000000"})
    assert wrong.status_code == 200 and not Authenticator.objects.filter(user=owner).exists()
    r = browser.post("/accounts/2fa/totp/activate/", {"code": totp_clock.code(secret)})
    assert r.status_code == 302
    assert Authenticator.objects.filter(user=owner, type=Authenticator.Type.TOTP).exists()
    assert Authenticator.objects.filter(user=owner, type=Authenticator.Type.RECOVERY_CODES).exists()

    # A new browser: the password alone is not enough.
    cache.clear()  # as if the 30-second window had passed: the same code may not be reused
    other = Browser()
    r = other.post("/accounts/login/", {"login": owner.email, "password": PASSWORD})
    assert r.status_code == 302 and r["Location"].startswith("/accounts/2fa/authenticate/")
    assert other.get("/apps/").status_code == 302
    bad = other.post("/accounts/2fa/authenticate/", {"code": "123456"})
    assert bad.status_code == 200 and other.get("/apps/").status_code == 302
    ok = other.post("/accounts/2fa/authenticate/", {"code": totp_clock.code(secret)})
    assert ok.status_code == 302
    assert other.get("/apps/").status_code == 200


def _second_factor(browser: Browser, user: User, code: str) -> bool:
    """Password, then `code` at allauth's second step: whether that opened a session."""
    r = browser.post("/accounts/login/", {"login": user.email, "password": PASSWORD})
    assert r.status_code == 302 and r["Location"].startswith("/accounts/2fa/authenticate/")
    browser.post("/accounts/2fa/authenticate/", {"code": code})
    return browser.get("/apps/").status_code == 200


def test_a_code_one_step_off_signs_in_once_and_never_again(
    owner: User, totp_clock: TotpClock
) -> None:
    """Issue 24 item 14: a code typed at a step boundary (the phone's clock a step behind or
    ahead of the server's) is accepted, as RFC 6238 §5.2 allows for one step of drift; a code
    two steps off is not, and no accepted code works a second time, in any browser."""
    secret = generate_totp_secret()
    TOTP.activate(owner, secret)
    for steps in (-1, 1):
        code = totp_clock.code(secret, steps)
        assert _second_factor(Browser(), owner, code), steps
        assert not _second_factor(Browser(), owner, code), f"{steps}: reused"
    for steps in (-2, 2):
        assert not _second_factor(Browser(), owner, totp_clock.code(secret, steps)), steps
    assert _second_factor(Browser(), owner, totp_clock.code(secret))
