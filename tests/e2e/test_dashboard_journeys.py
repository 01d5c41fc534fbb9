"""Everyday journeys on the memories page, by mouse and by keyboard, as a person sees them.

Each test waits on what the person would see (a row, a message, the focus), never on time. Where
a test must show that something does *not* happen later (results fetched again under the
pointer), it waits for the network to go quiet and counts the requests the page made.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.actors import Actor
from accounts.models import User
from memories import services
from memories.models import Memory
from tests.e2e.conftest import row_with, sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

TEXTS = [
    "Learning Portuguese on Duolingo, about 15 minutes a day",
    "Flying to Lisbon in May for a data conference",
    "Prefers concise answers with code first",
    "Has a cat called Miso",
]


@pytest.fixture
def store(owner: User, owner_dash: Actor) -> list[Memory]:
    return [services.memory_create(actor=owner_dash, text=t).memory for t in TEXTS]


def list_requests(page: Any) -> list[str]:
    """Every request the page makes for the memory list (search, filters), in order."""
    seen: list[str] = []

    def on_request(request: Any) -> None:
        path = request.url.split("?")[0]
        if path.endswith("/") and "/memories/" not in path and request.headers.get("hx-request"):
            seen.append(request.url)

    page.on("request", on_request)
    return seen


def search(page: Any, query: str) -> None:
    """Type a query the way a person does and wait for its results."""
    page.locator("#f-q").press_sequentially(query)
    page.get_by_text(f"Best matches for “{query}”").wait_for()


def focused(page: Any) -> str:
    """The focused element's id, or its tag name when it has none ('BODY' when focus is lost)."""
    return str(page.evaluate("document.activeElement.id || document.activeElement.tagName"))


def test_search_then_edit_on_the_first_click(page: Any, store: list[Memory]) -> None:
    sign_in(page)
    requests = list_requests(page)
    search(page, "portuguese")
    fetched = len(requests)
    row_with(page, "Portuguese").get_by_role("link", name="Edit").click()
    editor = page.locator("li.memory.editing textarea")
    editor.wait_for()
    page.wait_for_load_state("networkidle")
    assert editor.is_visible()  # not replaced by a second fetch of the same results
    assert len(requests) == fetched
    assert "Portuguese" in editor.input_value()


def test_search_then_delete_on_the_first_click(page: Any, store: list[Memory]) -> None:
    sign_in(page)
    search(page, "portuguese")
    row_with(page, "Portuguese").get_by_role("link", name="Delete").click()
    page.get_by_text("Delete this memory for good?").wait_for()
    page.wait_for_load_state("networkidle")
    assert page.get_by_text("Delete this memory for good?").is_visible()


def test_search_then_select_on_the_first_click(page: Any, store: list[Memory]) -> None:
    sign_in(page)
    search(page, "lisbon")
    box = row_with(page, "Lisbon").locator("input.select")
    box.click()
    page.wait_for_load_state("networkidle")
    assert box.is_checked()
    assert page.inner_text("#selected-count") == "1 selected"


def test_search_then_act_by_keyboard(page: Any, store: list[Memory]) -> None:
    sign_in(page)
    page.keyboard.press("/")
    page.keyboard.type("portuguese")
    page.get_by_text("Best matches for “portuguese”").wait_for()
    requests = list_requests(page)
    page.keyboard.press("Tab")
    page.wait_for_load_state("networkidle")
    assert focused(page) != "BODY"
    assert requests == []  # leaving the box does not fetch the same results again
    # Onwards to the first result's Edit, and into its editor.
    for _ in range(40):
        if page.evaluate("document.activeElement.textContent") == "Edit":
            break
        page.keyboard.press("Tab")
    assert "Portuguese" in page.evaluate("document.activeElement.closest('li').textContent")
    page.keyboard.press("Enter")
    page.wait_for_selector("li.memory.editing textarea:focus")
