"""Earlier texts of a memory are the owner's: a connected app can neither read nor restore them
(issue 14, item 3). A health memory edited into a food one must not hand its old health text to
an app that was never granted health — through the REST API with a real client token (MCP has no
versions tool; the dashboard is the owner's)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from accounts.actors import Actor, actor_for
from accounts.models import User
from kernel.errors import OwnerOnly
from memories.models import Memory
from memories.selectors.memories import memory_versions
from memories.services import adding, changing, text_changes
from tests.api.memory_calls import add_memory
from tests.personas import issue_token, signed_in

pytestmark = pytest.mark.django_db

API = "/api/v1/memories"


def _edited_health_memory(owner_dash: Actor) -> Memory:
    memory = adding.memory_create(
        actor=owner_dash, text="Takes insulin twice a day", categories=["health"]
    ).memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Likes green tea")
    return changing.memory_set_categories(
        actor=owner_dash, memory_id=memory.id, categories=["food"]
    )


def test_an_app_cannot_read_or_restore_the_old_texts_of_a_memory(
    owner: User, owner_dash: Actor
) -> None:
    memory = _edited_health_memory(owner_dash)
    version = memory.versions.get()
    secret = issue_token(
        owner,
        name="Cursor",
        scopes=["read", "write"],
    ).secret
    app = Client(headers={"Authorization": f"Bearer {secret}"})
    assert app.get(f"{API}/{memory.id}").json()["text"] == "Likes green tea"  # food: granted

    listed = app.get(f"{API}/{memory.id}/versions")
    restored = app.post(f"{API}/{memory.id}/versions/{version.id}/restore")
    for response in (listed, restored):
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "owner_only"
        assert b"insulin" not in response.content
    memory.refresh_from_db()
    assert memory.text == "Likes green tea"
    # The answer names no memory: the same for an id that never existed.
    assert app.get(f"{API}/{uuid.uuid4()}/versions").content == listed.content
    never = app.post(f"{API}/{uuid.uuid4()}/versions/{version.id}/restore")
    assert never.content == restored.content


def test_the_owner_still_reads_and_restores_old_texts(owner: User, owner_dash: Actor) -> None:
    memory = _edited_health_memory(owner_dash)
    session = signed_in(owner)
    versions = session.get(f"{API}/{memory.id}/versions").json()
    assert [v["text"] for v in versions] == ["Takes insulin twice a day"]
    restored = session.post(f"{API}/{memory.id}/versions/{versions[0]['id']}/restore")
    assert restored.status_code == 200
    assert restored.json()["text"] == "Takes insulin twice a day"


def test_versions_are_owner_only_at_the_service_layer_for_every_app(
    owner: User, owner_dash: Actor
) -> None:
    """Even an app granted every category: old texts may have been private, hidden from it or
    in another category when they were current, and versions do not record that."""
    memory = _edited_health_memory(owner_dash)
    issued = issue_token(
        owner,
        name="Everything",
        scopes=["read", "write"],
    )
    app = issued.token.app
    app.categories = ["health", "finance", "religion", "politics", "sexuality", "legal"]
    app.save(update_fields=["categories"])
    actor = actor_for(owner, app)
    with pytest.raises(OwnerOnly):
        memory_versions(actor=actor, memory_id=memory.id)
    with pytest.raises(OwnerOnly):
        text_changes.memory_restore_version(
            actor=actor, memory_id=memory.id, version_id=memory.versions.get().id
        )


def test_versions_list_and_restore(
    owner_api: Client, owner_dash: Actor, stranger_dash: Actor
) -> None:
    memory = add_memory(owner_dash, "I like green tea")
    owner_api.patch(
        f"{API}/{memory.id}", {"text": "I like oolong"}, content_type="application/json"
    )
    versions = owner_api.get(f"{API}/{memory.id}/versions").json()
    assert [v["text"] for v in versions] == ["I like green tea"]
    restored = owner_api.post(f"{API}/{memory.id}/versions/{versions[0]['id']}/restore")
    assert restored.status_code == 200
    assert restored.json()["text"] == "I like green tea"

    theirs = add_memory(stranger_dash, "I like coffee")
    assert owner_api.get(f"{API}/{theirs.id}/versions").status_code == 404
    wrong = owner_api.post(f"{API}/{theirs.id}/versions/{versions[0]['id']}/restore")
    assert wrong.status_code == 404
    assert owner_api.post(f"{API}/{memory.id}/versions/999999/restore").status_code == 404
