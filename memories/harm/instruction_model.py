"""Text that instructs an AI assistant, scored by a small model of its characters and words.

The rules of `instructions.py` know the markers and phrasings they were written for; this model
catches the paraphrases they miss, in any of the eight languages: a logistic regression over
hashed character n-grams (2 to 4, what carries meaning in Chinese and Japanese and survives
inflection elsewhere) and word unigrams and bigrams. It does not use the embedding model, so it
costs microseconds on the write path and does not change when the store's model changes.

It is trained on the hand-written list in `instruction_examples.py`, the dev split of
bench/data/harm.json (never on its held-out split) and the ordinary messages and facts of the
extractor's first dev set (`EVERYDAY_DATA`); `bench harm --cv` estimates on dev, fold by
fold, what it does on texts it was not trained on.

A text is scored whole and, when it has several sentences or a part set apart (an HTML comment,
brackets, text after a gap), part by part: an order hidden in the second sentence of an ordinary
note is not diluted by the first. Its score is the highest.

The weights are in `instruction_model.json` (int8, with their scale), written by
`uv run python -m bench harm --train`, which records the training data's digest there: a test
fails when the data changed and the weights did not, and another trains again and compares.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import re
import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from memories.harm.instruction_examples import INSTRUCTIONS, ORDINARY

WEIGHTS = Path(__file__).with_name("instruction_model.json")
ROOT = Path(__file__).resolve().parents[2]
DEV_DATA = ROOT / "bench" / "data" / "harm.json"
# Ordinary messages and the facts drawn from them (the local extractor's first dev set): what a
# store holds most, so the model learns that a request or a fact about someone is not an order.
# The extractor's other sets stay out of training, to check the model's false positives on.
EVERYDAY_DATA = ROOT / "tests" / "memories" / "data" / "extraction_dev.txt"
# Hashed feature space: 2**15 buckets, few enough that the weights file stays small.
BUCKETS = 1 << 15
# At or above: the text reads as an instruction. Chosen by `bench harm --cv` on dev folds and
# the extractor's sets the model is not trained on: at 0.6 out-of-fold recall was .882 but 4.1%
# of the multilingual extraction set's ordinary messages were held; at 0.7, .827 and 2.2%.
THRESHOLD = 0.7
# L2 penalty and gradient steps of the regression (chosen by `bench harm --cv`).
L2 = 1e-5
STEPS = 400
LEARNING_RATE = 0.5


@dataclass(frozen=True)
class Scored:
    score: float  # the highest probability over the text and its parts

    @property
    def instructs(self) -> bool:
        return self.score >= THRESHOLD


# --- Features -----------------------------------------------------------------------------------

_WORD = re.compile(r"\w+")


def _grams(text: str) -> Iterable[str]:
    norm = " " + re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).lower()).strip() + " "
    for n in (2, 3, 4):
        for i in range(len(norm) - n + 1):
            yield f"c{norm[i : i + n]}"
    words = _WORD.findall(norm)
    for word in words:
        yield f"w{word}"
    for a, b in itertools.pairwise(words):
        yield f"b{a} {b}"


def features(text: str) -> np.ndarray:
    """The text's hashed features, each once (crc32: the same in every process)."""
    return np.unique(
        np.fromiter(
            (zlib.crc32(g.encode()) % BUCKETS for g in _grams(text)),
            dtype=np.int64,
        )
    )


def design(texts: Sequence[str]) -> np.ndarray:
    """Rows of presence features scaled to unit length."""
    matrix = np.zeros((len(texts), BUCKETS), dtype=np.float32)
    for row, text in enumerate(texts):
        columns = features(text)
        if len(columns):
            matrix[row, columns] = 1.0 / np.sqrt(len(columns))
    return matrix


# --- Training (pure numpy, deterministic) -------------------------------------------------------


def training_list(dev: Sequence[dict[str, object]] | None = None) -> tuple[list[str], list[bool]]:
    """(texts, is_instruction) of the hand-written list and of `dev` (by default the dev split of
    bench/data/harm.json, its instruction and ordinary items), in a fixed order."""
    texts: list[str] = []
    targets: list[bool] = []
    for label, table in ((True, INSTRUCTIONS), (False, ORDINARY)):
        for by_language in table.values():
            for language in sorted(by_language):
                texts.extend(by_language[language])
                targets.extend([label] * len(by_language[language]))
    for item in dev_items() if dev is None else dev:
        texts.append(str(item["text"]))
        targets.append(item["label"] == "instruction")
    everyday = everyday_texts(EVERYDAY_DATA)
    texts.extend(everyday)
    targets.extend([False] * len(everyday))
    return texts, targets


def everyday_texts(path: Path) -> list[str]:
    """The messages and facts of an extraction set (its format: tests/memories/data), leaving
    out the few the rules hold (a jailbreak prompt pasted into a chat is not ordinary)."""
    from memories.harm.instructions import instruction_reason

    out: list[str] = []
    for record in re.split(r"^%% .*$", path.read_text(), flags=re.M)[1:]:
        message: list[str] = []
        labelled = False
        for line in record.strip("\n").split("\n"):
            labelled = labelled or line.startswith("%")
            if line.startswith("%fact "):
                out.append(line.removeprefix("%fact ").strip())
            elif not labelled:
                message.append(line)
        out.append("\n".join(message).strip())
    return [text for text in out if text and not instruction_reason(text)]


def dev_items() -> list[dict[str, object]]:
    items = json.loads(DEV_DATA.read_text())["items"]
    return [i for i in items if i["split"] == "dev" and i["label"] != "credential"]


def training_digest() -> str:
    """What the weights were trained from: changing the list or the dev split changes this."""
    texts, targets = training_list()
    canonical = json.dumps([texts, targets, BUCKETS, L2, STEPS], ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def fit(texts: Sequence[str], targets: Sequence[bool]) -> np.ndarray:
    """Logistic regression by full-batch gradient descent with momentum from zero, the bias
    unpenalised, the classes weighted equally: weights then bias."""
    x = design(texts)
    y = np.asarray(targets, dtype=np.float32)
    share = np.where(y > 0, 0.5 / max(y.sum(), 1), 0.5 / max((1 - y).sum(), 1)).astype(np.float32)
    w = np.zeros(BUCKETS, dtype=np.float32)
    bias = 0.0
    velocity = np.zeros_like(w)
    bias_velocity = 0.0
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-(x @ w + bias)))
        residual = (p - y) * share
        gradient = x.T @ residual + L2 * w
        velocity = 0.9 * velocity - LEARNING_RATE * 20 * gradient
        bias_velocity = 0.9 * bias_velocity - LEARNING_RATE * float(residual.sum())
        w += velocity
        bias += bias_velocity
    return np.append(w, np.float32(bias))


def pack(weights: np.ndarray) -> dict[str, object]:
    """The weights file's content: int8 weights with one scale, and the bias."""
    w = weights[:-1]
    scale = float(np.abs(w).max()) / 127 or 1.0
    quantised = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
    return {
        "training": training_digest(),
        "buckets": BUCKETS,
        "scale": scale,
        "bias": round(float(weights[-1]), 6),
        "weights": base64.b64encode(quantised.tobytes()).decode(),
    }


def train() -> dict[str, object]:
    return pack(fit(*training_list()))


# --- Scoring ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Weights:
    w: np.ndarray
    bias: float


@cache
def _weights() -> _Weights:
    data = json.loads(WEIGHTS.read_text())
    quantised = np.frombuffer(base64.b64decode(data["weights"]), dtype=np.int8)
    return _Weights(w=quantised.astype(np.float32) * float(data["scale"]), bias=float(data["bias"]))


def unpacked() -> np.ndarray:
    """The shipped weights, as `fit` returns them (for comparison in tests)."""
    loaded = _weights()
    return np.append(loaded.w, np.float32(loaded.bias))


def probability(text: str, weights: np.ndarray | None = None) -> float:
    if weights is None:
        loaded = _weights()
        w, bias = loaded.w, loaded.bias
    else:
        w, bias = weights[:-1], float(weights[-1])
    columns = features(text)
    if not len(columns):
        return 0.0
    logit = float(w[columns].sum()) / float(np.sqrt(len(columns))) + bias
    return 1.0 / (1.0 + float(np.exp(-logit)))


# Where a text's parts begin: a sentence's end, a line, an HTML comment, brackets.
_PART = re.compile(r"(?<=[.!?。！？])\s+|[\n\u2028\u2029]+|<!--|-->|\(|\)|\[\[?|\]\]?")
_STRIP = " \t\u00a0\u200b\u200c\u200d\u2060-:：*#>"
_IDEOGRAPH = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
MAX_PARTS = 12


def parts(text: str) -> list[str]:
    """The parts of a text scored on their own (none when it is one part): sentences, lines,
    what an HTML comment or brackets set apart; short scraps are left out, and a long text's
    parts are joined into at most MAX_PARTS."""
    pieces = [p.strip(_STRIP) for p in _PART.split(text)]
    pieces = [p for p in pieces if len(p) >= 12 or len(_IDEOGRAPH.findall(p)) >= 5]
    if len(pieces) <= 1:
        return []
    if len(pieces) > MAX_PARTS:
        size = -(-len(pieces) // MAX_PARTS)
        pieces = [" ".join(pieces[i : i + size]) for i in range(0, len(pieces), size)]
    return pieces


def score(text: str, weights: np.ndarray | None = None) -> Scored:
    """The text's score: the highest over the text and its parts."""
    return Scored(score=max(probability(t, weights) for t in [text, *parts(text)]))
