"""Every dashboard page, checked with axe-core in Chromium, in the light and the dark theme.

axe-core is vendored (tests/e2e/vendor/axe-core, see its README) and injected by Playwright as an
init script, outside the page's Content-Security-Policy: the pages themselves never load it.
A serious or critical violation fails the test, naming the page, the rule and the elements.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from memories.models import Memory
from memories.services import adding, deleting, marks
from memories.services.erasure import user_erase
from memories.transfer_models import ImportRun
from tests.e2e.seed import seed_store
from tests.e2e.steps import TIMEOUT, sign_in
from tests.personas import issue_token

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(900)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"
BLOCKING = ("serious", "critical")


@pytest.fixture(scope="module")
def axe_source() -> str:
    source = AXE.read_bytes()
    assert hashlib.sha256(source).hexdigest() == AXE_SHA256, "axe.min.js is not the vendored file"
    return source.decode()


def violations(page: Any, where: str, rules: list[str] | None = None) -> list[str]:
    """The page's serious and critical violations (of `rules`, or of every rule), one a line."""
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    result = page.evaluate("options => axe.run(document, options)", options)
    found = []
    for v in result["violations"]:
        if v["impact"] in BLOCKING:
            targets = ", ".join(str(n["target"]) for n in v["nodes"][:4])
            found.append(f"{where}: {v['id']} ({v['impact']}): {v['help']} — {targets}")
    return found


def pages_of(owner: User, owner_dash: Actor) -> list[str]:
    """A store with something on every page: memories with history, apps, an import, a token,
    a pending proposal and an earlier erasure's receipt."""
    adding.memory_create(actor=owner_dash, text="Erased before the store was refilled")
    receipt = user_erase(actor=owner_dash)  # so the erase page lists an earlier receipt
    owner_dash = owner_actor(owner)  # the erasure removed the dashboard door; a new one opens
    seed_store(owner, owner_dash)
    edited = Memory.objects.get(text__startswith="Prefers aisle")
    # A private memory (its badge and toggle) and a new category (its notice, on / and below).
    marks.memory_set_visibility(actor=owner_dash, memory_id=edited.id, private=True)
    adding.memory_create(actor=owner_dash, text="Her son Leo plays chess", categories=["kids"])
    app = ConnectedApp.objects.get(owner=owner, name="Cursor")
    # An app's delete (a notice on every page) and one of the owner's (the Trash page).
    theme = Memory.objects.get(text__startswith="Favourite editor theme")
    deleting.memory_delete(actor=actor_for(owner, app), memory_id=theme.id)
    school = Memory.objects.get(text__startswith="My daughter Alice")
    deleting.memory_delete(actor=owner_dash, memory_id=school.id)
    issue_token(
        owner,
        name="Laptop",
        scopes=list(ALL_SCOPES),
    )
    run = ImportRun.objects.create(
        owner=owner,
        source="chatgpt",
        extractor="none",
        status=ImportRun.Status.DONE,
        filename="chatgpt-export.zip",
        conversations_total=4,
        conversations_done=4,
        conversations_imported=4,
        memories_created=4,
    )
    # An upload of an archive imported before: the check page's warning and redo preview.
    check = ImportRun.objects.create(
        owner=owner,
        source="chatgpt",
        extractor="none",
        filename="chatgpt-export.zip",
        upload_path="/nonexistent.upload",
        estimate={
            "source": "chatgpt",
            "extractor": "none",
            "conversations": 4,
            "messages": 8,
            "user_messages": 4,
            "memories": 0,
            "characters": 200,
            "tokens": 50,
            "cost_usd": 0.0,
            "note": "One memory per user message.",
            "kept_messages": None,
            "previous": {
                "imported_at": "2026-12-01T10:00:00+00:00",
                "extractor": "local",
                "conversations": 4,
                "deleted": 1,
                "replaced": 3,
                "stays": 1,
            },
        },
    )
    return [
        "/",
        "/?q=lisbon",
        f"/memories/{edited.id}/",
        f"/memories/{edited.id}/delete/",
        "/map/",
        "/activity/",
        "/review/",
        "/categories/",
        "/apps/",
        f"/apps/{app.pk}/edit",
        "/connect/",
        "/import/",
        f"/import/{run.pk}/",
        f"/import/{check.pk}/",
        "/export/",
        "/trash/",
        "/erase/",
        f"/erase/receipts/{receipt.pk}/",
    ]


@pytest.fixture
def context_for(browser: Any, live_server: Any, axe_source: str) -> Iterator[Any]:
    contexts: list[Any] = []

    def make(scheme: str, width: int = 1280) -> Any:
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": 900}, color_scheme=scheme
        )
        context.set_default_timeout(TIMEOUT)
        context.add_init_script(script=axe_source)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def test_every_dashboard_page_has_no_serious_accessibility_violations(
    context_for: Any, owner: User, owner_dash: Actor
) -> None:
    paths = pages_of(owner, owner_dash)
    found: list[str] = []
    # Light: every rule. Dark: the same markup, other colours, so colour contrast only.
    for scheme, rules in (("light", None), ("dark", ["color-contrast"])):
        page = context_for(scheme).new_page()
        page.goto("/accounts/login/")
        found += violations(page, f"[{scheme}] /accounts/login/", rules)
        sign_in(page)
        for path in paths:
            response = page.goto(path)
            assert response is not None and response.status < 400, path
            found += violations(page, f"[{scheme}] {path}", rules)
        # Fragments that only exist after a click: the add form, a row's editor and confirmation.
        page.goto("/")
        page.get_by_text("Add memory").click()
        found += violations(page, f"[{scheme}] / (add form open)", rules)
        page.keyboard.press("Escape")
        page.locator("#memory-rows li.memory").first.get_by_role("link", name="Edit").click()
        page.locator("li.memory.editing textarea").wait_for()
        found += violations(page, f"[{scheme}] / (row editor)", rules)
        page.locator("li.memory.editing").get_by_role("link", name="Cancel").click()
        page.locator("#memory-rows li.memory").first.get_by_role("link", name="Delete").click()
        page.get_by_text("Delete this memory?").wait_for()
        found += violations(page, f"[{scheme}] / (delete confirmation)", rules)
        page.locator("li.memory.confirming").get_by_role("button", name="Delete").click()
        page.get_by_role("button", name="Undo").wait_for()
        found += violations(page, f"[{scheme}] / (Deleted · Undo)", rules)
        page.get_by_role("button", name="Undo").click()
        page.get_by_text("Restored 1 memory.").wait_for()
        page.goto("/trash/")
        page.get_by_role("button", name="Empty the trash").click()
        page.get_by_text("for good?").wait_for()
        found += violations(page, f"[{scheme}] /trash/delete/ (confirmation)", rules)
        # The Categories page with a category's rename, merge and delete forms open.
        page.goto("/categories/")
        for action in ("Rename", "Merge", "Delete"):
            page.locator("#category-kids summary", has_text=action).click()
        found += violations(page, f"[{scheme}] /categories/ (a category's forms open)", rules)
    assert found == [], "\n".join(found)
