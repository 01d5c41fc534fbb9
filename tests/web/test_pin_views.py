"""Pinning in the dashboard (Django test client): the row's and the detail page's toggle, the
bulk bar, the Pinned filter, the marker; only the owner's own memories. The Chromium journey is
tests/e2e/test_profile_browser.py."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory
from memories.services import adding
from tests.personas import signed_in

pytestmark = pytest.mark.django_db


def _add(actor: Actor, text: str) -> Memory:
    return adding.memory_create(actor=actor, text=text, categories=["work"]).memory


def test_the_owner_pins_from_the_row_and_the_row_shows_the_marker(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    memory = _add(owner_dash, "Works as a data engineer in Lisbon")
    row = owner_client.post(f"/memories/{memory.id}/pin/", {"pinned": "on"}, headers=htmx)
    html = row.content.decode()
    assert row.status_code == 200 and f'id="m-{memory.id}"' in html
    assert 'class="badge pinned"' in html and ">Unpin</button>" in html
    assert Memory.objects.get(pk=memory.pk).pinned_at is not None

    row = owner_client.post(f"/memories/{memory.id}/pin/", {"pinned": "off"}, headers=htmx)
    assert 'class="badge pinned"' not in row.content.decode()
    assert Memory.objects.get(pk=memory.pk).pinned_at is None


def test_the_detail_page_toggles_the_pin_without_scripts(
    owner_client: Client, owner_dash: Actor
) -> None:
    memory = _add(owner_dash, "Works as a data engineer in Lisbon")
    page = owner_client.get(f"/memories/{memory.id}/").content.decode()
    assert "Pin to the profile" in page
    done = owner_client.post(f"/memories/{memory.id}/pin/", {"pinned": "on"}, follow=True)
    page = done.content.decode()
    assert done.redirect_chain[-1][0] == f"/memories/{memory.id}/"
    assert 'class="badge pinned"' in page and ">Unpin</button>" in page
    assert "Pinned: it opens the profile" in page


def test_the_bulk_bar_pins_and_the_pinned_filter_shows_only_pins(
    owner: User, owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    a = _add(owner_dash, "Works as a data engineer in Lisbon")
    b = _add(owner_dash, "Prefers short answers with code first")
    _add(owner_dash, "Owns a bicycle")
    done = owner_client.post(
        "/memories/bulk/", {"action": "pin", "ids": [str(a.id), str(b.id)]}, headers=htmx
    )
    assert done.status_code == 200
    assert set(Memory.objects.filter(owner=owner, pinned_at__isnull=False)) == {a, b}
    only = owner_client.get("/?pinned=on").content.decode()
    assert a.text in only and b.text in only and "Owns a bicycle" not in only
    searched = owner_client.get("/?pinned=on&q=bicycle").content.decode()
    assert "Owns a bicycle" not in searched
    owner_client.post("/memories/bulk/", {"action": "unpin", "ids": [str(a.id)]}, headers=htmx)
    assert set(Memory.objects.filter(owner=owner, pinned_at__isnull=False)) == {b}


def test_another_users_memory_cannot_be_pinned_from_the_dashboard(
    owner_dash: Actor, stranger: User
) -> None:
    memory = _add(owner_dash, "Works as a data engineer in Lisbon")
    refused = signed_in(stranger).post(f"/memories/{memory.id}/pin/", {"pinned": "on"})
    assert refused.status_code == 404
    assert Memory.objects.get(pk=memory.pk).pinned_at is None
