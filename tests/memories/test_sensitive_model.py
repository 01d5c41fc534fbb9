"""The sensitive-label model of issue 36.3 (memories/sensitive_model.py): its weights are the file
whose sha256 the code names (a damaged or swapped file fails loudly, and a write with it stores
nothing), they are what the training data gives, and a text scores the same in every process."""

from __future__ import annotations

import base64
import json
import shutil
import zlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from accounts.actors import Actor
from accounts.models import User
from memories import sensitive_model as model
from memories.models import Memory
from memories.services import adding
from tests.memories.hashed_features import features_in_fresh_processes


@pytest.fixture
def weights_at(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The model reads its weights from a path the test controls (a copy of the shipped file);
    the shipped ones are loaded again afterwards."""
    model._weights.cache_clear()
    yield Path(str(model.WEIGHTS))
    model._weights.cache_clear()


def _copy_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    copy = tmp_path / "sensitive_model.json"
    shutil.copy(model.WEIGHTS, copy)
    monkeypatch.setattr(model, "WEIGHTS", copy)
    return copy


def test_a_weight_changed_in_the_file_is_refused(
    weights_at: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = _copy_to(tmp_path, monkeypatch)
    data = json.loads(copy.read_text())
    weights = bytearray(zlib.decompress(base64.b64decode(data["weights"])))
    weights[12345] = (weights[12345] + 1) % 256
    data["weights"] = base64.b64encode(zlib.compress(bytes(weights))).decode()
    copy.write_text(json.dumps(data, indent=0) + "\n")
    with pytest.raises(model.SensitiveModelInvalid, match="sha256"):
        model.category("Ich fahre jeden Tag mit dem Zug.")


def test_a_missing_weights_file_is_refused(
    weights_at: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(model, "WEIGHTS", tmp_path / "gone.json")
    with pytest.raises(model.SensitiveModelInvalid, match="cannot be read"):
        model.category("Ich fahre jeden Tag mit dem Zug.")


@pytest.mark.django_db
def test_a_write_with_a_damaged_model_fails_and_stores_nothing(
    owner: User,
    owner_dash: Actor,
    weights_at: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    copy = _copy_to(tmp_path, monkeypatch)
    copy.write_bytes(copy.read_bytes()[:-40] + b"\n")  # truncated
    with pytest.raises(model.SensitiveModelInvalid):
        adding.memory_create(actor=owner_dash, text="Ich fahre jeden Tag mit dem Zug.")
    assert not Memory.objects.filter(owner=owner).exists()


def test_the_shipped_file_is_the_one_the_code_names_and_is_small() -> None:
    import hashlib

    assert hashlib.sha256(model.WEIGHTS.read_bytes()).hexdigest() == model.WEIGHTS_SHA256
    assert model.WEIGHTS.stat().st_size < 250_000


def test_the_shipped_weights_are_trained_on_the_current_data() -> None:
    # Changing bench/data/sensitive_train.json or a dev split means
    # `python -m bench sensitive-model --train` (and the new sha256 in the module).
    assert json.loads(model.WEIGHTS.read_text())["training"] == model.training_digest()


def test_the_training_data_holds_no_held_out_text() -> None:
    held_out = model.held_out_texts()
    assert len(held_out) > 300
    assert not held_out & {e.text for e in model.training_list()}
    # Short sayings a hand-written example shares with a held-out item are left out, not kept.
    assert held_out & {e.text for e in model.hand_written()}


def test_a_text_scores_the_same_every_time() -> None:
    text = "Ich habe Schulden bei meinem Bruder."
    first = model.probabilities(text)
    assert np.array_equal(first, model.probabilities(text))
    assert abs(float(first.sum()) - 1.0) < 1e-5


def test_the_features_are_the_same_in_every_process() -> None:
    # The weights are looked up by these numbers: Python's salted hash() would move them.
    text = "我去教堂参加婚礼 · Ich zahle Miete · Я плачу"
    outputs = features_in_fresh_processes("memories.sensitive_model", text)
    assert outputs == {str(model.features(text).tolist())}


@pytest.mark.slow  # trains the model again: tens of seconds on a loaded machine
def test_training_again_gives_the_shipped_weights() -> None:
    trained = model.pack(model.fit(model.training_list()))
    shipped = json.loads(model.WEIGHTS.read_text())
    assert trained["training"] == shipped["training"]
    again = np.frombuffer(zlib.decompress(base64.b64decode(str(trained["weights"]))), np.int8)
    before = np.frombuffer(zlib.decompress(base64.b64decode(shipped["weights"])), np.int8)
    # Bit for bit on one machine; another's arithmetic may move a weight by one int8 step.
    assert np.abs(again.astype(int) - before.astype(int)).max() <= 1
