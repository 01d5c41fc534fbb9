"""LLM modes: extraction and reconciliation, through the fake provider and mem0's real openai
provider against a loopback stub (fixture `llm` runs each test both ways)."""

from __future__ import annotations

import importlib.util
import io

import pytest
from django.core.management import CommandError, call_command
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory, MemoryProposal, MemoryVersion
from memories.selectors.memories import memory_search, memory_versions
from memories.services import adding, changing, remember
from tests.memories.fake_llm import Brain, StubServer

pytestmark = pytest.mark.django_db

CONVERSATION = (
    "user: Hi! I'm Ana and I work as a nurse in Porto.\n"
    "assistant: Nice to meet you, Ana! I love Porto, I am a big football fan.\n"
    "user: I also have two cats."
)


def test_a_conversation_yields_the_expected_facts(owner_dash: Actor, llm: Brain) -> None:
    llm.facts = {
        "I'm Ana": ["Name is Ana", "Works as a nurse in Porto"],
        "two cats": ["Has two cats"],
        "football fan": ["Is a football fan"],  # said by the assistant: must not be extracted
    }
    result = remember.memory_remember(actor=owner_dash, text=CONVERSATION)
    stored = sorted(Memory.objects.filter(owner=owner_dash.user).values_list("text", flat=True))
    assert stored == ["Has two cats", "Name is Ana", "Works as a nurse in Porto"]
    assert result.actions == ["added", "added", "added"]
    assert all(r.created for r in result.results)
    # mem0's extraction prompt, with the whole conversation as input.
    (messages,) = llm.extraction_prompts
    assert "user: I also have two cats." in messages[1]["content"]
    # Extracted facts are classified locally like any other memory.
    cats = Memory.objects.get(text="Works as a nurse in Porto").categories
    assert "work" in cats


def test_a_changed_fact_supersedes_the_old_memory(owner_dash: Actor, llm: Brain) -> None:
    old = adding.memory_create(actor=owner_dash, text="Lives in Berlin").memory
    adding.memory_create(actor=owner_dash, text="Likes strong coffee")
    llm.facts = {"moved from Berlin to Lisbon": ["Lives in Lisbon"]}
    llm.supersede = [("Lisbon", "Berlin", "Moved from Berlin to Lisbon.")]

    result = remember.memory_remember(actor=owner_dash, text="I moved from Berlin to Lisbon")

    assert result.actions == ["superseded"]
    new = result.results[0].memory
    assert new.text == "Lives in Lisbon"
    # The model was shown the neighbour it decided about.
    (payload,) = llm.reconcile_payloads
    shown = {m["text"] for m in payload["facts"][0]["existing_memories"]}
    assert "Lives in Berlin" in shown
    # Search returns Lisbon, not Berlin.
    hits = memory_search(actor=owner_dash, query="Where does the user live?")
    texts = [h.memory.text for h in hits]
    assert texts[0] == "Lives in Lisbon"
    assert "Lives in Berlin" not in texts
    # The old memory is linked and its text lives in the new one's history, with the reason.
    old.refresh_from_db()
    assert old.superseded_by_id == new.id
    (version,) = memory_versions(actor=owner_dash, memory_id=new.id)
    assert version.kind == MemoryVersion.Kind.SUPERSEDE
    assert version.text == "Lives in Berlin"
    assert version.reason == "Moved from Berlin to Lisbon."


def test_a_repeated_fact_is_skipped(owner_dash: Actor, llm: Brain) -> None:
    known = adding.memory_create(actor=owner_dash, text="Likes jazz").memory
    llm.facts = {"jazz": ["Enjoys listening to jazz"]}
    llm.skip = [("jazz", "jazz")]
    result = remember.memory_remember(actor=owner_dash, text="I really enjoy jazz, you know")
    assert result.actions == ["skipped"]
    assert result.results[0].memory.id == known.id
    assert not result.results[0].created
    assert Memory.objects.filter(owner=owner_dash.user).count() == 1


def test_a_memory_the_user_edited_is_left_alone_and_a_proposal_is_made(
    owner_dash: Actor, llm: Brain
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Lives in Berlin").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Lives in Berlin-Kreuzberg")
    llm.facts = {"Lisbon": ["Lives in Lisbon"]}
    llm.supersede = [("Lisbon", "Berlin", "Moved to Lisbon.")]

    result = remember.memory_remember(actor=owner_dash, text="I moved from Berlin to Lisbon")

    assert result.actions == ["proposed"]
    assert "awaits your review" in result.note
    memory.refresh_from_db()
    assert memory.text == "Lives in Berlin-Kreuzberg"
    assert memory.superseded_by_id is None
    assert Memory.objects.filter(owner=owner_dash.user).count() == 1
    proposal = MemoryProposal.objects.get(memory=memory)
    assert proposal.proposed_text == "Lives in Lisbon"
    assert proposal.status == MemoryProposal.Status.PENDING
    assert proposal.reason == "Moved to Lisbon."


def test_an_id_the_model_was_not_given_is_rejected(
    owner_dash: Actor, stranger_dash: Actor, llm: Brain
) -> None:
    adding.memory_create(actor=owner_dash, text="Lives in Berlin")
    foreign = adding.memory_create(actor=stranger_dash, text="Lives in Paris").memory
    llm.facts = {"Lisbon": ["Lives in Lisbon"]}
    llm.supersede = [("Lisbon", "Berlin", "Moved.")]
    for rogue in ("m99", str(foreign.id)):
        llm.rogue_id = rogue
        Memory.objects.filter(owner=owner_dash.user, text="Lives in Lisbon").delete()
        result = remember.memory_remember(actor=owner_dash, text="I moved from Berlin to Lisbon")
        assert result.actions == ["added"]
        assert "not shown" in result.note
    foreign.refresh_from_db()
    assert foreign.superseded_by_id is None and foreign.text == "Lives in Paris"
    berlin = Memory.objects.get(owner=owner_dash.user, text="Lives in Berlin")
    assert berlin.superseded_by_id is None


@pytest.mark.parametrize("failure", ["down", "garbage"])
def test_an_llm_failure_stores_the_raw_text_and_says_so(
    owner_dash: Actor, llm: Brain, failure: str
) -> None:
    llm.mode = failure
    result = remember.memory_remember(actor=owner_dash, text="I moved from Berlin to Lisbon")
    (written,) = result.results
    assert written.created
    assert written.memory.text == "I moved from Berlin to Lisbon"
    assert written.memory.metadata["needs_extraction"] is True
    assert result.extraction == "deferred"
    assert "marked for extraction later" in result.note


def test_an_llm_that_does_not_answer_in_time_does_not_lose_the_write(
    owner_dash: Actor, stub_server: StubServer, brain: Brain, settings: SettingsWrapper
) -> None:
    settings.LLM_TIMEOUT = 1
    brain.mode = "slow"
    result = remember.memory_remember(actor=owner_dash, text="I prefer window seats")
    assert result.results[0].memory.metadata["needs_extraction"] is True
    assert "stored as given" in result.note


def test_an_unreachable_server_does_not_lose_the_write(
    owner_dash: Actor, settings: SettingsWrapper, brain: Brain
) -> None:
    with StubServer() as server:
        url = server.base_url
    settings.EXTRACTION_MODE = "openai"
    settings.LLM_BASE_URL = url  # closed: connection refused
    settings.LLM_API_KEY = "sk-test"
    result = remember.memory_remember(actor=owner_dash, text="I prefer window seats")
    assert result.results[0].memory.metadata["needs_extraction"] is True


def test_the_real_openai_provider_sends_model_key_and_json_mode(
    owner_dash: Actor, stub_server: StubServer, brain: Brain
) -> None:
    brain.facts = {"tea": ["Prefers tea over coffee"]}
    remember.memory_remember(actor=owner_dash, text="I prefer tea over coffee")
    request = stub_server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer sk-test"
    assert request["body"]["model"] == "stub-model"
    assert request["body"]["response_format"] == {"type": "json_object"}


def test_no_facts_stores_nothing_and_says_so(owner_dash: Actor, llm: Brain) -> None:
    result = remember.memory_remember(actor=owner_dash, text="Hi there!")
    assert result.results == []
    assert "nothing was stored" in result.note
    assert not Memory.objects.filter(owner=owner_dash.user).exists()


def test_deferred_extraction_runs_once_the_model_is_back(
    owner: User, owner_dash: Actor, llm: Brain
) -> None:
    adding.memory_create(actor=owner_dash, text="Lives in Berlin")
    llm.mode = "down"
    raw = remember.memory_remember(actor=owner_dash, text="I moved from Berlin to Lisbon")
    raw_memory = raw.results[0].memory
    with pytest.raises(CommandError, match="Stopped"):
        call_command(
            "extract_pending", user=owner.email, stdout=io.StringIO(), stderr=io.StringIO()
        )

    llm.mode = "ok"
    llm.facts = {"Lisbon": ["Lives in Lisbon"]}
    llm.supersede = [("Lisbon", "Berlin", "Moved.")]
    out = io.StringIO()
    call_command("extract_pending", user=owner.email, stdout=out, stderr=io.StringIO())
    assert "Processed 1; 0 still pending." in out.getvalue()
    hits = [h.memory.text for h in memory_search(actor=owner_dash, query="where does she live")]
    assert hits == ["Lives in Lisbon"]
    raw_memory.refresh_from_db()
    lisbon = Memory.objects.get(owner=owner, text="Lives in Lisbon")
    assert raw_memory.superseded_by_id == lisbon.id
    history = {v.text for v in memory_versions(actor=owner_dash, memory_id=lisbon.id)}
    assert history == {"Lives in Berlin", "I moved from Berlin to Lisbon"}


def test_a_missing_client_package_keeps_the_write_and_says_how_to_install_it(
    owner_dash: Actor, settings: SettingsWrapper, brain: Brain
) -> None:
    if importlib.util.find_spec("anthropic") is not None:
        pytest.skip("the anthropic extra is installed here")
    settings.EXTRACTION_MODE = "anthropic"
    result = remember.memory_remember(actor=owner_dash, text="I prefer window seats")
    assert result.results[0].memory.metadata["needs_extraction"] is True
    assert "uv sync --extra anthropic" in result.note
