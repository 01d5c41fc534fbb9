"""The local extractor (imports only): lasting facts about the writer from chat messages, on this
machine. Rules (`local_paste.py`, `local_clauses.py`, `local_rules.py`, read in context by
`local_context.py`) keep the clauses that may be lasting self-statements; the embedding model
scores them against prototypes (`local_prototypes.py`). Tuned on
tests/memories/data/extraction_dev*.txt only (`uv run python -m bench extract`); the design is in
ARCHITECTURE.md ("The local extractor")."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from django.utils.translation import gettext, gettext_lazy, pgettext

from memories.categories.vocabulary import DEFAULT_CATEGORIES
from memories.extraction.local_answers import foreign_answer, reads_as_english
from memories.extraction.local_clauses import SURE_LASTING
from memories.extraction.local_context import Reading
from memories.extraction.local_foreign import foreign_followups, foreign_statements
from memories.extraction.local_lists import self_list
from memories.extraction.local_prototypes import LASTING, NOT_LASTING
from memories.extraction.local_rules import looks_english
from memories.language import CLAIMED, OTHER, UNKNOWN, detect
from memories.prototypes import prototype_vectors
from memories.search.embeddings import get_embedder, unit_rows
from memories.search.model_profiles import LocalThresholds, profile_for


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
    in the order given: an earlier message can tell what a later one's "it" or "her" is.
    `previous` is the assistant's message just before it: a short answer ("two cats") takes its
    subject from the question it answers; nothing is kept from the assistant's own words."""

    text: str
    conversation: str = ""
    title: str = ""
    previous: str = ""


class LocalExtractor:
    """Cheap once built: the prototypes are embedded once per process and model."""

    def __init__(self, thresholds: LocalThresholds | None = None) -> None:
        # The thresholds of the model that embeds the prototypes and the clauses.
        self.thresholds = thresholds or profile_for(get_embedder().model_name).extractor
        lasting = [*LASTING, *(e for c in DEFAULT_CATEGORIES for e in c.examples)]
        self._lasting = unit_rows(prototype_vectors(lasting))
        self._not_lasting = unit_rows(prototype_vectors(list(NOT_LASTING)))

    def _side(self, sims: np.ndarray) -> np.ndarray:
        k = min(self.thresholds.top_k, sims.shape[1])
        return np.sort(sims, axis=1)[:, -k:].mean(axis=1)

    def scores(self, vectors: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        if len(vectors) == 0:
            return np.zeros(0, dtype=np.float32)
        unit = unit_rows(vectors)
        return self._side(unit @ self._lasting.T) - self._side(unit @ self._not_lasting.T)

    def extract(self, messages: Sequence[str | Turn]) -> list[list[Kept]]:
        """For each message, the memories it yields (often none), in message order. A bare
        string is a conversation of its own."""
        owners: list[int] = []
        texts: list[str] = []
        whole: list[bool] = []
        readings: dict[str, Reading] = {}
        spoke: set[str] = set()  # conversations with a self-statement in another language
        for index, item in enumerate(messages):
            turn = item if isinstance(item, Turn) else Turn(item, f"#{index}")
            key = turn.conversation or f"#{index}"
            reading = readings.get(key) or readings.setdefault(key, Reading(turn.title))
            listed, message = self_list(turn.text)  # "About me:\n- 24\n- from Nigeria"
            if listed:
                owners.extend([index] * len(listed))
                texts.extend(listed)
                whole.extend([True] * len(listed))
                spoke.add(key)
                if not message.strip():
                    continue
            if reads_as_english(message, turn.previous):
                clauses = reading.clauses(message, turn.previous)
                owners.extend([index] * len(clauses))
                texts.extend(clauses)
                whole.extend([False] * len(clauses))
            else:
                statements = foreign_statements(message)
                completed = None if statements else foreign_answer(turn.previous, message)
                statements = [completed] if completed else statements
                if not statements and key in spoke:
                    statements = foreign_followups(message)
                elif statements:
                    spoke.add(key)
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


# What the extractor does with messages it does not read as English: the self-statements of
# `local_foreign`, kept as written. Measured on the held-out part of
# bench/data/extraction_multilingual.txt (`uv run python -m bench extract --split ml-heldout`,
# docs/benchmarks.md, 6 December 2026, after the ml2 pass): 40 of 49 fact-bearing messages
# kept, 76% of their facts ("about 3 in 4" in the note below). The check step of an import says
# so when a share of the messages is in another language, and offers `none`.
OTHER_LANGUAGES_SHARE = 0.1  # from this share of the messages the check step says it

# In the person's language when a page asks (the dashboard's check step), English otherwise.
LANGUAGE_NAMES = {
    "en": gettext_lazy("English"),
    "zh": gettext_lazy("Chinese"),
    "ja": gettext_lazy("Japanese"),
    "de": gettext_lazy("German"),
    "es": gettext_lazy("Spanish"),
    "fr": gettext_lazy("French"),
    "pt": gettext_lazy("Portuguese"),
    "ru": gettext_lazy("Russian"),
    OTHER: gettext_lazy("other languages"),
    UNKNOWN: gettext_lazy("no language we could tell"),
}
if set(LANGUAGE_NAMES) != {*CLAIMED, OTHER, UNKNOWN}:  # a new language code needs its name here
    raise RuntimeError("memories.extraction.local.LANGUAGE_NAMES lacks a language code")


def other_languages(messages: Sequence[str]) -> list[tuple[str, int]]:
    """The messages the extractor does not read as English (`looks_english`), counted by their
    language's name, most first."""
    counts: dict[str, int] = {}
    for message in messages:
        if not looks_english(message):
            name = str(LANGUAGE_NAMES[detect(message).code])
            counts[name] = counts.get(name, 0) + 1
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def other_languages_note(other: Sequence[tuple[str, int]], messages: int) -> str:
    """What the person is told before a local import when enough of their messages are not in
    English; empty otherwise."""
    count = sum(n for _, n in other)
    if not messages or count / messages < OTHER_LANGUAGES_SHARE:
        return ""
    separator = pgettext("list separator", ", ")
    named = separator.join(f"{name} ({n})" for name, n in other)
    return gettext(
        "%(count)s of your %(messages)s messages are not in English: %(named)s. The local "
        "extractor is built for English first; in other languages it reads fewer ways of "
        "saying things about you, and in our tests it found about 3 in 4 of the facts such "
        "messages state. To keep every message as you wrote it, choose None (one memory per "
        "message), or an LLM if you have configured one."
    ) % {"count": count, "messages": messages, "named": named}


_extractors: dict[str, LocalExtractor] = {}
_lock = threading.Lock()


def local_extractor() -> LocalExtractor:
    """The extractor for the current embedding model, built once per process."""
    model = get_embedder().model_name
    with _lock:
        if model not in _extractors:
            _extractors[model] = LocalExtractor()
        return _extractors[model]
