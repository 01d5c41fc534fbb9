"""Wrong passwords for the owner's address must not lock the owner out (issue 24, item 13).

The attacker knows the owner's address and sends wrong passwords from several client addresses
(a botnet). The owner then signs in: from the laptop they signed in on before, and from a new
phone with their second factor. The attacker stays throttled: their own addresses are refused
even with the right password, and past the address's limit a stranger's browser gets nowhere
without the second factor.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.core.cache import cache
from django.test import Client

from accounts.models import User
from tests.accounts.totp_clock import TotpClock
from tests.personas import OWNER_PASSWORD

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

ATTACKERS = ("203.0.113.7", "203.0.113.8", "203.0.113.9", "198.51.100.4")


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    cache.clear()


def _browser(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def _password(browser: Client, email: str, password: str) -> str:
    """Submit the sign-in form: 'in' (a session), 'second factor' (asked for the code), or
    'refused' (the form again, with an error)."""
    r = browser.post("/accounts/login/", {"login": email, "password": password})
    if r.status_code == 302 and r["Location"].startswith("/accounts/2fa/authenticate/"):
        return "second factor"
    if r.status_code == 302 and browser.get("/apps/").status_code == 200:
        return "in"
    return "refused"


def _too_many(browser: Client, email: str, password: str) -> bool:
    r = browser.post("/accounts/login/", {"login": email, "password": password})
    return r.status_code == 200 and "Too many failed login attempts" in r.content.decode()


def _attack(email: str, per_address: int = 12) -> None:
    """Wrong passwords for `email` from every attacker address until each is throttled."""
    for address in ATTACKERS:
        browser = _browser(address)
        for n in range(per_address):
            browser.post("/accounts/login/", {"login": email, "password": f"guess {n}"})


def test_the_owner_signs_in_from_a_known_device_while_their_address_is_attacked(
    owner: User,
) -> None:
    laptop = _browser("192.0.2.10")
    assert _password(laptop, owner.email, OWNER_PASSWORD) == "in"
    laptop.post("/accounts/logout/")

    _attack(owner.email)
    # The attacker is throttled, on every address they used, the right password included.
    for address in ATTACKERS:
        assert _too_many(_browser(address), owner.email, OWNER_PASSWORD), address
    # A fresh address gets no further for this account than "too many".
    assert _too_many(_browser("198.51.100.99"), owner.email, OWNER_PASSWORD)

    # The owner's laptop (a browser that completed a sign-in before) is not held by it.
    assert _password(laptop, owner.email, OWNER_PASSWORD) == "in"


def test_a_second_factor_passes_the_address_lock_and_the_password_alone_does_not(
    owner: User, totp_clock: TotpClock
) -> None:
    secret = generate_totp_secret()
    TOTP.activate(owner, secret)
    _attack(owner.email)

    phone = _browser("192.0.2.20")  # never signed in before
    assert _password(phone, owner.email, OWNER_PASSWORD) == "second factor"
    assert phone.get("/apps/").status_code == 302  # the password alone opened nothing
    phone.post("/accounts/2fa/authenticate/", {"code": totp_clock.code(secret)})
    assert phone.get("/apps/").status_code == 200

    # The same lock still answers a stranger's wrong password with "too many".
    assert _too_many(_browser("198.51.100.98"), owner.email, "guess again")


def test_a_password_reset_lifts_the_address_lock_for_an_owner_without_a_second_factor(
    owner: User,
) -> None:
    """The one case the lock still holds: no second factor, a new device. The reset mail proves
    the owner; their next sign-in works."""
    from allauth.account.models import EmailAddress
    from django.core import mail

    EmailAddress.objects.create(user=owner, email=owner.email, primary=True, verified=True)
    _attack(owner.email)
    phone = _browser("192.0.2.30")
    assert _too_many(phone, owner.email, OWNER_PASSWORD)

    phone.post("/accounts/password/reset/", {"email": owner.email})
    link = next(
        urlsplit(line.strip()).path
        for m in mail.outbox
        for line in str(m.body).splitlines()
        if "/accounts/password/reset/key/" in line
    )
    form = phone.get(link, follow=True)
    new = "another correct horse"
    phone.post(form.redirect_chain[-1][0], {"password1": new, "password2": new})
    assert _password(_browser("192.0.2.31"), owner.email, new) == "in"


def test_a_known_device_of_one_account_is_a_stranger_to_another(
    owner: User, stranger: User
) -> None:
    """The device cookie is per account: signing in to your own account earns nothing against
    someone else's address."""
    own = _browser("192.0.2.40")
    assert _password(own, stranger.email, "another horse battery") == "in"
    own.post("/accounts/logout/")
    _attack(owner.email)
    assert _too_many(own, owner.email, OWNER_PASSWORD)
