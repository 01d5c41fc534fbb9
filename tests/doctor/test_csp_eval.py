"""The form-action evaluator the doctor uses, on the cases Chromium decides (CSP Level 3 and the
behaviour measured in shared/notes/mcp-auth.md: every redirect hop after a form submission is
checked; paths do not count after a redirect)."""

from __future__ import annotations

import pytest

from doctor.csp_eval import form_action_allows

ORIGIN = "https://memory.example.com"
CLAUDE = "https://claude.ai/api/mcp/auth_callback?code=x&state=y"
LOOPBACK = "http://127.0.0.1:51234/callback?code=x"
CURSOR = "cursor://anysphere.cursor-mcp/oauth/callback?code=x"


@pytest.mark.parametrize(
    ("policy", "url", "redirected", "allowed"),
    [
        ("default-src 'self'; form-action 'self'", f"{ORIGIN}/identity/o/authorize", False, True),
        ("default-src 'self'; form-action 'self'", CLAUDE, True, False),
        ("default-src 'self'; form-action 'self'", LOOPBACK, True, False),
        ("default-src 'self'; form-action 'self'", CURSOR, True, False),
        ("default-src 'self'", CLAUDE, True, True),  # no form-action: no fallback to default-src
        ("form-action 'self' https://claude.ai", CLAUDE, True, True),
        ("form-action 'self' https://claude.ai/other/path", CLAUDE, True, True),  # path ignored
        ("form-action 'self' https://claude.ai/other/path", CLAUDE, False, False),
        ("form-action 'self' https://*.claude.ai", CLAUDE, True, False),  # not the apex
        ("form-action 'self' https:", CLAUDE, True, True),
        ("form-action 'self' http://127.0.0.1:*", LOOPBACK, True, True),
        ("form-action 'self' http://127.0.0.1", LOOPBACK, True, False),  # default port only
        ("form-action 'self' http://127.0.0.1:51234", LOOPBACK, True, True),
        ("form-action 'self' cursor:", CURSOR, True, True),
        ("form-action *", CURSOR, True, False),  # '*' covers network schemes only
        ("form-action *", CLAUDE, True, True),
        ("form-action 'none'", f"{ORIGIN}/identity/o/authorize", False, False),
        ("form-action claude.ai", CLAUDE, True, True),  # scheme of the page (https)
        ("form-action http://claude.ai", CLAUDE, True, True),  # upgraded to https
    ],
)
def test_form_action_decides_as_chromium_does(
    policy: str, url: str, redirected: bool, allowed: bool
) -> None:
    verdict = form_action_allows([policy], url, origin=ORIGIN, redirected=redirected)
    assert verdict.allowed is allowed, verdict


def test_every_policy_must_allow_when_several_are_sent() -> None:
    headers = ["form-action 'self' https://claude.ai", "default-src 'none'; form-action 'self'"]
    verdict = form_action_allows(headers, CLAUDE, origin=ORIGIN, redirected=True)
    assert not verdict.allowed and verdict.policy == "form-action 'self'"
    joined = ["form-action 'self' https://claude.ai, form-action 'self'"]
    assert not form_action_allows(joined, CLAUDE, origin=ORIGIN, redirected=True).allowed
