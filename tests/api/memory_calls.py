"""What the tests of the memory routes share: the one error body every refusal has, and a memory
the owner added on the dashboard (the service, not a route, so a test sees only the route it
calls)."""

from __future__ import annotations

from typing import Any

from accounts.actors import Actor
from memories.models import Memory
from memories.services.adding import memory_create

API = "/api/v1/memories"


def error_of(response: Any) -> dict[str, Any]:
    """The `error` of an answer, once its shape is the one every refusal has."""
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "field"}
    return dict(body["error"])


def add_memory(actor: Actor, text: str, categories: tuple[str, ...] = ()) -> Memory:
    return memory_create(actor=actor, text=text, categories=categories).memory
