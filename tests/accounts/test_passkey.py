"""A passkey registered and used in Chromium through its virtual WebAuthn authenticator (CDP)."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from playwright.sync_api import Page, sync_playwright

from accounts.models import User
from tests.accounts.oauth_client import PASSWORD
from tests.browser import CHROMIUM, CHROMIUM_ARGS

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def _password_form_submit(page: Page) -> None:
    page.locator('form:has(input[name="password"]) button[type="submit"]').first.click()


def test_a_passkey_is_registered_then_signs_in_without_a_password(
    live_url: str, alice: User
) -> None:
    # WebAuthn needs a domain as relying party id, not an IP address: use localhost.
    base = live_url.replace("127.0.0.1", "localhost")
    email = alice.email
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context()
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        authenticator = cdp.send(
            "WebAuthn.addVirtualAuthenticator",
            {
                "options": {
                    "protocol": "ctap2",
                    "transport": "internal",
                    "hasResidentKey": True,
                    "hasUserVerification": True,
                    "isUserVerified": True,
                    "automaticPresenceSimulation": True,
                }
            },
        )["authenticatorId"]
        page.goto(f"{base}/accounts/login/")
        page.fill('input[name="login"]', email)
        page.fill('input[name="password"]', PASSWORD)
        _password_form_submit(page)
        page.wait_for_url(lambda url: "/accounts/login/" not in url)

        page.goto(f"{base}/accounts/2fa/webauthn/add/?passwordless")
        if "/reauthenticate/" in page.url:
            page.fill('input[name="password"]', PASSWORD)
            _password_form_submit(page)
            page.wait_for_url(lambda url: "/webauthn/add/" in url)
        page.fill('input[name="name"]', "Laptop passkey")
        page.check('input[name="passwordless"]')
        page.click("#mfa_webauthn_add")
        page.wait_for_url(lambda url: "/webauthn/add/" not in url, timeout=30_000)
        credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
        assert len(credentials["credentials"]) == 1

        context.clear_cookies()  # signed out: a fresh session
        page.goto(f"{base}/accounts/login/")
        page.click("#passkey_login")
        page.wait_for_url(lambda url: "/accounts/login/" not in url, timeout=30_000)
        page.goto(f"{base}/apps/")
        assert "/accounts/login/" not in page.url
        assert "Connected apps" in page.content()
        browser.close()
    assert Authenticator.objects.filter(user=alice, type=Authenticator.Type.WEBAUTHN).count() == 1
