"""The dashboard in a real browser: the main story, hostile memory text, CSP, screenshots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory
from memories.services import adding
from tests.e2e.seed import seed_store
from tests.e2e.steps import TIMEOUT, row_with, rows, sign_in, watch_dialogs

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
HOSTILE = "<img src=x onerror=alert(1)><script>alert(2)</script>"


def is_csp(msg: Any) -> bool:
    return "Content Security Policy" in msg.text


def test_the_main_story_in_a_browser(page: Any, owner: User, owner_dash: Actor) -> None:
    for text in [
        "I work as a data engineer at Acme Corp",
        "My favourite programming language is Rust",
        "Flying to Lisbon in May for a conference",
        "I take the train to work on Tuesdays",
    ]:
        adding.memory_create(actor=owner_dash, text=text)
    sign_in(page)
    assert rows(page).count() == 4

    # Add a memory.
    page.click(".add-memory summary")
    page.fill("#add-text", "My daughter Alice is allergic to peanuts")
    page.fill("#add-categories", "health, relationships")
    page.click("#add-form button[type=submit]")
    new_row = row_with(page, "allergic to peanuts")
    new_row.wait_for()
    assert rows(page).first.inner_text().startswith("My daughter Alice")

    # Find it by typing a paraphrase (no shared words) into search.
    page.fill("#f-q", "which nuts must my kid avoid")
    page.wait_for_selector("text=Best matches for")
    assert "allergic to peanuts" in rows(page).first.locator(".memory-text").inner_text()
    assert "q=which" in page.url

    # Edit it inline; the old text becomes a version in its history.
    page.fill("#f-q", "")
    page.goto("/")
    row_with(page, "peanuts").get_by_role("link", name="Edit").click()
    page.locator("li.memory.editing textarea").fill(
        "My daughter Alice is allergic to peanuts and cashews"
    )
    page.locator("li.memory.editing").get_by_role("button", name="Save").click()
    row_with(page, "and cashews").wait_for()
    row_with(page, "and cashews").get_by_role("link", name="Open").click()
    page.wait_for_selector("#history-heading")
    history = page.locator(".history .version")
    assert history.count() == 2  # the current text and the original
    assert history.first.locator(".diff ins").inner_text().strip() == "and cashews"

    # Restore the original: the text goes back, and the replaced text is kept too.
    history.last.get_by_role("button", name="Restore this version").click()
    page.wait_for_selector("text=Restored.")
    assert page.locator(".main-card .memory-text").inner_text().strip() == (
        "My daughter Alice is allergic to peanuts"
    )
    assert page.locator(".history .version").count() == 3

    # Bulk-archive two memories: they leave the default (active) view.
    page.goto("/")
    row_with(page, "Acme Corp").locator("input.select").check()
    row_with(page, "Lisbon").locator("input.select").check()
    assert page.inner_text("#selected-count") == "2 selected"
    page.select_option("#bulk-action", "archived")
    page.click("#bulk-apply")
    page.wait_for_selector("text=2 memories now archived.")
    assert row_with(page, "Acme Corp").count() == 0
    assert row_with(page, "Lisbon").count() == 0
    page.select_option("#f-state", "archived")
    row_with(page, "Lisbon").wait_for()
    assert rows(page).count() == 2

    # Delete one, after a confirmation.
    page.goto("/")
    row_with(page, "Rust").get_by_role("link", name="Delete").click()
    page.wait_for_selector("text=Delete this memory?")
    page.locator("li.memory.confirming").get_by_role("button", name="Delete").click()
    page.wait_for_selector("text=Deleted.")
    assert page.locator(".message").count() == 1
    page.reload()
    assert row_with(page, "Rust").count() == 0
    assert Memory.objects.get(text__contains="Rust").state == "trashed"  # in the trash
    assert page.csp_violations == []


def test_hostile_memory_text_is_shown_as_text(page: Any, owner: User, owner_dash: Actor) -> None:
    hostile = adding.memory_create(actor=owner_dash, text=HOSTILE).memory
    dialogs = watch_dialogs(page)
    sign_in(page)
    assert rows(page).first.locator(".memory-text").inner_text() == HOSTILE
    assert page.locator(".memory-text img, .memory-text script").count() == 0
    page.goto(f"/memories/{hostile.id}/")
    assert page.locator(".main-card .memory-text").inner_text().strip() == HOSTILE
    assert page.input_value("#detail-text") == HOSTILE  # the edit form holds it as text too
    page.goto("/?q=img+script+alert")
    page.wait_for_timeout(500)
    assert dialogs == []
    assert page.csp_violations == []


def test_hide_text_switch_blurs_memory_text_and_is_remembered(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="A secret worth blurring")
    sign_in(page)
    text = rows(page).first.locator(".memory-text")
    assert text.evaluate("e => getComputedStyle(e).filter") == "none"
    page.click("#hide-text-toggle")
    assert page.get_attribute("#hide-text-toggle", "aria-pressed") == "true"
    assert "blur" in text.evaluate("e => getComputedStyle(e).filter")
    page.goto("/map/")
    page.goto("/")
    assert "blur" in rows(page).first.locator(".memory-text").evaluate(
        "e => getComputedStyle(e).filter"
    )


def test_screenshots_of_the_main_pages(
    browser: Any, live_server: Any, owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    """Takes the README's screenshots and checks no page breaks the CSP.

    They are written to docs/screenshots only with UPDATE_SCREENSHOTS=1, so a test run leaves the
    checkout clean.
    """
    seed_store(owner, owner_dash)
    edited = Memory.objects.get(text__startswith="Prefers aisle")
    folder = SCREENSHOTS if os.environ.get("UPDATE_SCREENSHOTS") == "1" else tmp_path
    shots = [
        ("memories", "/", "light", 1280),
        ("memory-detail", f"/memories/{edited.id}/", "light", 1280),
        ("map", "/map/", "light", 1280),
        ("activity", "/activity/", "light", 1280),
        ("connect", "/connect/", "light", 1280),
        ("memories-dark", "/", "dark", 1280),
        ("memories-phone", "/", "light", 390),
    ]
    violations: list[str] = []
    for name, path, scheme, width in shots:
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": width, "height": 900},
            color_scheme=scheme,
            device_scale_factor=1,
        )
        context.set_default_timeout(TIMEOUT)
        page = context.new_page()
        page.on("console", lambda msg: violations.extend([msg.text] * is_csp(msg)))
        if name == "memories":  # the sign-in page on the way in
            page.goto("/accounts/login/")
            page.screenshot(path=str(folder / "sign-in.png"))
        sign_in(page)
        page.goto(path)
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(folder / f"{name}.png"), full_page=width > 600)
        context.close()
    assert violations == []


def test_keyboard_reaches_search_and_row_actions(page: Any, owner: User, owner_dash: Actor) -> None:
    adding.memory_create(actor=owner_dash, text="Reachable by keyboard")
    sign_in(page)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "f-q"
    edit = row_with(page, "Reachable").get_by_role("link", name="Edit")
    edit.focus()
    page.keyboard.press("Enter")
    # The inline editor opens with the focus in its text box; Escape-free: Tab reaches Save.
    page.wait_for_selector("li.memory.editing textarea:focus")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Save"
