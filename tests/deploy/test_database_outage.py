"""A database error in any page becomes a quick 503 (JSON under /api/), not a 500."""

from __future__ import annotations

import pytest
from django.db import InterfaceError

from accounts.models import User
from tests.personas import signed_in
from web.views import memory_list as memory_pages


def test_a_page_answers_503_with_retry_after_when_the_database_is_gone(
    owner: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*args: object, **kwargs: object) -> int:
        raise InterfaceError("connection already closed")

    monkeypatch.setattr(memory_pages, "actor_for_request", down)
    client = signed_in(owner)
    response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/plain")
