"""The admin has no sign-in door of its own: /admin/login/ leads to allauth's sign-in, so the
second factor and the failed-sign-in limit hold there too (issue 14, item 2)."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import TOTP
from django.core.cache import cache
from django.test import Client

from accounts.models import User
from tests.accounts.totp_clock import TotpClock

pytestmark = pytest.mark.django_db

PASSWORD = "operator password"
SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    cache.clear()


@pytest.fixture
def operator_with_totp(db: None) -> User:
    operator = User.objects.create_superuser("admin@example.com", PASSWORD)
    TOTP.activate(operator, SECRET)
    assert Authenticator.objects.filter(user=operator, type=Authenticator.Type.TOTP).exists()
    return operator


def _signed_in(browser: Client) -> bool:
    """Signed in means the session opens the dashboard and the admin, whatever door gave it."""
    return browser.get("/apps/").status_code == 200 and browser.get("/admin/").status_code == 200


def test_the_password_alone_at_admin_login_gives_no_session_to_a_totp_user(
    operator_with_totp: User,
) -> None:
    browser = Client()
    browser.post(
        "/admin/login/?next=/admin/",
        {"username": operator_with_totp.email, "password": PASSWORD},
    )
    assert not _signed_in(browser)


def test_admin_login_sends_the_operator_through_allauth_and_the_second_factor(
    operator_with_totp: User, totp_clock: TotpClock
) -> None:
    browser = Client()
    r = browser.get("/admin/")
    assert r.status_code == 302 and r["Location"].startswith("/admin/login/")
    r = browser.get(r["Location"])
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/?next=")
    login_url = r["Location"]
    r = browser.post(login_url, {"login": operator_with_totp.email, "password": PASSWORD})
    assert r.status_code == 302 and r["Location"].startswith("/accounts/2fa/authenticate/")
    assert not _signed_in(browser)
    code = totp_clock.code(SECRET)
    page = browser.post("/accounts/2fa/authenticate/", {"code": code}, follow=True)
    assert page.status_code == 200
    assert page.redirect_chain[-1][0] == "/admin/"  # back where the operator was going
    assert _signed_in(browser)


@pytest.mark.parametrize(
    ("entry_point", "field"), [("/accounts/login/", "login"), ("/admin/login/", "username")]
)
def test_fifteen_wrong_passwords_lock_the_right_one_out_at_every_entry_point(
    entry_point: str, field: str
) -> None:
    """A guesser gets no more tries at the admin than at the sign-in page: after fifteen wrong
    passwords in a row, even the right one opens no session."""
    User.objects.create_superuser("admin@example.com", PASSWORD)
    browser = Client()
    for attempt in range(15):
        browser.post(entry_point, {field: "admin@example.com", "password": f"guess {attempt}"})
    browser.post(entry_point, {field: "admin@example.com", "password": PASSWORD})
    assert not _signed_in(browser)
