"""An operator signed in at /admin/ cannot become a user (issue 24, item 1).

Each test is the attack, made by a superuser through the admin's own pages over HTTP against the
app under uvicorn: mint an OAuth token for a user's app and read their memories with it; edit
an OAuth client (skip consent, another callback); move a user's address to one the operator
reads and reset the password. What an operator may still do on a user's request (remove a lost
authenticator, end a session) works and lands in that user's access log.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from allauth.account.models import EmailAddress
from allauth.idp.oidc.models import Client, Token
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import TOTP
from allauth.usersessions.models import UserSession
from django.contrib import admin
from django.core import mail

from accounts.actors import owner_actor
from accounts.models import ConnectedApp, User
from activity.models import AccessEvent
from memories.services.adding import memory_create
from tests.accounts.oauth_client import PASSWORD, grant_tokens, hidden, mcp_call, sign_in

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_rate_limits"),
]

PLAN = "Alice is quietly interviewing at Initech next week"
OPERATOR = "operator@example.com"
# A value the operator chooses for the token they would mint.
CHOSEN = "operator-chosen-access-token-value-0123456789"


@pytest.fixture
def operator(transactional_db: None) -> User:
    return User.objects.create_superuser(OPERATOR, PASSWORD)


@pytest.fixture
def admin_browser(live_url: str, operator: User) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_url, timeout=60) as browser:
        assert sign_in(browser, OPERATOR).status_code == 302
        assert browser.get("/admin/").status_code == 200
        yield browser


def _submit(browser: httpx.Client, url: str, fields: dict[str, Any]) -> httpx.Response:
    """Post a form of the admin as a browser would: its CSRF token from the page (or, when the
    page itself is refused, from the cookie)."""
    page = browser.get(url)
    token = (
        hidden(page.text, "csrfmiddlewaretoken")
        if page.status_code == 200
        else browser.cookies.get("csrftoken", "")
    )
    return browser.post(
        url, data={"csrfmiddlewaretoken": token, **fields}, headers={"Referer": url}
    )


def test_an_operator_cannot_mint_a_token_and_read_a_users_memories(
    live_url: str,
    alice: User,
    admin_browser: httpx.Client,
) -> None:
    memory_create(actor=owner_actor(alice), text=PLAN, categories=["work"])
    client, _tokens = grant_tokens(live_url, alice.email, resource=f"{live_url}/mcp")

    minted = _submit(
        admin_browser,
        "/admin/allauth_idp_oidc/token/add/",
        {
            "type": "at",
            "hash": hashlib.sha256(CHOSEN.encode()).hexdigest(),
            "client": client["client_id"],
            "user": str(alice.pk),
            "data": json.dumps({"resources": [f"{live_url}/api/v1", f"{live_url}/mcp"]}),
            "created_at_0": "2026-12-01",
            "created_at_1": "00:00:00",
            "scopes": "memories:read",
        },
    )
    assert minted.status_code == 403
    assert not Token.objects.filter(hash=hashlib.sha256(CHOSEN.encode()).hexdigest()).exists()
    bearer = {"Authorization": f"Bearer {CHOSEN}"}
    api = httpx.get(f"{live_url}/api/v1/memories", headers=bearer)
    assert api.status_code == 401 and PLAN not in api.text
    mcp = mcp_call(live_url, CHOSEN, "search_memory", {"query": "interview"})
    assert mcp.status_code == 401 and PLAN not in mcp.text
    assert not AccessEvent.objects.filter(owner=alice, action=AccessEvent.Action.SEARCH).exists()


def test_an_operator_cannot_edit_or_add_an_oauth_client(
    live_url: str,
    alice: User,
    admin_browser: httpx.Client,
) -> None:
    client, _tokens = grant_tokens(live_url, alice.email, resource=f"{live_url}/mcp")
    row = Client.objects.get(id=client["client_id"])
    change = f"/admin/allauth_idp_oidc/client/{row.pk}/change/"
    page = admin_browser.get(change)
    assert page.status_code == 200  # the operator may look
    assert row.secret not in page.text and 'name="redirect_uris"' not in page.text
    edited = _submit(
        admin_browser,
        change,
        {
            "name": row.name,
            "type": row.type,
            "skip_consent": "on",
            "redirect_uris": "https://operator.example/cb",
            "scopes": row.scopes,
            "grant_types": row.grant_types,
            "response_types": row.response_types,
            "created_at_0": "2026-12-01",
            "created_at_1": "00:00:00",
        },
    )
    assert edited.status_code == 403
    row.refresh_from_db()
    assert not row.skip_consent and "operator.example" not in row.redirect_uris
    added = _submit(
        admin_browser,
        "/admin/allauth_idp_oidc/client/add/",
        {"name": "Operator", "type": "public", "redirect_uris": "https://operator.example/cb"},
    )
    assert added.status_code == 403
    assert not Client.objects.filter(name="Operator").exists()
    # Tokens are listed without what would let anyone use or recognise them.
    token = Token.objects.filter(user=alice).first()
    assert token is not None
    for url in (
        "/admin/allauth_idp_oidc/token/",
        f"/admin/allauth_idp_oidc/token/{token.pk}/change/",
    ):
        listed = admin_browser.get(url)
        assert listed.status_code == 200 and token.hash not in listed.text, url
    revoke = _submit(
        admin_browser, f"/admin/allauth_idp_oidc/token/{token.pk}/delete/", {"post": "yes"}
    )
    assert revoke.status_code == 403  # revoking is the connected app's audited action
    assert Token.objects.filter(pk=token.pk).exists()


def test_an_operator_cannot_move_a_users_address_to_sign_in_as_them(
    alice: User,
    admin_browser: httpx.Client,
) -> None:
    EmailAddress.objects.create(user=alice, email=alice.email, primary=True, verified=True)
    evil = "operator-inbox@example.com"
    _submit(
        admin_browser,
        f"/admin/accounts/user/{alice.pk}/change/",
        {"email": evil, "name": "", "is_active": "on", "date_joined_0": "2026-12-01"},
    )
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    added = _submit(
        admin_browser,
        "/admin/account/emailaddress/add/",
        {"user": str(alice.pk), "email": evil, "verified": "on", "primary": "on"},
    )
    assert added.status_code == 403
    address = EmailAddress.objects.get(user=alice)
    changed = _submit(
        admin_browser,
        f"/admin/account/emailaddress/{address.pk}/change/",
        {"user": str(alice.pk), "email": evil, "verified": "on", "primary": "on"},
    )
    assert changed.status_code == 403
    assert not EmailAddress.objects.filter(email=evil).exists()

    # The password reset the operator would now ask for sends them no link to Alice's account.
    mail.outbox.clear()
    with httpx.Client(base_url=str(admin_browser.base_url)) as stranger:
        _submit(stranger, "/accounts/password/reset/", {"email": evil})
    assert not [m for m in mail.outbox if evil in m.to and "/password/reset/key/" in str(m.body)]


CREDENTIAL_MODELS = (Token, Client, EmailAddress, Authenticator, UserSession)


def test_no_admin_page_adds_or_edits_a_credential(
    live_url: str,
    alice: User,
    admin_browser: httpx.Client,
) -> None:
    """Every model the admin shows, swept: none that holds a credential (a token, a client and
    its callbacks, an address a reset is sent to, a second factor, a session) can be added or
    changed, and no page shows a token hash, client secret, TOTP secret or session key."""
    grant_tokens(live_url, alice.email, resource=f"{live_url}/mcp")
    totp = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    TOTP.activate(alice, totp)
    session = UserSession.objects.create(
        user=alice, ip="192.0.2.7", session_key="k" * 32, user_agent="Firefox"
    )
    secrets = [
        totp,
        session.session_key,
        *Token.objects.values_list("hash", flat=True),
        *Client.objects.values_list("secret", flat=True),
    ]
    swept = 0
    for model in admin.site._registry:
        meta = model._meta
        base = f"/admin/{meta.app_label}/{meta.model_name}/"
        pages = [base]
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            pages.append(f"{base}{first.pk}/change/")
        for url in pages:
            page = admin_browser.get(url)
            assert page.status_code == 200, url
            assert not any(s in page.text for s in secrets), url
            swept += 1
        if model in CREDENTIAL_MODELS:
            assert admin_browser.get(f"{base}add/").status_code == 403, base
            assert "Save" not in admin_browser.get(pages[-1]).text, pages[-1]
    assert swept >= 2 * len(CREDENTIAL_MODELS)


def test_removing_an_authenticator_or_ending_a_session_is_audited_and_real(
    live_url: str,
    alice: User,
    admin_browser: httpx.Client,
) -> None:
    """On the user's request the operator may remove a lost second factor or end a session; the
    user's access log names the operator, and the ended session is really signed out."""
    with httpx.Client(base_url=live_url) as laptop:
        sign_in(laptop, alice.email)
        assert laptop.get("/apps/").status_code == 200
        authenticator = TOTP.activate(alice, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP").instance
        session = UserSession.objects.get(user=alice)
        _submit(
            admin_browser, f"/admin/usersessions/usersession/{session.pk}/delete/", {"post": "yes"}
        )
        assert laptop.get("/apps/").status_code == 302  # signed out
    _submit(admin_browser, f"/admin/mfa/authenticator/{authenticator.pk}/delete/", {"post": "yes"})
    assert not Authenticator.objects.filter(user=alice).exists()
    events = AccessEvent.objects.filter(owner=alice, actor=f"admin:{OPERATOR}")
    details = [e.detail for e in events]
    assert {"sessions_ended": 1} in details and {"authenticators_removed": ["totp"]} in details
    assert all(e.app.name == ConnectedApp.CLI for e in events if e.app)
