"""The trash in Chromium, as the owner meets it: "Deleted · Undo" after a delete (a row, a bulk
selection; by mouse and by keyboard), the notice of an app's delete and its Restore, and the
Trash page (restore one, delete for good after a confirmation).

Issue 23's measured item 1 is replayed whole: the stdio app of the Connect page's snippet runs
`delete_all_memories {"confirm": true}` through the MCP SDK, and the owner brings all 40
memories back from the dashboard."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio
import pytest
from mcp.client import Client
from playwright.sync_api import expect

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory
from memories.services import adding, deleting
from tests.e2e.steps import log_in, row_with, rows
from tests.mcpbridge.mcp_clients import stdio_server
from tests.memories.memory_rows import forty_memories, memory_snapshot, memory_with_history

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def test_a_deleted_row_comes_back_with_undo_by_mouse_and_by_keyboard(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    memory_with_history(owner_dash, "Swims in the sea every morning")
    memory_with_history(owner_dash, "Keeps a reading journal")
    before = memory_snapshot(owner)
    log_in(page, owner)

    swim = row_with(page, "Swims in the sea")
    swim.get_by_role("link", name="Delete").click()
    page.get_by_text("It goes to the trash with its history").wait_for()
    page.locator("li.memory.confirming").get_by_role("button", name="Delete").click()
    expect(page.locator(".message")).to_have_text("Deleted. Undo")
    expect(swim).to_have_count(0)
    page.get_by_role("button", name="Undo").click()
    expect(page.locator(".message")).to_have_text("Restored 1 memory.")
    expect(row_with(page, "Swims in the sea").locator(".chip")).to_have_text("hobbies")

    # By keyboard: the page's content (where "Skip to content" leads) starts with the Undo.
    journal = row_with(page, "reading journal")
    journal.get_by_role("link", name="Delete").focus()
    page.keyboard.press("Enter")
    page.get_by_text("It goes to the trash with its history").wait_for()
    page.keyboard.press("Shift+Tab")  # from Cancel (focused first) to Delete
    page.keyboard.press("Enter")
    expect(journal).to_have_count(0)
    page.locator("#main").focus()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Undo")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".message")).to_have_text("Restored 1 memory.")
    expect(rows(page)).to_have_count(2)
    assert memory_snapshot(owner) == before
    assert page.csp_violations == []


def test_a_bulk_delete_is_one_undo(page: Any, owner: User, owner_dash: Actor) -> None:
    for text in ("Drinks oat milk", "Runs 10k on Sundays", "Owns a Brompton"):
        adding.memory_create(actor=owner_dash, text=text, categories=["hobbies"])
    before = memory_snapshot(owner)
    log_in(page, owner)
    page.locator("#select-all").check()
    page.select_option("#bulk-action", "delete")
    page.click("#bulk-apply")
    page.get_by_text("They go to the trash").wait_for()
    page.get_by_role("button", name="Delete 3").click()
    expect(page.locator(".message")).to_have_text("Deleted 3 memories. Undo")
    expect(rows(page)).to_have_count(0)
    expect(page.locator("#stats")).to_contain_text("3 in the trash")
    page.get_by_role("button", name="Undo").click()
    expect(page.locator(".message")).to_have_text("Restored 3 memories.")
    expect(rows(page)).to_have_count(3)
    assert memory_snapshot(owner) == before


def test_an_assistant_deletes_all_40_over_stdio_and_the_owner_restores_them(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    forty_memories(owner)
    before = memory_snapshot(owner)
    # The Connect page's snippet, with the delete scope the owner granted it.
    params = stdio_server(owner.email, "--scopes", "read,write,delete")

    async def wipe() -> Any:
        async with Client(params, mode="legacy") as c:
            return await c.call_tool("delete_all_memories", {"confirm": True})

    # Playwright's sync API holds this thread's event loop: the SDK client runs in another.
    with ThreadPoolExecutor(1) as pool:
        answer = pool.submit(anyio.run, wipe).result()
    assert answer.structured_content == {"deleted": 40, "restorable_days": 30}

    log_in(page, owner)
    notice = page.locator(".notice", has_text="deleted 40 memories")
    expect(notice).to_contain_text("local deleted 40 memories")
    expect(rows(page)).to_have_count(0)
    notice.get_by_role("button", name="Restore").click()
    expect(page.locator(".message")).to_have_text("Restored 40 memories.")
    expect(page.locator(".notice")).to_have_count(0)
    expect(page.locator("#stats")).to_contain_text("40 active")
    assert memory_snapshot(owner) == before
    assert page.csp_violations == []


def test_the_trash_page_restores_one_and_deletes_for_good_after_asking(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    keep, drop = (
        adding.memory_create(actor=owner_dash, text=t, categories=["travel"]).memory
        for t in ("Visited Kyoto in 2019", "Visited Oslo in 2020")
    )
    deleting.memory_delete_many(actor=owner_dash, memory_ids=[keep.id, drop.id])
    log_in(page, owner)
    page.goto("/trash/")
    expect(page.get_by_role("heading", level=2)).to_contain_text("You deleted 2 memories")
    page.locator("li.memory", has_text="Kyoto").get_by_role("button", name="Restore").click()
    expect(page.locator(".message")).to_have_text("Restored 1 memory.")
    page.locator("li.memory", has_text="Oslo").locator("input.select").check()
    page.get_by_role("button", name="Delete selected for good").click()
    page.get_by_role("heading", name="Delete 1 memory for good?").wait_for()
    expect(page.get_by_role("link", name="Cancel")).to_be_focused()  # the safe choice first
    page.get_by_role("button", name="Delete for good").click()
    expect(page.locator(".message")).to_have_text("Deleted 1 memory for good.")
    page.get_by_text("The trash is empty").wait_for()
    assert list(Memory.objects.filter(owner=owner).values_list("text", "state")) == [
        ("Visited Kyoto in 2019", "active")
    ]
    assert page.csp_violations == []
