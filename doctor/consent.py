"""Doctor checks that run inside this installation: the consent redirect path, and the tools.

The consent page is behind sign-in, so no outside probe sees its Content-Security-Policy. This
drives Django's test client through the real authorization endpoint as a throwaway user, for one
client per kind of callback connectors use (an https callback on another origin, a loopback
callback on a port chosen at run time, a native app scheme): it opens the consent page, submits
it as a person clicking Allow would, and evaluates the page's CSP `form-action` against the
form's action and the redirect that follows, as Chromium does (`doctor.csp_eval`). Allow may
also answer with a page of ours that navigates on by itself (`oauth.views.hand_back`): then
no redirect chain leaves the form, and the check reads the page's Continue link instead. Everything
happens in one transaction that is rolled back: no user, client, grant or session remains.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
import secrets
import uuid
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

from django.conf import settings
from django.db import DatabaseError, transaction
from django.http.request import split_domain_port, validate_host

from doctor.csp_eval import form_action_allows
from doctor.report import FAIL, OK, WARN, Report
from kernel.origin import mcp_url

# (what, registered redirect URI, the one this authorization request uses)
REDIRECT_KINDS = (
    (
        "https callback on another origin (Claude, ChatGPT)",
        "https://claude.ai/api/mcp/auth_callback",
        "https://claude.ai/api/mcp/auth_callback",
    ),
    (
        "loopback callback on a run-time port (VS Code, the MCP SDK)",
        "http://127.0.0.1/callback",
        "http://127.0.0.1:{port}/callback",
    ),
    (
        "native app scheme (Cursor)",
        "cursor://anysphere.cursor-mcp/oauth/callback",
        "cursor://anysphere.cursor-mcp/oauth/callback",
    ),
)
CSP_FIX = (
    "fix: answer Allow with a page of this server that navigates on by itself "
    "(oauth.views.hand_back, as shipped), or add this request's validated redirect target "
    "to form-action on the consent response (not enough when the callback redirects again)"
)


class _ConsentForm(HTMLParser):
    """The form that carries the signed `request`, with what clicking Allow submits."""

    def __init__(self) -> None:
        super().__init__()
        self.action: str | None = None
        self.fields: list[tuple[str, str]] = []
        self.allow: tuple[str, str] | None = None
        self._form: dict[str, Any] | None = None
        self._found = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            self._form = {"action": a.get("action", ""), "fields": [], "allow": None}
        elif self._form is None:
            return
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            if kind in ("submit", "button", "image", "file"):
                return
            self._form["fields"].append((a["name"], a.get("value", "on")))
            if a["name"] == "request":
                self._found = True
        elif tag == "button" and a.get("name") and a.get("value") == "grant":
            self._form["allow"] = (a["name"], "grant")  # allauth's action=grant: Allow

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._form is not None:
            if self._found and self.action is None:
                self.action = self._form["action"]
                self.fields = self._form["fields"]
                self.allow = self._form["allow"]
            self._form = None
            self._found = False


def _host(base: str) -> tuple[str, bool]:
    """The Host the test client claims: the checked URL's when this server accepts it."""
    parts = urlsplit(base if "//" in base else f"//{base}")
    host = parts.netloc or "localhost"
    domain, _port = split_domain_port(host)
    if not validate_host(domain, settings.ALLOWED_HOSTS):
        allowed = [
            h for h in settings.ALLOWED_HOSTS if h and "*" not in h and not h.startswith(".")
        ]
        host = allowed[0] if allowed else "localhost"
    return host, parts.scheme == "https"


def _pkce() -> str:
    verifier = secrets.token_urlsafe(48)
    return (
        base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    )


@dataclass(frozen=True)
class _Opened:
    """A consent page as the browser got it: its CSP, where its form posts, what Allow sends."""

    csp: list[str]
    action: str
    allow: dict[str, list[str]]


def _open_consent(browser: Any, origin: str, redirect_uri: str, client_id: str) -> _Opened | str:
    """The consent page for this client's authorization request, or why it could not be used."""
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": redirect_uri,
        "scope": "memories:read",
        "state": "doctor",
        "code_challenge": _pkce(),
        "code_challenge_method": "S256",
        "resource": mcp_url(origin),
    }
    page_url = "/identity/o/authorize?" + urlencode(params)
    page = browser.get(page_url)
    if page.status_code != 200:
        return f"the page answered {page.status_code}"
    csp = [v for k, v in page.headers.items() if k.lower() == "content-security-policy"]
    form = _ConsentForm()
    form.feed(page.content.decode(errors="replace"))
    if form.action is None or form.allow is None:
        return "no consent form with an Allow button found"
    action = urljoin(origin + page_url, form.action or page_url)
    return _Opened(csp=csp, action=action, allow=dict_of([*form.fields, form.allow]))


def _check_kind(
    browser: Any, origin: str, issuer: str, what: str, redirect_uri: str, client_id: str
) -> list[tuple[str, str]]:
    opened = _open_consent(browser, origin, redirect_uri, client_id)
    if isinstance(opened, str):
        return [(FAIL, f"consent for a {what}: {opened}")]
    found: list[tuple[str, str]] = []
    verdict = form_action_allows(opened.csp, opened.action, origin=origin, redirected=False)
    if not verdict.allowed:
        found.append((FAIL, f"consent for a {what}: {verdict.policy!r} blocks the form itself"))
    response = browser.post(urlsplit(opened.action).path, opened.allow)
    location = response.headers.get("Location", "")
    handed_back = response.status_code == 200 and _return_target(response.content)
    if handed_back:
        # A page of ours navigates on by itself: the form's redirect chain ends on this origin,
        # so `form-action 'self'` holds whatever the callback does next.
        location = handed_back
    elif response.status_code not in (301, 302, 303, 307, 308) or not location:
        return [*found, (FAIL, f"consent for a {what}: Allow answered {response.status_code}")]
    query = parse_qs(urlsplit(location).query)
    if "code" not in query:
        return [*found, (FAIL, f"consent for a {what}: Allow returned without a code")]
    if handed_back:
        found.append(
            (
                OK,
                f"consent for a {what}: Allow hands the browser back from a page of this "
                f"server (no redirect chain off the form), to {redirect_uri}",
            )
        )
    else:
        found.append(_redirect_verdict(opened, location, origin, what, redirect_uri))
    if query.get("iss") != [issuer]:
        found.append((WARN, f"consent for a {what}: the answer carries no iss={issuer}"))
    return found


def _redirect_verdict(
    opened: _Opened, location: str, origin: str, what: str, redirect_uri: str
) -> tuple[str, str]:
    """Whether the page's CSP lets the browser follow Allow's redirect, as Chromium judges it."""
    verdict = form_action_allows(opened.csp, location, origin=origin, redirected=True)
    if verdict.allowed:
        return (OK, f"consent for a {what}: the browser may follow Allow to {redirect_uri}")
    target = urlsplit(location)
    where = f"{target.scheme}://{target.netloc}"
    return (
        FAIL,
        f"consent for a {what}: the page's CSP {verdict.policy!r} blocks the redirect "
        f"to {where} in Chromium and Safari, so the browser stays on the consent page "
        f"and the client never gets its code; {CSP_FIX}",
    )


def _return_target(content: bytes) -> str:
    """The address a hand-back page (`oauth.views.hand_back`) sends the browser on to."""
    match = re.search(rb'<a id="continue"[^>]*href="([^"]+)"', content)
    return html.unescape(match.group(1).decode()) if match else ""


def dict_of(pairs: list[tuple[str, str] | None]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for pair in pairs:
        if pair is not None:
            out.setdefault(pair[0], []).append(pair[1])
    return out


def check_consent_redirects(base: str, report: Report) -> None:
    """The consent page of this installation, for each kind of callback connectors use."""
    from allauth.idp.oidc.models import Client as OAuthClient
    from django.test import Client as TestClient

    from accounts.models import User
    from oauth.oidc import widen_client

    host, secure = _host(base)
    origin = f"{'https' if secure else 'http'}://{host}"  # the page's origin: 'self'
    issuer = str(settings.PUBLIC_URL or origin)
    lines: list[tuple[str, str]] = []
    try:
        with transaction.atomic():
            user = User.objects.create_user(f"doctor-{uuid.uuid4().hex}@doctor.invalid", None)
            browser = TestClient(HTTP_HOST=host, secure=secure)
            browser.force_login(user)
            for what, registered, requested in REDIRECT_KINDS:
                client = OAuthClient(
                    id=f"doctor-{uuid.uuid4().hex}",
                    name="Context Layer doctor",
                    type=OAuthClient.Type.PUBLIC,
                    data={"doctor": True},
                )
                client.set_redirect_uris([registered])
                widen_client(client)
                client.save()
                uri = requested.format(port=49152 + secrets.randbelow(16000))
                lines.extend(_check_kind(browser, origin, issuer, what, uri, client.id))
            transaction.set_rollback(True)
    except DatabaseError as exc:
        report.add(
            WARN, f"consent redirect path not checked: no database ({exc.__class__.__name__})"
        )
        return
    for level, text in lines:
        report.add(level, text)


def check_local_tools(report: Report) -> None:
    """The tools this installation serves (without a token the endpoint cannot be asked)."""
    import anyio

    from doctor.mcp import report_hints
    from mcpbridge.server import build_server

    tools = anyio.run(build_server().list_tools)
    report_hints(tools, report, "in this installation")
