"""Moving a store to another embedding model (issue 36 item 6): a store embedded with MiniLM, the
setting switched to multilingual-e5, the move run in batches. Nobody's search loses a memory at
any point: each user searches with the model of their own vectors until all of them have moved,
then with the new one; writes, edits, the classifier, related memories and the local extractor's
repeats never compare vectors of two models; a move cut short goes on where it stopped; and the
setting put back moves the store back the same way."""

from __future__ import annotations

import importlib
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory, SearchModel, SearchSnapshot, SearchStats, StagedVector
from memories.search import index as search_index
from memories.search.embeddings import get_embedder
from memories.selectors.memories import memory_related
from memories.services import adding, changing, deleting, maintenance
from memories.services.erasure import user_erase
from memories.services.export import export_build
from memories.services.trash import trash_delete_forever
from memories.tasks import move_embeddings, schedule_move_if_needed
from tests.memories.exports import backfill, claude_message, write_json
from tests.memories.model_moves import (
    DACHSHUND,
    E5_MODEL,
    MINILM_MODEL,
    STORE,
    finds_across_languages,
    finds_by_meaning,
    found,
    live_model,
    store,
)
from tests.personas import signed_in

pytestmark = pytest.mark.usefixtures("fresh_indexes")


def _vector(memory_id: Any, owner: User) -> np.ndarray:
    row = Memory.objects.get(owner=owner, pk=memory_id)
    return np.asarray(row.embedding, dtype=np.float32)


def _e5(text: str) -> np.ndarray:
    return np.asarray(get_embedder(E5_MODEL).embed([text])[0], dtype=np.float32)


def test_a_new_setting_moves_nobody_by_itself_and_search_loses_nothing(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    store(owner_dash)
    assert live_model(owner) == MINILM_MODEL
    assert finds_by_meaning(owner_dash) and not finds_across_languages(owner_dash)
    assert not maintenance.move_needed()

    settings.EMBEDDING_MODEL = E5_MODEL
    assert maintenance.move_needed()
    assert live_model(owner) == MINILM_MODEL
    assert finds_by_meaning(owner_dash) and not finds_across_languages(owner_dash)


@pytest.fixture
def half_moved(
    owner_dash: Actor, stranger_dash: Actor, settings: SettingsWrapper
) -> maintenance.MoveReport:
    """The owner's ten memories and the stranger's four on MiniLM, the setting e5, and the move
    stopped after eight: the smaller store first (the stranger's four, switched), then four of
    the owner's ten."""
    store(owner_dash)
    store(stranger_dash, STORE[:4])
    settings.EMBEDDING_MODEL = E5_MODEL
    return maintenance.move(batch=2, memories=8)


def test_half_way_each_user_searches_with_the_model_of_their_own_vectors(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    half_moved: maintenance.MoveReport,
) -> None:
    report = half_moved
    assert (report.embedded, report.users_switched, report.done) == (8, 1, False)
    assert live_model(stranger) == E5_MODEL
    assert live_model(owner) == MINILM_MODEL
    assert StagedVector.objects.filter(owner=owner, model=E5_MODEL).count() == 4
    assert finds_across_languages(stranger_dash)
    assert finds_by_meaning(owner_dash) and not finds_across_languages(owner_dash)

    report = maintenance.move()
    assert (report.embedded, report.users_switched, report.done) == (6, 1, True)
    assert live_model(owner) == E5_MODEL
    assert finds_by_meaning(owner_dash) and finds_across_languages(owner_dash)
    assert not StagedVector.objects.exists()
    assert set(Memory.objects.values_list("embedding_model", flat=True)) == {E5_MODEL}
    assert not maintenance.move_needed()


def test_the_switch_moves_the_users_generation_and_drops_their_snapshot(
    owner: User, owner_dash: Actor, settings: SettingsWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search_index, "SNAPSHOT_MIN_MEMORIES", 1)
    store(owner_dash)
    assert found(owner_dash, "dog")[:1] == [DACHSHUND]  # reads the index, writes the snapshot
    assert SearchSnapshot.objects.filter(owner=owner).exists()
    before = SearchStats.objects.get(owner=owner).generation
    settings.EMBEDDING_MODEL = E5_MODEL

    maintenance.move()
    assert SearchStats.objects.get(owner=owner).generation > before
    assert not SearchSnapshot.objects.filter(owner=owner).exists()
    # This process's index of the user was of MiniLM's vectors: read again, of e5's.
    assert finds_across_languages(owner_dash)
    held = [index for key, index in search_index.current().indexes.items() if key[1] == owner.pk]
    assert [index.model for index in held] == [E5_MODEL]


@pytest.fixture
def moving(owner_dash: Actor, settings: SettingsWrapper) -> list[Memory]:
    """The owner's ten memories on MiniLM, the setting e5, four of them embedded with it."""
    memories = store(owner_dash)
    settings.EMBEDDING_MODEL = E5_MODEL
    maintenance.move(batch=2, memories=4)
    return memories


def test_a_memory_written_or_edited_during_the_move_is_found_before_and_after_the_switch(
    owner: User, owner_dash: Actor, moving: list[Memory]
) -> None:
    memories = moving
    assert live_model(owner) == MINILM_MODEL

    added = adding.memory_create(actor=owner_dash, text="Our cat Mochi sleeps on the piano.")
    staged = StagedVector.objects.get(owner=owner, memory_id=added.memory.id)
    assert staged.model == E5_MODEL
    assert np.allclose(staged.embedding, _e5(added.memory.text), atol=1e-5)
    edited = next(m for m in memories if m.text.startswith("Our flat"))
    changing.memory_update(
        actor=owner_dash, memory_id=edited.id, text="Our flat in Lisbon needs a new boiler."
    )
    assert found(owner_dash, "kitten")[:1] == [added.memory.text]  # by meaning alone
    assert found(owner_dash, "boiler")[:1] == ["Our flat in Lisbon needs a new boiler."]

    maintenance.move()
    assert live_model(owner) == E5_MODEL
    assert added.memory.text in found(owner_dash, "kitten")
    assert found(owner_dash, "boiler")[:1] == ["Our flat in Lisbon needs a new boiler."]
    assert np.allclose(
        _vector(edited.id, owner), _e5("Our flat in Lisbon needs a new boiler."), atol=1e-5
    )


def test_a_text_changed_behind_the_services_back_is_embedded_again_before_the_switch(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    memories = store(owner_dash, STORE[:3])
    settings.EMBEDDING_MODEL = E5_MODEL
    maintenance.mark(E5_MODEL)
    maintenance.move(memories=3)  # all three staged, and switched
    assert live_model(owner) == E5_MODEL
    settings.EMBEDDING_MODEL = MINILM_MODEL
    maintenance.move(batch=3, memories=1)  # staged again for MiniLM; not switched yet
    assert live_model(owner) == E5_MODEL
    with connection.cursor() as cur:  # a raw edit writes no vector of the next model
        cur.execute(
            "UPDATE memories_memory SET text = 'We have two cats.' WHERE owner_id = %s AND id = %s",
            [owner.pk, memories[0].id],
        )
    assert maintenance.switch(owner.pk) is None  # its staged vector is of the old text

    report = maintenance.move()
    assert report.embedded == 1 and live_model(owner) == MINILM_MODEL
    expected = get_embedder(MINILM_MODEL).embed(["We have two cats."])[0]
    assert np.allclose(_vector(memories[0].id, owner), expected, atol=1e-5)


def test_a_move_cut_short_goes_on_from_what_it_embedded(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    store(owner_dash)
    settings.EMBEDDING_MODEL = E5_MODEL
    first = maintenance.move(batch=3, memories=6)
    assert (first.embedded, first.users_switched) == (6, 0)
    second = maintenance.move(batch=3)
    assert (second.embedded, second.users_switched, second.done) == (4, 1, True)
    for memory in Memory.objects.filter(owner=owner):
        assert np.allclose(_vector(memory.id, owner), _e5(memory.text), atol=1e-5)


def test_putting_the_setting_back_moves_the_store_back_and_stops_those_not_yet_moved(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    settings: SettingsWrapper,
    half_moved: maintenance.MoveReport,
) -> None:
    assert (live_model(stranger), live_model(owner)) == (E5_MODEL, MINILM_MODEL)

    settings.EMBEDDING_MODEL = MINILM_MODEL
    assert maintenance.mark(MINILM_MODEL) == 1  # the stranger goes back; the owner stops
    owner_row = SearchModel.objects.get(owner=owner)
    assert (owner_row.model, owner_row.next_model) == (MINILM_MODEL, "")
    assert not StagedVector.objects.filter(owner=owner).exists()
    assert finds_across_languages(stranger_dash)  # still e5 until every memory is back

    report = maintenance.move()
    assert (report.embedded, report.users_switched, report.done) == (4, 1, True)
    assert (live_model(stranger), live_model(owner)) == (MINILM_MODEL, MINILM_MODEL)
    assert not finds_across_languages(stranger_dash)
    assert finds_by_meaning(owner_dash)
    assert set(Memory.objects.values_list("embedding_model", flat=True)) == {MINILM_MODEL}


# Facts the classifier labels (the sensitive ones in three languages) and ordinary ones.
LABELLED = (
    "I was diagnosed with depression and take sertraline.",
    "Ich wurde mit einer Depression diagnostiziert und nehme Sertralin.",
    "我被诊断出抑郁症，正在吃舍曲林。",  # noqa: RUF001 - a Chinese comma
    "My salary is 85,000 euros a year.",
    "I go bouldering every Thursday evening.",
)


def test_a_write_during_the_move_is_labelled_as_on_a_store_already_moved(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    settings: SettingsWrapper,
) -> None:
    """The classifier compares vectors of its own model (EMBEDDING_MODEL): a write by a user
    whose vectors are still MiniLM's is labelled from its e5 vector, as the same text is for a
    user already on e5."""
    adding.memory_create(actor=owner_dash, text="I keep a vegetable garden.")
    settings.EMBEDDING_MODEL = E5_MODEL
    maintenance.mark(E5_MODEL)
    assert live_model(owner) == MINILM_MODEL
    moving = store(owner_dash, LABELLED)
    moved = store(stranger_dash, LABELLED)
    assert live_model(stranger) == E5_MODEL  # a first memory: on the setting's model
    labels = [m.categories for m in moving]
    assert labels == [m.categories for m in moved]
    assert any(labels), "the classifier labelled none of them: the comparison says nothing"


def test_related_memories_are_found_before_during_and_after_the_move(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    dog, walks, *_ = store(
        owner_dash, (DACHSHUND, "Bruno loves long walks in the park.", *STORE[4:])
    )

    def related() -> list[str]:
        return [h.memory.text for h in memory_related(actor=owner_dash, memory_id=dog.id)]

    assert walks.text in related()
    settings.EMBEDDING_MODEL = E5_MODEL
    maintenance.move(batch=2, memories=2)
    assert live_model(owner) == MINILM_MODEL
    assert walks.text in related()
    maintenance.move()
    assert live_model(owner) == E5_MODEL
    assert walks.text in related()


def test_purged_and_erased_memories_take_their_staged_vectors_with_them(
    owner: User, owner_dash: Actor, moving: list[Memory]
) -> None:
    memories = moving
    staged = set(StagedVector.objects.filter(owner=owner).values_list("memory_id", flat=True))
    first, second = [m for m in memories if m.id in staged][:2]
    deleting.memory_delete(actor=owner_dash, memory_id=first.id)
    assert StagedVector.objects.filter(memory_id=first.id).exists()  # restorable from the trash
    trash_delete_forever(actor=owner_dash, memory_ids=[first.id])
    assert not StagedVector.objects.filter(memory_id=first.id).exists()
    with connection.cursor() as cur:  # a delete below the ORM: PostgreSQL's own cascade
        cur.execute(
            "DELETE FROM memories_memory WHERE owner_id = %s AND id = %s", [owner.pk, second.id]
        )
    assert not StagedVector.objects.filter(memory_id=second.id).exists()

    user_erase(actor=owner_dash)
    assert not StagedVector.objects.filter(owner=owner).exists()
    assert not SearchModel.objects.filter(owner=owner).exists()


@pytest.mark.usefixtures("moving")
def test_reembed_runs_the_move_here_and_status_says_how_far_it_is() -> None:
    out = io.StringIO()
    call_command("reembed", "--status", stdout=out)
    status = out.getvalue()
    assert f"1 users moving from {MINILM_MODEL} to {E5_MODEL}: 4 of 10 memories" in status
    assert f"searches use {MINILM_MODEL}" in status

    out = io.StringIO()
    call_command("reembed", stdout=out, stderr=io.StringIO())
    assert f"Embedded 6 memories with {E5_MODEL}" in out.getvalue()
    out = io.StringIO()
    call_command("reembed", "--status", stdout=out)
    assert f"1 users on {E5_MODEL}: 10 memories." in out.getvalue()


@pytest.mark.usefixtures("moving")
def test_the_admin_shows_each_users_model_and_how_far_their_move_is(
    owner: User, owner_dash: Actor, stranger_dash: Actor
) -> None:
    store(stranger_dash, STORE[:2])  # a first memory: on the setting's model, not moving
    operator = signed_in(User.objects.create_superuser("admin@example.com", "operator password"))
    page = operator.get(reverse("admin:memories_searchmodel_changelist"))
    rows = {row.owner_id: row for row in page.context["cl"].result_list}
    admin = page.context["cl"].model_admin
    mine, theirs = rows[owner.pk], rows[stranger_dash.user.pk]
    assert (mine.model, mine.next_model) == (MINILM_MODEL, E5_MODEL)
    assert (admin.memory_count(mine), admin.embedded(mine)) == (10, "4 of 10")
    assert (theirs.model, admin.memory_count(theirs), admin.embedded(theirs)) == (E5_MODEL, 2, "-")
    assert DACHSHUND not in page.content.decode()  # counts only


def test_the_task_queues_itself_until_the_store_has_moved(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    from django_tasks_db.models import DBTaskResult

    store(owner_dash)
    assert not schedule_move_if_needed()
    settings.EMBEDDING_MODEL = E5_MODEL
    assert schedule_move_if_needed()
    waiting = DBTaskResult.objects.filter(task_path=move_embeddings.module_path, status="READY")
    assert waiting.count() == 1
    assert schedule_move_if_needed() and waiting.count() == 1  # restarts do not pile up

    result = move_embeddings.call()
    assert result["done"] and result["users_switched"] == 1 and result["embedded"] == 10
    assert live_model(owner) == E5_MODEL
    assert not maintenance.move_needed()


def test_an_export_made_on_minilm_restores_on_e5_with_vectors_embedded_here(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    settings: SettingsWrapper,
    tmp_path: Path,
) -> None:
    store(owner_dash)
    document = export_build(actor=owner_dash)
    assert {m["embedding_model"] for m in document["memories"]} == {MINILM_MODEL}
    assert not any("embedding" in m for m in document["memories"])  # no vector leaves

    settings.EMBEDDING_MODEL = E5_MODEL
    backfill(write_json(tmp_path / "export.json", document), stranger, "--yes")
    assert live_model(stranger) == E5_MODEL
    restored = Memory.objects.filter(owner=stranger)
    assert sorted(m.text for m in restored) == sorted(STORE)
    for memory in restored:
        assert memory.embedding_model == E5_MODEL
        assert np.allclose(_vector(memory.id, stranger), _e5(memory.text), atol=1e-5)
    assert finds_across_languages(stranger_dash)
    again = export_build(actor=stranger_dash)
    assert {m["embedding_model"] for m in again["memories"]} == {E5_MODEL}


def _chat(cid: str, created: str, text: str) -> dict[str, Any]:
    return {
        "uuid": cid,
        "name": cid,
        "created_at": created,
        "chat_messages": [
            claude_message(f"{cid}-u", "human", text, created_at=created),
            claude_message(f"{cid}-a", "assistant", "Noted.", created_at=created),
        ],
    }


def test_a_local_import_during_the_move_counts_a_repeat_of_a_memory_on_the_other_model(
    owner: User, settings: SettingsWrapper, tmp_path: Path
) -> None:
    """The local extractor's repeat test compares the new clause with the earlier memory by
    cosine, in the extractor's model (EMBEDDING_MODEL): the earlier memory's vector of that model
    (embedded now, and staged for the move), never the one of the model it is searched with.
    (Run on the way back to MiniLM: the extractor's thresholds are MiniLM's until retuned.)"""
    said = "I work as a carpenter in Cork."
    first = [_chat("c-1", "2024-01-01T00:00:00Z", said)]
    backfill(write_json(tmp_path / "one.json", first), owner, "--extractor", "local", "--yes")
    (earlier,) = Memory.objects.filter(owner=owner)
    settings.EMBEDDING_MODEL = E5_MODEL
    maintenance.move()
    settings.EMBEDDING_MODEL = MINILM_MODEL
    maintenance.mark(MINILM_MODEL)
    assert live_model(owner) == E5_MODEL and not StagedVector.objects.filter(owner=owner)

    again = [_chat("c-2", "2024-05-01T00:00:00Z", "I work in Cork as a carpenter.")]
    backfill(write_json(tmp_path / "two.json", again), owner, "--extractor", "local", "--yes")
    (memory,) = Memory.objects.filter(owner=owner)
    assert memory.id == earlier.id and memory.provenance["mentions"] == 2
    staged = StagedVector.objects.get(owner=owner, memory_id=memory.id)
    expected = get_embedder(MINILM_MODEL).embed([memory.text])[0]
    assert staged.model == MINILM_MODEL and np.allclose(staged.embedding, expected, atol=1e-5)


MIGRATION = importlib.import_module("memories.migrations.0023_search_models")


def test_an_upgraded_store_keeps_each_users_model_and_the_move_takes_every_memory(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    settings: SettingsWrapper,
) -> None:
    """A store from before this release: no user has a model row, and one memory was embedded
    long ago with a model no longer set (invisible to the dense arm since). The migration gives
    each user the model most of their memories have; the move embeds every memory, that one too."""
    mine = store(owner_dash)
    store(stranger_dash, STORE[:2])
    stray = mine[-1]
    with connection.cursor() as cur:
        cur.execute("DELETE FROM memories_searchmodel")
        cur.execute(
            "UPDATE memories_memory SET embedding_model = 'BAAI/bge-small-en-v1.5' "
            "WHERE owner_id = %s AND id = %s",
            [owner.pk, stray.id],
        )
        cur.execute(MIGRATION.USERS)
    assert (live_model(owner), live_model(stranger)) == (MINILM_MODEL, MINILM_MODEL)
    assert finds_by_meaning(owner_dash)

    settings.EMBEDDING_MODEL = E5_MODEL
    report = maintenance.move()
    assert report.done and report.embedded == len(STORE) + 2
    assert set(Memory.objects.values_list("embedding_model", flat=True)) == {E5_MODEL}
    assert np.allclose(_vector(stray.id, owner), _e5(stray.text), atol=1e-5)


def test_a_user_whose_memories_came_without_the_services_is_given_their_model_then_moved(
    owner: User, owner_dash: Actor, settings: SettingsWrapper
) -> None:
    store(owner_dash, STORE[:3])
    SearchModel.objects.filter(owner=owner).delete()  # as rows written by raw SQL leave it
    settings.EMBEDDING_MODEL = E5_MODEL
    assert maintenance.mark(E5_MODEL) == 1
    row = SearchModel.objects.get(owner=owner)
    assert (row.model, row.next_model) == (MINILM_MODEL, E5_MODEL)


@pytest.mark.parametrize("during", [False, True], ids=["before the move", "during the move"])
def test_a_memory_with_a_credential_is_moved_with_what_apps_read_of_it(
    owner: User, owner_dash: Actor, settings: SettingsWrapper, *, during: bool
) -> None:
    # Issue 37: the owner's own credential is kept private, and its vector is of the text with
    # the credential withheld; the move must not embed the credential under the new model.
    if during:
        store(owner_dash)
        settings.EMBEDDING_MODEL = E5_MODEL
        maintenance.move(batch=2, memories=4)
    [memory] = store(owner_dash, ("Unser WLAN-Passwort ist Zuhause2024!",))
    assert memory.app_text and "Zuhause2024!" not in memory.app_text
    settings.EMBEDDING_MODEL = E5_MODEL
    maintenance.move()
    moved = _vector(memory.id, owner)
    assert Memory.objects.get(pk=memory.id).embedding_model == E5_MODEL
    assert np.allclose(moved, _e5(memory.app_text), atol=1e-4)
    assert not np.allclose(moved, _e5(memory.text), atol=1e-4)
