"""Local reconciliation over REST (an app's client token) and on the owner's dashboard: a changed
fact replaces the stored one, which the owner sees as "Replaced by"; a likely change the rules
cannot decide waits in the owner's Review as an update of the memory."""

from __future__ import annotations

import pytest
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.models import User
from memories.models import Memory, MemoryProposal
from memories.services.app_review import LOOKS_LIKE_UPDATE_NOTE
from tests.api.tokens import TokenFactory, bearer


@pytest.fixture(autouse=True)
def reconcile_on(settings: SettingsWrapper) -> None:
    """Local reconciliation is off by default (settings.RECONCILE_LOCAL); these tests turn it on."""
    settings.RECONCILE_LOCAL = True


API = "/api/v1"
OLD_JOB = "I work as a backend engineer at Acme Logistics."
NEW_JOB = "I just started a new job as a staff engineer at Finch Robotics."


def _add(client: Client, text: str) -> tuple[int, dict]:
    answer = client.post(f"{API}/memories", {"text": text}, content_type="application/json")
    return answer.status_code, answer.json()


def test_an_apps_job_update_replaces_the_old_job_and_the_owner_sees_replaced_by(
    owner: User, make_token: TokenFactory, owner_client: Client
) -> None:
    app = bearer(make_token(owner, name="claude"))
    assert _add(app, OLD_JOB)[0] == 201
    status, body = _add(app, NEW_JOB)
    assert status == 201 and body["memory"]["text"] == NEW_JOB
    assert [m["text"] for m in app.get(f"{API}/memories").json()["items"]] == [NEW_JOB]

    old = Memory.objects.get(owner=owner, text=OLD_JOB)
    page = owner_client.get(f"/memories/{old.id}/").content.decode()
    assert "Replaced by" in page and f"/memories/{body['memory']['id']}/" in page
    newer = owner_client.get(f"/memories/{body['memory']['id']}/").content.decode()
    assert "The older memory this one replaced" in newer and OLD_JOB in newer


def test_a_restatement_over_rest_answers_200_with_the_stored_memory(
    owner: User, make_token: TokenFactory
) -> None:
    app = bearer(make_token(owner, name="claude"))
    _, first = _add(app, "My dentist is Dr. Okafor.")
    status, again = _add(app, "Dr Okafor is my dentist.")
    assert status == 200 and again["memory"]["id"] == first["memory"]["id"]
    assert Memory.objects.filter(owner=owner).count() == 1


def test_the_owner_sees_each_wording_an_app_restated_in_the_memorys_history(
    owner: User, make_token: TokenFactory, owner_client: Client
) -> None:
    """The merged wording is not only in metadata: the memory's page lists it, with the app."""
    app = bearer(make_token(owner, name="claude"))
    _, first = _add(app, "My dentist is Dr. Okafor.")
    _add(app, "Dr Okafor is my dentist.")
    page = owner_client.get(f"/memories/{first['memory']['id']}/").content.decode()
    history = page[page.index('id="history-heading"') :]
    assert "Said again in other words" in history
    assert "Dr Okafor is my dentist." in history and "claude" in history


def test_a_likely_change_the_rules_cannot_decide_waits_for_the_owner_as_an_update(
    owner: User, make_token: TokenFactory, owner_api: Client
) -> None:
    app = bearer(make_token(owner, name="claude"))
    _, first = _add(app, "My go-to pizza place is Luigi's.")
    status, held = _add(app, "These days we order from Napoli Express.")
    assert status == 202 and held["note"] == LOOKS_LIKE_UPDATE_NOTE
    [pending] = held["pending"]
    assert pending["kind"] == "update" and pending["memory_id"] == first["memory"]["id"]
    [proposal] = owner_api.get(f"{API}/proposals").json()
    assert proposal["kind"] == "update" and "Looks like an update" in proposal["reason"]
    assert Memory.objects.get(owner=owner).text == "My go-to pizza place is Luigi's."

    accepted = owner_api.post(f"{API}/proposals/{proposal['id']}/accept")
    assert accepted.status_code == 200
    assert [m["text"] for m in app.get(f"{API}/memories").json()["items"]] == [
        "These days we order from Napoli Express."
    ]
    assert MemoryProposal.objects.get(owner=owner).status == "accepted"
