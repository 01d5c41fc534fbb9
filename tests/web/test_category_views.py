"""The dashboard's privacy and category controls through the Django test client: the private
toggle on a row, the detail page and the bulk bar; the Categories page and the notices of new
categories. (The same in Chromium: tests/e2e/test_categories_browser.py.)"""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import User
from activity.models import AccessEvent
from memories.models import Memory, UserCategory
from memories.selectors import memories as memory_reads
from memories.services import adding, changing, marks
from tests.personas import signed_in

pytestmark = pytest.mark.django_db


def _text(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


@pytest.fixture
def cursor(owner: User) -> Actor:
    return actor_for(owner, stdio_app(owner, "Cursor"))


def _cursor_sees(cursor: Actor, memory: Memory) -> bool:
    return memory.id in {m.id for m in memory_reads.memory_list(actor=cursor, record=False).items}


def test_the_rows_toggle_makes_a_memory_private_and_the_row_says_so(
    owner_client: Client, owner_dash: Actor, cursor: Actor, htmx: dict[str, str]
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Alice's PIN hint is her cat").memory
    row = _text(owner_client.get("/"))
    assert "Make private" in row and 'class="badge private"' not in row
    response = owner_client.post(f"/memories/{memory.id}/private/", {"private": "on"}, headers=htmx)
    html = _text(response)
    assert f'<li class="memory state-active" id="m-{memory.id}" tabindex="-1">' in html  # the row
    assert 'class="badge private"' in html and "Unmark private" in html
    assert "Private: no app sees it now." in html  # the message, out of band
    assert not _cursor_sees(cursor, memory)
    # The undo, from the same row.
    owner_client.post(f"/memories/{memory.id}/private/", {"private": "off"}, headers=htmx)
    assert _cursor_sees(cursor, memory)
    assert "Make private" in _text(owner_client.get("/"))


def test_the_detail_page_has_the_private_badge_and_its_undo(
    owner_client: Client, owner_dash: Actor, cursor: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Alice's PIN hint is her cat").memory
    marks.memory_set_visibility(actor=owner_dash, memory_id=memory.id, private=True)
    page = _text(owner_client.get(f"/memories/{memory.id}/"))
    assert "Private</span>" in page and "Unmark private" in page
    response = owner_client.post(f"/memories/{memory.id}/private/", {"private": "off"})
    assert response.status_code == 302 and response["Location"] == f"/memories/{memory.id}/"
    page = _text(owner_client.get(response["Location"]))
    assert "Make private" in page and "No longer private" in page
    assert _cursor_sees(cursor, memory)


def test_the_bulk_bar_makes_several_private_all_or_none(
    owner: User,
    owner_client: Client,
    owner_dash: Actor,
    stranger_dash: Actor,
    cursor: Actor,
    htmx: dict[str, str],
) -> None:
    first = adding.memory_create(actor=owner_dash, text="Alice's first secret").memory
    second = adding.memory_create(actor=owner_dash, text="Alice's second secret").memory
    theirs = adding.memory_create(actor=stranger_dash, text="Bob's note").memory
    # One id that is not the owner's: nothing changes.
    owner_client.post(
        "/memories/bulk/",
        {"action": "private", "ids": [str(first.id), str(theirs.id)]},
        headers=htmx,
    )
    assert not Memory.objects.filter(pk__in=[first.pk, second.pk], is_private=True).exists()
    assert not Memory.objects.get(pk=theirs.pk).is_private
    html = _text(
        owner_client.post(
            "/memories/bulk/",
            {"action": "private", "ids": [str(first.id), str(second.id)]},
            headers=htmx,
        )
    )
    assert "2 memories now private" in html
    assert html.count('class="badge private"') == 2
    assert not _cursor_sees(cursor, first) and not _cursor_sees(cursor, second)
    event = AccessEvent.objects.filter(owner=owner, action=AccessEvent.Action.STATE).latest("id")
    assert set(event.memory_ids) == {first.id, second.id}, "one event for the batch"
    owner_client.post(
        "/memories/bulk/", {"action": "not-private", "ids": [str(first.id)]}, headers=htmx
    )
    assert _cursor_sees(cursor, first) and not _cursor_sees(cursor, second)


def test_another_users_private_toggle_is_a_404(
    owner_dash: Actor, stranger: User, cursor: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Alice's note").memory
    response = signed_in(stranger).post(f"/memories/{memory.id}/private/", {"private": "on"})
    assert response.status_code == 404
    assert not Memory.objects.get(pk=memory.pk).is_private


def test_a_new_category_typed_in_the_add_form_says_who_sees_it_and_can_be_taken_back(
    owner: User, owner_client: Client, cursor: Actor, htmx: dict[str, str]
) -> None:
    html = _text(
        owner_client.post(
            "/memories/add/",
            {"text": "Alice's son plays chess", "categories": "Kids"},
            headers=htmx,
        )
    )
    assert 'id="category-notices"' in html and 'hx-swap-oob="true"' in html
    assert "<strong>Cursor sees it</strong>" in html
    memory = Memory.objects.get(owner=owner, text="Alice's son plays chess")
    assert memory.categories == ["kids"] and _cursor_sees(cursor, memory)
    # "Mark sensitive" in the notice: the undo of the default.
    response = owner_client.post("/categories/kids/sensitive/", {"sensitive": "on", "next": "/"})
    assert response["Location"] == "/"
    page = _text(owner_client.get("/"))
    assert "Kids is sensitive" in page and 'id="notice-kids"' not in page
    assert not _cursor_sees(cursor, memory)


def test_a_sensitive_looking_name_in_the_add_form_starts_sensitive(
    owner: User, owner_client: Client, cursor: Actor
) -> None:
    owner_client.post("/memories/add/", {"text": "Alice's MRI is on Monday", "categories": "scans"})
    owner_client.post(
        "/memories/add/", {"text": "Alice's blood test is Friday", "categories": "Medical"}
    )
    page = _text(owner_client.get("/"))
    assert "started <strong>sensitive</strong>" in page
    assert UserCategory.objects.get(owner=owner, slug="medical").sensitive
    blood = Memory.objects.get(owner=owner, text="Alice's blood test is Friday")
    assert not _cursor_sees(cursor, blood)
    owner_client.post("/categories/medical/reviewed/", {"next": "/"})
    assert 'id="notice-medical"' not in _text(owner_client.get("/"))


def test_the_categories_page_lists_every_category_with_its_count_and_apps(
    owner: User, owner_client: Client, owner_dash: Actor, cursor: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="Alice's son plays chess", categories=["kids"])
    adding.memory_create(actor=owner_dash, text="Alice takes insulin", categories=["health"])
    page = _text(owner_client.get("/categories/"))
    assert 'aria-current="page">Categories' in page
    for slug in ("personal", "health", "legal", "kids"):
        assert f'id="category-{slug}"' in page
    kids = page[page.index('id="category-kids"') :]
    kids = kids[: kids.index("</tr>")]
    assert '<td class="category-count" data-label="Memories">1</td>' in kids
    assert ">Cursor</a>" in kids
    assert "Rename" in kids and "Delete" in kids
    health = page[page.index('id="category-health"') :]
    health = health[: health.index("</tr>")]
    assert 'aria-pressed="true"' in health and "no app" in health
    assert "A default: its name stays." in health


def test_the_categories_page_adds_renames_merges_and_deletes(
    owner: User, owner_client: Client, owner_dash: Actor, cursor: Actor
) -> None:
    response = owner_client.post(
        "/categories/add/", {"name": "Kids", "description": "My children", "sensitive": ""}
    )
    assert response.status_code == 302
    page = _text(owner_client.get("/categories/"))
    assert "Added Kids. Cursor sees it." in page
    son = adding.memory_create(
        actor=owner_dash, text="Alice's son is nine", categories=["kids"]
    ).memory
    owner_client.post("/categories/kids/edit/", {"name": "Children", "description": "My kids"})
    page = _text(owner_client.get("/categories/"))
    assert "Renamed Kids to Children: 1 memory follow" in page
    son.refresh_from_db()
    assert son.categories == ["children"]
    owner_client.post("/categories/children/merge/", {"into": "relationships"})
    son.refresh_from_db()
    assert son.categories == ["relationships"]
    assert "Merged Children into Relationships: 1 memory moved." in _text(
        owner_client.get("/categories/")
    )
    owner_client.post("/categories/add/", {"name": "pets"})
    changing.memory_set_categories(actor=owner_dash, memory_id=son.id, categories=["pets", "home"])
    owner_client.post("/categories/pets/delete/")
    son.refresh_from_db()
    assert son.categories == ["home"]
    assert "Deleted Pets: 1 memory keep their other categories." in _text(
        owner_client.get("/categories/")
    )
    # A default stays: the page says why instead of failing.
    owner_client.post("/categories/health/delete/")
    assert "cannot be deleted" in _text(owner_client.get("/categories/"))


def test_a_new_category_with_a_sensitive_name_says_why_it_starts_sensitive(
    owner_client: Client, cursor: Actor
) -> None:
    owner_client.post("/categories/add/", {"name": "Therapy notes"})
    page = _text(owner_client.get("/categories/"))
    assert "Added Therapy notes. It starts sensitive because its name looks like Health" in page


def test_another_user_cannot_change_the_owners_categories(
    owner: User, owner_dash: Actor, stranger: User
) -> None:
    adding.memory_create(actor=owner_dash, text="Alice's son", categories=["kids"])
    browser = signed_in(stranger)
    for path, data in (
        ("/categories/kids/sensitive/", {"sensitive": "on"}),
        ("/categories/kids/reviewed/", {}),
    ):
        assert browser.post(path, data).status_code == 404
    browser.post("/categories/kids/edit/", {"name": "children"})
    browser.post("/categories/kids/merge/", {"into": "work"})
    browser.post("/categories/kids/delete/")
    row = UserCategory.objects.get(owner=owner, slug="kids")
    assert not row.sensitive and row.reviewed_at is None
    assert Memory.objects.get(owner=owner).categories == ["kids"]
    assert 'id="category-kids"' not in _text(browser.get("/categories/"))
