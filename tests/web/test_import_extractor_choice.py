"""The dashboard's import: which extractors the person is offered, what the dry run shows them
with the local extractor, and the words they get when they ask for an LLM the server lacks."""

# ruff: noqa: RUF001 - Chinese text is written with its own punctuation

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.models import User
from memories.models import Memory
from memories.transfer_models import ImportRun
from tests.memories.exports import claude_export

pytestmark = pytest.mark.usefixtures("upload_dir")


@pytest.fixture
def browser(owner_client: Client) -> Client:
    """The owner, signed in."""
    return owner_client


def _options(html: str) -> list[tuple[str, bool]]:
    select = re.search(r'<select name="extractor">(.*?)</select>', html, re.S)
    assert select is not None
    return [
        (value, bool(selected))
        for value, selected in re.findall(r'<option value="(\w+)"( selected)?>', select.group(1))
    ]


def _visible_text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_without_an_llm_the_form_offers_local_by_default_and_no_llm(browser: Client) -> None:
    page = browser.get("/import/").content.decode()
    assert _options(page) == [("local", True), ("none", False)]


def test_with_an_llm_configured_the_form_offers_it_first(browser: Client, settings: Any) -> None:
    settings.EXTRACTION_MODE = "openai"
    page = browser.get("/import/").content.decode()
    assert _options(page) == [("llm", True), ("local", False), ("none", False)]
    assert "LLM (openai)" in page


def test_the_dry_run_shows_how_many_messages_local_would_keep_with_examples(
    owner: User,
    browser: Client,
    immediate_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    # What a browser sends with the form as it comes: the pre-selected choice.
    upload = SimpleUploadedFile("conversations.json", json.dumps(claude_export()).encode())
    response = browser.post("/import/", {"file": upload, "source": "auto", "extractor": "local"})
    assert response.status_code == 302
    run = ImportRun.objects.get(owner=owner)
    assert run.extractor == "local" and not Memory.objects.exists()
    kept = run.estimate["kept_messages"]
    assert 0 < kept < 4  # the CV request is dropped; the vegetarian in Lisbon is kept
    text = _visible_text(browser.get(response["Location"]).content.decode())
    assert "extraction: local" in text
    assert f"Exactly {kept} of the 4 messages you wrote" in text
    assert "I am vegetarian" in text and "I live in Lisbon." in text
    assert "Please review my CV" not in text
    assert "not in English" not in text  # every message is English: nothing to warn of

    with django_capture_on_commit_callbacks(execute=True):
        browser.post(f"/import/{run.pk}/start/")
    run.refresh_from_db()
    assert run.status == "done" and run.memories_created == run.estimate["kept_memories"]
    done = _visible_text(browser.get(f"/import/{run.pk}/").content.decode())
    assert f"read 4 of your messages and kept what {kept} of them said about you" in done


def test_a_form_without_a_choice_gets_local_when_there_is_no_llm(
    owner: User, browser: Client
) -> None:
    upload = SimpleUploadedFile("conversations.json", json.dumps(claude_export()).encode())
    browser.post("/import/", {"file": upload})
    assert ImportRun.objects.get(owner=owner).extractor == "local"


def test_asking_for_an_llm_the_server_lacks_gets_browser_words_not_a_flag(
    owner: User, browser: Client
) -> None:
    upload = SimpleUploadedFile("conversations.json", json.dumps(claude_export()).encode())
    response = browser.post("/import/", {"file": upload, "extractor": "llm"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "This server has no LLM set up for extraction" in page
    assert "--extractor" not in page and "EXTRACTION_MODE" not in page
    assert not ImportRun.objects.filter(owner=owner).exists()


def test_the_dry_run_tells_a_person_writing_chinese_that_local_reads_it_poorly(
    owner: User, browser: Client
) -> None:
    export = claude_export()
    said = {m["uuid"]: m for m in export[0]["chat_messages"]}
    said["m-1"]["content"][0]["text"] = "我是一名护士，住在成都。"
    said["m-3"]["text"] = "我女儿叫小雨。"
    upload = SimpleUploadedFile("conversations.json", json.dumps(export).encode())
    response = browser.post("/import/", {"file": upload, "extractor": "local"})
    run = ImportRun.objects.get(owner=owner)
    text = _visible_text(browser.get(response["Location"]).content.decode())
    assert run.estimate["other_languages"] == [["Chinese", 2]]
    assert "2 of your 4 messages are not in English: Chinese (2)." in text
    assert "choose None" in text and not Memory.objects.exists()
