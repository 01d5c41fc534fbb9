"""Importing a chat export in a real browser without an LLM: the local extractor is what the
person gets unless they choose otherwise, the dry run shows them what it would keep, and each
memory's page shows the conversation and message it came from."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import Memory
from memories.services.changing import memory_update
from memories.services.deleting import memory_delete
from tests.e2e.steps import sign_in
from tests.memories.exports import claude_export

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def test_an_import_without_an_llm_keeps_only_what_the_person_said_about_themselves(
    page: Any,
    owner: User,
    tmp_path: Path,
    settings: Any,
) -> None:
    settings.IMPORT_UPLOAD_DIR = tmp_path / "uploads"
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(claude_export()))
    sign_in(page)

    page.goto("/import/")
    choice = page.locator("select[name=extractor]")
    assert choice.input_value() == "local"
    assert choice.locator("option").all_inner_texts() == [
        "Local: keep only what I said about myself, worked out on this server",
        "None: every message I wrote, as written",
    ]
    page.set_input_files("input[name=file]", str(export))
    page.click("text=Check the file")
    page.wait_for_url(re.compile(r"/import/[0-9a-f-]+/$"))

    preview = page.locator("section[aria-labelledby=local-preview-heading]")
    text = preview.inner_text()
    assert re.search(r"Exactly \d of the 4 messages you wrote", text), text
    examples = preview.locator("li").all_inner_texts()
    assert "I am vegetarian" in examples and "I live in Lisbon." in examples
    assert not any("review my CV" in e for e in examples)
    assert not Memory.objects.exists()  # a dry run

    page.click("text=Start the import")
    page.wait_for_selector("text=The local extractor read 4 of your messages")
    texts = set(Memory.objects.filter(owner=owner).values_list("text", flat=True))
    assert {"I am vegetarian", "I live in Lisbon."} <= texts
    assert not any("CV" in t for t in texts)

    # Why do you know this? The memory's page shows the owner the conversation and the message.
    vegetarian = Memory.objects.get(owner=owner, text="I am vegetarian")
    page.goto(f"/memories/{vegetarian.id}/")
    source = page.get_by_test_id("memory-source")
    assert source.get_by_role("heading", name="Why you know this").is_visible()
    shown = source.inner_text()
    assert "“Trip planning”" in shown and "1 Mar 2024, 10:00" in shown
    assert source.locator("blockquote").inner_text() == "I am vegetarian and I live in Lisbon."
    assert page.csp_violations == []


def test_importing_an_archive_again_with_none_replaces_the_local_import_from_the_import_page(
    page: Any,
    owner: User,
    tmp_path: Path,
    settings: Any,
) -> None:
    settings.IMPORT_UPLOAD_DIR = tmp_path / "uploads"
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(claude_export()))
    owner_dash = owner_actor(owner)
    sign_in(page)

    page.goto("/import/")
    page.set_input_files("input[name=file]", str(export))
    page.click("text=Check the file")
    page.click("text=Start the import")
    page.wait_for_selector("text=The local extractor read 4 of your messages")
    local = list(Memory.objects.filter(owner=owner))
    ada = next(m for m in local if "Ada" in m.text)
    memory_delete(actor=owner_dash, memory_id=ada.id)
    edited = next(m for m in local if "Ada" not in m.text)
    memory_update(actor=owner_dash, memory_id=edited.id, text="I am vegan, not vegetarian.")

    page.click("text=Import again with another extractor")
    page.wait_for_url(re.compile(r"/import/$"))
    page.select_option("select[name=extractor]", "none")
    page.set_input_files("input[name=file]", str(export))
    page.click("text=Check the file")
    page.wait_for_url(re.compile(r"/import/[0-9a-f-]+/$"))
    warning = page.locator("#imported-before").inner_text()
    assert "You imported this archive on" in warning and "(extraction: local)" in warning
    assert "1 of its memories were deleted since." in warning
    preview = page.locator("#redo-preview li").all_inner_texts()
    assert preview[0].startswith(f"Replaced: {len(local) - 2} — memories from that import")
    assert preview[1].startswith("Back: 1 — memories you deleted")
    assert preview[2].startswith("Stay: 1 — memories you (or an app) changed")

    page.click("#redo-button")
    page.wait_for_selector("text=It replaced the earlier import of this archive")
    page.click("#imported-link")
    page.wait_for_selector("#memory-rows > li.memory")
    shown = page.locator("#memory-rows > li.memory .memory-text").all_inner_texts()
    assert "My daughter is called Ada." in shown  # deleted, back as the message said it
    assert "I am vegan, not vegetarian." in shown  # the owner's edit stays
    assert "I am vegetarian and I live in Lisbon." in shown  # one memory per message
    assert len(shown) == 5
    assert page.csp_violations == []
