"""What a person clicks to keep memories from apps, in Chromium, and what an app then finds
through MCP with the real SDK client: the private toggle on a row; a new category typed in the
add form and its notice; the Categories page's add, sensitive, merge, rename and delete.

The whole app runs under uvicorn (tests/servers.py `start_whole_app`), so the browser and the
MCP client talk to the same server, as they do in production."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import Memory, UserCategory
from memories.services import adding
from tests.browser import off_thread
from tests.e2e.steps import TIMEOUT, sign_in
from tests.mcpbridge.mcp_clients import McpHttp
from tests.personas import issue_token
from tests.servers import start_whole_app, stop_server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


@pytest.fixture(scope="session")
def app_url(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """For the session: stopped after every browser is closed (a module-scoped server stopped
    under a live Chromium left a session behind that kept the test database from being dropped).
    """
    with django_db_blocker.unblock():
        live = start_whole_app()
    yield live.url
    with django_db_blocker.unblock():
        stop_server(live)


@pytest.fixture
def tab(browser: Any, app_url: str, transactional_db: None) -> Iterator[Any]:
    context = browser.new_context(base_url=app_url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    violations: list[str] = []

    def on_console(message: Any) -> None:
        if "Content Security Policy" in message.text:
            violations.append(message.text)

    page.on("console", on_console)
    yield page
    context.close()
    assert violations == []


@pytest.fixture
def claude(owner: User, app_url: str) -> McpHttp:
    """An app connected with the default grant (every category but the sensitive ones)."""
    return McpHttp(app_url, issue_token(owner, name="Claude Desktop").secret)


def found(app: McpHttp, query: str) -> list[str]:
    result = off_thread(lambda: app.call("search_memory", {"query": query}))
    assert not result.is_error
    return [hit["text"] for hit in result.structured_content["results"]]


def message(page: Any) -> str:
    return page.locator("#messages").inner_text()


def test_a_private_toggle_on_a_row_hides_the_memory_from_an_app(
    tab: Any, owner: User, claude: McpHttp
) -> None:
    text = "Alice's bank PIN hint is the name of her first cat"
    adding.memory_create(actor=owner_actor(owner), text=text, categories=["personal"])
    assert found(claude, "PIN hint first cat") == [text]

    sign_in(tab)
    row = tab.locator("#memory-rows > li.memory", has_text=text)
    row.get_by_role("button", name="Make private").click()
    row.locator(".badge.private").wait_for()
    assert row.locator(".badge.private").inner_text().lower() == "private"
    assert "Private: no app sees it now." in message(tab)
    assert Memory.objects.get(text=text).is_private
    assert found(claude, "PIN hint first cat") == []

    row.get_by_role("button", name="Unmark private").click()
    row.get_by_role("button", name="Make private").wait_for()
    assert row.locator(".badge.private").count() == 0
    assert found(claude, "PIN hint first cat") == [text]

    # The detail page: the PRIVATE badge and its undo.
    row.get_by_role("button", name="Make private").click()
    row.get_by_role("button", name="Unmark private").wait_for()
    row.get_by_role("link", name="Open").click()
    tab.wait_for_url(re.compile(r"/memories/"))
    assert tab.locator(".top-meta .badge.private").is_visible()
    tab.get_by_role("button", name="Unmark private").click()
    tab.get_by_role("button", name="Make private").wait_for()
    assert tab.locator(".top-meta .badge.private").count() == 0
    assert found(claude, "PIN hint first cat") == [text]


def test_a_new_category_from_the_add_form_is_shared_until_marked_sensitive(
    tab: Any, owner: User, claude: McpHttp
) -> None:
    adding.memory_create(actor=owner_actor(owner), text="Alice works at Acme")
    sign_in(tab)
    tab.locator("#add-memory summary").click()
    tab.fill("#add-text", "Her son Leo plays chess on Saturdays")
    tab.fill("#add-categories", "Kids")
    tab.get_by_role("button", name="Save memory").click()
    notice = tab.locator("#notice-kids")
    notice.wait_for()
    assert "Claude Desktop sees it" in notice.inner_text()
    assert found(claude, "Leo chess") == ["Her son Leo plays chess on Saturdays"]

    notice.get_by_role("button", name="Mark sensitive").click()
    tab.wait_for_url(re.compile(r"/$"))
    assert "Kids is sensitive" in message(tab)
    assert tab.locator("#notice-kids").count() == 0
    assert found(claude, "Leo chess") == []


def test_the_categories_page_changes_what_an_app_finds(
    tab: Any, owner: User, claude: McpHttp
) -> None:
    dash = owner_actor(owner)
    son = "Her son Leo plays chess on Saturdays"
    session = "Talked about her father's death with the counsellor"
    adding.memory_create(actor=dash, text=son, categories=["kids"])
    UserCategory.objects.filter(owner=owner, slug="kids").update(reviewed_at="2026-01-01T00:00Z")
    sign_in(tab)
    tab.goto("/categories/")
    kids = tab.locator("#category-kids")
    assert kids.locator(".category-count").inner_text() == "1"
    assert kids.locator(".category-seen-by").inner_text() == "Claude Desktop"

    # Add a category whose name looks sensitive: it starts sensitive, and the page says why.
    tab.fill("#new-category-name", "Grief counselling")
    tab.get_by_role("button", name="Add category").click()
    tab.wait_for_url(re.compile(r"/categories/$"))
    assert "starts sensitive because its name looks like Health" in message(tab)
    grief = tab.locator("#category-grief-counselling")
    assert (
        grief.get_by_role("button", name=re.compile("^Sensitive")).get_attribute("aria-pressed")
        == "true"
    )
    assert grief.locator(".category-seen-by").inner_text() == "no app"
    adding.memory_create(actor=dash, text=session, categories=["grief-counselling"])
    assert found(claude, "father counsellor") == []

    # Merge it into Kids: nothing Claude could not see becomes visible; Kids goes with it.
    grief.locator("summary", has_text="Merge").click()
    grief.get_by_label("Merge Grief counselling into").select_option("kids")
    grief.get_by_role("button", name="Merge", exact=True).click()
    tab.wait_for_url(re.compile(r"/categories/$"))
    assert "Merged Grief counselling into Kids: 1 memory moved." in message(tab)
    kids = tab.locator("#category-kids")
    assert kids.locator(".category-count").inner_text() == "2"
    assert (
        kids.get_by_role("button", name=re.compile("^Sensitive")).get_attribute("aria-pressed")
        == "true"
    )
    assert kids.locator(".category-seen-by").inner_text() == "no app"
    assert found(claude, "father counsellor") == [] and found(claude, "Leo chess") == []

    # Rename Kids: its memories follow.
    kids.locator("summary", has_text="Rename").click()
    kids.get_by_label("New name").fill("Family matters")
    kids.get_by_role("button", name="Save").click()
    tab.wait_for_url(re.compile(r"/categories/$"))
    assert "Renamed Kids to Family matters: 2 memories follow" in message(tab)
    family = tab.locator("#category-family-matters")
    assert family.locator(".category-count").inner_text() == "2"
    assert sorted(Memory.objects.get(text=t).categories[0] for t in (son, session)) == [
        "family-matters",
        "family-matters",
    ]

    # Unmarking sensitive does not undo the merge's narrowing: the merge unticked the category
    # for Claude (it could not see what was merged in); the owner ticks it on Claude's page.
    family.get_by_role("button", name=re.compile("^Sensitive")).click()
    tab.wait_for_url(re.compile(r"/categories/$"))
    assert "Family matters is no longer sensitive. No connected app sees it." in message(tab)
    assert found(claude, "Leo chess father counsellor") == []

    # Delete it: the memories stay, and what Claude could not see it still cannot.
    family = tab.locator("#category-family-matters")
    family.locator("summary", has_text="Delete").click()
    family.get_by_role("button", name="Delete Family matters").click()
    tab.wait_for_url(re.compile(r"/categories/$"))
    assert "Deleted Family matters: 2 memories keep their other categories." in message(tab)
    assert tab.locator("#category-family-matters").count() == 0
    assert Memory.objects.filter(text__in=[son, session]).count() == 2
    assert found(claude, "Leo chess father counsellor") == [], "deleting reveals nothing"
