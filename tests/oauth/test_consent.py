"""Consent over HTTP: the CSP of every authorization-endpoint response against its redirects,
the grant issued only when the code is redeemed, one consent model, one app per client name +
redirect origins, and `client_token --categories/--expires-days`."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from html import unescape
from io import StringIO
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from allauth.idp.oidc.models import Token
from django.core.management import CommandError, call_command
from django.test import Client as Browser
from django.utils import timezone

from accounts.actors import actor_for, owner_actor
from accounts.credentials import resolve_bearer
from accounts.models import ConnectedApp, User
from accounts.services import Grant
from kernel.errors import NotFound
from memories.models import Memory, MemoryProposal, UserCategory
from memories.selectors.grants import grant_preview, known_categories
from memories.selectors.memories import memory_get, memory_list, memory_search
from memories.services.adding import memory_create
from memories.services.categories import category_add
from tests.accounts.oauth_client import PASSWORD, authorize_url, hidden, pkce
from tests.personas import issue_token

pytestmark = pytest.mark.django_db

ORIGIN = "http://testserver"
RESOURCE = f"{ORIGIN}/mcp"

# Every kind of redirect URI the server accepts: (registered, used at authorize).
REDIRECT_KINDS = {
    "https on another origin": ("https://claude.ai/api/mcp/auth_callback",) * 2,
    "loopback, any port": ("http://127.0.0.1/callback", "http://127.0.0.1:51234/callback"),
    "loopback IPv6": ("http://[::1]/callback", "http://[::1]:40111/callback"),
    "native app scheme": ("cursor://anysphere.cursor-mcp/oauth/callback",) * 2,
    "vscode scheme": ("vscode://vscode.github-authentication/did-authenticate",) * 2,
}


# --- A CSP `form-action` oracle, as Chromium applies it to a form's redirect chain.


def form_action_sources(response: Any) -> list[str] | None:
    policy = response.get("Content-Security-Policy", "")
    for directive in policy.split(";"):
        name, *values = directive.split()
        if name == "form-action":
            return values
    return None  # no form-action: nothing is restricted


def form_action_allows(sources: list[str] | None, url: str, origin: str = ORIGIN) -> bool:
    if sources is None:
        return True
    target = urlsplit(url if urlsplit(url).scheme else origin + url)
    here = urlsplit(origin)
    for source in sources:
        if source == "'self'" and (target.scheme, target.netloc) == (here.scheme, here.netloc):
            return True
        if source.endswith(":") and "/" not in source:
            scheme = source[:-1]
            if target.scheme == scheme or (scheme == "http" and target.scheme == "https"):
                return True
        if "://" in source:
            s = urlsplit(source)
            same_host = (s.scheme, s.hostname) == (target.scheme, target.hostname)
            if same_host and s.port == target.port:
                return True
    return False


def _register(browser: Browser, redirect_uri: str, name: str = "Claude") -> dict[str, Any]:
    body = {
        "client_name": name,
        "redirect_uris": [redirect_uri],
        "token_endpoint_auth_method": "none",
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
    }
    r = browser.post("/identity/o/api/clients", json.dumps(body), content_type="application/json")
    assert r.status_code == 201, r.content
    return dict(r.json())


def _authorize(
    client_id: str,
    redirect_uri: str,
    challenge: str,
    scope: str = "memories:read memories:write",
    **extra: str,
) -> str:
    return authorize_url(
        client_id,
        challenge,
        scope=scope,
        resource=RESOURCE,
        redirect_uri=redirect_uri,
        state="s-1",
        **extra,
    )


def _ticked(html: str) -> list[str]:
    return re.findall(r'name="categories" value="([^"]+)"[^>]*checked', html)


def _returned_to(response: Any) -> str:
    """The client URL a return page sends the browser to (its link and its meta refresh)."""
    assert response.status_code == 200, response.content[:500]
    html = response.content.decode()
    link = unescape(re.search(r'<a id="continue"[^>]* href="([^"]+)"', html).group(1))  # type: ignore[union-attr]
    refresh = unescape(re.search(r'http-equiv="refresh" content="0;url=([^"]+)"', html).group(1))  # type: ignore[union-attr]
    assert link == refresh
    assert response["Cache-Control"] == "no-store"
    assert response["Referrer-Policy"] == "no-referrer"
    return link


def _answer(
    browser: Browser,
    page: Any,
    *,
    action: str = "grant",
    ticked: list[str] | None = None,
    uncategorised: bool = True,
    review: bool = False,
) -> Any:
    html = page.content.decode()
    data: dict[str, Any] = {
        "request": hidden(html, "request"),
        "choose": "1",
        "scopes": re.findall(r'name="scopes" value="([^"]+)"', html),
        "categories": _ticked(html) if ticked is None else ticked,
        "action": action,
    }
    if uncategorised:
        data["sees_uncategorised"] = "on"
    if review:
        data["review_writes"] = "on"
    return browser.post("/identity/o/authorize", data)


def _redeem(browser: Browser, client_id: str, code: str, redirect_uri: str, verifier: str) -> Any:
    return browser.post(
        "/identity/o/api/token",
        {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "client_id": client_id,
            "code_verifier": verifier,
            "resource": RESOURCE,
        },
    )


@pytest.mark.parametrize("kind", list(REDIRECT_KINDS))
def test_no_authorization_endpoint_response_carries_a_csp_that_blocks_its_own_redirect(
    kind: str, owner: User
) -> None:
    """Chromium checks `form-action` of the page holding a form against every hop after it is
    submitted: the sign-in form's page, then the consent page. Walk the whole flow for each
    redirect kind; any redirect must be allowed by the form-action of every page it follows."""
    registered, used = REDIRECT_KINDS[kind]
    browser = Browser()
    client = _register(browser, registered)
    _, challenge = pkce()
    path = _authorize(client["client_id"], used, challenge)

    def follow(response: Any, form_pages: list[Any]) -> Any:
        while response.status_code in (301, 302, 303, 307, 308):
            location = response["Location"]
            for form_page in [*form_pages, response]:
                assert form_action_allows(form_action_sources(form_page), location), (
                    kind,
                    location,
                    form_page.get("Content-Security-Policy"),
                )
            response = browser.get(location)
        return response

    login_page = follow(browser.get(path), [])  # signed out: to the sign-in page
    assert "/accounts/login/" in login_page.request["PATH_INFO"]
    consent_page = follow(
        browser.post(
            login_page.request["PATH_INFO"] + "?" + login_page.request["QUERY_STRING"],
            {"login": owner.email, "password": PASSWORD},
        ),
        [login_page],
    )
    assert b"consent-form" in consent_page.content
    for action in ("grant", "cancel"):
        answered = follow(_answer(browser, consent_page, action=action), [consent_page])
        back = urlsplit(_returned_to(answered))
        assert f"{back.scheme}://{back.netloc}{back.path}" == used
        assert parse_qs(back.query)["state"] == ["s-1"]
        assert ("code" if action == "grant" else "error") in parse_qs(back.query)

    # An error the client must hear about arrives the same way, also right after a sign-in form
    # (the chain then starts on the sign-in page) ...
    browser.logout()
    path = _authorize(client["client_id"], used, challenge, scope="memories:read no-such-scope")
    login_page = follow(browser.get(path), [])
    answered = follow(
        browser.post(
            login_page.request["PATH_INFO"] + "?" + login_page.request["QUERY_STRING"],
            {"login": owner.email, "password": PASSWORD},
        ),
        [login_page],
    )
    back = urlsplit(_returned_to(answered))
    assert f"{back.scheme}://{back.netloc}{back.path}" == used
    assert parse_qs(back.query)["error"] == ["invalid_scope"]
    # ... and so does a silent re-authorisation that cannot be silent.
    path = _authorize(client["client_id"], used, challenge, scope="openid", prompt="none")
    back = urlsplit(_returned_to(follow(browser.get(path), [])))
    assert parse_qs(back.query)["error"] == ["consent_required"]


def test_prompt_none_signed_out_asks_to_sign_in_instead_of_failing(owner: User) -> None:
    browser = Browser()
    client = _register(browser, "http://127.0.0.1/callback")
    _, challenge = pkce()
    path = _authorize(client["client_id"], "http://127.0.0.1/callback", challenge, prompt="none")
    r = browser.get(path)
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/")


def test_a_return_page_never_links_to_a_script_url(owner: User) -> None:
    """Defence in depth: whatever let a bad redirect URI in, the page does not link to it."""
    from django.http import HttpResponse
    from django.test import RequestFactory

    from oauth.views import hand_back

    request = RequestFactory().get("/identity/o/authorize")
    bad = HttpResponse(status=302)
    bad["Location"] = "javascript:alert(1)//?code=x"
    assert hand_back(request, bad).status_code == 400


def _seed(user: User) -> dict[str, str]:
    actor = owner_actor(user)
    rows = {
        "work": "Works at Acme on the Atlas billing project",
        "food": "Loves Thai green curry",
        "health": "Has asthma and carries an inhaler",
        "hobbies": "Plays chess on Sunday mornings",
    }
    return {
        cat: str(memory_create(actor=actor, text=text, categories=[cat]).memory.id)
        for cat, text in rows.items()
    }


def _consent_page(browser: Browser, owner: User, redirect: str = "http://127.0.0.1/callback"):  # type: ignore[no-untyped-def]
    browser.force_login(owner)
    client = _register(browser, redirect)
    verifier, challenge = pkce()
    page = browser.get(_authorize(client["client_id"], redirect, challenge))
    assert page.status_code == 200
    return client, verifier, page


def test_consent_alone_leaves_no_app_redeeming_the_code_makes_it(owner: User) -> None:
    browser = Browser()
    client, verifier, page = _consent_page(browser, owner)
    back = _returned_to(_answer(browser, page))
    code = parse_qs(urlsplit(back).query)["code"][0]
    # The browser never carried the code to the client (or the client never redeemed it).
    assert not ConnectedApp.objects.filter(owner=owner, kind="oauth").exists()
    assert b"No app is connected yet" in browser.get("/apps/").content

    r = _redeem(browser, client["client_id"], code, "http://127.0.0.1/callback", verifier)
    assert r.status_code == 200, r.content
    app = ConnectedApp.objects.get(owner=owner, kind="oauth")
    assert app.name == "Claude" and app.oauth_client_id == client["client_id"]
    # A code redeemed twice is refused, and no second app appears.
    again = _redeem(browser, client["client_id"], code, "http://127.0.0.1/callback", verifier)
    assert again.status_code == 400
    assert ConnectedApp.objects.filter(owner=owner, kind="oauth").count() == 1


def test_reviewing_the_apps_changes_is_offered_unticked_and_off_unless_ticked(
    owner: User,
) -> None:
    browser = Browser()
    client, verifier, page = _consent_page(browser, owner)
    html = page.content.decode()
    box = re.search(r'<input[^>]*name="review_writes"[^>]*>', html)
    assert box is not None and "checked" not in box.group(0)
    assert "Review this app&#x27;s changes before they&#x27;re saved" in html
    back = _returned_to(_answer(browser, page))
    code = parse_qs(urlsplit(back).query)["code"][0]
    r = _redeem(browser, client["client_id"], code, "http://127.0.0.1/callback", verifier)
    assert r.status_code == 200, r.content
    assert ConnectedApp.objects.get(owner=owner, kind="oauth").review_writes is False


def test_ticking_review_on_the_consent_page_holds_the_apps_writes_for_the_owner(
    owner: User,
) -> None:
    browser = Browser()
    client, verifier, page = _consent_page(browser, owner)
    back = _returned_to(_answer(browser, page, review=True))
    code = parse_qs(urlsplit(back).query)["code"][0]
    r = _redeem(browser, client["client_id"], code, "http://127.0.0.1/callback", verifier)
    assert r.status_code == 200, r.content
    app = ConnectedApp.objects.get(owner=owner, kind="oauth")
    assert app.review_writes is True
    # Consenting again shows the box as the owner left it.
    _, _, again = _consent_page(browser, owner)
    box = re.search(r'<input[^>]*name="review_writes"[^>]*>', again.content.decode())
    assert box is not None and "checked" in box.group(0)
    result = memory_create(actor=actor_for(owner, app), text="Drinks green tea")
    assert result.pending is not None and not Memory.objects.filter(owner=owner).exists()
    assert MemoryProposal.objects.get(owner=owner).kind == "add"


def test_cancel_sends_access_denied_with_state_and_records_nothing(owner: User) -> None:
    browser = Browser()
    _, _, page = _consent_page(browser, owner)
    back = parse_qs(urlsplit(_returned_to(_answer(browser, page, action="cancel"))).query)
    assert back == {"error": ["access_denied"], "state": ["s-1"], "iss": ["http://testserver"]}
    assert not ConnectedApp.objects.filter(owner=owner, kind="oauth").exists()
    assert not Token.objects.filter(user=owner).exists()


def test_unticking_food_under_the_default_hides_food_everywhere(owner: User) -> None:
    """Bug 2: with the default choice, unticking a non-sensitive category was ignored."""
    ids = _seed(owner)
    browser = Browser()
    client, verifier, page = _consent_page(browser, owner)
    html = page.content.decode()
    assert "It will see 3 memories; 1 in Health stays hidden." in html
    ticked = [c for c in _ticked(html) if c != "food"]
    assert "health" not in ticked  # sensitive: unticked by default
    back = _returned_to(_answer(browser, page, ticked=ticked))
    code = parse_qs(urlsplit(back).query)["code"][0]
    assert _redeem(browser, client["client_id"], code, "http://127.0.0.1/callback", verifier)
    app = ConnectedApp.objects.get(owner=owner, kind="oauth")
    actor = actor_for(owner, app)

    listed = " ".join(m.text for m in memory_list(actor=actor).items)
    assert "chess" in listed and "curry" not in listed and "asthma" not in listed
    found = " ".join(h.memory.text for h in memory_search(actor=actor, query="Thai curry food"))
    assert "curry" not in found
    with pytest.raises(NotFound):
        memory_get(actor=actor, memory_id=ids["food"])

    # The connected apps page never says "all", and Edit shows exactly what is stored.
    apps = browser.get("/apps/").content.decode()
    assert "2 of 4 active memories" in apps and "Cannot see: finance, food, health" in apps
    edit = browser.get(f"/apps/{app.pk}/edit").content.decode()
    assert "food" not in _ticked(edit) and "health" not in _ticked(edit)
    assert "work" in _ticked(edit) and "hobbies" in _ticked(edit)


def test_a_category_added_after_the_grant_is_shared_unless_it_is_sensitive(owner: User) -> None:
    owner_app = owner_actor(owner)
    app = ConnectedApp(owner=owner, kind=ConnectedApp.Kind.TOKEN, name="script")
    Grant.default(known=known_categories(owner), scopes=["memories:read"]).apply_to(app)
    app.save()
    category_add(actor=owner_app, slug="garden", description="Plants and gardening")
    category_add(actor=owner_app, slug="therapy", description="Therapy sessions", sensitive=True)
    memory_create(actor=owner_app, text="Grows tomatoes on the balcony", categories=["garden"])
    memory_create(actor=owner_app, text="Sees a therapist on Fridays", categories=["therapy"])
    listed = " ".join(m.text for m in memory_list(actor=actor_for(owner, app)).items)
    assert "tomatoes" in listed and "therapist" not in listed
    # Ticked by name, the owner's own sensitive category is shared.
    known = known_categories(owner)
    ticked = [*Grant.default(known=known, scopes=[]).categories, "therapy"]
    Grant.from_ticks(
        known=known, scopes=["memories:read"], ticked=ticked, sees_uncategorised=True
    ).apply_to(app)
    app.save()
    listed = " ".join(m.text for m in memory_list(actor=actor_for(owner, app)).items)
    assert "therapist" in listed


def test_memories_without_a_category_follow_their_own_box(owner: User) -> None:
    memory_create(actor=owner_actor(owner), text="Zq xv", categories=[])
    known = known_categories(owner)
    grant = Grant.from_ticks(known=known, scopes=[], ticked=["work"], sees_uncategorised=False)
    preview = grant_preview(owner, grant)
    assert preview.visible == 0 and preview.uncategorised_hidden == 1
    assert "1 without a category stays hidden" in preview.sentence
    with pytest.raises(Exception, match="Tick at least one"):
        Grant.from_ticks(known=known, scopes=[], ticked=[], sees_uncategorised=False)


def test_the_preview_counts_for_another_users_app_are_a_404(owner: User, stranger: User) -> None:
    theirs = issue_token(stranger, name="theirs").token.app
    browser = Browser()
    browser.force_login(owner)
    r = browser.post("/apps/preview", {"app": theirs.pk, "categories": ["work"]})
    assert r.status_code == 404
    mine = browser.post("/apps/preview", {"categories": ["work"], "sees_uncategorised": "on"})
    assert mine.status_code == 200 and b"It will see 0 memories" in mine.content


def _token_for(browser: Browser, client: dict[str, Any], redirect: str, owner: User) -> str:
    verifier, challenge = pkce()
    page = browser.get(_authorize(client["client_id"], redirect, challenge))
    back = _returned_to(_answer(browser, page))
    code = parse_qs(urlsplit(back).query)["code"][0]
    r = _redeem(browser, client["client_id"], code, redirect, verifier)
    assert r.status_code == 200, r.content
    return str(r.json()["access_token"])


def test_a_client_that_registers_on_every_connect_stays_one_app(owner: User) -> None:
    """Claude Code registers a new client (and a new loopback port) each time: one app, and the
    tokens of both registrations speak for it (two laptops keep working)."""
    browser = Browser()
    browser.force_login(owner)
    first = _register(browser, "http://127.0.0.1:40001/callback", name="Claude Code")
    token_1 = _token_for(browser, first, "http://127.0.0.1:40001/callback", owner)
    second = _register(browser, "http://localhost:40002/callback", name="Claude Code")
    token_2 = _token_for(browser, second, "http://localhost:40002/callback", owner)
    apps = ConnectedApp.objects.filter(owner=owner, kind="oauth", revoked_at=None)
    assert [a.name for a in apps] == ["Claude Code"]
    assert apps[0].oauth_client_id == second["client_id"]
    one = resolve_bearer(token_1, resource=RESOURCE)
    two = resolve_bearer(token_2, resource=RESOURCE)
    assert one is not None and two is not None and one.app.pk == two.app.pk == apps[0].pk

    # Same name, another place to return to: another app.
    elsewhere = _register(browser, "https://evil.example/cb", name="Claude Code")
    _token_for(browser, elsewhere, "https://evil.example/cb", owner)
    assert ConnectedApp.objects.filter(owner=owner, kind="oauth", revoked_at=None).count() == 2

    # Disconnecting the one app ends the tokens of every registration behind it.
    browser.post(f"/apps/{apps[0].pk}/revoke")
    assert resolve_bearer(token_1, resource=RESOURCE) is None
    assert resolve_bearer(token_2, resource=RESOURCE) is None


def _create(owner: User, *args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(
        "client_token", "create", "--user", owner.email, *args, stdout=out, stderr=err
    )  # fmt: skip
    return out.getvalue().strip(), err.getvalue()


def test_client_token_categories_name_sensitive_ones_or_all(owner: User) -> None:
    ids = _seed(owner)
    secret, err = _create(owner, "--name", "health bot", "--categories", "health,work")
    credential = resolve_bearer(secret, resource=RESOURCE)
    assert credential is not None
    actor = credential.actor()
    listed = " ".join(m.text for m in memory_list(actor=actor).items)
    assert "asthma" in listed and "Acme" in listed and "curry" not in listed
    assert "It will see 2 memories; 2 in Food and Hobbies stay hidden." in err

    secret, _ = _create(owner, "--name", "everything", "--categories", "all")
    everything = resolve_bearer(secret, resource=RESOURCE)
    assert everything is not None
    assert len(memory_list(actor=everything.actor()).items) == len(ids)

    with pytest.raises(CommandError, match="Unknown categories: helth"):
        _create(owner, "--name", "typo", "--categories", "helth")


def test_client_token_expiry_is_never_silently_infinite(owner: User) -> None:
    with pytest.raises(CommandError, match="--no-expiry"):
        _create(owner, "--name", "zero", "--expires-days", "0")
    secret, err = _create(owner, "--name", "default")
    default = resolve_bearer(secret, resource=RESOURCE)
    assert default is not None and default.expires_at is not None
    assert default.expires_at - timezone.now() > timedelta(days=89)
    assert "expires " in err
    secret, err = _create(owner, "--name", "forever", "--no-expiry")
    forever = resolve_bearer(secret, resource=RESOURCE)
    assert forever is not None and forever.expires_at is None and "never expires" in err
    assert UserCategory.objects.count() == 0  # nothing else was touched


def test_delete_starts_unticked_even_when_the_client_asks_for_it(owner: User) -> None:
    """Least privilege on the OAuth door too: Allow as the page comes grants no delete."""
    browser = Browser()
    browser.force_login(owner)
    client = _register(browser, "http://127.0.0.1/callback")
    verifier, challenge = pkce()
    asked = "memories:read memories:write memories:delete"
    url = _authorize(client["client_id"], "http://127.0.0.1/callback", challenge, scope=asked)
    page = browser.get(url)
    html = page.content.decode()
    ticked = re.findall(r'name="scopes" value="([^"]+)"[^>]*checked', html)
    assert ticked == ["memories:read", "memories:write"]
    assert 'value="memories:delete"' in html and "It asks to delete memories" in html
    data = {
        "request": hidden(html, "request"),
        "choose": "1",
        "scopes": ticked,  # Allow, as the page came
        "categories": _ticked(html),
        "sees_uncategorised": "on",
        "action": "grant",
    }
    code = parse_qs(urlsplit(_returned_to(browser.post("/identity/o/authorize", data))).query)
    r = _redeem(
        browser, client["client_id"], code["code"][0], "http://127.0.0.1/callback", verifier
    )
    assert r.status_code == 200, r.content
    app = ConnectedApp.objects.get(owner=owner, kind="oauth")
    assert app.scopes == ["memories:read", "memories:write"]
    credential = resolve_bearer(r.json()["access_token"], resource=RESOURCE)
    assert credential is not None and "memories:delete" not in credential.actor().scopes
