"""`manage.py doctor URL` against the app under uvicorn, and against servers that break what
real connectors need."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import httpx
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import override_settings

from accounts.models import ConnectedApp, User
from doctor.checks import run_checks
from doctor.report import FAIL, OK
from tests.personas import issue_token

pytestmark = pytest.mark.django_db(transaction=True)

FORCED = [*settings.MIDDLEWARE, "tests.doctor.csp_override.ForcedConsentCSP"]
KINDS = ("https callback on another origin", "loopback callback", "native app scheme")


def _doctor(url: str, *args: str) -> tuple[str, bool]:
    out = StringIO()
    try:
        call_command("doctor", url, *args, stdout=out)
    except CommandError:
        return out.getvalue(), False
    return out.getvalue(), True


def _line(text: str, kind: str) -> str:
    return next(line for line in text.splitlines() if kind in line)


def test_doctor_passes_this_deployment(live_url: str) -> None:
    text, ok = _doctor(f"{live_url}/mcp")
    assert ok and "FAIL" not in text, text


def test_doctor_checks_what_connectors_need_of_this_deployment(live_url: str) -> None:
    text, _ok = _doctor(f"{live_url}/mcp")
    for expected in (
        "PKCE: S256",
        "401 challenge names the protected-resource metadata",
        "dynamic client registration",
        "authorization responses name their issuer (RFC 9207)",
        "every advertised endpoint answers",
        "an unknown client gets 401 invalid_client",
        "OAuth error bodies are JSON",
        "9 tools state all four annotation hints in this installation",
    ):
        assert f" ok  {expected}" in text, (expected, text)
    for kind in KINDS:
        assert "consent for a " + kind in text, text


def test_doctor_reports_a_consent_policy_that_blocks_the_redirect_and_names_the_fix(
    live_url: str,
) -> None:
    with override_settings(
        MIDDLEWARE=FORCED, TEST_CONSENT_CSP="default-src 'self'; form-action 'self'"
    ):
        text, ok = _doctor(f"{live_url}/mcp")
    assert not ok
    for kind in KINDS:
        line = _line(text, kind)
        assert line.lstrip().startswith(FAIL), line
        assert "blocks the redirect" in line and "form-action 'self'" in line
        assert "add this request's validated redirect target to form-action" in line
    assert not User.objects.filter(email__endswith="@doctor.invalid").exists()  # rolled back
    assert not ConnectedApp.objects.exists()


def test_doctor_tells_the_redirect_kinds_apart(live_url: str) -> None:
    with override_settings(
        MIDDLEWARE=FORCED, TEST_CONSENT_CSP="default-src 'self'; form-action 'self' https:"
    ):
        text, ok = _doctor(f"{live_url}/mcp")
    assert not ok
    assert _line(text, KINDS[0]).lstrip().startswith(OK)
    assert _line(text, KINDS[1]).lstrip().startswith(FAIL)  # http loopback is not https:
    assert _line(text, KINDS[2]).lstrip().startswith(FAIL)


def test_doctor_passes_a_consent_policy_that_allows_each_redirect(live_url: str) -> None:
    policy = "default-src 'self'; form-action 'self' https://claude.ai http://127.0.0.1:* cursor:"
    with override_settings(MIDDLEWARE=FORCED, TEST_CONSENT_CSP=policy):
        text, ok = _doctor(f"{live_url}/mcp")
    assert ok and "FAIL" not in text, text
    for kind in KINDS:
        assert _line(text, kind).lstrip().startswith(OK)


def test_with_a_client_token_doctor_connects_with_both_protocol_versions(
    live_url: str, alice: User
) -> None:
    token = issue_token(alice, name="doctor", scopes=["read"]).secret
    text, _ok = _doctor(f"{live_url}/mcp", "--token", token, "--no-local")
    assert " ok  MCP 2025-11-25: connected, 9 tools" in text, text
    assert " ok  MCP 2026-07-28: connected, 9 tools" in text, text
    assert " ok  9 tools state all four annotation hints over 2026-07-28" in text
    bad, ok = _doctor(f"{live_url}/mcp", "--token", "clt_not-a-token", "--no-local")
    assert not ok and "MCP 2025-11-25: the SDK client could not connect" in bad


def test_doctor_names_an_issuer_and_resource_mismatch(live_url: str) -> None:
    # The server believes it lives at another origin (PUBLIC_URL wrong for the proxy).
    with override_settings(PUBLIC_URL="https://memory.example.com"):
        text, ok = _doctor(live_url, "--no-local")
    assert not ok
    assert f"clients connect to '{live_url}/mcp'" in text
    assert "https://memory.example.com" in text


def test_doctor_reports_an_unreachable_server() -> None:
    text, ok = _doctor("https://127.0.0.1:9", "--no-local")
    assert not ok and "unreachable" in text


def _broken_server(request: httpx.Request) -> httpx.Response:
    """What an allauth IdP answers out of the box: a device endpoint advertised without the
    grant, a 500 for an unknown client, HTML error pages, no iss."""
    base = "https://broken.example"
    path = request.url.path
    if path == "/health":
        return httpx.Response(200, text="ok")
    if path.startswith("/.well-known/oauth-protected-resource"):
        return httpx.Response(
            200,
            json={
                "resource": f"{base}/mcp",
                "authorization_servers": [base],
                "scopes_supported": ["memories:read"],
            },
        )
    if path in ("/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"):
        return httpx.Response(
            200,
            json={
                "issuer": base,
                "authorization_endpoint": f"{base}/authorize",
                "token_endpoint": f"{base}/token",
                "registration_endpoint": f"{base}/register",
                "device_authorization_endpoint": f"{base}/device",
                "grant_types_supported": ["authorization_code", "refresh_token"],
                "code_challenge_methods_supported": ["S256"],
            },
        )
    if path == "/token" and request.method == "POST":
        return httpx.Response(500, text="<html><h1>Server Error (500)</h1></html>")
    if path == "/mcp":
        return httpx.Response(
            401,
            json={"error": "invalid_token"},
            headers={"www-authenticate": f'Bearer resource_metadata="{base}/.well-known/x"'},
        )
    if path in ("/authorize", "/register"):
        return httpx.Response(400, json={"error": "invalid_request"})
    return httpx.Response(404, text="<!doctype html><title>Not Found</title>")


def test_doctor_names_what_an_unwrapped_authorization_server_gets_wrong() -> None:
    with httpx.Client(transport=httpx.MockTransport(_broken_server)) as client:
        report = run_checks("https://broken.example/mcp", client=client, in_process=False)
    fails = "\n".join(text for level, text in report.lines if level == FAIL)
    assert "device_authorization_endpoint is advertised without the device grant" in fails
    assert "advertised but not served: device_authorization_endpoint (404)" in fails
    assert "not 401 invalid_client" in fails
    assert "OAuth errors answered without a JSON body" in fails
    warns = json.dumps(report.lines)
    assert "authorization_response_iss_parameter_supported is not true" in warns


def test_local_checks_need_no_server(monkeypatch: pytest.MonkeyPatch, alice: Any) -> None:
    from doctor.consent import check_local_tools
    from doctor.report import Report

    report = Report()
    check_local_tools(report)
    assert report.lines == [(OK, "9 tools state all four annotation hints in this installation")]
