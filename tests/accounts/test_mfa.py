"""Two-factor sign-in: TOTP enrolment and a sign-in that needs the code."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from django.core.cache import cache
from django.test import Client as Browser

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def _code(secret: str) -> str:
    from allauth.mfa.totp.internal.auth import yield_hotp_counters_from_time

    return format_hotp_value(hotp_value(secret, next(yield_hotp_counters_from_time())))


def test_totp_enrolment_then_sign_in_needs_the_code(owner: User) -> None:
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
    r = browser.post("/accounts/2fa/totp/activate/", {"code": _code(secret)})
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
    ok = other.post("/accounts/2fa/authenticate/", {"code": _code(secret)})
    assert ok.status_code == 302
    assert other.get("/apps/").status_code == 200
