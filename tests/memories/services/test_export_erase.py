"""Export (schema-valid JSON, Markdown), erase with a receipt, and the export → erase → restore
round trip."""

from __future__ import annotations

import io
import json
import logging
import uuid
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from activity.models import AccessEvent
from kernel.logging import JsonFormatter
from memories.models import Memory, MemoryTombstone, MemoryVersion
from memories.selectors.memories import memory_search
from memories.services.adding import memory_create
from memories.services.changing import memory_set_categories, memory_set_state, memory_update
from memories.services.deleting import memory_delete
from memories.services.erasure import receipt_lines, subject_hash
from memories.services.marks import memory_set_pinned, memory_set_visibility
from memories.transfer_models import ErasureReceipt, ImportRun
from tests.memories.exports import claude_export, write_json

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "docs" / "export.schema.json").read_text())
COMPARED = (
    "text",
    "categories",
    "state",
    "provenance",
    "metadata",
    "created_at",
    "updated_at",
    "user_edited_at",
    "categories_set_by_user",
    "is_private",
    "pinned_at",
    "origin",
    "origin_app_name",
)


def _populate(owner: User, actor: Actor, tmp_path: Path, marker: str = "") -> None:
    """A store with imported memories, edits, states, sensitive categories and a reader app."""
    call_command(
        "backfill",
        str(write_json(tmp_path / "conversations.json", claude_export())),
        "--user",
        owner.email,
        "--yes",
        "--extractor",
        "none",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    edited = memory_create(
        actor=actor, text=f"I prefer tea {marker}", categories=["food"], metadata={"k": marker}
    ).memory
    memory_update(actor=actor, memory_id=edited.id, text=f"I prefer green tea {marker}")
    sick = memory_create(actor=actor, text=f"I have asthma {marker}", categories=["health"]).memory
    memory_set_visibility(actor=actor, memory_id=sick.id, private=True)
    paused = memory_create(actor=actor, text=f"Working on a novel {marker}").memory
    memory_set_state(actor=actor, memory_ids=[paused.id], state="archived")
    ada = Memory.objects.get(owner=owner, text="My daughter is called Ada.")
    memory_set_categories(actor=actor, memory_id=ada.id, categories=["relationships"])
    memory_set_pinned(actor=actor, memory_ids=[ada.id], pinned=True)
    reader = ConnectedApp.objects.create(
        owner=owner, kind="token", name="Cursor", scopes=list(ALL_SCOPES), review_writes=True
    )
    memory_search(actor=actor_for(owner, reader), query="tea")


def _export(user: User, tmp_path: Path, fmt: str = "json") -> Path:
    out = tmp_path / f"export.{fmt}"
    call_command(
        "export", "--user", user.email, "--format", fmt, "--output", str(out), stderr=io.StringIO()
    )
    return out


def _restore(path: Path, owner: User) -> None:
    call_command(
        "backfill",
        str(path),
        "--user",
        owner.email,
        "--source",
        "contextlayer",
        "--yes",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )


def _snapshot(user: User) -> dict[str, dict[str, Any]]:
    rows = {}
    for memory in Memory.objects.filter(owner=user):
        fields = {name: getattr(memory, name) for name in COMPARED}
        fields["versions"] = list(
            MemoryVersion.objects.filter(memory=memory)
            .order_by("created_at")
            .values_list("text", "kind", "created_at")
        )
        rows[memory.text] = fields
    return rows


def test_export_validates_against_the_published_schema_and_has_everything(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    _populate(owner, owner_dash, tmp_path)
    document = json.loads(_export(owner, tmp_path).read_text())
    jsonschema.validate(document, SCHEMA)
    assert {m["text"] for m in document["memories"]} == set(
        Memory.objects.filter(owner=owner).values_list("text", flat=True)
    )
    tea = next(m for m in document["memories"] if m["text"].startswith("I prefer green tea"))
    assert [v["text"] for v in tea["versions"]] == ["I prefer tea"]
    assert {"Cursor", "Claude import", "dashboard"} <= {
        a["name"] for a in document["connected_apps"]
    }
    cursor = next(a for a in document["connected_apps"] if a["name"] == "Cursor")
    assert cursor["review_writes"] is True
    pinned = [m["text"] for m in document["memories"] if m["pinned_at"]]
    assert pinned == ["My daughter is called Ada."]
    assert {"add", "search", "import"} <= {e["action"] for e in document["access_log"]}


def test_markdown_export_groups_memories_by_category(
    owner: User, owner_dash: Actor, tmp_path: Path, settings: SettingsWrapper
) -> None:
    settings.AUTO_CATEGORIZE = False  # so the memories given no category stay uncategorised
    _populate(owner, owner_dash, tmp_path)
    markdown = _export(owner, tmp_path, "markdown").read_text()
    assert markdown.startswith("# Context Layer export")
    food = markdown.index("## Food")
    health = markdown.index("## Health")
    assert markdown.index("I prefer green tea", food) < health
    assert markdown.index("## Relationships") < markdown.index("My daughter is called Ada.")
    assert markdown.index("## Uncategorised") < markdown.index("This is my cat Miso.")
    assert "**Cursor** (token, active)" in markdown


def test_export_erase_restore_brings_back_every_memory_field_by_field(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    _populate(owner, owner_dash, tmp_path)
    before = _snapshot(owner)
    path = _export(owner, tmp_path)
    call_command("erase", "--user", owner.email, "--yes", stdout=io.StringIO())
    assert not Memory.objects.filter(owner=owner).exists()
    _restore(path, owner)
    after = _snapshot(owner)
    assert set(after) == set(before)
    for text, fields in before.items():
        for name, value in fields.items():
            assert after[text][name] == value, (text, name)
    # A second restore adds nothing.
    _restore(path, owner)
    assert _snapshot(owner) == after


def _scan(canary: str) -> list[str]:
    """Every text, varchar, json(b), tsvector and array column in the database holding canary."""
    with connection.cursor() as cur:
        cur.execute(
            """
            SELECT table_schema, table_name, column_name FROM information_schema.columns
            WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
              AND data_type IN ('text', 'character varying', 'jsonb', 'json', 'tsvector', 'ARRAY')
            """
        )
        columns = cur.fetchall()
        hits = []
        for schema, table, column in columns:
            cur.execute(
                f'SELECT count(*) FROM "{schema}"."{table}" WHERE "{column}"::text ILIKE %s',  # noqa: S608
                [f"%{canary}%"],
            )
            if cur.fetchone()[0]:
                hits.append(f"{table}.{column}")
    assert columns  # the scan really looked
    return hits


def test_erase_leaves_no_trace_of_the_users_content_and_issues_a_receipt(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    tmp_path: Path,
    caplog: Any,
) -> None:
    caplog.set_level(logging.DEBUG)
    canary = f"qxcanary{uuid.uuid4().hex[:12]}"
    _populate(owner, owner_dash, tmp_path, marker=canary)
    Memory.objects.filter(owner=owner).update(categories=[canary])
    ImportRun.objects.filter(owner=owner).update(
        filename=f"{canary}.zip", errors=[{"id": canary, "error": canary}]
    )
    doomed = memory_create(actor=owner_dash, text=f"delete me {canary}").memory
    memory_delete(actor=owner_dash, memory_id=doomed.id)
    memory_create(actor=stranger_dash, text="The stranger keeps this.")
    assert _scan(canary)  # planted

    out = io.StringIO()
    call_command("erase", "--user", owner.email, "--yes", stdout=out)

    assert _scan(canary) == []
    logged = "\n".join(JsonFormatter().format(r) for r in caplog.records)
    assert canary not in logged
    receipt = ErasureReceipt.objects.get()
    shown = json.loads(out.getvalue())
    assert shown["id"] == str(receipt.pk) and shown["digest"] == receipt.digest
    assert owner.email not in json.dumps(shown) and str(owner.pk) != receipt.subject
    assert receipt.subject == subject_hash(owner.pk)
    # The memory rows, split as the owner counts them (memories.selectors.counting): 8 in all.
    split = ("memories.memory", "memories.memory.trash", "memories.memory.other")
    assert sum(receipt.counts.get(k, 0) for k in split) == 8
    assert receipt.counts["memories.memory.trash"] == 1
    assert receipt.counts["memories.trashbatch"] == 1
    assert receipt.counts["memories.memorytombstone"] == 1
    assert receipt.counts["accounts.connectedapp"] >= 3
    assert receipt.counts["memories.importedconversation"] == 2
    assert receipt.counts["activity.accessevent"] >= 1
    assert ("Access log entries", receipt.counts["activity.accessevent"]) in receipt_lines(receipt)
    assert receipt.apps_that_read == ["Cursor"]
    assert receipt.erased_by == "cli (manage.py erase)"
    assert User.objects.filter(pk=owner.pk).exists()  # the account stays
    for model in (Memory, MemoryVersion, MemoryTombstone, ImportRun, ConnectedApp, AccessEvent):
        assert not model.objects.filter(owner=owner).exists()
    assert Memory.objects.filter(owner=stranger).count() == 1
    assert AccessEvent.objects.filter(owner=stranger).exists()


def test_a_receipt_from_before_the_access_log_moved_still_names_it_in_words() -> None:
    receipt = ErasureReceipt(counts={"memories.accessevent": 12, "memories.memory": 3})
    assert receipt_lines(receipt) == [("Access log entries", 12), ("Memories", 3)]


def test_erase_with_delete_account_ends_sessions_and_the_receipt_survives(
    owner: User, owner_dash: Actor, stranger: User
) -> None:
    memory_create(actor=owner_dash, text="Something to erase.")
    mine, theirs = SessionStore(), SessionStore()
    mine["_auth_user_id"], theirs["_auth_user_id"] = str(owner.pk), str(stranger.pk)
    mine.create()
    theirs.create()
    call_command("erase", "--user", owner.email, "--yes", "--delete-account", stdout=io.StringIO())
    assert not User.objects.filter(pk=owner.pk).exists()
    assert not Session.objects.filter(session_key=mine.session_key).exists()
    assert Session.objects.filter(session_key=theirs.session_key).exists()
    receipt = ErasureReceipt.objects.get()
    assert receipt.account_deleted and receipt.counts["sessions"] == 1
    assert receipt.counts["accounts.user"] == 1


def test_erase_without_yes_changes_nothing(owner: User, owner_dash: Actor) -> None:
    from django.core.management import CommandError

    memory_create(actor=owner_dash, text="Keep me.")
    with pytest.raises(CommandError, match="add --yes"):
        call_command("erase", "--user", owner.email)
    assert Memory.objects.filter(owner=owner).count() == 1


def test_a_connected_app_cannot_export_or_erase(owner: User) -> None:
    from kernel.errors import OwnerOnly
    from memories.services.erasure import user_erase
    from memories.services.export import export_build

    app = ConnectedApp.objects.create(owner=owner, kind="token", name="X", scopes=list(ALL_SCOPES))
    actor = actor_for(owner, app)
    with pytest.raises(OwnerOnly):
        export_build(actor=actor)
    with pytest.raises(OwnerOnly):
        user_erase(actor=actor)
    assert owner_actor(owner).app.is_owner_app


def test_every_kind_an_erasure_removes_has_words_on_the_receipt(owner: User) -> None:
    """No model name leaks onto the receipt ("Search statss"): each kind has a label written for
    people, and the memory rows are split the way the header counts them."""
    from memories.services.erasure import KIND_LABELS, owned_querysets

    kinds = {label for label, _ in owned_querysets(owner)}
    assert kinds - set(KIND_LABELS) == set()
    receipt = ErasureReceipt(counts={"memories.memory": 3, "memories.memory.trash": 1})
    assert receipt_lines(receipt) == [("Memories", 3), ("Memories in the trash", 1)]
