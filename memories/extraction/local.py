"""The local extractor: lasting facts about the writer from chat messages, on this machine.

For imports only (`--extractor local`): what an assistant sends to `add_memory` is already a
chosen fact. Two halves:

1. Rules (`local_rules.py`) cut pasted material away, split the message into clauses and drop
   the ones that cannot be a lasting self-statement (no first person, questions, requests,
   hypotheticals, meta-talk, states of the moment; role-play drops the whole message). A
   message is read in its conversation (`local_context.Reading`, fed `Turn`s in order): "her
   name is Sara" after "my partner" names the partner, and a clause that leans on what came
   before ("I earn 8k a year from it") is joined to the last clause kept or dropped.
2. The embedding model scores each surviving clause the way the category classifier scores a
   memory: the mean of its best cosine similarities to lasting self-statements (the category
   examples plus `local_prototypes.LASTING`) minus the same against first-person clauses that
   are not lasting facts (`local_prototypes.NOT_LASTING`). A clause at or above `threshold`
   becomes a memory, in the writer's own words.

Only the clauses that survive the rules are embedded, and their vectors are handed to the
import, which stores them as the memories' embeddings: no text is embedded twice.

A message that is not English is kept whole when it reads as a self-statement in a language
`local_rules.LANGUAGES` knows; otherwise its sentences that do are kept, each as it is ("Ich bin
Veganerin." of "... Kennst du ein Restaurant?"), and the rest dropped (see
`local_rules.foreign_statements`). The English-first model is not asked to judge them.

Thresholds and rules were tuned on tests/memories/data/extraction_dev.txt and
extraction_dev2.txt only; `uv run python -m bench extract` reports them, the held-out set and
(`--split outside`, never tuned on) an outside set.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from memories.categories import DEFAULT_CATEGORIES
from memories.classify import _normalised, _prototype_vectors
from memories.embeddings import get_embedder
from memories.extraction.local_context import Reading
from memories.extraction.local_prototypes import LASTING, NOT_LASTING
from memories.extraction.local_rules import foreign_statements, looks_english


@dataclass(frozen=True)
class Kept:
    """One memory the extractor keeps: the writer's words, and their embedding."""

    text: str
    vector: np.ndarray
    score: float  # lasting minus not lasting; 1.0 for a foreign statement
    whole: bool = False  # non-English, kept as written (the message or its sentence)


@dataclass(frozen=True)
class Turn:
    """A message with where it was said. Messages sharing `conversation` are one conversation,
    in the order given: an earlier message can tell what a later one's "it" or "her" is."""

    text: str
    conversation: str = ""
    title: str = ""


@dataclass(frozen=True)
class LocalThresholds:
    threshold: float = 0.0  # keep a clause whose score is at least this
    top_k: int = 3  # prototypes averaged on each side


DEFAULT_LOCAL_THRESHOLDS = LocalThresholds()


class LocalExtractor:
    """Cheap once built: the prototypes are embedded once per process and model."""

    def __init__(self, thresholds: LocalThresholds = DEFAULT_LOCAL_THRESHOLDS) -> None:
        self.thresholds = thresholds
        lasting = [*LASTING, *(e for c in DEFAULT_CATEGORIES for e in c.examples)]
        self._lasting = _normalised(_prototype_vectors(lasting))
        self._not_lasting = _normalised(_prototype_vectors(list(NOT_LASTING)))

    def _side(self, sims: np.ndarray) -> np.ndarray:
        k = min(self.thresholds.top_k, sims.shape[1])
        return np.sort(sims, axis=1)[:, -k:].mean(axis=1)

    def scores(self, vectors: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        if len(vectors) == 0:
            return np.zeros(0, dtype=np.float32)
        unit = _normalised(vectors)
        return self._side(unit @ self._lasting.T) - self._side(unit @ self._not_lasting.T)

    def extract(self, messages: Sequence[str | Turn]) -> list[list[Kept]]:
        """For each message, the memories it yields (often none), in message order. A bare
        string is a conversation of its own."""
        owners: list[int] = []
        texts: list[str] = []
        whole: list[bool] = []
        readings: dict[str, Reading] = {}
        for index, item in enumerate(messages):
            turn = item if isinstance(item, Turn) else Turn(item, f"#{index}")
            message = turn.text
            key = turn.conversation or f"#{index}"
            reading = readings.get(key) or readings.setdefault(key, Reading(turn.title))
            if looks_english(message):
                clauses = reading.clauses(message)
                owners.extend([index] * len(clauses))
                texts.extend(clauses)
                whole.extend([False] * len(clauses))
            else:
                statements = foreign_statements(message)
                owners.extend([index] * len(statements))
                texts.extend(statements)
                whole.extend([True] * len(statements))
        vectors = get_embedder().embed(texts)
        scores = self.scores(vectors)
        out: list[list[Kept]] = [[] for _ in messages]
        for owner, text, vector, score, is_whole in zip(
            owners, texts, vectors, scores, whole, strict=True
        ):
            if is_whole:
                out[owner].append(Kept(text, vector, 1.0, whole=True))
            elif score >= self.thresholds.threshold:
                out[owner].append(Kept(text, vector, float(score)))
        return out


_extractors: dict[str, LocalExtractor] = {}
_lock = threading.Lock()


def local_extractor() -> LocalExtractor:
    """The extractor for the current embedding model, built once per process."""
    model = get_embedder().model_name
    with _lock:
        if model not in _extractors:
            _extractors[model] = LocalExtractor()
        return _extractors[model]
