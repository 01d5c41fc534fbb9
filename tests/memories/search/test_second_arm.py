"""The search's second arm's vectors (memories/search/second_arm.py, `MemoryAltVector`): written
with a memory's own vector for memories not in English of a store on multilingual-e5, kept true
to the text through edits, the trash and a move, gone with the memory, never for MiniLM stores;
the model refused when its files are not the pinned ones. Real PostgreSQL, the real models."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from django.core.management import call_command
from django.test import Client
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import Memory, MemoryAltVector
from memories.search import second_arm
from memories.search.embeddings import E5_MODEL, MINILM_MODEL
from memories.search.model_files import EmbeddingModelUnavailable
from memories.search.model_profiles import E5, SecondArm
from memories.selectors.memories import memory_search
from memories.services import adding, changing, deleting, maintenance
from memories.services.erasure import user_erase
from memories.services.trash import trash_delete_forever, trash_restore
from tests.memories.exports import backfill, claude_message, write_json
from tests.search_profiles import second_arm_as, without_second_arm

pytestmark = pytest.mark.django_db(transaction=True)

SPANISH = "Tengo un gato naranja que se llama Tofu."
PORTUGUESE = "Faço aulas de natação às terças e quintas."
ENGLISH = "I drink oat milk flat whites every morning."
STORE = [
    "Mi hermano vive en Valencia y trabaja de enfermero.",
    "Tengo un gato naranja que se llama Tofu.",
    "No puedo comer gluten porque soy celíaca.",
    "Corro cinco kilómetros cada mañana por el parque.",
    "Mi pareja es profesora de historia en un instituto.",
    "Eu tenho medo de altura desde criança.",
    "Trabalho como engenheiro civil numa construtora.",
    "Gosto de cozinhar feijoada aos sábados.",
]


@pytest.fixture
def e5(settings: SettingsWrapper) -> Iterator[None]:
    settings.EMBEDDING_MODEL = E5_MODEL
    yield


def _add(owner: User, *texts: str) -> list[Memory]:
    items = [adding.NewMemory(text=t) for t in texts]
    return [r.memory for r in adding.memory_create_many(actor=owner_actor(owner), items=items)]


def _md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()  # noqa: S324 - PostgreSQL's md5(), a digest


def test_use_vectors_are_unit_512_floats_and_a_translation_is_nearer_than_another_subject() -> None:
    cat, gato, swim = second_arm.MODEL_OF_PROCESS.embed(
        ["I have an orange cat called Tofu.", SPANISH, PORTUGUESE]
    )
    assert cat.shape == (512,) and cat.dtype == np.float32
    assert np.isclose(np.linalg.norm(cat), 1.0, atol=1e-5)
    assert float(cat @ gato) > float(cat @ swim) + 0.2


def test_an_e5_store_keeps_a_use_vector_for_each_memory_not_in_english_and_of_its_text(
    owner: User, e5: None
) -> None:
    spanish, portuguese, _english = _add(owner, SPANISH, PORTUGUESE, ENGLISH)
    rows = {r.memory_id: r for r in MemoryAltVector.objects.filter(owner=owner)}
    assert set(rows) == {spanish.id, portuguese.id}
    assert rows[spanish.id].text_md5 == _md5(SPANISH)
    assert rows[spanish.id].model == second_arm.MODEL
    (expected,) = second_arm.MODEL_OF_PROCESS.embed([SPANISH])
    assert np.allclose(np.asarray(rows[spanish.id].embedding), expected, atol=1e-6)


def test_a_minilm_store_writes_no_use_vector(owner: User) -> None:
    _add(owner, SPANISH, PORTUGUESE)
    assert not MemoryAltVector.objects.filter(owner=owner).exists()


def test_a_text_edit_refreshes_the_vector_and_an_edit_into_english_drops_it(
    owner: User, e5: None
) -> None:
    (memory,) = _add(owner, SPANISH)
    before = np.asarray(MemoryAltVector.objects.get(memory_id=memory.id).embedding)
    edited = "Tengo un perro negro que se llama Bruno."
    changing.memory_update(actor=owner_actor(owner), memory_id=memory.id, text=edited)
    row = MemoryAltVector.objects.get(memory_id=memory.id)
    assert row.text_md5 == _md5(edited)
    assert not np.allclose(np.asarray(row.embedding), before, atol=1e-3)
    changing.memory_update(
        actor=owner_actor(owner), memory_id=memory.id, text="I have a black dog called Bruno."
    )
    assert not MemoryAltVector.objects.filter(memory_id=memory.id).exists()


def test_the_trash_keeps_the_vector_for_a_restore_and_deleting_forever_or_erasing_removes_it(
    owner: User, e5: None
) -> None:
    actor = owner_actor(owner)
    spanish, portuguese = _add(owner, SPANISH, PORTUGUESE)
    deleting.memory_delete(actor=actor, memory_id=spanish.id)
    trash_restore(actor=actor, memory_ids=[spanish.id])
    assert MemoryAltVector.objects.get(memory_id=spanish.id).text_md5 == _md5(SPANISH)
    found = memory_search(actor=actor, query="mascota", record=False)
    assert found and found[0].memory.id == spanish.id
    deleting.memory_delete(actor=actor, memory_id=spanish.id)
    trash_delete_forever(actor=actor, memory_ids=[spanish.id])
    assert not MemoryAltVector.objects.filter(memory_id=spanish.id).exists()
    assert MemoryAltVector.objects.filter(memory_id=portuguese.id).exists()
    user_erase(actor=actor)
    assert not MemoryAltVector.objects.filter(owner=owner).exists()


def test_a_stale_vector_is_never_used_and_the_fill_writes_only_what_is_missing(
    owner: User, e5: None
) -> None:
    spanish, portuguese, _english = _add(owner, SPANISH, PORTUGUESE, ENGLISH)
    MemoryAltVector.objects.filter(memory_id=spanish.id).delete()
    MemoryAltVector.objects.filter(memory_id=portuguese.id).update(text_md5=_md5("another text"))
    actor = owner_actor(owner)
    assert second_arm.cosines(owner.pk, "natação", [portuguese.id], "TRUE", {}) == {}
    call_command("reembed", "--second-arm")
    rows = {r.memory_id: r.text_md5 for r in MemoryAltVector.objects.filter(owner=owner)}
    assert rows == {spanish.id: _md5(SPANISH), portuguese.id: _md5(PORTUGUESE)}
    assert set(second_arm.cosines(owner.pk, "natação", [portuguese.id], "TRUE", {})) == {
        portuguese.id
    }
    assert maintenance.second_arm_fill() == 0  # once more: nothing left to write
    assert memory_search(actor=actor, query="natação", record=False)


def test_altered_use_files_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(second_arm.SHA256, "resources/weights.npz", "0" * 64)
    with pytest.raises(EmbeddingModelUnavailable, match="refusing an unknown"):
        second_arm._Model().embed(["hola"])


def test_an_answer_the_arm_takes_from_below_the_cut_off_tells_the_caller_the_score_it_held_to(
    owner: User, e5: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An arm weighted far above the measured one (USE's order decides) takes, for a question
    only some memories are relevant to, memories from below the cut-off: the caller is told the
    lowest score it answered with, not the cut-off, so no result is under what it is told."""
    _add(owner, *STORE)
    second_arm_as(monkeypatch, SecondArm(weight=100.0, depth=100))
    hits = memory_search(actor=owner_actor(owner), query="¿Dónde vive mi hermano?", limit=5)
    scores = [h.score for h in hits]
    assert scores and min(scores) < E5.search.min_score, scores
    assert hits.min_score == min(scores)


def test_a_search_asked_without_the_second_arm_gets_the_ranking_of_a_profile_without_it(
    owner: User, e5: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What reconciliation's neighbours are read with (`use_second_arm=False`)."""
    _add(owner, *STORE)
    actor = owner_actor(owner)

    def ranked(arm: bool = True) -> list[tuple[object, float]]:
        query = "alergias alimentarias"
        hits = memory_search(actor=actor, query=query, min_score=0, use_second_arm=arm)
        return [(h.memory.id, h.score) for h in hits]

    with_arm, asked_without = ranked(), ranked(arm=False)
    without_second_arm(monkeypatch)
    assert asked_without == ranked() != with_arm


def test_an_import_writes_the_use_vectors_of_its_memories_not_in_english(
    owner: User, e5: None, tmp_path: Path
) -> None:
    messages = [SPANISH, PORTUGUESE, ENGLISH]
    export = [
        {
            "uuid": "arm-c0",
            "name": "chat",
            "created_at": "2024-03-01T09:00:00.000000Z",
            "chat_messages": [
                claude_message(f"arm-m{i}", "human", text) for i, text in enumerate(messages)
            ],
        }
    ]
    summary = backfill(
        write_json(tmp_path / "export.json", export), owner, "--yes", "--extractor", "none"
    )
    assert "failed 0" in summary, summary
    stored = dict(Memory.objects.filter(owner=owner).values_list("text", "id"))
    rows = set(MemoryAltVector.objects.filter(owner=owner).values_list("memory_id", flat=True))
    assert rows == {stored[SPANISH], stored[PORTUGUESE]}, stored


def test_a_store_moved_to_e5_gets_its_use_vectors_at_the_switch_and_loses_them_moving_back(
    owner: User, settings: SettingsWrapper
) -> None:
    spanish, portuguese, _english = _add(owner, SPANISH, PORTUGUESE, ENGLISH)
    assert not MemoryAltVector.objects.filter(owner=owner).exists()  # written on MiniLM
    settings.EMBEDDING_MODEL = E5_MODEL
    assert maintenance.move().users_switched == 1
    rows = set(MemoryAltVector.objects.filter(owner=owner).values_list("memory_id", flat=True))
    assert rows == {spanish.id, portuguese.id}
    settings.EMBEDDING_MODEL = MINILM_MODEL
    assert maintenance.move().users_switched == 1
    assert not MemoryAltVector.objects.filter(owner=owner).exists()


def test_the_dashboard_search_lists_first_the_memory_the_arm_puts_first(
    owner: User,
    e5: None,
    owner_client: Client,
    htmx: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _add(owner, *STORE)

    def listed() -> list[str]:
        page = owner_client.get("/", {"q": "alergias alimentarias"}, headers=htmx)
        html = page.content.decode()
        return [text for _, text in sorted((html.find(t), t) for t in STORE if t in html)]

    shown = listed()
    hits = memory_search(actor=owner_actor(owner), query="alergias alimentarias", limit=50)
    assert shown == [h.memory.text for h in hits]
    assert shown[0] == STORE[2]  # the celiac memory
    without_second_arm(monkeypatch)
    assert listed()[0] != STORE[2]
