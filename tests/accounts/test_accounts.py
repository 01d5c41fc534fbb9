"""Sign-up policy, invitations, email verification, password reset, operator-made accounts."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.management import call_command
from django.test import Client as Browser
from django.test import override_settings

from accounts.models import Invitation, User

pytestmark = pytest.mark.django_db

PASSWORD = "a long unusual passphrase 42"


def _signup(browser: Browser, email: str, path: str = "/accounts/signup/") -> int:
    page = browser.get(path)
    if page.status_code != 200 or 'name="email"' not in page.content.decode():
        return 403
    r = browser.post(
        "/accounts/signup/", {"email": email, "password1": PASSWORD, "password2": PASSWORD}
    )
    return 302 if r.status_code == 302 and User.objects.filter(email=email).exists() else 403


@override_settings(SIGNUP_POLICY="auto")
def test_auto_policy_opens_sign_up_only_for_the_first_account() -> None:
    assert _signup(Browser(), "first@example.com") == 302
    assert _signup(Browser(), "second@example.com") == 403
    assert not User.objects.filter(email="second@example.com").exists()


@override_settings(SIGNUP_POLICY="closed")
def test_closed_policy_refuses_sign_up_even_on_an_empty_server() -> None:
    assert _signup(Browser(), "first@example.com") == 403


@override_settings(SIGNUP_POLICY="open")
def test_open_policy_lets_anyone_sign_up(owner: User) -> None:
    assert _signup(Browser(), "new@example.com") == 302


@override_settings(SIGNUP_POLICY="invite")
def test_an_invitation_link_signs_up_once(owner: User) -> None:
    out = StringIO()
    call_command("invite", "--email", "guest@example.com", stdout=out)
    link = out.getvalue().strip()
    path = link.split("127.0.0.1:8000", 1)[1]
    assert _signup(Browser(), "guest@example.com") == 403  # no link: closed
    assert _signup(Browser(), "other@example.com", path) == 403  # link is for another address
    assert not User.objects.filter(email="other@example.com").exists()
    assert _signup(Browser(), "guest@example.com", path) == 302
    invitation = Invitation.objects.get()
    assert invitation.used_by == User.objects.get(email="guest@example.com")
    assert _signup(Browser(), "guest2@example.com", path) == 403  # used up
    used = Browser().get(path).content.decode()
    assert "already used" in used and "Sign Up Closed" not in used


def test_invite_says_which_origin_it_assumed(owner: User, monkeypatch: Any) -> None:
    monkeypatch.setenv("PORT", "8123")
    out, err = StringIO(), StringIO()
    call_command("invite", stdout=out, stderr=err)
    assert out.getvalue().startswith("http://127.0.0.1:8123/accounts/signup/?invite=")
    assert "--base-url" in err.getvalue()
    out, err = StringIO(), StringIO()
    call_command("invite", "--base-url", "https://memory.example.com/", stdout=out, stderr=err)
    assert out.getvalue().startswith("https://memory.example.com/accounts/signup/?invite=")
    assert "--base-url" not in err.getvalue()


@pytest.mark.parametrize(
    ("policy", "invites"), [("open", True), ("auto", False), ("closed", False), ("invite", False)]
)
def test_the_sign_in_page_invites_to_sign_up_only_while_sign_up_is_open(
    owner: User, policy: str, invites: bool
) -> None:
    with override_settings(SIGNUP_POLICY=policy):
        page = Browser().get("/accounts/login/").content.decode()
    assert ("/accounts/signup/" in page) is invites


@override_settings(SIGNUP_POLICY="open", ACCOUNT_EMAIL_VERIFICATION="mandatory")
def test_sign_up_sends_a_verification_email_and_the_link_verifies(
    django_capture_on_commit_callbacks: Any,
) -> None:
    browser = Browser()
    with django_capture_on_commit_callbacks(execute=True):
        browser.post(
            "/accounts/signup/",
            {"email": "new@example.com", "password1": PASSWORD, "password2": PASSWORD},
        )
    address = EmailAddress.objects.get(email="new@example.com")
    assert not address.verified
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/confirm-email/\S+)", str(mail.outbox[0].body))
    assert link is not None
    browser.post(link.group(1))
    address.refresh_from_db()
    assert address.verified


@override_settings(ACCOUNT_EMAIL_VERIFICATION="mandatory")
def test_an_account_made_with_createsuperuser_can_sign_in() -> None:
    User.objects.create_superuser("admin@example.com", PASSWORD)
    browser = Browser()
    r = browser.post("/accounts/login/", {"login": "admin@example.com", "password": PASSWORD})
    assert r.status_code == 302
    assert "verification" not in r["Location"]
    assert browser.get("/apps/").status_code == 200


def test_password_reset_by_email(owner: User, django_capture_on_commit_callbacks: Any) -> None:
    browser = Browser()
    with django_capture_on_commit_callbacks(execute=True):
        browser.post("/accounts/password/reset/", {"email": owner.email})
    assert len(mail.outbox) == 1
    link = re.search(
        r"http://testserver(/accounts/password/reset/key/\S+)", str(mail.outbox[0].body)
    )
    assert link is not None
    form = browser.get(link.group(1), follow=True)
    r = browser.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link.group(1),
        {"password1": PASSWORD, "password2": PASSWORD},
    )
    assert r.status_code == 302
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)


def test_the_sessions_page_lists_sessions_and_ends_the_others(owner: User) -> None:
    laptop, phone = Browser(), Browser()
    for browser in (laptop, phone):
        browser.post(
            "/accounts/login/", {"login": owner.email, "password": "correct horse battery"}
        )
    page = laptop.get("/accounts/sessions/")
    assert page.status_code == 200
    laptop.post("/accounts/sessions/", {"action": "logout"})
    assert laptop.get("/apps/").status_code == 200
    assert phone.get("/apps/").status_code == 302  # signed out


@pytest.mark.parametrize("policy", ["closed", "invite", "open"])
def test_a_password_reset_for_an_unknown_address_says_nothing_untrue(
    client: Browser, mailoutbox: list[Any], settings: Any, policy: str
) -> None:
    """No account for the address: the email invites signing up only while sign-up is open."""
    settings.SIGNUP_POLICY = policy
    User.objects.create_user("someone@example.com", "a long passphrase 42")
    client.post("/accounts/password/reset/", {"email": "stranger@example.com"})
    assert len(mailoutbox) == 1
    body = mailoutbox[0].body
    assert "There is no account for that address" in body
    if policy == "open":
        assert "create an account" in body and "/accounts/signup/" in body
    else:
        assert "sign up" not in body.lower() and "/accounts/signup/" not in body
        assert "ask the person who runs it" in body
