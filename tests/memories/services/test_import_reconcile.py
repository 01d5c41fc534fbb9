"""An import with an LLM extractor, through the real door (`backfill`) and the fake model: each
conversation's facts are reconciled against what the owner already has, private memories
included, without the import changing what it may not change or a write-only app being shown
memories it may not read."""

from __future__ import annotations

from pathlib import Path

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import User
from kernel.gates import SCOPE_WRITE
from memories.models import Memory, MemoryProposal
from memories.services.adding import memory_create
from memories.services.marks import memory_set_visibility
from memories.services.remember import memory_remember
from memories.transfer_models import ImportRun
from tests.memories import fake_llm
from tests.memories.exports import backfill, claude_export, memory_texts, write_json


def test_an_llm_import_succeeds_and_does_not_store_again_what_the_owner_has(
    owner: User, owner_dash: Actor, tmp_path: Path, fake_provider: fake_llm.Brain
) -> None:
    lisbon = memory_create(actor=owner_dash, text="Lives in Lisbon").memory
    diabetes = memory_create(actor=owner_dash, text="Has type 1 diabetes").memory
    acme = memory_create(actor=owner_dash, text="Works at Acme").memory
    for secret in (diabetes, acme):
        memory_set_visibility(actor=owner_dash, memory_id=secret.id, private=True)
    fake_provider.facts = {
        "vegetarian": [
            "Is vegetarian",
            "Lives in Lisbon, Portugal",
            "Has type 1 diabetes since 2010",
            "Works at Globex",
        ]
    }
    fake_provider.skip = [("Lisbon", "Lisbon"), ("diabetes", "diabetes")]
    fake_provider.supersede = [("Works at", "Works at", "Changed jobs.")]
    path = write_json(tmp_path / "conversations.json", claude_export())

    summary = backfill(path, owner, "--yes")

    assert "failed 0" in summary, summary
    run = ImportRun.objects.get(owner=owner)
    assert (run.status, run.conversations_failed, run.errors) == ("done", 0, [])
    assert (run.memories_created, run.memories_existing) == (1, 3)
    # The model was shown the owner's memories, the private ones too: nothing is stored twice.
    shown = {
        m["text"]
        for p in fake_provider.reconcile_payloads
        for f in p["facts"]
        for m in f["existing_memories"]
    }
    assert {"Lives in Lisbon", "Has type 1 diabetes", "Works at Acme"} <= shown
    assert memory_texts(owner) == sorted(
        ["Has type 1 diabetes", "Is vegetarian", "Lives in Lisbon", "Works at Acme"]
    )
    assert Memory.objects.get(owner=owner, text="Is vegetarian").origin_app_name == "Claude import"
    # A private memory is not the import's to change: the change waits for the owner.
    acme.refresh_from_db()
    assert acme.is_private and acme.superseded_by_id is None
    proposal = MemoryProposal.objects.get(owner=owner, memory=acme)
    assert (proposal.proposed_text, proposal.status) == ("Works at Globex", "pending")
    lisbon.refresh_from_db()
    assert lisbon.superseded_by_id is None


def test_a_write_only_app_is_not_shown_memories_to_reconcile_against(
    owner: User, owner_dash: Actor, fake_provider: fake_llm.Brain
) -> None:
    memory_create(actor=owner_dash, text="Lives in Lisbon")
    writer = actor_for(owner, stdio_app(owner, "logger", scopes=[SCOPE_WRITE]))
    fake_provider.facts = {"Lisbon": ["Lives in Lisbon, Portugal"]}
    fake_provider.skip = [("Lisbon", "Lisbon")]

    result = memory_remember(actor=writer, text="I live in Lisbon, Portugal.")

    assert result.actions == ["added"]
    assert fake_provider.reconcile_payloads == []  # the model was asked about nothing it holds
    assert [r.memory.text for r in result.results] == ["Lives in Lisbon, Portugal"]
