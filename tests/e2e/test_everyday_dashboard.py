"""The dashboard for everyday use (issue 26), in Chromium: numbers that agree from page to page,
the owner's local time, words a person uses, a keyboard path through the results and a phone
layout where the list is the page. Each test drives what the person sees."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from accounts.actors import Actor
from accounts.models import ConnectedApp, User
from memories.models import Memory
from memories.services import adding, changing, deleting
from memories.services.adding import NewMemory
from memories.services.import_runs import run_import
from memories.transfer_models import ImportRun
from tests.e2e.seed import app_actor, seed_store
from tests.e2e.steps import TIMEOUT, confirm_password, log_in
from tests.memories.exports import claude_export

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

PHONE = {"width": 390, "height": 844}


def stat(page: Any, label: str) -> int:
    """A figure of the stats header, e.g. stat(page, "memories") -> 4."""
    text = page.locator("#stats .stat", has_text=label).first.locator("strong").inner_text()
    return int(text.lstrip("+"))


def _store_with_every_kind_of_row(owner: User, owner_dash: Actor) -> None:
    """The seeded store (an edit leaves a replaced copy), plus a memory imported this week from a
    conversation of last year, an archived memory and one in the trash."""
    seed_store(owner, owner_dash)
    claude_import = app_actor(owner, "Claude import", ConnectedApp.Kind.IMPORT)
    adding.memory_create_many(
        actor=claude_import,
        items=[
            NewMemory(
                text="Keeps bees on the allotment",
                provenance={"source": "claude"},
                created_at=timezone.now() - timedelta(days=400),
            )
        ],
    )
    old = Memory.objects.get(text__startswith="Has a cat")
    changing.memory_set_state(actor=owner_dash, memory_ids=[old.id], state="archived")
    gone = Memory.objects.get(text__startswith="Favourite editor theme")
    deleting.memory_delete(actor=owner_dash, memory_id=gone.id)


def test_every_count_of_memories_agrees_from_the_header_to_the_erase_receipt(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    _store_with_every_kind_of_row(owner, owner_dash)
    log_in(page, owner)
    total, active = stat(page, "memories"), stat(page, "active")
    assert total == 12 and active == 11  # 13 seeded + 1 imported, less the trashed, replaced
    assert stat(page, "this week") == total  # the import of an old conversation counts too
    page.goto("/?state=all")
    assert page.locator("#memory-rows > li.memory").count() == total

    page.goto("/apps/")
    cursor = page.locator("tr", has_text="Cursor")
    sees = re.search(r"(\d+) of (\d+) active memories", cursor.inner_text())
    assert sees and int(sees[2]) == active

    page.goto("/erase/")
    page.get_by_label("Type erase my memory to confirm").fill("erase my memory")
    page.get_by_role("button", name="Erase everything").click()
    confirm_password(page)
    page.get_by_role("heading", name="Erased").wait_for()
    assert page.get_by_role("row", name=f"Memories {total}", exact=True).count() == 1
    assert page.get_by_role("row", name="Memories in the trash 1", exact=True).count() == 1
    receipt = page.locator("main").inner_text()
    assert "statss" not in receipt and "Search changes" not in receipt


def test_times_read_in_the_owners_own_zone_with_the_zone_in_their_title(
    browser: Any, live_server: Any, owner: User, owner_dash: Actor
) -> None:
    made = adding.memory_create(actor=owner_dash, text="Flying to Lisbon in May").memory
    at = timezone.now() - timedelta(days=3)
    Memory.objects.filter(pk=made.pk).update(created_at=at)
    context = browser.new_context(base_url=live_server.url, timezone_id="Asia/Tokyo")
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda m: violations.extend([m.text] if "Content Security Policy" in m.text else []),
    )
    try:
        log_in(page, owner)
        page.goto(f"/memories/{made.pk}/")
        added = page.locator("main time").first
        local = at.astimezone(ZoneInfo("Asia/Tokyo"))
        assert added.inner_text() == f"{local:%-d %b %Y, %H:%M}"  # not UTC
        assert "Asia/Tokyo (UTC+09:00)" in str(added.get_attribute("title"))
        zone = {c["name"]: c["value"] for c in context.cookies()}.get("tz")
        assert zone == "Asia%2FTokyo"  # the server groups the activity chart's days by it
        page.goto("/activity/")
        when = page.locator("table time").first
        assert "Asia/Tokyo" in str(when.get_attribute("title"))
        assert "UTC" not in page.locator("table").inner_text()
        page.goto("/")  # a relative time keeps its words; its title is local
        ago = page.locator("#memory-rows time").first
        assert ago.inner_text().replace("\xa0", " ") == "3 days ago"
        assert f"{local:%H:%M}" in str(ago.get_attribute("title"))
        assert violations == []
    finally:
        context.close()


def test_the_import_and_erase_pages_use_words_a_person_uses(
    page: Any, owner: User, tmp_path: Any, settings: Any
) -> None:
    settings.IMPORT_UPLOAD_DIR = tmp_path / "uploads"
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(claude_export()))
    log_in(page, owner)
    page.goto("/import/")
    formats = page.locator("select[name=source] option").all_inner_texts()
    assert formats == ["Detect", "Claude", "ChatGPT", "Context Layer export"]
    page.set_input_files("input[type=file]", str(export))
    page.get_by_label("Extraction").select_option("local")
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("button", name="Start the import").wait_for()
    summary = page.locator("main").inner_text()
    assert "Format: Claude; extraction: local" in summary
    assert "token" not in summary and "cost" not in summary  # no model, no cost
    page.get_by_role("button", name="Start the import").click()
    run = ImportRun.objects.get(owner=owner)
    assert run_import.call(str(run.pk)) == "done"
    done = page.locator("#progress", has_text="new memor")
    done.wait_for()
    assert re.search(r"Imported \d+ conversations?,", done.inner_text())
    assert re.search(r"\d+ new memor(y|ies)", done.inner_text())
    page.get_by_role("link", name="Show the memories imported from Claude").click()
    page.locator("#memory-rows").wait_for()
    origins = page.locator("#memory-rows .origin").all_inner_texts()
    assert origins and all(o.startswith("imported from Claude") for o in origins)

    page.goto("/erase/")
    phrase = page.locator("label kbd.phrase")
    assert phrase.inner_text() == "erase my memory"
    assert phrase.evaluate("e => getComputedStyle(e).fontFamily") != page.locator(
        "label"
    ).first.evaluate("e => getComputedStyle(e).fontFamily")  # set apart from the sentence


def test_a_too_long_memory_is_refused_with_one_message_that_goes_when_the_text_changes(
    page: Any, owner: User, owner_dash: Actor, settings: Any
) -> None:
    settings.MEMORY_MAX_CHARS = 40
    adding.memory_create(actor=owner_dash, text="Has a cat called Miso")
    log_in(page, owner)
    page.locator("#add-memory summary").click()
    box = page.locator("#add-text")
    box.fill("A sentence that is far too long for the tiny limit of this test")
    page.get_by_role("button", name="Save memory").click()
    page.locator("#add-text-error").wait_for()
    form = page.locator("#add-memory")
    assert form.inner_text().count("the limit is") == 1
    assert box.get_attribute("aria-invalid") == "true"
    box.press("End")
    box.press("Backspace")  # the person edits: the live count speaks instead, still once
    assert page.locator("#add-text-error").count() == 0
    assert form.inner_text().count("the limit is") == 1
    assert "add-text-error" not in str(box.get_attribute("aria-describedby"))
    assert Memory.objects.filter(owner=owner).count() == 1


def test_ctrl_enter_and_cmd_enter_save_the_memory_being_written(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    """Keyboard only: open the add form, type, Ctrl+Enter; again with Cmd (Meta)+Enter."""
    adding.memory_create(actor=owner_dash, text="Has a cat called Miso")
    log_in(page, owner)
    for n, chord in enumerate(("Control+Enter", "Meta+Enter")):
        summary = page.locator("#add-memory summary")
        summary.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#add-text:focus")  # opened, the text box has the focus
        page.keyboard.type(f"Keyboard memory number {n}")
        page.keyboard.press(chord)
        page.locator("#memory-rows", has_text=f"Keyboard memory number {n}").wait_for()
    assert Memory.objects.filter(owner=owner).count() == 3


def test_related_memories_show_only_related_ones_without_raw_scores(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    seat = adding.memory_create(actor=owner_dash, text="Prefers window seats on planes").memory
    adding.memory_create(actor=owner_dash, text="Likes aisle seats on long flights")
    for text in ("Has a cat called Miso", "Uses Python with uv and ruff", "Vegetarian since 2019"):
        adding.memory_create(actor=owner_dash, text=text)
    log_in(page, owner)
    page.goto(f"/memories/{seat.pk}/")
    related = page.locator("section", has=page.get_by_role("heading", name="Related memories"))
    assert related.get_by_role("listitem").all_inner_texts() == [
        "Likes aisle seats on long flights"
    ]
    assert not re.search(r"\d\.\d\d", related.inner_text())  # no raw similarity
    cat = Memory.objects.get(text="Has a cat called Miso")
    page.goto(f"/memories/{cat.pk}/")
    assert "No other memory is about the same thing." in related.inner_text()


def _focused_row(page: Any) -> str:
    return str(page.evaluate("(document.activeElement.closest('li.memory') || {}).id || ''"))


def test_from_the_search_box_to_a_results_edit_takes_three_keys(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    """Keyboard only: / to search, ↓ to the first result, e to edit it; ↓/↑ move between
    results, Enter opens one; the shortcuts are written on the page."""
    for text in ("Prefers aisle seats on flights", "Likes window seats on trains", "Has a cat"):
        adding.memory_create(actor=owner_dash, text=text)
    log_in(page, owner)
    help_text = page.locator("#keyboard-help")
    help_text.locator("summary").click()
    assert "Edit the result" in help_text.inner_text()
    page.locator("body").click(position={"x": 5, "y": 5})

    page.keyboard.press("/")
    page.keyboard.type("seats")
    page.locator(".result-summary", has_text="Best matches").wait_for()
    first, second = page.locator("#memory-rows > li.memory").evaluate_all(
        "rows => rows.map(r => r.id)"
    )[:2]
    page.keyboard.press("ArrowDown")
    assert _focused_row(page) == first
    page.keyboard.press("ArrowDown")
    assert _focused_row(page) == second
    page.keyboard.press("k")
    assert _focused_row(page) == first
    page.keyboard.press("e")  # three keys from the search box to the editor: ↓ ↓ ↑ were a tour
    page.wait_for_selector(f"#{first}.editing textarea:focus")
    page.keyboard.press("Escape")  # back to the row's Edit, the row as it was
    page.wait_for_selector(f"#{first}:not(.editing) [data-key=edit]:focus")
    page.keyboard.press("ArrowDown")  # from a row's control, too
    assert _focused_row(page) == second
    opened = Memory.objects.get(pk=second.removeprefix("m-"))
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/memories/{opened.pk}/")
    assert page.csp_violations == []


def test_on_a_phone_the_first_memory_is_on_the_first_screen(
    browser: Any, live_server: Any, owner: User, owner_dash: Actor
) -> None:
    """Phone width: filters beyond search and the bulk bar fold away until used."""
    seed_store(owner, owner_dash)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    try:
        log_in(page, owner)
        first = page.locator("#memory-rows > li.memory").first
        box = first.bounding_box()
        assert box and box["y"] + 60 < PHONE["height"], box  # its text in sight, not below
        assert page.locator("#f-q").is_visible()
        assert not page.locator("#f-app").is_visible()
        assert not page.locator("#bulk-form").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        toggle = page.get_by_role("button", name="Filters")
        assert toggle.get_attribute("aria-expanded") == "false"
        toggle.click()  # used: the filters unfold
        assert toggle.get_attribute("aria-expanded") == "true"
        page.locator("#f-state").select_option("all")
        page.wait_for_url("**state=all**")
        assert (
            page.get_by_role("button", name="Filters (1)").is_visible()
            or page.locator("#f-state").is_visible()
        )
        first.locator("input.select").check()  # a memory ticked: the bulk bar appears
        assert page.locator("#bulk-form").is_visible()
        assert page.locator("#selected-count").inner_text() == "1 selected"
        page.reload()  # the filters set stay in sight after a reload, and say how many
        assert page.locator("#f-state").is_visible()
        assert page.get_by_role("button", name="Filters (1)").get_attribute("aria-expanded") == (
            "true"
        )
    finally:
        context.close()


def test_review_is_in_the_menu_only_when_it_has_work_and_says_how_much(
    page: Any, owner: User, owner_dash: Actor, settings: Any
) -> None:
    from memories.services.proposals import proposal_create

    memory = adding.memory_create(actor=owner_dash, text="Works at Acme").memory
    log_in(page, owner)
    nav = page.get_by_role("navigation", name="Main")
    assert nav.get_by_role("link", name="Review").count() == 0  # nothing to review, no extractor

    settings.EXTRACTION_MODE = "anthropic"  # an LLM extractor can propose changes at any time
    page.reload()
    assert nav.get_by_role("link", name="Review", exact=True).is_visible()

    settings.EXTRACTION_MODE = "none"
    cursor = app_actor(owner, "Cursor")
    proposal_create(actor=cursor, memory=memory, proposed_text="Works at Globex", reason="moved")
    page.reload()
    link = nav.get_by_role("link", name="Review 1 waiting")
    assert link.is_visible() and link.locator(".nav-count").inner_text() == "1"
    link.click()
    page.locator(".proposal ins", has_text="Globex").wait_for()  # the change, word by word


def test_two_factor_and_sessions_are_under_account_not_connected_apps(
    page: Any, owner: User
) -> None:
    log_in(page, owner)
    page.locator(".account-menu summary").click()
    menu = page.locator(".account-menu .menu")
    menu.get_by_role("link", name="Two-factor and passkeys").click()
    page.wait_for_url("**/accounts/2fa/**")
    page.locator(".account-menu summary").click()
    menu.get_by_role("link", name="Signed-in sessions").click()
    page.wait_for_url("**/sessions/**")
    page.goto("/apps/")
    assert (
        page.locator("main")
        .get_by_role("link", name=re.compile("two-factor|session", re.I))
        .count()
        == 0
    )


def test_a_refused_sign_up_password_says_why_under_the_password(page: Any, settings: Any) -> None:
    settings.SIGNUP_POLICY = "open"
    page.goto("/accounts/signup/")
    page.fill("#id_email", "new@example.com")
    page.fill("#id_password1", "password")
    page.fill("#id_password2", "password")
    page.get_by_role("button", name="Sign Up").click()
    error = page.locator("#id_password1_error")
    error.wait_for()
    assert "too common" in error.inner_text()
    # In the password's own row, after its box and before the second password, and styled.
    row = page.locator(".form-row", has=page.locator("#id_password1"))
    assert row.locator("#id_password1_error").count() == 1
    order = page.evaluate(
        "[...document.querySelectorAll("
        "'#id_email, #id_password1, #id_password1_error, #id_password2')].map(e => e.id)"
    )
    assert order == ["id_email", "id_password1", "id_password1_error", "id_password2"]
    assert "id_password1_error" in str(
        page.locator("#id_password1").get_attribute("aria-describedby")
    )
    danger = page.evaluate("getComputedStyle(document.body).getPropertyValue('--danger')").strip()
    assert danger and error.evaluate("e => getComputedStyle(e).color") != page.locator(
        "label[for=id_password1]"
    ).evaluate("e => getComputedStyle(e).color")


def test_a_new_token_chooses_its_categories_shows_its_expiry_and_lands_on_apps(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="Loves Thai green curry", categories=["food"])
    adding.memory_create(actor=owner_dash, text="Works at Acme", categories=["work"])
    log_in(page, owner)
    page.goto("/apps/")
    page.fill("#id_name", "Cursor on laptop")
    form = page.locator("form[action='/apps/tokens']")
    food = form.get_by_label("Food", exact=False).first
    assert food.is_checked() and not form.get_by_label("Health", exact=False).first.is_checked()
    food.uncheck()
    page.locator("#grant-summary", has_text="Food").wait_for()  # recounted as it was unticked
    page.get_by_label("Expires").select_option("30")
    form.get_by_role("button", name="Create token").click()
    confirm_password(page)
    page.wait_for_selector("#new-token")
    assert page.url.endswith("/apps/")  # not /accounts/reauthenticate/: a reload is safe
    app = ConnectedApp.objects.get(owner=owner, kind=ConnectedApp.Kind.TOKEN)
    assert "food" in app.hidden_categories and "work" not in app.hidden_categories
    token = app.client_tokens.get()
    assert token.expires_at is not None
    expiry = page.locator(f"#app-{app.pk} .token-expiry")
    assert expiry.inner_text() == f"expires {token.expires_at:%-d %b %Y}"  # the browser's zone
    page.reload()  # lands on the apps page, not on a re-sent form
    assert page.url.endswith("/apps/") and page.locator("#new-token").count() == 0


def test_a_password_reset_for_an_unknown_address_does_not_invite_a_closed_sign_up(
    page: Any, owner: User, mailoutbox: list[Any], settings: Any
) -> None:
    settings.SIGNUP_POLICY = "closed"
    page.goto("/accounts/password/reset/")
    page.fill("input[name=email]", "nobody@example.com")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/password/reset/done/")
    assert len(mailoutbox) == 1
    body = mailoutbox[0].body
    assert "no account for that address" in body and "/accounts/signup/" not in body
    assert "sign up" not in body.lower()
