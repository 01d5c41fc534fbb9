"""The profile in Chromium, as the owner meets it: pin a memory from the list, see its marker,
find it with the Pinned filter; then the assistant's MCP client (stdio, the Connect page's
snippet) loads the profile and gets it first, and nothing pinned that the app may not see."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio
import pytest
from mcp.client import Client
from playwright.sync_api import expect

from accounts.actors import Actor
from accounts.models import User
from memories.services import adding
from tests.e2e.steps import log_in, row_with, rows
from tests.mcpbridge.mcp_clients import stdio_server, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def test_the_owner_pins_from_the_list_and_the_assistant_loads_it_first(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    for text, category in (
        ("Works as a data engineer in Lisbon", "work"),
        ("Is allergic to penicillin", "health"),  # sensitive: the app was not granted it
        ("Owns a Brompton bicycle", "hobbies"),
    ):
        adding.memory_create(actor=owner_dash, text=text, categories=[category])
    log_in(page, owner)

    for text in ("data engineer", "penicillin"):
        row = row_with(page, text)
        row.get_by_role("button", name="Pin", exact=True).click()
        expect(row.locator(".badge.pinned")).to_have_text("Pinned")
        expect(row.get_by_role("button", name="Unpin")).to_be_visible()
    expect(page.locator(".message")).to_contain_text("Pinned: it opens the profile")
    expect(row_with(page, "Brompton").locator(".badge.pinned")).to_have_count(0)

    page.get_by_label("Pinned").check()
    page.get_by_role("button", name="Apply", exact=True).click()
    page.wait_for_url("**pinned=on**")
    expect(rows(page)).to_have_count(2)
    expect(row_with(page, "Brompton")).to_have_count(0)
    assert page.csp_violations == []

    async def load() -> Any:
        async with Client(stdio_server(owner.email), mode="legacy") as c:
            return await c.call_tool("get_profile", {})

    # Playwright's event loop runs in this thread: the MCP client gets its own.
    with ThreadPoolExecutor(1) as pool:
        profile = pool.submit(anyio.run, load).result()
    pinned = [m["text"] for m in profile.structured_content["pinned"]]
    assert pinned == ["Works as a data engineer in Lisbon"]
    assert "penicillin" not in text_of(profile) and "Brompton" not in text_of(profile)
