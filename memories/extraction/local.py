"""The local extractor (imports only): lasting facts about the writer from chat messages, on this
machine. Rules (`local_rules.py`, read in context by `local_context.py`) keep the clauses that may
be lasting self-statements; the embedding model scores them against prototypes
(`local_prototypes.py`). Tuned on tests/memories/data/extraction_dev*.txt only
(`uv run python -m bench extract`); the design is in ARCHITECTURE.md ("The local extractor")."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from memories.categories import DEFAULT_CATEGORIES
from memories.classify import _normalised, _prototype_vectors
from memories.extraction.local_context import Reading
from memories.extraction.local_prototypes import LASTING, NOT_LASTING
from memories.extraction.local_rules import SURE_LASTING, foreign_statements, looks_english
from memories.search.embeddings import get_embedder


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
            elif score >= self.thresholds.threshold or SURE_LASTING.search(text):
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
