"""What cannot be undone asks who is there: erase, account deletion and client-token creation
need a fresh re-authentication, with the second factor when the user has one (issue 14).

The attacker holds a signed-in session (a cookie from an unlocked laptop, a stolen session) but
not the password or the authenticator.
"""

from __future__ import annotations

import pytest
from allauth.mfa.totp.internal.auth import TOTP
from django.core.cache import cache
from django.test import Client

from accounts.actors import Actor
from accounts.models import ClientToken, User
from memories.models import Memory
from memories.services.adding import memory_create
from memories.transfer_models import ErasureReceipt
from tests.accounts.totp_clock import TotpClock
from tests.personas import OWNER_PASSWORD as PASSWORD
from tests.personas import reauthenticate, signed_in

pytestmark = pytest.mark.django_db

TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
ERASE = {"confirm": "erase my memory"}


@pytest.fixture(autouse=True)
def _fresh_limits() -> None:
    cache.clear()


@pytest.fixture
def session(owner: User, owner_dash: Actor) -> Client:
    """A browser already signed in as the owner, who has one memory."""
    memory_create(actor=owner_dash, text="Owner likes figs")
    browser = signed_in(owner)
    return browser


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/erase/", ERASE),
        ("/erase/", {**ERASE, "delete_account": "on"}),
        ("/apps/tokens", {"name": "exfiltrate", "scopes": ["memories:read"]}),
    ],
)
def test_a_signed_in_session_alone_cannot_erase_delete_the_account_or_mint_a_token(
    session: Client, owner: User, url: str, data: dict[str, object]
) -> None:
    response = session.post(url, data)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/reauthenticate/")
    assert "clt_" not in response.content.decode()
    assert Memory.objects.filter(owner=owner).count() == 1
    assert User.objects.filter(pk=owner.pk).exists()
    assert not ClientToken.objects.filter(owner=owner).exists()
    assert not ErasureReceipt.objects.exists()


def test_the_owner_re_enters_the_password_and_the_erase_goes_ahead(
    session: Client, owner: User
) -> None:
    asked = session.post("/erase/", ERASE)
    wrong = session.post(asked["Location"], {"password": "not it"})
    assert wrong.status_code == 200 and Memory.objects.filter(owner=owner).exists()
    done = session.post(asked["Location"], {"password": PASSWORD})
    assert done.status_code == 200  # the suspended erase runs and shows its receipt
    receipt = ErasureReceipt.objects.get()
    assert str(receipt.pk) in done.content.decode()
    assert not Memory.objects.filter(owner=owner).exists()


def test_the_owner_re_enters_the_password_and_sees_the_new_token_once(
    session: Client, owner: User
) -> None:
    asked = session.post(
        "/apps/tokens", {"name": "Cursor", "scopes": ["memories:read"], "expires": "90"}
    )
    done = session.post(asked["Location"], {"password": PASSWORD})
    assert done.status_code == 200
    token = ClientToken.objects.get(owner=owner)
    assert token.prefix in done.content.decode() and "clt_" in done.content.decode()
    # Within the next minutes a second token does not ask again.
    again = session.post(
        "/apps/tokens", {"name": "VS Code", "scopes": ["memories:read"], "expires": "90"}
    )
    assert again.status_code == 200 and ClientToken.objects.filter(owner=owner).count() == 2


def test_a_totp_user_re_authenticates_with_the_code_not_the_password(
    session: Client, owner: User, totp_clock: TotpClock
) -> None:
    TOTP.activate(owner, TOTP_SECRET)
    asked = session.post("/erase/", {**ERASE, "delete_account": "on"})
    assert asked["Location"].startswith("/accounts/2fa/reauthenticate/")
    # Someone who knows the password but not the code gets sent back to the code.
    by_password = session.post("/accounts/reauthenticate/?next=/erase/", {"password": PASSWORD})
    assert by_password.status_code == 302
    assert by_password["Location"].startswith("/accounts/2fa/reauthenticate/")
    retry = session.post("/erase/", {**ERASE, "delete_account": "on"})
    assert retry["Location"].startswith("/accounts/2fa/reauthenticate/")
    assert User.objects.filter(pk=owner.pk).exists()
    done = session.post(asked["Location"], {"code": totp_clock.code(TOTP_SECRET)})
    assert done.status_code == 200
    assert not User.objects.filter(pk=owner.pk).exists()


def test_the_api_erase_refuses_a_session_that_did_not_re_authenticate(
    session: Client, owner: User
) -> None:
    refused = session.post("/api/v1/erase", ERASE, content_type="application/json")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "reauthentication_required"
    assert Memory.objects.filter(owner=owner).exists()
    reauthenticate(session)
    done = session.post("/api/v1/erase", ERASE, content_type="application/json")
    assert done.status_code == 200 and not Memory.objects.filter(owner=owner).exists()
