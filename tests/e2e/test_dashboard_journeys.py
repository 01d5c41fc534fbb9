"""Everyday journeys on the memories page, by mouse and by keyboard, as a person sees them.

Each test waits on what the person would see (a row, a message, the focus), never on time. Where
a test must show that something does *not* happen later (results fetched again under the
pointer), it waits for the network to go quiet and counts the requests the page made.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory
from memories.services import adding, changing
from tests.e2e.steps import log_in, row_with
from tests.memories.fake_llm import Brain

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

TEXTS = [
    "Learning Portuguese on Duolingo, about 15 minutes a day",
    "Flying to Lisbon in May for a data conference",
    "Prefers concise answers with code first",
    "Has a cat called Miso",
]


@pytest.fixture
def store(owner: User, owner_dash: Actor) -> list[Memory]:
    return [adding.memory_create(actor=owner_dash, text=t).memory for t in TEXTS]


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


def test_a_search_about_nothing_in_the_store_says_so_and_the_next_one_finds(
    page: Any, store: list[Memory], owner: User
) -> None:
    log_in(page, owner)
    page.locator("#f-q").press_sequentially("xyzzy qwerty nonsense")
    expect(page.get_by_role("heading", name="Nothing relevant")).to_be_visible()
    expect(page.get_by_text("Best matches for")).to_have_count(0)
    expect(page.locator("li.memory")).to_have_count(0)  # no filler under a heading of matches
    page.locator("#f-q").fill("")
    search(page, "lisbon")
    expect(row_with(page, "Lisbon")).to_be_visible()
    expect(page.get_by_role("heading", name="Nothing relevant")).to_have_count(0)


def focused(page: Any) -> str:
    """The focused element's id, or its tag name when it has none ('BODY' when focus is lost)."""
    return str(page.evaluate("document.activeElement.id || document.activeElement.tagName"))


def active_text(page: Any) -> str:
    return str(page.evaluate("document.activeElement.textContent")).strip()


def active_row(page: Any) -> str:
    """The text of the memory row holding the focus ('' when the focus is outside the rows)."""
    return str(
        page.evaluate(
            "(() => { const r = document.activeElement.closest('li.memory');"
            " return r ? r.querySelector('.memory-text').textContent : ''; })()"
        )
    )


def test_search_then_edit_on_the_first_click(page: Any, store: list[Memory], owner: User) -> None:
    log_in(page, owner)
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


def test_search_then_delete_on_the_first_click(page: Any, store: list[Memory], owner: User) -> None:
    log_in(page, owner)
    search(page, "portuguese")
    row_with(page, "Portuguese").get_by_role("link", name="Delete").click()
    page.get_by_text("Delete this memory?").wait_for()
    page.wait_for_load_state("networkidle")
    assert page.get_by_text("Delete this memory?").is_visible()


def test_search_then_select_on_the_first_click(page: Any, store: list[Memory], owner: User) -> None:
    log_in(page, owner)
    search(page, "lisbon")
    box = row_with(page, "Lisbon").locator("input.select")
    box.click()
    page.wait_for_load_state("networkidle")
    assert box.is_checked()
    assert page.inner_text("#selected-count") == "1 selected"


def test_search_then_act_by_keyboard(page: Any, store: list[Memory], owner: User) -> None:
    log_in(page, owner)
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
    assert "Portuguese" in active_row(page)
    # Select the row by keyboard (back to its checkbox, Space), then edit it.
    for _ in range(6):  # past the Open link and the row's category links
        page.keyboard.press("Shift+Tab")
        if page.evaluate("document.activeElement.type") == "checkbox":
            break
    assert "Portuguese" in active_row(page)
    page.keyboard.press("Space")
    assert page.inner_text("#selected-count") == "1 selected"
    for _ in range(6):
        page.keyboard.press("Tab")
        if active_text(page) == "Edit":
            break
    assert "Portuguese" in active_row(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("li.memory.editing textarea:focus")
    assert requests == []
    assert page.csp_violations == []


def test_a_refused_add_keeps_the_text_and_a_saved_one_closes_the_form(
    page: Any, store: list[Memory], owner: User
) -> None:
    log_in(page, owner)
    page.get_by_text("Add memory").click()
    pasted = "A very long note. " * 667  # 12,006 characters, more than the 10,000 allowed
    page.fill("#add-text", pasted)
    page.get_by_role("button", name="Save memory").click()
    page.get_by_role("alert").filter(has_text="the limit is 10000").wait_for()
    assert page.input_value("#add-text") == pasted  # nothing the person wrote is lost
    assert page.get_attribute("#add-memory", "open") is not None
    assert focused(page) == "add-text"
    assert Memory.objects.count() == len(TEXTS)

    page.fill("#add-text", "Prefers trains to planes in Europe")
    page.get_by_role("button", name="Save memory").click()
    row_with(page, "Prefers trains").wait_for()
    assert page.get_attribute("#add-memory", "open") is None  # closed, not covering the filters
    assert page.locator(".message").all_inner_texts() == ["Memory added."]
    assert page.locator("#memory-rows .message, #memory-rows [role=status]").count() == 0
    assert active_text(page) == "Add memory"
    page.get_by_text("Add memory").click()
    assert page.input_value("#add-text") == ""  # emptied for the next one
    page.keyboard.press("Escape")
    assert page.get_attribute("#add-memory", "open") is None
    assert active_text(page) == "Add memory"


def test_an_add_the_model_finds_nothing_in_keeps_the_text_and_says_why(
    page: Any, store: list[Memory], owner: User, fake_provider: Brain
) -> None:
    fake_provider.facts = {"bouldering": ["Goes bouldering on Tuesdays"]}
    log_in(page, owner)
    page.get_by_text("Add memory").click()
    page.fill("#add-text", "Thanks, that was helpful!")
    page.get_by_role("button", name="Save memory").click()
    page.get_by_role("status").filter(has_text="found no lasting fact").wait_for()
    assert page.input_value("#add-text") == "Thanks, that was helpful!"  # there to rephrase
    assert page.get_attribute("#add-memory", "open") is not None
    assert focused(page) == "add-text"
    assert page.locator("#add-text").get_attribute("aria-invalid") is None  # not an error
    assert Memory.objects.count() == len(TEXTS)

    page.fill("#add-text", "I go bouldering every Tuesday evening")
    page.get_by_role("button", name="Save memory").click()
    row_with(page, "Goes bouldering on Tuesdays").wait_for()
    assert page.get_attribute("#add-memory", "open") is None
    assert page.locator(".message").all_inner_texts() == ["1 fact(s): 1 added."]
    assert page.get_by_text("found no lasting fact").count() == 0
    assert page.csp_violations == []


def test_delete_confirmation_is_safe_by_default_and_focus_moves_to_the_next_row(
    page: Any, store: list[Memory], owner: User
) -> None:
    log_in(page, owner)
    cat = row_with(page, "cat called Miso")
    cat.get_by_role("link", name="Delete").click()
    page.get_by_text("Delete this memory?").wait_for()
    assert active_text(page) == "Cancel"  # Enter on the confirmation does not delete
    page.keyboard.press("Enter")
    expect(cat.get_by_role("link", name="Delete")).to_be_focused()  # after the swap settles
    assert active_text(page) == "Delete" and "Miso" in active_row(page)
    assert Memory.objects.filter(text__contains="Miso").exists()

    page.keyboard.press("Enter")  # the Delete link again, by keyboard
    page.get_by_text("Delete this memory?").wait_for()
    expect(page.get_by_role("link", name="Cancel")).to_be_focused()  # what the person sees
    page.keyboard.press("Escape")
    expect(cat.get_by_role("link", name="Delete")).to_be_focused()  # after the swap settles
    assert active_text(page) == "Delete" and "Miso" in active_row(page)

    order = [t.strip() for t in page.locator("#memory-rows .memory-text").all_inner_texts()]
    below = order[order.index("Has a cat called Miso") + 1]
    page.keyboard.press("Enter")
    page.get_by_text("Delete this memory?").wait_for()
    page.locator("li.memory.confirming").get_by_role("button", name="Delete").click()
    page.get_by_text("Deleted.").wait_for()
    assert cat.count() == 0
    page.locator("li.memory:focus-within").wait_for()  # the focus settles on a row...
    assert active_row(page) == below  # ...the next one, not <body>
    assert page.locator(".message").all_inner_texts() == ["Deleted. Undo"]


def test_editing_a_row_by_keyboard_and_escape_leaves_the_focus_on_edit(
    page: Any, store: list[Memory], owner: User
) -> None:
    log_in(page, owner)
    # A slow settle widens the moment between a swap and htmx processing the new row, when Enter
    # on a focused link would follow its plain href: the focus must never land there unprocessed.
    page.evaluate("htmx.config.defaultSettleDelay = 400")
    edit = row_with(page, "Lisbon").get_by_role("link", name="Edit")
    edit.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("li.memory.editing textarea:focus")
    page.keyboard.press("Escape")
    row_with(page, "Lisbon").get_by_role("link", name="Edit").wait_for()
    assert active_text(page) == "Edit" and "Lisbon" in active_row(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("li.memory.editing textarea:focus")
    page.keyboard.press("End")
    page.keyboard.type(" (Web Summit)")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # Save
    row_with(page, "(Web Summit)").wait_for()
    assert active_text(page) == "Edit" and "(Web Summit)" in active_row(page)
    assert page.locator(".message").all_inner_texts() == ["Saved."]


def test_a_bulk_action_shows_one_message(page: Any, store: list[Memory], owner: User) -> None:
    log_in(page, owner)
    row_with(page, "Lisbon").locator("input.select").check()
    row_with(page, "Miso").locator("input.select").check()
    page.select_option("#bulk-action", "paused")
    page.click("#bulk-apply")
    page.get_by_text("2 memories now paused.").wait_for()
    assert page.get_by_text("2 memories now paused.").count() == 1
    assert page.locator(".message").count() == 1
    assert row_with(page, "Lisbon").count() == 0


def test_history_restore_brings_back_the_text_the_entry_shows(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Lives in Leeds").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Lives in York")
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Lives in Bath")
    log_in(page, owner)
    page.goto(f"/memories/{memory.id}/")
    entries = page.locator(".history .version")
    assert entries.count() == 3
    assert entries.first.locator(".version-label").text_content() == "Current"
    assert entries.first.get_by_role("button", name="Restore this version").count() == 0
    original = entries.last
    assert original.locator(".version-label").text_content() == "Original"
    shown = original.locator(".version-text").inner_text().strip()
    middle = entries.nth(1)
    assert middle.locator(".diff ins").inner_text() == "York"  # green is in this version
    assert middle.locator(".version-text").inner_text().strip() == "Lives in York"
    original.get_by_role("button", name="Restore this version").click()
    page.get_by_text("Restored.").wait_for()
    assert page.locator(".main-card .memory-text").inner_text().strip() == shown
    assert page.locator(".history .version").first.locator(".version-text").inner_text() == shown
