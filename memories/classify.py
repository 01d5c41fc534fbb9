"""Local category classification from the embedding model: works offline in every mode.

Each category is a set of prototypes (its description and a few example memories). A memory's
score for a category is the mean of its three best cosine similarities to that category's
prototypes. The best category is kept when it clears a threshold; runners-up within a margin are
kept too (a memory can be about food and health).

Sensitive categories fail closed: missing "health" on a medical fact is worse than labelling one
fact too many, because consent leaves sensitive categories out of an app's grant unless the user
opts in (a wrongly hidden memory is one click away for the owner, and the app that wrote it still
reads it back; a wrongly shared one cannot be unread). So a sensitive category is kept whenever
the memory looks sensitive: it is the best category, or close enough to the best that the
classifier cannot tell (uncertain), or above a lower threshold of its own, or the text shows one
of the category's signal words (memories/categories/: the embedding model alone misses e.g.
"Alice had an abortion"). Sensitive labels are never cut by the label limit.

Failing closed on nearness alone hid ordinary facts from every app (a payments team's tech lead,
a hobby's budget were "finance", Sunday chores "religion"), so a sensitive category may also carry
ordinary look-alikes
(`Category.ordinary`): when a memory is more like those than like the category (by
`ordinary_margin`), being near or uncertain is no reason to label it; its signal words and the
absolute threshold still are. The look-alikes and the margin were chosen on the dev part of
bench/data/ordinary_facts.json and the sensitive sets; `bench categories` reports the
false-positive rate of each sensitive category on its held-out third.

A memory in any language but English (`sensitive_model.reads`) whose sensitive label, if any,
did not come from a signal word is read once more by a small character model
(memories/sensitive_model.py: n-grams of any script, trained on dev data and a hand-written
list). A label only the embedding gave is dropped when the model finds the text ordinary enough
(`sensitive_model.VETO`: the embedding model reads these languages poorly), and a memory nothing
found sensitive gets the model's category when it is confident enough (`THRESHOLD`): the
vocabulary the words were not written for. A signal word is never overruled, except by its own
ordinary setting (memories/categories/ordinary.py, `ORDINARY_SETTINGS`: a course on salary
negotiation, a concert in a church, a vote for a team captain) or phrase (`ORDINARY_PHRASES`: a
Buddhist temple seen as a tourist, a demonstration that blocked the road, a tax return to hand in
by May; only the phrase's own words are set aside, a signal word elsewhere in the text still
counts; also a dog
operated on, "football is a religion here", a debt of gratitude). In English, which the embedding
reads, the model only speaks against a label the embedding gave by nearness alone (below the
absolute threshold), and only when it is nearly sure the text is ordinary
(`Thresholds.english_veto`, per embedding model). A text's frame (a book about, a course in) is no
reason to drop such a label: "a family history of heart trouble" and "a book about my years of
drinking" are the writer's own life.

Where the embedding model has a sensitive head (memories/sensitive_head.py: multilingual-e5-small
has one, MiniLM none), the head reads each memory's vector last: a memory nothing else found
sensitive gets the head's category when the head is sure enough (`sensitive_head.THRESHOLD`). It
finds what the words, nearness and the character model miss outside English (a medicine for
anxiety in Chinese), since it was trained on examples in every claimed language and reads them by
meaning. It never takes a label away (`Classifier._settle`).

Languages. A text's signal words are the English ones and its own language's
(memories/categories/signals_by_language.py, `SIGNALS_BY_LANGUAGE`, and lexicons.py; its language
from memories/language.py). The classifier is validated for the languages in `VALIDATED` only:
the eight claimed ones, each of which reaches sensitive recall 1.0 on the multilingual set's dev
split under MiniLM and multilingual-e5-small (`uv run python -m bench categories-languages`,
docs/benchmarks.md; the held-out third is lower, and ordinary false positives miss the 5% bar in
some languages: failing
closed would only hide more). A memory in any other
language it can tell ("other": Italian, Korean, ...) that gets no sensitive label gets `UNCHECKED`
instead (`Classifier.unchecked`): a sensitive label like the others, so an app whose grant leaves
sensitive categories out does not see it, and the owner's dashboard says why and clears it. Text
too short to tell ("und") is not reason enough: most of it is a word or a name.

Thresholds belong to the embedding model (`memories/search/model_profiles.py`); MiniLM's were
tuned on the dev halves of tests/memories/data/categories_labelled.json and
sensitive_labelled.json only (the uncertain margin with the signal words switched off, since those
were written from the dev half's misses); `uv run python -m bench categories` reports both halves.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from memories import language as text_language
from memories import sensitive_head, sensitive_model
from memories.categories.ordinary import ordinary_phrases, ordinary_settings
from memories.categories.signals import signal_words
from memories.categories.vocabulary import DEFAULT_CATEGORIES, UNCHECKED, Category
from memories.prototypes import prototype_vectors
from memories.search.embeddings import get_embedder, unit_rows
from memories.search.model_profiles import Thresholds, profile_for
from memories.signal_gate import SignalGate, SignalGates

# The languages the classifier is validated for (see the module's docstring).
VALIDATED = frozenset(text_language.CLAIMED)


def fails_closed(language: str) -> bool:
    """A memory in this language without a sensitive label is treated as possibly sensitive."""
    return language != text_language.UNKNOWN and language not in VALIDATED


class Classifier:
    """Scores memories against a fixed set of categories; cheap once the prototypes are embedded."""

    def __init__(
        self, categories: Sequence[Category], thresholds: Thresholds | None = None
    ) -> None:
        # A category given by a rule (`UNCHECKED`) has no prototypes to compare with.
        self.categories = [c for c in categories if not c.by_rule]
        # The thresholds of the model that embeds the prototypes (and the memories).
        self.thresholds = thresholds or profile_for(get_embedder().model_name).classifier
        texts: list[str] = []
        owners: list[int] = []
        for index, category in enumerate(self.categories):
            for text in (category.description, *category.examples):
                texts.append(text)
                owners.append(index)
        # Ordinary look-alikes of a sensitive category (a payments team, a hobby's budget): the
        # embedding alone does not make a memory sensitive when it is more like these.
        lookalikes: list[str] = []
        lookalike_owners: list[int] = []
        for index, category in enumerate(self.categories):
            if category.sensitive:
                lookalikes += category.ordinary
                lookalike_owners += [index] * len(category.ordinary)
        vectors = unit_rows(prototype_vectors([*texts, *lookalikes]))  # one file on disk
        self._prototypes = vectors[: len(texts)]
        self._owners = np.asarray(owners)
        self._lookalikes = vectors[len(texts) :]
        self._lookalike_owners = np.asarray(lookalike_owners, dtype=int)
        self._head = sensitive_head.head_for(get_embedder().model_name)
        self._signals: dict[str | None, SignalGates] = {}
        self._signals_lock = threading.Lock()

    def _signals_of(self, language: str | None) -> SignalGates:
        """The sensitive categories' signal words for a text in `language`, built once."""
        with self._signals_lock:
            if language not in self._signals:
                self._signals[language] = SignalGates(
                    [
                        (index, SignalGate(words))
                        for index, category in enumerate(self.categories)
                        if category.sensitive and (words := signal_words(category, language))
                    ]
                )
            return self._signals[language]

    def warm_signals(self) -> None:
        """Build every language's signal words now (about 40 ms each), not in a first write."""
        for code in (None, *text_language.CODES):
            self._signals_of(code)

    def ordinary_scores(self, vectors: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """One row per memory, one column per category: the mean of the best `top_k`
        similarities to the category's ordinary look-alikes (-1 for a category without)."""
        matrix = unit_rows(vectors)
        out = np.full((matrix.shape[0], len(self.categories)), -1.0, dtype=np.float32)
        if not len(self._lookalikes):
            return out
        sims = matrix @ self._lookalikes.T
        k = self.thresholds.top_k
        for index in np.unique(self._lookalike_owners):
            cols = sims[:, self._lookalike_owners == index]
            out[:, index] = np.sort(cols, axis=1)[:, -min(k, cols.shape[1]) :].mean(axis=1)
        return out

    def scores(self, vectors: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """One row per memory, one column per category."""
        sims = unit_rows(vectors) @ self._prototypes.T
        out = np.empty((sims.shape[0], len(self.categories)), dtype=np.float32)
        k = self.thresholds.top_k
        for index in range(len(self.categories)):
            cols = sims[:, self._owners == index]
            top = np.sort(cols, axis=1)[:, -min(k, cols.shape[1]) :]
            out[:, index] = top.mean(axis=1)
        return out

    def classify(
        self,
        vectors: Sequence[np.ndarray] | np.ndarray,
        texts: Sequence[str] | None = None,
        codes: Sequence[str | None] | None = None,
    ) -> list[list[str]]:
        """Labels per memory; with `texts`, sensitive signal words count too: the English ones and
        those of each text's language (`codes`, memories/language.py; detected when not given),
        and so does the sensitive category of the character model (memories/sensitive_model.py).
        A text given as a category's name (`codes` of None) is read with the English signal words
        only."""
        if len(vectors) == 0:
            return []
        if texts is not None and codes is None:
            codes = [text_language.detect(text).code for text in texts]
        t = self.thresholds
        results: list[list[str]] = []
        ordinary = self.ordinary_scores(vectors)
        heads = self._head.verdicts(vectors) if self._head is not None and texts else None
        for row_index, row in enumerate(self.scores(vectors)):
            order = np.argsort(-row)
            best = float(row[order[0]])
            text = texts[row_index] if texts is not None else ""
            code = codes[row_index] if codes is not None else None
            signalled = self._signalled(text, code)
            picked: list[str] = []
            sensitive: list[str] = []
            by_embedding_only: set[str] = set()
            by_nearness_only: set[str] = set()  # nor the absolute threshold
            for index in order:
                category = self.categories[index]
                score = float(row[index])
                near_best = best >= t.minimum and score >= best - t.margin
                uncertain = score >= t.uncertain_floor and score >= best - t.uncertain_margin
                # Closer to the category's ordinary look-alikes than to it: its nearness alone
                # is no reason (its signal words and the absolute threshold still are).
                lookalike = float(ordinary[row_index, index]) > score + t.ordinary_margin
                embedded = ((near_best or uncertain) and not lookalike) or score >= t.sensitive
                if category.sensitive and (embedded or index in signalled):
                    sensitive.append(category.slug)
                    if index not in signalled:
                        by_embedding_only.add(category.slug)
                        if score < t.sensitive:
                            by_nearness_only.add(category.slug)
                elif near_best and not category.sensitive:
                    picked.append(category.slug)
            sensitive = self._settle(
                text,
                code,
                sensitive,
                by_embedding_only,
                by_nearness_only,
                heads[row_index] if heads is not None else None,
            )
            kept = picked[: max(t.max_labels - len(sensitive), 0)]
            results.append([*sensitive, *kept])
        return results

    def _signalled(self, text: str, code: str | None) -> set[int]:
        """The sensitive categories (indexes) whose signal words `text` shows, less those it uses
        only in an ordinary phrase or setting (`ordinary_phrases`, `ordinary_settings`)."""
        gates = self._signals_of(code)
        signalled = gates.matching(text)
        if signalled:
            for slug, rest in ordinary_phrases(text).items():
                named = {i for i in signalled if self.categories[i].slug == slug}
                signalled -= named - gates.matching(rest)
        if signalled and (settings := ordinary_settings(text)):
            signalled = {i for i in signalled if self.categories[i].slug not in settings}
        return signalled

    def _settle(
        self,
        text: str,
        code: str | None,
        sensitive: list[str],
        by_embedding_only: set[str],
        by_nearness_only: set[str],
        head: tuple[float, str] | None,
    ) -> list[str]:
        """A memory's sensitive labels after the learned readers (the one home of how they
        combine with the signal words and the embedding's scores): the character model in the
        languages it reads, the English veto in English, then the head, where the embedding model
        has one (memories/sensitive_head.py) and the text is a memory's (`code` given, not a
        category's name): a memory nothing else found sensitive gets the head's category when its
        probability of not being ordinary reaches `sensitive_head.THRESHOLD`. The head only adds:
        letting it drop what nearness gave hid fewer ordinary facts on the dev sets but shared
        facts told sideways ("a book about my years of drinking too much", a family history of
        heart trouble) that nearness had caught."""
        if text and sensitive_model.reads(code):
            sensitive = self._read_by_model(text, sensitive, by_embedding_only)
        elif (
            by_nearness_only
            and text
            and code == text_language.ENGLISH
            and self.thresholds.english_veto
        ):
            sensitive = self._checked_in_english(text, sensitive, by_nearness_only)
        if head is not None and code is not None and not sensitive:
            score, category = head
            if score >= sensitive_head.THRESHOLD:
                sensitive = [category]
        return sensitive

    @staticmethod
    def _read_by_model(text: str, sensitive: list[str], by_embedding_only: set[str]) -> list[str]:
        """The sensitive labels after the character model has read a memory (not a category's
        name, not English): a label that only the embedding gave is dropped when the model is
        sure enough the text is ordinary (`sensitive_model.VETO`: the embedding model reads these
        languages poorly and its nearness hid a parents' committee or a politics degree), and a
        memory nothing else found sensitive gets the model's category when it is confident
        (`sensitive_model.THRESHOLD`). Never a second label beside another sensitive one: it
        names the wrong category more often than the signal words do."""
        if sensitive and not by_embedding_only:
            return sensitive  # signal words are not overruled
        score, modelled = sensitive_model.verdict(text)
        if by_embedding_only and score < sensitive_model.VETO:
            sensitive = [slug for slug in sensitive if slug not in by_embedding_only]
        if not sensitive and score >= sensitive_model.THRESHOLD:
            sensitive = [modelled]
        return sensitive

    def _checked_in_english(
        self, text: str, sensitive: list[str], by_nearness_only: set[str]
    ) -> list[str]:
        """English sensitive labels after the character model's veto: the embedding classifier
        reads English, so the model never adds a label there and drops only one the embedding gave
        by nearness alone (no signal word, below the absolute threshold), and only when it is
        nearly sure the text is ordinary (`Thresholds.english_veto`, per embedding model: "I am
        34 years old" was health, "I drive a blue Skoda estate" finance)."""
        score, _ = sensitive_model.verdict(text)
        if score >= self.thresholds.english_veto:
            return sensitive
        return [slug for slug in sensitive if slug not in by_nearness_only]

    def label_memories(
        self, vectors: Sequence[np.ndarray] | np.ndarray, texts: Sequence[str]
    ) -> list[list[str]]:
        """Labels for memories as a write stores them: `classify` with each text's language,
        then the fail-closed rule for languages the classifier is not validated for."""
        codes = [text_language.detect(text).code for text in texts]
        return self.unchecked(self.classify(vectors, texts, codes), codes)

    def unchecked(self, labels: list[list[str]], codes: Sequence[str]) -> list[list[str]]:
        """`labels` with `UNCHECKED` added to each memory in a language the classifier is not
        validated for (`fails_closed`) that has no sensitive label: the one home of that rule."""
        sensitive = {c.slug for c in self.categories if c.sensitive}
        return [
            [UNCHECKED, *cats] if fails_closed(code) and not sensitive & set(cats) else cats
            for cats, code in zip(labels, codes, strict=True)
        ]


_CACHE_MAX = 64
_cache: dict[tuple[object, ...], Classifier] = {}
_cache_lock = threading.Lock()


def classifier_for(extra: Sequence[Category] = ()) -> Classifier:
    """The default vocabulary plus a user's own categories; built once per distinct set."""
    key = (get_embedder().model_name, *((c.slug, c.description, c.sensitive) for c in extra))
    with _cache_lock:
        if key not in _cache:
            if len(_cache) >= _CACHE_MAX:  # many users with their own categories
                _cache.clear()
            _cache[key] = Classifier([*DEFAULT_CATEGORIES, *extra])
        return _cache[key]
