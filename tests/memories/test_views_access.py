"""Who may do what through the dashboard: another user's memory is a 404 on every URL, every
mutation needs a CSRF token, and the memories page costs a fixed number of queries."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.actors import Actor, owner_actor
from accounts.models import User
from memories import services
from memories.models import Memory, MemoryVersion

pytestmark = pytest.mark.django_db

MEMORY_URLS = [
    ("get", "/memories/{id}/", {}),
    ("get", "/memories/{id}/row/", {}),
    ("get", "/memories/{id}/edit/", {}),
    ("post", "/memories/{id}/edit/", {"text": "hijacked"}),
    ("post", "/memories/{id}/state/", {"state": "archived"}),
    ("post", "/memories/{id}/categories/", {"categories": "stolen"}),
    ("post", "/memories/{id}/versions/{version}/restore/", {}),
    ("get", "/memories/{id}/delete/", {}),
    ("post", "/memories/{id}/delete/", {}),
]


@pytest.mark.parametrize(("method", "url", "data"), MEMORY_URLS)
@pytest.mark.parametrize("as_htmx", [False, True])
def test_another_users_memory_is_a_404_on_every_url(
    owner_dash: Actor,
    stranger_client: Client,
    method: str,
    url: str,
    data: dict[str, str],
    as_htmx: bool,
) -> None:
    memory = services.memory_create(actor=owner_dash, text="Owner only").memory
    services.memory_update(actor=owner_dash, memory_id=memory.id, text="Owner only, edited")
    version = MemoryVersion.objects.get(memory=memory)
    headers = {"HX-Request": "true"} if as_htmx else {}
    send = getattr(stranger_client, method)
    theirs = send(url.format(id=memory.id, version=version.id), data, headers=headers)
    missing = send(url.format(id=uuid.uuid4(), version=version.id), data, headers=headers)
    assert theirs.status_code == missing.status_code == 404
    memory.refresh_from_db()
    assert memory.text == "Owner only, edited" and memory.state == "active"
    assert memory.categories == []


def test_bulk_actions_on_another_users_memories_are_a_404(
    owner_dash: Actor, stranger_client: Client, stranger_dash: Actor
) -> None:
    mine = services.memory_create(actor=owner_dash, text="Owner's").memory
    theirs = services.memory_create(actor=stranger_dash, text="Stranger's own").memory
    for action in ["archived", "paused", "categories", "delete"]:
        data = {"action": action, "ids": [theirs.id, mine.id], "confirm": "on"}
        response = stranger_client.post("/memories/bulk/", data, headers={"HX-Request": "true"})
        assert response.status_code == 404
    assert Memory.objects.filter(pk=mine.id, state="active").exists()
    assert Memory.objects.filter(pk=theirs.id, state="active").exists()  # all or nothing


def test_mutations_need_a_csrf_token(owner: User, owner_dash: Actor) -> None:
    memory = services.memory_create(actor=owner_dash, text="Protected").memory
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    refused = client.post(f"/memories/{memory.id}/state/", {"state": "archived"})
    assert refused.status_code == 403
    memory.refresh_from_db()
    assert memory.state == "active"
    for url, data in [
        ("/memories/add/", {"text": "Sneaky"}),
        ("/memories/bulk/", {"action": "delete", "ids": [memory.id], "confirm": "on"}),
        (f"/memories/{memory.id}/delete/", {}),
    ]:
        assert client.post(url, data, headers={"HX-Request": "true"}).status_code == 403
    assert list(Memory.objects.values_list("text", flat=True)) == ["Protected"]

    # The page puts the token in <body hx-headers>, which htmx sends as X-CSRFToken.
    html = client.get("/").content.decode()
    assert 'hx-headers=\'{"x-csrftoken": "' in html
    token = html.split('"x-csrftoken": "', 1)[1].split('"', 1)[0]
    accepted = client.post(
        f"/memories/{memory.id}/state/",
        {"state": "archived"},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert accepted.status_code == 200
    memory.refresh_from_db()
    assert memory.state == "archived"


def test_memories_page_for_ten_thousand_memories_is_one_query_batch(
    owner: User,
    owner_client: Client,
    django_assert_max_num_queries: object,
    bulk_memories: Callable[[User, int], None],
) -> None:
    bulk_memories(owner, 10_000)
    owner_actor(owner)  # the dashboard door exists after the first visit
    # session, user, the dashboard door, the page of rows, the categories menu and the stats
    # header (totals and per app, also the app menu): a fixed number, not one per row.
    with django_assert_max_num_queries(7):  # type: ignore[operator]
        response = owner_client.get("/")
    html = response.content.decode()
    assert html.count('class="memory state-active"') == 50
    assert "<strong>10000</strong> memories" in html
    with django_assert_max_num_queries(4):  # type: ignore[operator]
        owner_client.get("/", headers={"HX-Request": "true"})
