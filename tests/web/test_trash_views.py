"""The dashboard's side of the trash without a browser: "Deleted · Undo" with and without htmx,
the Trash page's restore and delete-for-good (after a confirmation), and app-delete notices.
The same journeys in Chromium, by mouse and keyboard: tests/e2e/test_trash_browser.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory, TrashBatch
from memories.services import adding, deleting
from tests.memories.memory_rows import memory_snapshot, memory_with_history

pytestmark = pytest.mark.django_db


def _text(response: Any) -> str:
    return response.content.decode()


def _undo(html: str) -> str:
    """The batch the page's Undo button restores."""
    found = re.search(
        r'name="batch" value="([0-9a-f-]{36})"><input type="hidden" name="next"', html
    )
    assert found, "no Undo in the page"
    return found.group(1)


def test_a_row_deleted_with_htmx_says_deleted_and_undo_brings_it_back(
    owner: User, owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    memory = memory_with_history(owner_dash, "Grows tomatoes on the balcony")
    before = memory_snapshot(owner)
    response = owner_client.post(
        f"/memories/{memory.id}/delete/",
        headers={**htmx, "HX-Current-URL": "http://testserver/?category=hobbies"},
    )
    html = _text(response)
    assert "Deleted." in html and ">Undo</button>" in html
    assert 'name="next" value="/?category=hobbies"' in html  # back to where the person was
    undo = owner_client.post(
        "/trash/restore/", {"batch": _undo(html), "next": "/?category=hobbies"}
    )
    assert undo.status_code == 302 and undo["Location"] == "/?category=hobbies"
    page = _text(owner_client.get("/?category=hobbies"))
    assert "Restored 1 memory." in page and "Grows tomatoes on the balcony" in page
    assert memory_snapshot(owner) == before


def test_without_javascript_the_delete_and_its_undo_are_plain_forms(
    owner: User, owner_client: Client, owner_dash: Actor
) -> None:
    a = memory_with_history(owner_dash, "Speaks Dutch")
    b = memory_with_history(owner_dash, "Rides a cargo bike")
    before = memory_snapshot(owner)
    done = owner_client.post(
        "/memories/bulk/", {"action": "delete", "ids": [a.id, b.id], "confirm": "on"}
    )
    assert done.status_code == 302
    page = _text(owner_client.get("/"))
    assert "Deleted 2 memories." in page and "Speaks Dutch" not in page
    assert '<a class="stat" href="/trash/"><strong>2</strong> in the trash</a>' in page
    owner_client.post("/trash/restore/", {"batch": _undo(page), "next": "/"})
    assert memory_snapshot(owner) == before


def test_the_trash_page_lists_deletes_and_restores_what_is_ticked(
    owner: User, owner_client: Client, owner_dash: Actor, app_actor: Callable[[User, str], Actor]
) -> None:
    claude = app_actor(owner, "Claude Desktop")
    texts = ["Owns a kayak", "Knits scarves", "Keeps bees"]
    memories = [
        adding.memory_create(actor=owner_dash, text=t, categories=["hobbies"]).memory for t in texts
    ]
    deleting.memory_delete_all(actor=claude)
    page = _text(owner_client.get("/trash/"))
    assert "Claude Desktop deleted 3 memories" in page
    for text in texts:
        assert text in page
    response = owner_client.post("/trash/restore/", {"ids": [memories[0].id, memories[2].id]})
    assert response["Location"] == "/trash/"
    page = _text(owner_client.get("/trash/"))
    assert "Restored 2 memories." in page and "Claude Desktop deleted 1 memory" in page
    assert set(Memory.objects.filter(state="active").values_list("text", flat=True)) == {
        "Owns a kayak",
        "Keeps bees",
    }


def test_delete_for_good_asks_first_and_empty_trash_takes_everything(
    owner: User, owner_client: Client, owner_dash: Actor
) -> None:
    a, b, c = (
        adding.memory_create(actor=owner_dash, text=t).memory
        for t in ("Old habit", "Old address", "Old phone")
    )
    for memory in (a, b, c):
        deleting.memory_delete(actor=owner_dash, memory_id=memory.id)
    ask = owner_client.post("/trash/delete/", {"ids": [a.id]})
    assert "Delete 1 memory for good?" in _text(ask) and "cannot be undone" in _text(ask)
    assert Memory.objects.filter(owner=owner).count() == 3  # asked, nothing done
    done = owner_client.post("/trash/delete/", {"ids": [a.id], "confirm": "on"})
    assert done["Location"] == "/trash/"
    assert "Deleted 1 memory for good." in _text(owner_client.get("/trash/"))
    ask_all = owner_client.post("/trash/delete/", {"everything": "on"})
    assert "Delete 2 memories for good?" in _text(ask_all)
    owner_client.post("/trash/delete/", {"everything": "on", "confirm": "on"})
    assert not Memory.objects.filter(owner=owner).exists()
    assert "The trash is empty" in _text(owner_client.get("/trash/"))


def test_an_apps_delete_shows_a_notice_on_every_page_until_dismissed(
    owner: User, owner_client: Client, owner_dash: Actor, app_actor: Callable[[User, str], Actor]
) -> None:
    claude = app_actor(owner, "Claude Desktop")
    memory = adding.memory_create(actor=owner_dash, text="Visits Porto", categories=["travel"])
    deleting.memory_delete(actor=claude, memory_id=memory.memory.id)
    notice = "<strong>Claude Desktop</strong> deleted 1 memory"
    for path in ("/", "/activity/", "/trash/", "/export/"):
        assert notice in _text(owner_client.get(path)), path
    batch = TrashBatch.objects.get(owner=owner)
    owner_client.post(f"/trash/{batch.id}/seen/", {"next": "/activity/"})
    assert notice not in _text(owner_client.get("/"))
    assert "Claude Desktop deleted 1 memory" in _text(owner_client.get("/trash/"))  # still there


def test_someone_elses_or_a_spent_undo_is_a_404_like_any_missing_id(
    owner: User, owner_client: Client, owner_dash: Actor, stranger_client: Client
) -> None:
    mine = adding.memory_create(actor=owner_dash, text="Mine").memory
    batch = deleting.memory_delete(actor=owner_dash, memory_id=mine.id).batch_id
    for data in ({"batch": str(batch)}, {"ids": [str(mine.id)]}):
        assert stranger_client.post("/trash/restore/", data).status_code == 404
        assert stranger_client.post("/trash/delete/", data).status_code == 404
        confirmed = {**data, "confirm": "on"}
        assert stranger_client.post("/trash/delete/", confirmed).status_code == 404
    assert stranger_client.post(f"/trash/{batch}/seen/").status_code == 302  # nothing to say
    assert TrashBatch.objects.get(pk=batch).seen_at is None
    assert Memory.objects.get(pk=mine.id).state == "trashed"
    assert owner_client.post("/trash/restore/", {"batch": str(batch)}).status_code == 302
    again = owner_client.post("/trash/restore/", {"batch": str(batch)})  # Undo clicked twice
    assert again.status_code == 404
    assert Memory.objects.get(pk=mine.id).state == "active"
