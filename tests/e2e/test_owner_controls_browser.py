"""What the owner sees and clicks to stay in control of their apps, in Chromium: who changed a
memory (issue 23, measured 5) and what each app may do, changed on the Apps page (build 2)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client as ApiClient
from playwright.sync_api import expect

from accounts.actors import Actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from kernel.errors import ScopeRequired
from kernel.gates import SCOPE_DELETE, SCOPE_READ, SCOPE_WRITE
from mcpbridge.management.commands.mcp import stdio_actor_source
from memories.services import adding, deleting
from tests.e2e.steps import log_in, row_with
from tests.personas import issue_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

API = "/api/v1/memories"


def test_an_apps_rewrite_shows_who_changed_it_on_the_row_the_page_the_filter_and_activity(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    """Measured: after Cursor's update the row still said "from you, in the dashboard", the app
    filter did not list it, and only History named Cursor."""
    memory = adding.memory_create(actor=owner_dash, text="Drinks a flat white every morning")
    adding.memory_create(actor=owner_dash, text="Collects vintage stamps")
    token = issue_token(owner, name="Cursor on laptop", scopes=[SCOPE_READ, SCOPE_WRITE])
    app = ApiClient(headers={"Authorization": f"Bearer {token.secret}"})
    changed = app.patch(
        f"{API}/{memory.memory.id}",
        {"text": "Switched to black espresso, no milk"},
        "application/json",
    )
    assert changed.status_code == 200, changed.content

    log_in(page, owner)
    row = row_with(page, "Switched to black espresso")
    expect(row).to_contain_text("from you, in the dashboard")
    expect(row.locator(".changed-by")).to_have_text("· changed by Cursor on laptop, just now")
    expect(row_with(page, "vintage stamps").locator(".changed-by")).to_have_count(0)

    page.select_option("#f-app", "Cursor on laptop")
    expect(page.locator("#memory-rows > li.memory")).to_have_count(1)
    expect(row_with(page, "Switched to black espresso")).to_be_visible()

    row_with(page, "Switched to black espresso").get_by_role("link", name="Open").click()
    facts = page.locator("dl.facts")
    expect(facts).to_contain_text("Last changed by")
    expect(facts.locator("dd.changed-by")).to_contain_text("Cursor on laptop")

    page.goto("/activity/")
    log = page.locator("table.log tbody tr", has_text="Cursor on laptop")
    expect(log.filter(has_text="update").locator("td.change")).to_have_text("edited the text")


def test_the_owner_sees_which_apps_may_delete_and_changes_an_apps_scopes(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    # An app connected before read and write became the default kept every scope.
    legacy = ConnectedApp.objects.create(
        owner=owner, kind=ConnectedApp.Kind.STDIO, name="claude-desktop", scopes=list(ALL_SCOPES)
    )
    token = issue_token(owner, name="Cursor on laptop")  # the default: read and write
    cursor = ApiClient(headers={"Authorization": f"Bearer {token.secret}"})
    memory = adding.memory_create(actor=owner_dash, text="Collects vintage stamps").memory
    assert cursor.delete(f"{API}/{memory.id}").status_code == 403

    log_in(page, owner)
    page.goto("/apps/")
    notice = page.locator("#delete-holders")
    expect(notice).to_contain_text("1 app may delete memories: claude-desktop.")
    cursor_row = page.locator("tr", has_text="Cursor on laptop")
    expect(cursor_row.locator(".app-may")).to_have_text("read, add and change")

    cursor_row.get_by_role("link", name="Edit").click()
    expect(page.locator("#scopes-note")).to_have_text("Applies to its token at its next call.")
    page.get_by_label("Delete memories").check()
    page.get_by_role("button", name="Save").click()
    page.get_by_text("Saved what Cursor on laptop may do.").wait_for()
    expect(notice).to_contain_text("2 apps may delete memories")
    expect(
        page.locator("tr", has_text="Cursor on laptop").locator(".badge.can-delete")
    ).to_be_visible()
    assert cursor.delete(f"{API}/{memory.id}").status_code == 200

    page.locator("#delete-holders").get_by_role("link", name="claude-desktop").click()
    expect(page.locator("#scopes-note")).to_contain_text("--scopes")
    page.get_by_label("Delete memories").uncheck()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#delete-holders")).to_contain_text(
        "1 app may delete memories: Cursor on laptop."
    )
    # The stdio door reads its grant on every call: the next delete is refused.
    other = adding.memory_create(actor=owner_dash, text="Plays the guitar in a band").memory
    stdio = stdio_actor_source(owner, legacy)()
    with pytest.raises(ScopeRequired):
        deleting.memory_delete(actor=stdio, memory_id=other.id)
    assert SCOPE_DELETE not in ConnectedApp.objects.get(pk=legacy.pk).scopes

    page.goto("/activity/")
    change = page.locator("td.change", has_text="claude-desktop scopes")
    expect(change).to_contain_text(
        "claude-desktop scopes: memories:read, memories:write, memories:delete → "
        "memories:read, memories:write; claude-desktop categories: every category not sensitive"
    )


def test_a_disconnected_local_app_is_listed_until_the_owner_allows_it_again(
    page: Any, owner: User
) -> None:
    """Measured: Disconnect on a stdio app lasted until Claude Desktop launched its command
    again, which made a new app with read and write."""
    from accounts.actors import stdio_app
    from kernel.errors import AppDisconnected

    app = stdio_app(owner, "claude-desktop")
    log_in(page, owner)
    page.goto("/apps/")
    page.locator(f"#app-{app.pk}").get_by_role("button", name="Disconnect").click()
    expect(page.locator(".messages")).to_contain_text("stays refused until you allow it again")
    gone = page.locator("#disconnected-apps li", has_text="claude-desktop")
    expect(gone).to_be_visible()
    with pytest.raises(AppDisconnected):
        stdio_app(owner, "claude-desktop")

    gone.get_by_role("button", name="Allow again").click()
    expect(page.locator(".messages")).to_contain_text("claude-desktop may connect again")
    expect(page.locator("#disconnected-apps")).to_have_count(0)
    assert stdio_app(owner, "claude-desktop").pk != app.pk
