"""What the server logs holds no memory text and no credential (issue 14, item 10): no query
string reaches the access log or Django's request log, read from the real log of gunicorn."""

from __future__ import annotations

import json

import httpx
import pytest

from accounts.models import User
from tests.deploy.gunicorn_server import Gunicorn
from tests.personas import issue_token

SECRET_QUERY = "my secret diagnosis"


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(600)
def test_searches_and_misplaced_tokens_leave_no_trace_in_the_logs(
    gunicorn: Gunicorn, owner: User
) -> None:
    token = issue_token(
        owner,
        name="Logger",
        scopes=["memories:read"],
    ).secret
    before = len(gunicorn.log_text())
    with httpx.Client(base_url=gunicorn.url, timeout=60) as http:
        found = http.get(
            "/api/v1/memories/search",
            params={"q": SECRET_QUERY},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert found.status_code == 200
        # A client that put its token in the URL: refused, and the token is not written down.
        assert http.get("/api/v1/memories", params={"access_token": token}).status_code == 401
        assert http.get("/no-such-page", params={"q": SECRET_QUERY}).status_code == 404
        assert http.get("/?before=" + SECRET_QUERY).status_code == 302  # to the sign-in page
    log = gunicorn.log_text()[before:]
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    # The requests are there (method, path, status) ...
    assert any("/api/v1/memories/search" in line["msg"] for line in lines)
    assert any(line["logger"] == "django.request" and "401" in json.dumps(line) for line in lines)
    assert any(
        line["logger"] == "django.request" and "/no-such-page" in line["msg"] for line in lines
    )
    # ... but nothing of what was asked, and no credential.
    for needle in (SECRET_QUERY, "secret+diagnosis", "secret%20diagnosis", token, token[4:20]):
        assert needle not in log, needle
