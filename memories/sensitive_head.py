"""Sensitive facts read by their meaning in every language: a small head on the memory's own vector
(issue 36.3).

The signal words of memories/categories/ know the words they were written for, the prototype
nearness of memories/classify.py reads English best, and the character model
(memories/sensitive_model.py) knows the character n-grams of its training texts. On a set written
later by someone who never saw any of them (`bench sensitive-head`, docs/benchmarks.md), a
multinomial logistic regression on multilingual-e5-small's unit vectors found more sensitive facts
in every language than any of them, with fewer ordinary facts hidden: the multilingual model
places "我是艾滋病病毒携带者" near "I am HIV positive", so what the head learns from one language's
examples carries to the others. It reads the vector the write has already computed, so it costs a
matrix product and no second embedding.

A head belongs to one embedding model (its vectors are that model's): `HEADS` names the weights
file of each model that has one. all-MiniLM-L6-v2 has none: its head hid a quarter of the ordinary
facts outside English (`bench sensitive-head`), since MiniLM reads those languages as noise. How
`Classifier._settle` uses the head's verdict is documented there (the one home of the decision):
it labels a memory nothing else found sensitive, and never takes a label away.

Trained on exactly the character model's training list (`sensitive_model.training_list()`: the
hand-written list and the dev items it names, never a held-out text), with settings fixed before
the first run, by `uv run python -m bench sensitive-head --train`, which writes the weights file
with the training data's digest. The file's sha256 is in `HEADS` and checked when it is loaded: a
changed or damaged file raises `SensitiveModelInvalid` (a write then fails rather than share a
fact unread), as for the character model.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from memories import sensitive_model
from memories.search.embeddings import DIMENSIONS, E5_MODEL, unit_rows
from memories.sensitive_model import CLASSES, SensitiveModelInvalid

# Each model with a head: its weights file (beside this module) and that file's sha256.
HEADS: dict[str, tuple[str, str]] = {
    E5_MODEL: (
        "sensitive_head_e5.json",
        "9efabed970b5ba42d2dad6615ecbc8fd37fa2a730b7fc1cabad203c6373a4423",
    ),
}
# At or above: a memory nothing else found sensitive is labelled with the head's category. Chosen
# by the character model's rule (memories/sensitive_model.py), fixed before the sweep, on the
# head's out-of-fold scores on its own training list (five folds by the text's sha256; `bench
# sensitive-head --cv`): of the thresholds on a grid of .05 whose pooled ordinary false positives
# stay at or under 2.5% and every language's at or under 5%, the one that finds the most sensitive
# texts. .65: sensitive found .909, ordinary false positives .023 pooled, at most .047 (Russian);
# .60 had .032 pooled.
THRESHOLD = 0.65
# Fixed before the first run (`bench sensitive-head`): unit vectors scaled so a logit moves by a
# few units across the space, a light L2 penalty, full-batch gradient descent with momentum.
SCALE, L2, STEPS, RATE, MOMENTUM = 8.0, 1e-3, 400, 0.5, 0.9


@dataclass(frozen=True)
class SensitiveHead:
    """One model's head: `weights` is (DIMENSIONS + 1) x classes, the last row the bias."""

    model_name: str
    weights: np.ndarray

    def probabilities(self, vectors: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """One row per vector: its probability of each class of `CLASSES`."""
        return probabilities(self.weights, features(vectors))

    def verdicts(self, vectors: Sequence[np.ndarray] | np.ndarray) -> list[tuple[float, str]]:
        """Per vector, its probability of not being ordinary and its likeliest sensitive
        category (as `sensitive_model.verdict` gives them for a text)."""
        p = self.probabilities(vectors)
        return [(1.0 - float(row[0]), CLASSES[1 + int(np.argmax(row[1:]))]) for row in p]


def probabilities(weights: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Softmax of a head's logits for rows of features (unit vectors times `SCALE`)."""
    z = np.hstack([x, np.ones((len(x), 1))]) @ weights
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return np.asarray(p / p.sum(axis=1, keepdims=True))


def fit(x: np.ndarray, y: np.ndarray, classes: int) -> np.ndarray:
    """Softmax regression weights ((features + 1) x classes) for rows of features and their
    class numbers: full-batch gradient descent with momentum from zero, so deterministic."""
    n = len(x)
    xb = np.hstack([x, np.ones((n, 1))])
    targets = np.eye(classes)[y]
    weights = np.zeros((xb.shape[1], classes))
    velocity = np.zeros_like(weights)
    for _ in range(STEPS):
        gradient = xb.T @ (probabilities(weights, x) - targets) / n + L2 * weights
        velocity = MOMENTUM * velocity - RATE * gradient
        weights += velocity
    return weights


def features(vectors: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """The head's input: the vectors at unit length, scaled by `SCALE`."""
    return unit_rows(vectors) * SCALE


def training_digest(model_name: str) -> str:
    """What a head was trained from: the character model's training data, the settings and the
    embedding model."""
    settings = json.dumps([model_name, SCALE, L2, STEPS, RATE, MOMENTUM])
    return hashlib.sha256((sensitive_model.training_digest() + settings).encode()).hexdigest()


def train(model_name: str, vectors: np.ndarray) -> dict[str, object]:
    """The weights file's content for `model_name`, from its vectors of the training list (in
    the list's order)."""
    examples = sensitive_model.training_list()
    if len(vectors) != len(examples):
        raise ValueError(f"{len(vectors)} vectors for {len(examples)} training texts")
    y = np.array([CLASSES.index(e.label) for e in examples])
    weights = fit(features(vectors), y, len(CLASSES)).astype(np.float32)
    return {
        "model": model_name,
        "training": training_digest(model_name),
        "classes": list(CLASSES),
        "dimensions": DIMENSIONS,
        "weights": base64.b64encode(zlib.compress(weights.tobytes(), 9)).decode(),
    }


def weights_path(model_name: str) -> Path:
    return Path(__file__).with_name(HEADS[model_name][0])


@cache
def head_for(model_name: str) -> SensitiveHead | None:
    """The head of the model, after checking its file's sha256; None for a model without one."""
    if model_name not in HEADS:
        return None
    raw = sensitive_model.checked_bytes(
        weights_path(model_name), HEADS[model_name][1], "python -m bench sensitive-head --train"
    )
    data = json.loads(raw)
    if (
        data["model"] != model_name
        or data["classes"] != list(CLASSES)
        or data["dimensions"] != DIMENSIONS
    ):
        raise SensitiveModelInvalid(
            f"{weights_path(model_name)} was trained for another model, classes or width."
        )
    weights = np.frombuffer(zlib.decompress(base64.b64decode(data["weights"])), dtype=np.float32)
    return SensitiveHead(model_name, weights.reshape(DIMENSIONS + 1, len(CLASSES)))
