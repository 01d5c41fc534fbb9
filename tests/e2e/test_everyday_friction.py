"""Small frictions issue 39 found, in Chromium: erase asked for the password before checking the
typed phrase (then cleared it), Enter on "Add memory" left the focus on the button, an app's
name was capitalised on a memory's page only, and one hidden memory counted twice on Connected
apps."""

from __future__ import annotations

import re
from typing import Any

import pytest

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import User
from memories.models import Memory
from memories.services import adding, marks
from tests.e2e.steps import confirm_password, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def test_erase_checks_the_phrase_first_and_keeps_what_was_typed(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="Owner likes figs")
    log_in(page, owner)
    page.goto("/erase/")
    page.fill("input[name=confirm]", "erase my memories")
    page.check("input[name=delete_account]")
    page.click("main form button[type=submit]")
    page.get_by_role("alert").wait_for()
    assert "/accounts/reauthenticate/" not in page.url  # no password for a wrong phrase
    box = page.locator("input[name=confirm]")
    assert box.input_value() == "erase my memories" and box.evaluate(
        "e => e === document.activeElement"
    )
    assert page.locator("input[name=delete_account]").is_checked()
    box.fill("erase my memory")
    page.uncheck("input[name=delete_account]")
    page.click("main form button[type=submit]")
    confirm_password(page)
    page.get_by_role("heading", name="Erased").wait_for()
    assert not Memory.objects.filter(owner=owner).exists()


def test_enter_on_add_memory_puts_the_focus_in_its_text_box(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="Drinks oat milk")  # the form starts closed
    log_in(page, owner)
    assert not page.locator("#add-text").is_visible()
    page.locator("#add-memory summary").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#add-text:focus")
    page.keyboard.type("Keeps a red kayak in the garage")
    page.keyboard.press("Control+Enter")
    page.locator("#memory-rows > li.memory", has_text="red kayak").wait_for()


def test_an_apps_name_reads_the_same_on_a_memorys_page_as_everywhere(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    claude = actor_for(owner, stdio_app(owner, "claude-desktop"))
    by_app = adding.memory_create(actor=claude, text="Plays the cello").memory
    by_owner = adding.memory_create(actor=owner_dash, text="Drinks oat milk").memory
    log_in(page, owner)
    page.goto(f"/memories/{by_app.id}/")
    origin = page.locator("dl.facts dt", has_text="Origin").locator(
        "xpath=following-sibling::dd[1]"
    )
    assert origin.inner_text() == "claude-desktop"
    page.goto(f"/memories/{by_owner.id}/")
    assert origin.inner_text() == "You, in the dashboard"


def test_a_hidden_memory_counts_once_on_connected_apps(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    """Measured: "Hidden: 1 in health; 1 private" for one memory."""
    app = stdio_app(owner, "claude-desktop")
    insulin = adding.memory_create(
        actor=owner_dash, text="Takes insulin twice a day", categories=["health"]
    ).memory
    marks.memory_set_visibility(actor=owner_dash, memory_id=insulin.id, private=True)
    written = adding.memory_create(
        actor=actor_for(owner, app), text="Sees a cardiologist in May", categories=["health"]
    ).memory  # the app wrote it: it reads it back, so it is not hidden from it
    adding.memory_create(actor=owner_dash, text="Likes tea", categories=["food"])
    assert written.categories == ["health"]
    log_in(page, owner)
    page.goto("/apps/")
    sees = page.locator(f"#app-{app.pk} .app-sees").inner_text()
    assert re.search(r"2 of 3 active memories", sees), sees
    assert "Hidden: 1 private" in sees and "in health" not in sees, sees
