"""Why do you know this? A memory from an import or an extraction keeps the conversation and the
message it came from, for the owner's eyes only: an app reading the same memory gets no excerpt
and no conversation title."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory
from memories.provenance import EXCERPT_MAX, excerpt, for_app
from memories.services.adding import memory_create
from memories.services.deferred import memory_extract_pending
from memories.services.deleting import memory_delete
from memories.services.remember import memory_remember
from memories.services.trash import trash_delete_forever
from tests.memories.exports import backfill, claude_export, claude_message, write_json
from tests.memories.fake_llm import Brain
from tests.personas import issue_token

API = "/api/v1/memories"


def _imported(owner: User, tmp_path: Path, extractor: str = "local") -> Memory:
    path = write_json(tmp_path / "conversations.json", claude_export())
    backfill(path, owner, "--yes", "--extractor", extractor)
    return Memory.objects.get(owner=owner, text__startswith="I am vegetarian")


def test_a_short_message_is_kept_whole_and_a_long_one_around_what_was_said() -> None:
    assert excerpt("  I am vegetarian.  ") == "I am vegetarian."
    filler = "Lorem ipsum dolor sit amet. " * 100
    long = f"{filler}By the way, I keep bees on my roof. {filler}"
    kept = excerpt(long, around="I keep bees on my roof.")
    assert len(kept) <= EXCERPT_MAX
    assert "I keep bees on my roof." in kept
    assert kept.startswith("…") and kept.endswith("…")
    assert excerpt(long, around="not in there").startswith("Lorem ipsum")


def test_an_app_gets_the_provenance_without_the_title_and_the_excerpt() -> None:
    prov = {"source": "claude", "conversation_title": "Divorce", "excerpt": "x", "app": "a"}
    assert for_app(prov, owner=True) == prov
    assert for_app(prov, owner=False) == {"source": "claude", "app": "a"}
    assert for_app(None, owner=False) == {}


def test_a_locally_extracted_memory_keeps_the_whole_message_it_was_cut_from(
    owner: User, tmp_path: Path
) -> None:
    memory = _imported(owner, tmp_path)
    assert memory.text == "I am vegetarian"
    prov = memory.provenance
    assert prov["excerpt"] == "I am vegetarian and I live in Lisbon."
    assert prov["conversation_title"] == "Trip planning"
    assert prov["message_created_at"] == "2024-03-01T10:00:00+00:00"


def test_a_message_imported_as_written_keeps_its_excerpt_bounded(
    owner: User, tmp_path: Path, settings: Any
) -> None:
    settings.MEMORY_MAX_CHARS = 3000
    long = "I restore old synthesizers. " + "They need a lot of patience, honestly. " * 60
    conversation = {
        "uuid": "c-9",
        "name": "Hobbies",
        "created_at": "2024-05-01T09:00:00Z",
        "chat_messages": [claude_message("m-9", "human", long)],
    }
    backfill(write_json(tmp_path / "c.json", [conversation]), owner, "--yes", "--extractor", "none")
    memory = Memory.objects.get(owner=owner)
    kept = memory.provenance["excerpt"]
    assert EXCERPT_MAX - 5 <= len(kept) <= EXCERPT_MAX < len(memory.text)
    assert kept.startswith("I restore old synthesizers.") and kept.endswith("…")


def test_facts_an_llm_extracts_keep_the_text_they_came_from(
    owner: User, app_actor: Any, fake_provider: Brain
) -> None:
    fake_provider.facts = {"beekeeping": ["Keeps bees on the roof"]}
    app: Actor = app_actor(owner, "Claude")
    said = "We talked about beekeeping: I keep two hives on the roof of my flat."
    result = memory_remember(actor=app, text=said)
    memory = result.results[0].memory
    assert memory.text == "Keeps bees on the roof"
    assert Memory.objects.get(pk=memory.pk).provenance["excerpt"] == said


def test_facts_extracted_after_the_model_was_down_keep_the_raw_text_they_came_from(
    owner: User, app_actor: Any, fake_provider: Brain
) -> None:
    app: Actor = app_actor(owner, "Claude")
    said = "Long chat. Somewhere in it: I sing tenor in a community choir on Wednesdays."
    fake_provider.mode = "down"
    raw = memory_remember(actor=app, text=said).results[0].memory
    assert "excerpt" not in raw.provenance  # stored as given: the memory is its own source
    fake_provider.mode = "ok"
    fake_provider.facts = {"tenor": ["Sings tenor in a community choir"]}
    assert memory_extract_pending(actor=app).processed == 1
    fact = Memory.objects.get(owner=owner, text="Sings tenor in a community choir")
    assert fact.provenance["excerpt"] == said


def test_the_owner_sees_the_source_on_the_memory_page(
    owner: User, owner_client: Client, tmp_path: Path
) -> None:
    memory = _imported(owner, tmp_path)
    page = owner_client.get(f"/memories/{memory.id}/").content.decode()
    assert "Why you know this" in page
    assert "Trip planning" in page
    assert "I am vegetarian and I live in Lisbon." in page
    assert "1 Mar 2024, 10:00 UTC" in page


def test_a_memory_added_by_hand_shows_no_source(owner_dash: Actor, owner_client: Client) -> None:
    memory = memory_create(actor=owner_dash, text="I prefer window seats.").memory
    page = owner_client.get(f"/memories/{memory.id}/").content.decode()
    assert "I prefer window seats." in page
    assert "Why you know this" not in page


def test_an_app_reading_over_rest_gets_no_excerpt_and_no_title(
    owner: User, owner_client: Client, tmp_path: Path
) -> None:
    memory = _imported(owner, tmp_path)
    app = Client(headers={"Authorization": f"Bearer {issue_token(owner, name='reader').secret}"})
    answers = [
        app.get(f"{API}/{memory.id}").json(),
        *app.get(API).json()["items"],
        *(h["memory"] for h in app.get(f"{API}/search", {"q": "vegetarian"}).json()["results"]),
    ]
    mine = [a for a in answers if a["id"] == str(memory.id)]
    assert len(mine) == 3, answers
    for answer in mine:
        assert answer["provenance"]["source"] == "claude"  # the ids stay: they say nothing
        assert "excerpt" not in answer["provenance"]
        assert "conversation_title" not in answer["provenance"]
        assert "Lisbon" not in str(answer) and "Trip planning" not in str(answer)
    own = owner_client.get(f"{API}/{memory.id}").json()["provenance"]
    assert own["excerpt"] == "I am vegetarian and I live in Lisbon."
    assert own["conversation_title"] == "Trip planning"
    found = owner_client.get(f"{API}/search", {"q": "vegetarian"}).json()["results"]
    hit = next(h["memory"] for h in found if h["memory"]["id"] == str(memory.id))
    assert hit["provenance"]["excerpt"] == own["excerpt"]  # nested answers too


def test_the_owners_export_keeps_the_source(
    owner: User, owner_client: Client, tmp_path: Path
) -> None:
    memory = _imported(owner, tmp_path)
    document = owner_client.post("/api/v1/export").json()
    exported = next(m for m in document["memories"] if m["id"] == str(memory.id))
    assert exported["provenance"]["excerpt"] == "I am vegetarian and I live in Lisbon."


def test_deleting_forever_takes_the_excerpt_with_the_memory(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    memory = _imported(owner, tmp_path)
    holding = Memory.objects.filter(owner=owner, provenance__excerpt__icontains="vegetarian")
    assert holding.count() == 2  # "I am vegetarian" and "I live in Lisbon." share the message
    memory_delete(actor=owner_dash, memory_id=memory.id)
    assert holding.count() == 2  # in the trash: restorable, with its source
    trash_delete_forever(actor=owner_dash, memory_ids=[memory.id])
    assert list(holding.values_list("text", flat=True)) == ["I live in Lisbon."]


@pytest.fixture(autouse=True)
def _local_model(settings: Any) -> None:
    """The imports here run without an LLM."""
    settings.EXTRACTION_MODE = "none"
