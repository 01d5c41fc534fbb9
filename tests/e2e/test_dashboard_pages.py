"""Journeys across the dashboard's other pages, in Chromium: import, erase, a phone, dark mode,
a new client token. Each asserts what the person sees."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory
from memories.services import adding
from memories.services.import_runs import run_import
from memories.transfer_models import ErasureReceipt, ImportRun
from tests.e2e.steps import TIMEOUT, confirm_password, log_in, rows, within_width
from tests.memories.exports import claude_export

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def _own_upload_dir(settings: Any, tmp_path: Path) -> None:
    settings.IMPORT_UPLOAD_DIR = tmp_path / "uploads"


def stat(page: Any, label: str) -> str:
    """A figure of the stats header, e.g. stat(page, "memories") -> "4"."""
    return str(page.locator("#stats .stat", has_text=label).first.locator("strong").inner_text())


def test_an_import_updates_the_header_and_links_to_what_it_imported(
    page: Any, owner: User, tmp_path: Path
) -> None:
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(claude_export()))
    log_in(page, owner)
    assert stat(page, "memories") == "0"
    nav = page.get_by_role("navigation", name="Main")
    nav.locator("summary", has_text="Your data").click()
    nav.get_by_role("link", name="Import").click()
    page.set_input_files("input[type=file]", str(export))
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("button", name="Start the import").click()
    page.get_by_text("Queued: waiting for the background worker.").wait_for()
    # The background worker runs it (here, in the test's thread); the page is polling.
    run = ImportRun.objects.get(owner=owner)
    assert run_import.call(str(run.pk)) == "done"
    page.get_by_text("4 new memories").wait_for()
    page.locator("#stats .stat", has_text="memories").get_by_text("4").wait_for()  # no reload
    page.get_by_role("link", name="Show the memories imported from Claude").click()
    page.locator("#memory-rows").wait_for()
    assert rows(page).count() == 4
    assert Memory.objects.filter(owner=owner, origin_app_name="Claude import").count() == 4
    assert all("imported from Claude" in t for t in rows(page).all_inner_texts())


def test_erase_shows_a_receipt_that_can_be_downloaded_and_found_again(
    page: Any, owner: User, owner_dash: Actor
) -> None:
    for text in ("Has a cat called Miso", "Flying to Lisbon in May", "Learning Portuguese"):
        adding.memory_create(actor=owner_dash, text=text)
    log_in(page, owner)
    nav = page.get_by_role("navigation", name="Main")
    nav.locator("summary", has_text="Your data").click()
    nav.get_by_role("link", name="Erase").click()
    button = page.get_by_role("button", name="Erase everything")
    assert "danger" in str(button.get_attribute("class"))
    page.get_by_label("Type erase my memory to confirm").fill("erase my memory")
    button.click()
    confirm_password(page)
    page.get_by_role("heading", name="Erased").wait_for()
    assert page.get_by_role("row", name="Memories 3").count() == 1  # in words, not model labels
    assert "memories.memory" not in page.locator("main").inner_text()
    when = page.locator("dd time").first.inner_text()
    assert re.fullmatch(r"\d{1,2} \w{3} \d{4}, \d\d:\d\d", when)  # not an ISO timestamp
    assert "UTC" in str(page.locator("dd time").first.get_attribute("title"))  # the zone
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the receipt (JSON)").click()
    saved = json.loads(Path(download.value.path()).read_text())
    receipt = ErasureReceipt.objects.get()
    assert saved["id"] == str(receipt.pk) and saved["digest"] == receipt.digest
    assert saved["counts"]["memories.memory"] == 3

    page.goto("/erase/")  # later: the receipt is listed and opens again
    page.get_by_role("link", name=when).click()
    page.get_by_role("heading", name="Erasure receipt").wait_for()
    assert receipt.digest in page.locator("main").inner_text()


def test_the_phone_viewport_reaches_every_navigation_item(
    browser: Any, live_server: Any, owner: User
) -> None:
    """On a phone the navigation is one row that scrolls sideways (issue 39: wrapped onto three
    lines, the header took 255 of 844 px); "Your data" is four plain links in it."""
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    log_in(page, owner)

    def in_view(locator: Any) -> bool:
        return within_width(locator, PHONE["width"])

    nav = page.get_by_role("navigation", name="Main")
    links = nav.locator(":scope > a:visible")
    names = [name.strip() for name in links.all_inner_texts()]
    assert names == [
        "Memories",
        "Map",
        "Activity",
        "Categories",  # Review shows only when it has work (test_everyday_dashboard)
        "Connected apps",
        "Connect a client",
        "Import",
        "Export",
        "Trash",
        "Erase",
    ]
    assert not nav.locator("summary", has_text="Your data").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert in_view(page.locator(".toggle-label"))  # the Hide text switch keeps its label
    assert page.locator(".toggle-label").inner_text() == "Hide text"
    for name in names:
        link = page.get_by_role("navigation", name="Main").get_by_role("link", name=name)
        link.scroll_into_view_if_needed()
        assert in_view(link), name
        link.click()
        page.wait_for_load_state()
        assert page.locator("h1").first.is_visible(), name
        here = page.locator('.site-nav a[aria-current="page"]').first
        assert in_view(here), f"{name}: the current page's link is out of sight"
    context.close()


def test_dark_mode_follows_the_system(
    browser: Any, live_server: Any, owner: User, owner_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="Readable in the dark")
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 900}, color_scheme="dark"
    )
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    log_in(page, owner)

    def luminance(selector: str, prop: str) -> float:
        rgb = page.eval_on_selector(selector, f"e => getComputedStyle(e).{prop}")
        r, g, b = (int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255

    assert luminance("body", "backgroundColor") < 0.15
    assert luminance("#memory-rows .memory-text", "color") > 0.8
    assert luminance("#memory-rows", "backgroundColor") < 0.2
    page.get_by_text("Add memory").click()
    assert luminance("#add-form", "backgroundColor") < 0.2
    assert luminance("#add-text", "color") > 0.8
    context.close()


def test_a_new_client_token_is_shown_once_with_a_copy_button(page: Any, owner: User) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    log_in(page, owner)
    page.goto("/apps/")
    page.get_by_label("Name").fill("Laptop")
    page.get_by_role("button", name="Create token").click()
    confirm_password(page)
    secret = page.locator("#new-token-secret").inner_text().strip()
    assert secret.startswith("clt_")
    page.get_by_role("button", name="Copy the token").click()
    page.get_by_role("button", name="Copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == secret
