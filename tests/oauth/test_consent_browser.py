"""Connecting in a real browser, for every kind of callback the authorization server accepts.

Chromium signs in, reads our consent page, unticks a category, clicks Allow and reaches the
client's callback with `code` and `state` — an https callback on another origin (a confidential
DCR client, like Claude), a loopback callback on a port chosen at run time (a public PKCE client)
and a native app scheme (cursor://) — with no Content-Security-Policy violation. The code buys a
token bound to /mcp, the token works through the MCP SDK's HTTP client, and a memory in the
unticked category stays invisible to that app through search, list and get.

The other origins are real servers, not Playwright routes: a route does not see the hop of a
redirect chain, and Chromium's error page then retries the URL outside the form submission, so a
CSP block on the chain would go unnoticed. claude.ai resolves to a local TLS server
(`--host-resolver-rules`, a certificate made here), the loopback callback is a local listener,
and the native-scheme navigation is observed as the request Chromium attempts and drops.
"""

from __future__ import annotations

import datetime
import os
import ssl
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest

from accounts.models import ConnectedApp, User
from memories.models import Memory
from memories.services.adding import memory_create
from tests.accounts.oauth_client import PASSWORD, pkce
from tests.browser import launch_chromium, off_thread
from tests.mcpbridge.mcp_clients import McpHttp

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

TIMEOUT = 30_000  # ms; the machine is small and shared
CLAUDE_CALLBACK = "https://claude.ai/api/mcp/auth_callback"
CLAUDE_HANDOFF = "https://claude.ai/api/mcp/handoff"  # answers 307 to claude:// (desktop app)
CURSOR_CALLBACK = "cursor://anysphere.cursor-mcp/oauth/callback"


# --- The clients' side: servers standing in for claude.ai and a native app's loopback listener.


@dataclass
class Callbacks:
    """A client's callback endpoint: records every request it gets."""

    hits: list[str] = field(default_factory=list)
    port: int = 0

    def handler(self) -> type[BaseHTTPRequestHandler]:
        hits = self.hits

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                if self.path == "/favicon.ico":
                    self.send_error(404)
                    return
                hits.append(self.path)
                if self.path.startswith("/api/mcp/handoff"):
                    # claude.ai hands over to the desktop app like this.
                    self.send_response(307)
                    self.send_header("Location", "claude://claude.ai/settings/connectors")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = b"<!doctype html><title>Connected</title><p>Connected."
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler


def _self_signed(host: str, folder: Path) -> ssl.SSLContext:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    (folder / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(folder / "cert.pem", folder / "key.pem")
    return context


def _serve(callbacks: Callbacks, tls: ssl.SSLContext | None) -> Iterator[Callbacks]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), callbacks.handler())
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    callbacks.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield callbacks
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def claude_ai() -> Iterator[Callbacks]:
    """https://claude.ai, served here over TLS with a certificate made for the test."""
    with tempfile.TemporaryDirectory() as folder:
        yield from _serve(Callbacks(), _self_signed("claude.ai", Path(folder)))


@pytest.fixture
def loopback() -> Iterator[Callbacks]:
    """The listener a native app opens on 127.0.0.1 for its callback, on a port of its choice."""
    yield from _serve(Callbacks(), None)


@pytest.fixture(scope="module")
def chromium(claude_ai: Callbacks) -> Iterator[Any]:
    with launch_chromium(f"--host-resolver-rules=MAP claude.ai 127.0.0.1:{claude_ai.port}") as b:
        yield b


@dataclass
class Watched:
    """A browser tab and what it reported: CSP violations and every request it attempted."""

    page: Any
    violations: list[str] = field(default_factory=list)
    attempted: list[str] = field(default_factory=list)


@pytest.fixture
def tab(chromium: Any, live_url: str) -> Iterator[Watched]:
    context = chromium.new_context(
        base_url=live_url,
        ignore_https_errors=True,  # only the test's own certificate for claude.ai
        viewport={"width": 1100, "height": 900},
    )
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    watched = Watched(page)

    def on_console(msg: Any) -> None:
        if "Content Security Policy" in msg.text:
            watched.violations.append(msg.text)

    def on_violation(text: str) -> None:
        watched.violations.append(text)

    page.on("console", on_console)
    page.expose_function("reportViolation", on_violation)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e =>"
        " window.reportViolation(e.violatedDirective + ' ' + e.blockedURI));"
    )
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.on("Network.requestWillBeSent", lambda e: watched.attempted.append(e["request"]["url"]))
    yield watched
    context.close()


# --- The journey.


@dataclass
class Seeded:
    work: str
    food: str
    health: str
    hobbies: str


def _seed(user: User) -> Seeded:
    from accounts.actors import owner_actor

    actor = owner_actor(user)

    def add(text: str, category: str) -> str:
        return str(memory_create(actor=actor, text=text, categories=[category]).memory.id)

    return Seeded(
        work=add("Works at Acme on the Atlas billing project", "work"),
        food=add("Loves Thai green curry", "food"),
        health=add("Has asthma and carries an inhaler", "health"),
        hobbies=add("Plays chess on Sunday mornings", "hobbies"),
    )


def _register(base: str, redirect_uri: str, *, confidential: bool, name: str) -> dict[str, Any]:
    body = {
        "client_name": name,
        "redirect_uris": [redirect_uri],
        "token_endpoint_auth_method": "client_secret_post" if confidential else "none",
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
    }
    r = httpx.post(f"{base}/identity/o/api/clients", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def _authorize_path(client_id: str, redirect_uri: str, challenge: str, base: str) -> str:
    return "/identity/o/authorize?" + urlencode(
        {
            "response_type": "code",
            "client_id": client_id,
            "redirect_uri": redirect_uri,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "scope": "memories:read memories:write offline_access",
            "resource": f"{base}/mcp",
            "state": "st-8c1f",
        }
    )


def _sign_in_to_consent(tab: Watched, path: str, email: str) -> Any:
    """Open the authorize URL signed out: the sign-in form, then our consent page."""
    page = tab.page
    page.goto(path)
    page.fill("#id_login", email)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_selector("form.consent-form")
    return page


def _read_consent_and_untick_food(page: Any, *, name: str, host: str) -> None:
    assert name in page.locator("h1").inner_text()
    assert page.locator(".redirect-host").inner_text() == host
    summary = page.locator("#grant-summary")
    assert summary.inner_text().startswith("It will see 3 memories; 1 in Health stays hidden")
    food = page.get_by_label("Food", exact=False).first
    assert food.is_checked()
    assert not page.get_by_label("Health", exact=False).first.is_checked()  # sensitive
    food.uncheck()
    page.locator("#grant-summary", has_text="Food").wait_for()  # recounted as it was unticked
    assert summary.inner_text().startswith(
        "It will see 2 memories; 2 in Food and Health stay hidden"
    )


def _exchange(
    base: str, client: dict[str, Any], code: str, redirect_uri: str, verifier: str
) -> str:
    data = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri,
        "client_id": client["client_id"],
        "code_verifier": verifier,
        "resource": f"{base}/mcp",
    }
    if client.get("client_secret"):
        data["client_secret"] = client["client_secret"]
    r = httpx.post(f"{base}/identity/o/api/token", data=data)
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body["scope"].split()) >= {"memories:read", "memories:write"}
    return str(body["access_token"])


def _texts(result: Any) -> str:
    content = result.structured_content or {}
    rows = content.get("results") or content.get("memories") or []
    return " | ".join(row["text"] for row in rows)


def _check_grant_through_mcp(base: str, token: str, seeded: Seeded) -> None:
    mcp = McpHttp(base, token)
    acme = off_thread(lambda: mcp.call("search_memory", {"query": "Acme Atlas project"}))
    assert not acme.is_error and "Acme" in _texts(acme)  # the token works on /mcp
    curry = off_thread(lambda: mcp.call("search_memory", {"query": "Thai green curry food"}))
    assert "curry" not in _texts(curry)
    listed = off_thread(lambda: mcp.call("list_memories", {}))
    assert "chess" in _texts(listed) and "curry" not in _texts(listed)
    assert "asthma" not in _texts(listed)
    got = off_thread(lambda: mcp.call("get_memory", {"memory_id": seeded.food}))
    assert got.is_error and "No memory with that id" in str(got.content)


@dataclass(frozen=True)
class Kind:
    """One kind of redirect URI, with how the test sees the browser arrive there."""

    name: str
    confidential: bool
    host: str

    def registered(self, loopback: Callbacks) -> str:
        if self.name == "https":
            return CLAUDE_CALLBACK
        if self.name == "loopback":
            return "http://127.0.0.1/callback"  # registered without a port (RFC 8252)
        return CURSOR_CALLBACK

    def used(self, loopback: Callbacks) -> str:
        if self.name == "loopback":
            return f"http://127.0.0.1:{loopback.port}/callback"  # the port of this run
        return self.registered(loopback)


KINDS = [
    Kind("https", confidential=True, host="claude.ai"),
    Kind("loopback", confidential=False, host="127.0.0.1"),
    Kind("native", confidential=False, host="anysphere.cursor-mcp"),
]


def _allow_and_arrive(tab: Watched, kind: Kind, redirect_uri: str, button: str) -> str:
    """Click the button; return the callback URL the browser reached (or tried to open)."""
    page = tab.page
    if kind.name == "native":
        with page.expect_event(
            "requestfailed", predicate=lambda r: r.url.startswith("cursor://")
        ) as failed:
            page.get_by_role("button", name=button).click()
        return str(failed.value.url)  # Chromium has no cursor:// handler here, so it drops it
    page.get_by_role("button", name=button).click()
    page.wait_for_url(redirect_uri + "?**")
    return str(page.url)


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_a_person_connects_in_chromium_and_the_unticked_category_stays_hidden(
    tab: Watched, live_url: str, alice: User, loopback: Callbacks, claude_ai: Callbacks, kind: Kind
) -> None:
    seeded = _seed(alice)
    name = {"https": "Claude", "loopback": "Claude Code", "native": "Cursor"}[kind.name]
    client = _register(
        live_url, kind.registered(loopback), confidential=kind.confidential, name=name
    )
    verifier, challenge = pkce()
    redirect_uri = kind.used(loopback)
    page = _sign_in_to_consent(
        tab, _authorize_path(client["client_id"], redirect_uri, challenge, live_url), alice.email
    )
    _read_consent_and_untick_food(page, name=name, host=kind.host)

    arrived = _allow_and_arrive(tab, kind, redirect_uri, "Allow")
    params = parse_qs(urlsplit(arrived).query)
    assert tab.violations == []
    assert params["state"] == ["st-8c1f"] and params["code"][0]
    if kind.name == "https":
        assert claude_ai.hits[-1].startswith("/api/mcp/auth_callback?code=")
    if kind.name == "loopback":
        assert loopback.hits[-1].startswith("/callback?code=")
    # Consent alone is not a grant: the app exists once the code is redeemed.
    assert not ConnectedApp.objects.filter(owner=alice, kind="oauth").exists()

    token = _exchange(live_url, client, params["code"][0], redirect_uri, verifier)
    app = ConnectedApp.objects.get(owner=alice, kind="oauth")
    assert app.name == name and "food" in app.hidden_categories
    _check_grant_through_mcp(live_url, token, seeded)

    # The connected apps page says what it sees, in counts and words.
    page.goto("/apps/")
    row = page.locator(f"#app-{app.pk}")
    assert "2 of 4 active memories" in row.inner_text()
    assert "Hidden: 2 in food, health" in row.inner_text()
    assert "Cannot see: finance, food, health, legal" in row.inner_text()


def test_cancel_reaches_the_callback_with_access_denied_and_leaves_no_app(
    tab: Watched, live_url: str, alice: User, loopback: Callbacks
) -> None:
    kind = KINDS[1]
    client = _register(live_url, kind.registered(loopback), confidential=False, name="Claude Code")
    _, challenge = pkce()
    redirect_uri = kind.used(loopback)
    page = _sign_in_to_consent(
        tab, _authorize_path(client["client_id"], redirect_uri, challenge, live_url), alice.email
    )
    arrived = _allow_and_arrive(tab, kind, redirect_uri, "Cancel")
    params = parse_qs(urlsplit(arrived).query)
    assert params == {"error": ["access_denied"], "state": ["st-8c1f"], "iss": [live_url]}
    assert tab.violations == []
    assert not ConnectedApp.objects.filter(owner=alice, kind="oauth").exists()
    page.goto("/apps/")
    assert "No app is connected yet" in page.content()


def test_a_hosted_callback_that_hands_over_to_a_native_app_is_not_blocked(
    tab: Watched, live_url: str, alice: User, claude_ai: Callbacks
) -> None:
    """claude.ai's callback answers 307 to claude:// (the desktop app). Chromium checks every
    hop after a form submission against the form page's `form-action`, so a 302 from our consent
    POST would have the claude:// hop blocked; our return page ends the chain first."""
    client = _register(live_url, CLAUDE_HANDOFF, confidential=True, name="Claude")
    verifier, challenge = pkce()
    page = _sign_in_to_consent(
        tab, _authorize_path(client["client_id"], CLAUDE_HANDOFF, challenge, live_url), alice.email
    )
    with page.expect_event("requestfailed", predicate=lambda r: r.url.startswith("claude://")):
        page.get_by_role("button", name="Allow").click()
    assert tab.violations == []
    assert claude_ai.hits[-1].startswith("/api/mcp/handoff?code=")
    code = parse_qs(urlsplit(claude_ai.hits[-1]).query)["code"][0]
    assert "claude://claude.ai/settings/connectors" in tab.attempted
    _exchange(live_url, client, code, CLAUDE_HANDOFF, verifier)
    assert ConnectedApp.objects.filter(owner=alice, kind="oauth", name="Claude").exists()


def test_a_memory_the_app_wrote_itself_in_a_sensitive_category_is_readable_by_it(
    tab: Watched, live_url: str, alice: User, loopback: Callbacks
) -> None:
    kind = KINDS[1]
    client = _register(live_url, kind.registered(loopback), confidential=False, name="Claude Code")
    verifier, challenge = pkce()
    redirect_uri = kind.used(loopback)
    page = _sign_in_to_consent(
        tab, _authorize_path(client["client_id"], redirect_uri, challenge, live_url), alice.email
    )
    arrived = _allow_and_arrive(tab, kind, redirect_uri, "Allow")
    assert page is tab.page
    code = parse_qs(urlsplit(arrived).query)["code"][0]
    token = _exchange(live_url, client, code, redirect_uri, verifier)
    mcp = McpHttp(live_url, token)
    added = off_thread(
        lambda: mcp.call("add_memory", {"text": "I am allergic to peanuts and carry an EpiPen"})
    )
    assert not added.is_error, added
    memory_id = added.structured_content["memories"][0]["id"]
    # The local classifier files it under health, which this app was not granted …
    assert "health" in Memory.objects.get(owner=alice, id=memory_id).categories
    # … and still, the app that wrote it can read it back.
    got = off_thread(lambda: mcp.call("get_memory", {"memory_id": memory_id}))
    assert not got.is_error, got


def test_ticking_review_on_the_consent_page_holds_the_apps_adds_for_the_owner(
    tab: Watched, live_url: str, alice: User, loopback: Callbacks
) -> None:
    kind = KINDS[1]
    client = _register(live_url, kind.registered(loopback), confidential=False, name="Claude Code")
    verifier, challenge = pkce()
    redirect_uri = kind.used(loopback)
    page = _sign_in_to_consent(
        tab, _authorize_path(client["client_id"], redirect_uri, challenge, live_url), alice.email
    )
    review = page.get_by_label("Review this app's changes before they're saved")
    assert not review.is_checked()  # off by default
    review.check()
    arrived = _allow_and_arrive(tab, kind, redirect_uri, "Allow")
    code = parse_qs(urlsplit(arrived).query)["code"][0]
    token = _exchange(live_url, client, code, redirect_uri, verifier)
    assert ConnectedApp.objects.get(owner=alice, kind="oauth").review_writes is True
    mcp = McpHttp(live_url, token)
    added = off_thread(lambda: mcp.call("add_memory", {"text": "Rides a cargo bike to work"}))
    assert added.structured_content["pending"][0]["kind"] == "add"
    assert not Memory.objects.filter(owner=alice, text__icontains="cargo bike").exists()
    page.goto("/review/")
    proposal = page.locator("li.proposal-add", has_text="Rides a cargo bike to work")
    assert proposal.locator(".proposal-app").inner_text() == "Claude Code"
    assert tab.violations == []


SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_the_consent_page_works_by_keyboard_on_a_phone_in_dark_mode(
    chromium: Any, live_url: str, alice: User, loopback: Callbacks
) -> None:
    _seed(alice)
    kind = KINDS[1]
    client = _register(live_url, kind.registered(loopback), confidential=False, name="Claude Code")
    _, challenge = pkce()
    redirect_uri = kind.used(loopback)
    context = chromium.new_context(
        base_url=live_url, viewport={"width": 390, "height": 844}, color_scheme="dark"
    )
    context.set_default_timeout(TIMEOUT)
    try:
        page = _sign_in_to_consent(
            Watched(context.new_page()),
            _authorize_path(client["client_id"], redirect_uri, challenge, live_url),
            alice.email,
        )
        # Dark like the dashboard, and nothing wider than the phone.
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(15, 18, 22)"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        allow = page.get_by_role("button", name="Allow").bounding_box()
        cancel = page.get_by_role("button", name="Cancel").bounding_box()
        assert allow is not None and cancel is not None
        assert allow["x"] >= 0 and allow["x"] + allow["width"] <= 390
        assert allow["y"] < cancel["y"]  # the primary action first
        if os.environ.get("UPDATE_SCREENSHOTS"):
            page.screenshot(path=str(SCREENSHOTS / "consent-phone-dark.png"), full_page=True)

        # By keyboard alone: Tab to Allow, Enter.
        for _ in range(60):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.textContent.trim()") == "Allow":
                break
        else:
            pytest.fail("Allow is not reachable with Tab")
        page.keyboard.press("Enter")
        page.wait_for_url(redirect_uri + "?**")
        assert "code" in parse_qs(urlsplit(page.url).query)
    finally:
        context.close()


def test_screenshot_of_the_consent_page(tab: Watched, live_url: str, alice: User) -> None:
    """The consent page next to the dashboard (rewritten by UPDATE_SCREENSHOTS=1)."""
    _seed(alice)
    client = _register(live_url, CLAUDE_CALLBACK, confidential=True, name="Claude")
    _, challenge = pkce()
    page = _sign_in_to_consent(
        tab, _authorize_path(client["client_id"], CLAUDE_CALLBACK, challenge, live_url), alice.email
    )
    assert page.locator(".consent-actions .btn.primary").inner_text() == "Allow"
    assert tab.violations == []
    if os.environ.get("UPDATE_SCREENSHOTS"):
        page.screenshot(path=str(SCREENSHOTS / "consent.png"), full_page=True)


def test_enter_on_a_category_checkbox_does_not_allow(
    tab: Watched, live_url: str, alice: User, loopback: Callbacks
) -> None:
    """Keyboard only: Enter on a checkbox changes nothing and submits nothing; Allow is a press."""
    _seed(alice)
    kind = KINDS[1]
    client = _register(live_url, kind.registered(loopback), confidential=False, name="Claude Code")
    _, challenge = pkce()
    redirect_uri = kind.used(loopback)
    page = _sign_in_to_consent(
        tab, _authorize_path(client["client_id"], redirect_uri, challenge, live_url), alice.email
    )
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "categories":
            break
    else:
        pytest.fail("no category checkbox is reachable with Tab")
    consent_url = page.url
    page.keyboard.press("Enter")
    page.wait_for_timeout(1500)  # a submission would be on its way to the callback by now
    assert page.url == consent_url and page.locator("form.consent-form").is_visible()
    assert loopback.hits == []
    page.keyboard.press("Space")  # Space still ticks, and the form stays
    page.locator("#grant-summary", has_text="hidden").wait_for()
    assert page.url == consent_url and loopback.hits == []
    page.get_by_role("button", name="Allow").press("Enter")
    page.wait_for_url(redirect_uri + "?**")
    assert "code" in parse_qs(urlsplit(page.url).query)


def test_the_sign_in_page_on_the_way_to_connecting_says_which_app_asks(
    tab: Watched, live_url: str, alice: User, loopback: Callbacks
) -> None:
    kind = KINDS[1]
    client = _register(live_url, kind.registered(loopback), confidential=False, name="Claude Code")
    _, challenge = pkce()
    page = tab.page
    page.goto(_authorize_path(client["client_id"], kind.used(loopback), challenge, live_url))
    assert page.get_by_role("heading", level=1).inner_text() == "Sign in to connect Claude Code"
    assert "Claude Code asked to use your memory" in page.locator("main").inner_text()
    assert page.title().startswith("Sign in to connect Claude Code")
    page.goto("/accounts/login/")  # an ordinary sign-in says nothing of connecting
    assert page.get_by_role("heading", level=1).inner_text() == "Sign In"
    assert tab.violations == []
