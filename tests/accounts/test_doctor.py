"""`manage.py doctor URL` against the app under uvicorn."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

pytestmark = pytest.mark.django_db(transaction=True)


def test_doctor_passes_a_correct_deployment(live_url: str) -> None:
    out = StringIO()
    call_command("doctor", f"{live_url}/mcp", stdout=out)
    text = out.getvalue()
    assert "FAIL" not in text
    assert "PKCE: S256" in text
    assert "401 challenge names the protected-resource metadata" in text
    assert "dynamic client registration" in text


def test_doctor_names_an_issuer_and_resource_mismatch(live_url: str) -> None:
    # The server believes it lives at another origin (PUBLIC_URL wrong for the proxy).
    out = StringIO()
    with (
        override_settings(PUBLIC_URL="https://memory.example.com"),
        pytest.raises(CommandError, match="problem"),
    ):
        call_command("doctor", live_url, stdout=out)
    text = out.getvalue()
    assert f"clients connect to '{live_url}/mcp'" in text
    assert "https://memory.example.com" in text


def test_doctor_reports_an_unreachable_server() -> None:
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("doctor", "https://127.0.0.1:9", stdout=out)
    assert "unreachable" in out.getvalue()
