"""The operator's admin: pages load, memory text stays hidden by default, actions are audited."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor, stdio_app
from accounts.models import ConnectedApp, User
from activity.models import AccessEvent
from memories.models import Memory, MemoryState, MemoryTombstone
from memories.services.adding import memory_create
from tests.memories.memory_rows import memory_snapshot, memory_with_history
from tests.personas import signed_in

SECRET = "My bank PIN is 4321 and I fear spiders"


@pytest.fixture
def operator(db: None) -> User:
    return User.objects.create_superuser("admin@example.com", "operator password")


@pytest.fixture
def admin_client(operator: User) -> Client:
    client = signed_in(operator)
    return client


@pytest.fixture
def secret_memory(owner_dash: Actor) -> Memory:
    return memory_create(actor=owner_dash, text=SECRET, categories=["finance"]).memory


@pytest.mark.parametrize(
    "name",
    [
        "admin:index",
        "admin:accounts_user_changelist",
        "admin:accounts_connectedapp_changelist",
        "admin:memories_memory_changelist",
        "admin:activity_accessevent_changelist",
        "admin:memories_memorytombstone_changelist",
        "admin:memories_searchmodel_changelist",
    ],
)
def test_admin_pages_load_for_a_superuser(
    admin_client: Client, secret_memory: Memory, name: str
) -> None:
    response = admin_client.get(reverse(name))
    assert response.status_code == 200
    assert SECRET not in response.content.decode()


def test_user_list_shows_memory_counts(admin_client: Client, secret_memory: Memory) -> None:
    response = admin_client.get(reverse("admin:accounts_user_changelist"))
    rows = {u.email: u for u in response.context["cl"].result_list}
    assert rows["owner@example.com"]._memory_count == 1
    assert rows["owner@example.com"]._last_activity is not None


def test_memory_detail_shows_metadata_but_not_the_text_by_default(
    admin_client: Client, secret_memory: Memory
) -> None:
    url = reverse("admin:memories_memory_change", args=[secret_memory.pk])
    page = admin_client.get(url).content.decode()
    assert str(secret_memory.pk) in page
    assert "1 hidden" in page and "finance" not in page  # a sensitive category is content too
    assert str(len(SECRET)) in page
    assert SECRET not in page
    assert "4321" not in page


def test_the_memory_list_cannot_be_searched_by_text_by_default(
    admin_client: Client, secret_memory: Memory
) -> None:
    url = reverse("admin:memories_memory_changelist")
    response = admin_client.get(url, {"q": "spiders"})
    assert list(response.context["cl"].result_list) == []


def test_the_text_shows_when_the_setting_allows_it(
    admin_client: Client, secret_memory: Memory, settings: SettingsWrapper
) -> None:
    settings.ADMIN_SHOW_MEMORY_TEXT = True
    url = reverse("admin:memories_memory_change", args=[secret_memory.pk])
    assert SECRET in admin_client.get(url).content.decode()
    listing = admin_client.get(reverse("admin:memories_memory_changelist"), {"q": "spiders"})
    assert [m.pk for m in listing.context["cl"].result_list] == [secret_memory.pk]


def test_archive_action_goes_through_the_service_and_names_the_operator(
    admin_client: Client, secret_memory: Memory, owner: User
) -> None:
    response = admin_client.post(
        reverse("admin:memories_memory_changelist"),
        {"action": "archive_memories", "_selected_action": [str(secret_memory.pk)]},
    )
    assert response.status_code == 302
    secret_memory.refresh_from_db()
    assert secret_memory.state == MemoryState.ARCHIVED
    event = AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.STATE).latest("pk")
    assert event.actor == "admin:admin@example.com"
    assert event.app_name == "cli"
    assert event.detail == {"from": "active", "to": "archived"}


def test_delete_action_moves_to_the_owners_trash_and_the_owner_restores_it(
    admin_client: Client, owner: User, owner_dash: Actor
) -> None:
    """On the owner's request an operator deletes; the owner sees who did, and can undo it."""
    memory = memory_with_history(owner_dash, "Asked the operator to delete this")
    before = memory_snapshot(owner)
    admin_client.post(
        reverse("admin:memories_memory_changelist"),
        {"action": "delete_memories", "_selected_action": [str(memory.pk)]},
    )
    assert Memory.objects.get(pk=memory.pk).state == "trashed"
    tomb = MemoryTombstone.objects.get(memory_id=memory.pk)
    assert tomb.deleted_by == "admin:admin@example.com"
    event = AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.DELETE).get()
    assert event.actor == "admin:admin@example.com"

    browser = signed_in(owner)
    notice = "<strong>The command line</strong> (admin:admin@example.com) deleted 1 memory"
    assert notice in browser.get("/").content.decode()
    batch = Memory.objects.get(pk=memory.pk).trash_batch_id
    browser.post("/trash/restore/", {"batch": str(batch)})
    assert memory_snapshot(owner) == before
    assert not MemoryTombstone.objects.filter(memory_id=memory.pk).exists()


def test_pause_app_action_goes_through_the_service(admin_client: Client, owner: User) -> None:
    app = stdio_app(owner, "laptop")
    admin_client.post(
        reverse("admin:accounts_connectedapp_changelist"),
        {"action": "pause_apps", "_selected_action": [str(app.pk)]},
    )
    app.refresh_from_db()
    assert app.paused
    event = AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.STATE).get()
    assert event.detail["app_id"] == app.pk
    assert event.actor == "admin:admin@example.com"


def test_connected_apps_and_access_events_cannot_be_deleted_in_the_admin(
    admin_client: Client, owner: User, secret_memory: Memory
) -> None:
    app = ConnectedApp.objects.get(owner=owner, name="dashboard")
    url = reverse("admin:accounts_connectedapp_delete", args=[app.pk])
    assert admin_client.get(url).status_code == 403
    event = AccessEvent.objects.filter(owner=owner).first()
    assert event is not None
    url = reverse("admin:activity_accessevent_delete", args=[event.pk])
    assert admin_client.get(url).status_code == 403


def test_change_pages_load_for_a_user_an_app_and_an_event(
    admin_client: Client, owner: User, secret_memory: Memory
) -> None:
    app = ConnectedApp.objects.get(owner=owner, name="dashboard")
    event = AccessEvent.objects.filter(owner=owner).first()
    assert event is not None
    for name, pk in (
        ("admin:accounts_user_change", owner.pk),
        ("admin:accounts_connectedapp_change", app.pk),
        ("admin:activity_accessevent_change", event.pk),
    ):
        response = admin_client.get(reverse(name, args=[pk]))
        assert response.status_code == 200, name
        assert SECRET not in response.content.decode()
