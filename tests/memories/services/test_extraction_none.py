"""EXTRACTION_MODE=none: stored as given, one row per normalised text, classified locally, and
nothing leaves the machine."""

from __future__ import annotations

import importlib
import ipaddress
import socket
import sys
from typing import Any

import pytest

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import User
from kernel.errors import NotFound
from memories.models import Memory
from memories.selectors.memories import memory_get
from memories.services import remember

pytestmark = pytest.mark.django_db


def test_the_same_sentence_twice_is_stored_once(owner_dash: Actor) -> None:
    first = remember.memory_remember(actor=owner_dash, text="I live in Lisbon.")
    again = remember.memory_remember(actor=owner_dash, text="  i live in   LISBON ")
    assert first.extraction == again.extraction == "none"
    assert first.results[0].created and not again.results[0].created
    assert again.results[0].memory.id == first.results[0].memory.id
    assert "already exists" in again.note
    assert (first.actions, again.actions) == (["added"], ["skipped"])
    assert Memory.objects.filter(owner=owner_dash.user).count() == 1


def test_a_memory_without_categories_is_classified_locally(owner_dash: Actor) -> None:
    memory = remember.memory_remember(actor=owner_dash, text="I'm allergic to penicillin").results[
        0
    ]
    assert "health" in memory.memory.categories
    assert not memory.memory.categories_set_by_user


def test_the_callers_categories_are_kept_and_marked_as_the_users_choice(
    owner_dash: Actor,
) -> None:
    memory = (
        remember.memory_remember(
            actor=owner_dash, text="I'm allergic to penicillin", categories=["travel"]
        )
        .results[0]
        .memory
    )
    assert memory.categories == ["travel"]
    assert memory.categories_set_by_user


def test_classification_happens_before_another_app_can_read_the_memory(owner: User) -> None:
    writer = actor_for(owner, stdio_app(owner, "cursor"))  # all but the sensitive categories
    other = actor_for(owner, stdio_app(owner, "claude"))
    result = remember.memory_remember(actor=writer, text="I take sertraline for depression")
    memory = result.results[0].memory
    assert "health" in memory.categories
    with pytest.raises(NotFound):
        memory_get(actor=other, memory_id=memory.id)
    # The writer reads back what it wrote, and is told that others without Health cannot.
    assert memory_get(actor=writer, memory_id=memory.id).id == memory.id
    assert "other apps without Health cannot" in result.note


def _is_local(address: Any) -> bool:
    if not isinstance(address, tuple):
        return True  # a unix socket path
    host = str(address[0])
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def test_none_mode_attempts_no_network_connection(
    owner_dash: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempts: list[Any] = []
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> None:
        if not _is_local(address):
            attempts.append(address)
            raise OSError("network disabled in this test")
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        if not _is_local(address):
            attempts.append(address)
            return 111
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _is_local((host, 0)):
            attempts.append(("dns", host))
            raise socket.gaierror("network disabled in this test")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    with pytest.raises(OSError):  # the guard is live
        socket.create_connection(("192.0.2.1", 80), timeout=1)
    assert attempts == [("dns", "192.0.2.1")]
    attempts.clear()
    # Import mem0 afresh under the guard (its telemetry is decided at import time).
    saved = {k: v for k, v in sys.modules.items() if k == "mem0" or k.startswith("mem0.")}
    for name in saved:
        del sys.modules[name]
    try:
        importlib.import_module("mem0")
        importlib.import_module("mem0.utils.factory")
        importlib.import_module("mem0.configs.prompts")
        assert sys.modules["mem0.memory.telemetry"].MEM0_TELEMETRY is False
        remember.memory_remember(actor=owner_dash, text="I prefer tea over coffee")
        remember.memory_remember(actor=owner_dash, text="My sister lives in Oslo")
        remember.memory_remember(actor=owner_dash, text="i prefer tea over coffee")
    finally:
        for name in [k for k in sys.modules if k == "mem0" or k.startswith("mem0.")]:
            del sys.modules[name]
        sys.modules.update(saved)
    assert attempts == []
    assert Memory.objects.filter(owner=owner_dash.user).count() == 2
