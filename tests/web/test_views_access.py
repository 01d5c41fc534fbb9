"""Who may do what through the dashboard: another user's memory is a 404 on every URL, every
mutation needs a CSRF token, and the memories page costs a fixed number of queries."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.actors import Actor, owner_actor
from accounts.models import User
from memories.models import Memory, MemoryVersion
from memories.services import adding, changing
from tests.personas import signed_in

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
    memory = adding.memory_create(actor=owner_dash, text="Owner only").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Owner only, edited")
    version = MemoryVersion.objects.get(memory=memory)
    memory.refresh_from_db()
    categories_before = list(memory.categories)  # automatic ones, from the local classifier
    headers = {"HX-Request": "true"} if as_htmx else {}
    send = getattr(stranger_client, method)
    theirs = send(url.format(id=memory.id, version=version.id), data, headers=headers)
    missing = send(url.format(id=uuid.uuid4(), version=version.id), data, headers=headers)
    assert theirs.status_code == missing.status_code == 404
    memory.refresh_from_db()
    assert memory.text == "Owner only, edited" and memory.state == "active"
    assert memory.categories == categories_before


def test_bulk_actions_on_another_users_memories_are_a_404(
    owner_dash: Actor, stranger_client: Client, stranger_dash: Actor
) -> None:
    mine = adding.memory_create(actor=owner_dash, text="Owner's").memory
    theirs = adding.memory_create(actor=stranger_dash, text="Stranger's own").memory
    for action in ["archived", "paused", "categories", "delete"]:
        data = {"action": action, "ids": [theirs.id, mine.id], "confirm": "on"}
        response = stranger_client.post("/memories/bulk/", data, headers={"HX-Request": "true"})
        assert response.status_code == 404
    assert Memory.objects.filter(pk=mine.id, state="active").exists()
    assert Memory.objects.filter(pk=theirs.id, state="active").exists()  # all or nothing


def test_mutations_need_a_csrf_token(owner: User, owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Protected").memory
    client = signed_in(owner, enforce_csrf=True)
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


@pytest.mark.slow
def test_memories_page_for_ten_thousand_memories_is_one_query_batch(
    owner: User,
    owner_client: Client,
    bulk_memories: Callable[[User, int], None],
) -> None:
    """The page costs the same fixed batch of queries for 60 memories and for 10,000: session,
    user, session list, the dashboard door, one page of rows, the category and app menus (the
    apps memories came from and the apps that last changed one), the stats header (the trash
    counted with it), the notices of new categories and of apps' deletes, the Review link's count
    of waiting proposals (issue 26: shown with a count when it has work) and of memories held
    for the owner's check (issue 37) — never one query per row."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    owner_actor(owner)  # the dashboard door exists after the first visit
    owner_client.get("/")  # the first visit also records the browser session

    def queries(headers: dict[str, str]) -> int:
        with CaptureQueriesContext(connection) as ctx:
            response = owner_client.get("/", headers=headers)
        assert response.status_code == 200
        return len(ctx.captured_queries)

    bulk_memories(owner, 60)
    small_page, small_fragment = queries({}), queries({"HX-Request": "true"})
    Memory.objects.filter(owner=owner).delete()
    bulk_memories(owner, 10_000)
    html = owner_client.get("/").content.decode()
    assert html.count('class="memory state-active"') == 50
    assert "<strong>10000</strong> memories" in html
    # The menus, the stats, the two notices, the Review count, the memories held for the
    # owner's check (issue 37) and whether an app's changes wait for review (issue 26 and 23
    # item 6).
    assert queries({}) == small_page <= 18
    assert queries({"HX-Request": "true"}) == small_fragment <= 10
