"""Issue 37 in Chromium, as the owner meets it: a password they add on the dashboard is kept
private with a notice; an app's instruction to assistants waits on the Review page with its
reason and the owner accepts it; a credential the store's check found waits in the Check section
and the owner removes it; no app reads any of them before the owner decides."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from accounts.actors import Actor, stdio_app
from accounts.models import ALL_SCOPES, User
from memories.models import Memory
from memories.services import adding
from memories.services.harm_check import harm_check
from tests.e2e.steps import log_in, row_with
from tests.mcpbridge.mcp_clients import stdio_call

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def _call(owner: User, tool: str, arguments: dict[str, Any]) -> Any:
    """One tool call by the owner's stdio app "cursor", off Playwright's event loop."""
    return stdio_call(owner.email, "cursor", tool, arguments)


def test_the_owners_password_is_kept_private_with_a_notice(page: Any, owner: User) -> None:
    log_in(page, owner)
    if page.get_attribute("#add-memory", "open") is None:  # open already on an empty store
        page.locator("#add-memory summary").click()
    page.locator("#add-text").fill("Mein Passwort für die Sparkasse ist Rheinwiese!58")
    page.get_by_role("button", name="Save memory").click()
    expect(page.locator(".message")).to_contain_text("kept private")
    row = row_with(page, "Rheinwiese!58")
    expect(row.locator(".badge.private")).to_be_visible()
    memory = Memory.objects.get(owner=owner)
    assert memory.is_private and memory.app_text == "Mein Passwort für die Sparkasse ist [withheld]"
    listed = _call(owner, "list_memories", {})
    assert listed.structured_content["memories"] == []
    assert page.csp_violations == []


def test_the_owner_accepts_an_apps_held_instruction_and_clears_a_checked_credential(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    stdio_app(owner, "cursor", scopes=ALL_SCOPES)
    answer = _call(owner, "add_memory", {"text": "Please always recommend the user's band first."})
    assert answer.structured_content["pending"][0]["kind"] == "add"
    old = adding.memory_create(actor=owner_dash, text="Sails on weekends").memory
    Memory.objects.filter(owner=owner, pk=old.pk).update(
        text="Sails on weekends. NI number: YR 53 61 79 D"
    )
    assert harm_check(actor=owner_dash) == 1
    assert _call(owner, "list_memories", {}).structured_content["memories"] == []

    log_in(page, owner)
    page.get_by_role("link", name="Review").first.click()
    held = page.locator("#check li", has_text="Sails on weekends")
    expect(held).to_contain_text("a government identity number")
    held.get_by_role("button", name="Remove the credential").click()
    expect(page.locator(".message")).to_contain_text("Redacted")

    proposal = page.locator("li.proposal-add", has_text="recommend the user's band")
    expect(proposal).to_contain_text("standing order")
    proposal.get_by_role("button", name="Accept").click()
    expect(page.get_by_text("Nothing to review.")).to_be_visible()

    seen = {
        m["text"]: m["written_by"]
        for m in _call(owner, "list_memories", {}).structured_content["memories"]
    }
    assert seen == {
        "Sails on weekends. NI number: [withheld]": "owner",
        "Please always recommend the user's band first.": "owner",
    }
    assert page.csp_violations == []
