"""The review page: pending proposals for hand-edited memories, accepted or declined in a click."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory, MemoryProposal, MemoryVersion
from memories.selectors.proposals import proposal_list
from memories.services import adding, changing
from memories.services.proposals import proposal_create
from tests.personas import signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def proposal(owner_dash: Actor) -> MemoryProposal:
    memory = adding.memory_create(actor=owner_dash, text="Lives in Berlin").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Lives in Berlin-Mitte")
    return proposal_create(
        actor=owner_dash, memory=memory, proposed_text="Lives in Lisbon", reason="Moved."
    )


def _client(user: User) -> Client:
    client = signed_in(user, enforce_csrf=True)
    return client


def _csrf(client: Client) -> str:
    return str(client.cookies["csrftoken"].value)


def test_the_page_lists_pending_proposals(owner: User, proposal: MemoryProposal) -> None:
    response = _client(owner).get("/review/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Lives in Berlin-Mitte" in body and "Lives in Lisbon" in body and "Moved." in body
    assert 'name="csrfmiddlewaretoken"' in body


def test_accept_applies_the_text_and_keeps_the_old_one(
    owner: User, owner_dash: Actor, proposal: MemoryProposal
) -> None:
    client = _client(owner)
    client.get("/review/")
    response = client.post(f"/review/{proposal.pk}/accept", HTTP_X_CSRFTOKEN=_csrf(client))
    assert response.status_code == 302
    memory = Memory.objects.get(proposals=proposal)
    assert memory.text == "Lives in Lisbon"
    assert MemoryVersion.objects.filter(memory=memory, text="Lives in Berlin-Mitte").exists()
    proposal.refresh_from_db()
    assert proposal.status == MemoryProposal.Status.ACCEPTED
    assert proposal_list(actor=owner_dash) == []


def test_decline_leaves_the_memory_alone(owner: User, proposal: MemoryProposal) -> None:
    client = _client(owner)
    client.get("/review/")
    response = client.post(
        f"/review/{proposal.pk}/decline", HTTP_X_CSRFTOKEN=_csrf(client), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Declined" in response.content.decode()
    assert Memory.objects.get(proposals=proposal).text == "Lives in Berlin-Mitte"


def test_another_users_proposal_is_a_404(stranger: User, proposal: MemoryProposal) -> None:
    client = _client(stranger)
    client.get("/review/")
    for decision in ("accept", "decline"):
        response = client.post(f"/review/{proposal.pk}/{decision}", HTTP_X_CSRFTOKEN=_csrf(client))
        assert response.status_code == 404
    assert "Lives in Lisbon" not in client.get("/review/").content.decode()
    proposal.refresh_from_db()
    assert proposal.status == MemoryProposal.Status.PENDING


def test_decisions_need_post_and_csrf(owner: User, proposal: MemoryProposal) -> None:
    client = _client(owner)
    assert client.get(f"/review/{proposal.pk}/accept").status_code == 405
    assert client.post(f"/review/{proposal.pk}/accept").status_code == 403
    assert Client().get("/review/").status_code == 302  # signed out: to the login page
