"""The sensitive head of issue 36.3 (memories/sensitive_head.py) on multilingual-e5's vectors: it
labels a fact nothing else found and never takes away a label another reader gave (a fact told
sideways that only nearness caught, a user's own sensitive category, a category's name), and its
weights are the file whose sha256 the code names."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import zlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories import classify, sensitive_head
from memories.categories.vocabulary import DEFAULT_CATEGORIES, Category
from memories.models import Memory
from memories.search.embeddings import E5_MODEL, MINILM_MODEL, get_embedder
from memories.sensitive_model import SensitiveModelInvalid
from memories.services import adding

# Written for these tests, not taken from a dev or held-out set. Under e5 without the head the
# anxiety medicine had no label (no signal word, too far from the prototypes, the character model
# under its threshold); the two English facts were labelled by nearness alone, and the head
# reads both as ordinary (.06 and .41).
ANXIETY_MEDICINE = "我最近在吃治疗焦虑的药。"
TOLD_SIDEWAYS = [
    "I'm writing a book about my years of drinking too much.",
    "I have a family history of heart trouble on my dad's side.",
]


@pytest.fixture
def e5(settings: SettingsWrapper) -> Iterator[None]:
    settings.EMBEDDING_MODEL = E5_MODEL
    yield


def _labels(classifier: classify.Classifier, texts: list[str]) -> list[list[str]]:
    return classifier.label_memories(get_embedder(E5_MODEL).embed(texts), texts)


def _without_head(categories: list[Category]) -> classify.Classifier:
    classifier = classify.Classifier(categories)
    classifier._head = None  # the classifier as it was before the head
    return classifier


def test_the_head_labels_a_chinese_fact_nothing_else_found(e5: None) -> None:
    before = _labels(_without_head(list(DEFAULT_CATEGORIES)), [ANXIETY_MEDICINE])
    assert before == [[]]
    after = _labels(classify.Classifier(list(DEFAULT_CATEGORIES)), [ANXIETY_MEDICINE])
    assert after == [["health"]]


def test_the_head_never_takes_away_a_label_nearness_gave_to_a_fact_told_sideways(
    e5: None,
) -> None:
    head = sensitive_head.head_for(E5_MODEL)
    assert head is not None
    vectors = get_embedder(E5_MODEL).embed(TOLD_SIDEWAYS)
    assert all(score < sensitive_head.THRESHOLD for score, _ in head.verdicts(vectors))
    for labels in _labels(classify.Classifier(list(DEFAULT_CATEGORIES)), TOLD_SIDEWAYS):
        assert "health" in labels


def test_nearness_still_labels_a_users_own_sensitive_category_the_head_does_not_know(
    e5: None,
) -> None:
    fertility = Category(
        slug="fertility-treatment",
        description="IVF cycles, egg retrieval, embryo transfers and fertility clinic visits.",
        sensitive=True,
        examples=("Our second IVF cycle starts in May.",),
    )
    classifier = classify.Classifier([*DEFAULT_CATEGORIES, fertility])
    (labels,) = _labels(classifier, ["We have an embryo transfer at the clinic on Friday."])
    assert "fertility-treatment" in labels


def test_a_category_name_is_still_read_by_nearness(e5: None) -> None:
    # A name has no language (`codes` of None): the fail-closed nearness stays.
    classifier = classify.Classifier(list(DEFAULT_CATEGORIES))
    name = "therapy notes"
    vector = get_embedder(E5_MODEL).embed([name])
    assert "health" in classifier.classify(vector, [name], [None])[0]


def test_minilm_has_no_head_and_its_labels_do_not_change(settings: SettingsWrapper) -> None:
    settings.EMBEDDING_MODEL = MINILM_MODEL
    assert sensitive_head.head_for(MINILM_MODEL) is None
    classifier = classify.Classifier(list(DEFAULT_CATEGORIES))
    assert classifier._head is None


@pytest.mark.django_db
def test_a_write_under_e5_stores_the_heads_label(e5: None, owner: User, owner_dash: Actor) -> None:
    written = adding.memory_create(actor=owner_dash, text=ANXIETY_MEDICINE)
    assert Memory.objects.get(pk=written.memory.pk).categories == ["health"]


# --- The weights file ----------------------------------------------------------------------------


@pytest.fixture
def head_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A copy of e5's weights file that the head is loaded from; the shipped one afterwards."""
    copy = tmp_path / "sensitive_head_e5.json"
    shutil.copy(sensitive_head.weights_path(E5_MODEL), copy)
    monkeypatch.setattr(sensitive_head, "weights_path", lambda model_name: copy)
    sensitive_head.head_for.cache_clear()
    classify._cache.clear()
    yield copy
    sensitive_head.head_for.cache_clear()
    classify._cache.clear()


def test_a_weight_changed_in_the_head_file_is_refused(head_file: Path) -> None:
    data = json.loads(head_file.read_text())
    weights = bytearray(zlib.decompress(base64.b64decode(data["weights"])))
    weights[100] ^= 1
    data["weights"] = base64.b64encode(zlib.compress(bytes(weights))).decode()
    head_file.write_text(json.dumps(data, indent=0) + "\n")
    with pytest.raises(SensitiveModelInvalid, match="sha256"):
        sensitive_head.head_for(E5_MODEL)


def test_a_missing_head_file_is_refused(head_file: Path) -> None:
    head_file.unlink()
    with pytest.raises(SensitiveModelInvalid, match="cannot be read"):
        sensitive_head.head_for(E5_MODEL)


@pytest.mark.django_db
def test_a_write_under_e5_with_a_damaged_head_fails_and_stores_nothing(
    e5: None, head_file: Path, owner: User, owner_dash: Actor
) -> None:
    head_file.write_bytes(head_file.read_bytes()[:-40] + b"\n")  # truncated
    with pytest.raises(SensitiveModelInvalid):
        adding.memory_create(actor=owner_dash, text=ANXIETY_MEDICINE)
    assert not Memory.objects.filter(owner=owner).exists()


def test_the_shipped_head_is_the_file_the_code_names_trained_on_the_current_data() -> None:
    # Changing the character model's training data means `python -m bench sensitive-head
    # --train` too (and the new sha256 in HEADS).
    path = sensitive_head.weights_path(E5_MODEL)
    raw = path.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == sensitive_head.HEADS[E5_MODEL][1]
    assert len(raw) < 50_000
    assert json.loads(raw)["training"] == sensitive_head.training_digest(E5_MODEL)


def test_the_head_learns_what_separates_classes_that_lie_in_different_directions() -> None:
    rng = np.random.default_rng(0)
    centres = np.eye(3, 8) * 3
    y = np.repeat(np.arange(3), 40)
    x = centres[y] + 0.3 * rng.standard_normal((120, 8))
    weights = sensitive_head.fit(x, y, 3)
    assert (sensitive_head.probabilities(weights, x).argmax(axis=1) == y).mean() > 0.95


def test_a_head_fitted_on_noise_learns_nothing_it_can_use_on_new_vectors() -> None:
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    weights = sensitive_head.fit(rng.standard_normal((200, 8)), y, 2)
    fresh = sensitive_head.probabilities(weights, rng.standard_normal((400, 8)))
    assert 0.35 < (fresh.argmax(axis=1) == rng.integers(0, 2, 400)).mean() < 0.65


@pytest.mark.slow  # embeds the whole training list under e5: a minute or more on a loaded machine
def test_training_again_gives_the_shipped_head() -> None:
    from bench.sensitive_head import training_vectors

    _, vectors = training_vectors(E5_MODEL)
    trained = sensitive_head.train(E5_MODEL, vectors)
    shipped = json.loads(sensitive_head.weights_path(E5_MODEL).read_text())
    assert trained["training"] == shipped["training"]

    def weights(data: dict[str, object]) -> np.ndarray:
        return np.frombuffer(zlib.decompress(base64.b64decode(str(data["weights"]))), np.float32)

    # Bit for bit on one machine; another's arithmetic may move a weight in its last digits.
    assert np.allclose(weights(trained), weights(shipped), atol=1e-4)
