"""Write review per app in Chromium, as the owner meets it: on Connected apps they turn on
"Review its changes first" for an app; the app (the stdio client of the Connect page, through
the MCP SDK) adds a memory, which is not stored; the owner finds it on the Review page under the
app's name, accepts it, and the memory appears on the memories page attributed to the app."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.actors import Actor, stdio_app
from accounts.models import ALL_SCOPES, User
from memories.models import Memory
from memories.services import adding
from tests.e2e.steps import log_in, row_with
from tests.mcpbridge.mcp_clients import stdio_call

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def _call(owner: User, tool: str, arguments: dict[str, Any]) -> Any:
    """One tool call by the owner's stdio app "cursor", off Playwright's event loop."""
    return stdio_call(owner.email, "cursor", tool, arguments)


def test_the_owner_reviews_an_apps_add_and_accepts_it(page: Any, owner: User) -> None:
    app = stdio_app(owner, "cursor", scopes=ALL_SCOPES)
    log_in(page, owner)
    page.goto("/apps/")
    row = page.locator(f"#app-{app.pk}")
    row.get_by_role("button", name="Review its changes first").click()
    expect(page.locator(".message")).to_have_text("cursor's changes now wait for your review.")
    expect(row.locator(".badge.reviewed")).to_have_text("changes reviewed")

    answer = _call(owner, "add_memory", {"text": "Rides a cargo bike to work"})
    assert answer.structured_content["pending"][0]["kind"] == "add"
    assert not Memory.objects.filter(owner=owner).exists()

    page.goto("/")
    expect(row_with(page, "cargo bike")).to_have_count(0)
    page.get_by_role("link", name="Review").first.click()
    proposal = page.locator("li.proposal-add", has_text="Rides a cargo bike to work")
    expect(proposal.locator(".proposal-app")).to_have_text("cursor")
    expect(proposal).to_contain_text("wants to add a memory")
    proposal.get_by_role("button", name="Accept").click()
    expect(page.get_by_text("Nothing to review.")).to_be_visible()

    page.goto("/")
    expect(row_with(page, "Rides a cargo bike to work").locator(".origin")).to_contain_text(
        "cursor"
    )
    assert Memory.objects.get(owner=owner).origin_app_name == "cursor"
    assert page.csp_violations == []


def test_the_review_page_shows_an_apps_update_as_a_diff_and_decline_keeps_the_memory(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    memory = adding.memory_create(
        actor=owner_dash, text="Lives in Berlin with two cats", categories=["hobbies"]
    ).memory
    stdio_app(owner, "cursor", scopes=ALL_SCOPES)
    log_in(page, owner)
    page.goto("/apps/")
    page.get_by_role("button", name="Review its changes first").click()
    answer = _call(
        owner,
        "update_memory",
        {"memory_id": str(memory.id), "text": "Lives in Lisbon with two cats"},
    )
    assert answer.structured_content["pending"][0]["kind"] == "update"
    page.goto("/review/")
    proposal = page.locator("li.proposal-update")
    expect(proposal.locator(".diff del")).to_have_text("Berlin")
    expect(proposal.locator(".diff ins")).to_have_text("Lisbon")
    proposal.get_by_role("button", name="Decline").click()
    expect(page.locator("main li", has_text="Declined: Lives in Lisbon")).to_have_count(1)
    memory.refresh_from_db()
    assert memory.text == "Lives in Berlin with two cats"
