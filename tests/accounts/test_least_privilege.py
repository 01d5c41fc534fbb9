"""Least privilege by default (issue 23, build 2): a new app may read and write, not delete; the
owner grants more per app and sees which apps hold delete. The stdio door through the real SDK
client: tests/mcpbridge/test_stdio.py; the Apps page in Chromium:
tests/e2e/test_owner_controls_browser.py."""

from __future__ import annotations

import pytest

from accounts.actors import actor_for, owner_actor, stdio_app
from accounts.client_tokens import hash_secret
from accounts.models import ALL_SCOPES, ClientToken, User
from accounts.services import app_set_scopes
from activity.models import AccessEvent
from kernel.gates import SCOPE_DELETE, SCOPE_READ, SCOPE_WRITE
from tests.personas import issue_token, signed_in

pytestmark = pytest.mark.django_db


def test_a_new_stdio_app_may_read_and_write_and_an_existing_one_keeps_its_grant(
    owner: User,
) -> None:
    assert stdio_app(owner, "claude-desktop").scopes == [SCOPE_READ, SCOPE_WRITE]
    legacy = stdio_app(owner, "old-client", scopes=ALL_SCOPES)
    assert stdio_app(owner, "old-client").scopes == list(ALL_SCOPES)  # kept as granted
    narrowed = app_set_scopes(actor=owner_actor(owner), app_id=legacy.pk, scopes=[SCOPE_READ])
    assert narrowed.scopes == [SCOPE_READ]
    assert actor_for(owner, narrowed).scopes == frozenset({SCOPE_READ})


def test_the_owner_widening_a_token_apps_scopes_reaches_its_token(owner: User) -> None:
    issued = issue_token(owner, name="Cursor on laptop")  # read and write
    app = ClientToken.objects.get(token_hash=hash_secret(issued.secret)).app
    browser = signed_in(owner)
    response = browser.post(
        f"/apps/{app.pk}/edit",
        {
            "scopes": [SCOPE_READ, SCOPE_WRITE, SCOPE_DELETE],
            "categories": ["work"],
            "sees_uncategorised": "on",
        },
    )
    assert response.status_code == 302
    token = ClientToken.objects.get(pk=issued.token.pk)
    assert token.scopes == [SCOPE_READ, SCOPE_WRITE, SCOPE_DELETE]
    event = AccessEvent.objects.filter(owner=owner, detail__app_id=app.pk).latest("id")
    assert event.app_name == "dashboard" and event.action == "state"
    assert event.detail["scopes"] == {
        "from": [SCOPE_READ, SCOPE_WRITE],
        "to": [SCOPE_READ, SCOPE_WRITE, SCOPE_DELETE],
    }
    assert event.detail["categories"]["to"] == ["work"]
    page = browser.get("/apps/").content.decode()
    assert "1 app may delete memories:" in page and "Cursor on laptop</a>." in page


def test_the_connect_page_says_what_each_snippet_grants_and_how_to_grant_more(
    owner: User,
) -> None:
    page = signed_in(owner).get("/connect/").content.decode()
    assert (
        "This app may read memories and add or change them, not delete them. To let it delete, "
        "add &quot;--scopes&quot;, &quot;read,write,delete&quot; to its args" in page
    )
    assert page.count("a new token may read and write, not delete") == 3  # the HTTP clients
