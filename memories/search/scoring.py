"""Hybrid search, exact per user: a dense arm (cosine) and a lexical arm (BM25) combined into one
relevance score in [0, 1] that means the same for every query (`memories/search/relevance.py`),
with a cut-off below which nothing is returned; its parameters belong to the embedding model
(`memories/search/model_profiles.py`). `UserSearch` ranks through the in-memory index
(`memories/search/index.py`) or PostgreSQL (`memories/search/statements.py`), with the same
results and scores; the design is in ARCHITECTURE.md ("Search")."""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np
from django.db import connection

from memories.search import lexical, moves, related_terms, statements
from memories.search.embeddings import DIMENSIONS, get_embedder
from memories.search.index import View, current, for_user
from memories.search.model_profiles import SearchProfile, Weights, profile_for
from memories.search.relevance import (
    COSINE_ERROR,
    Candidate,
    Corpus,
    best_of,
    bounds,
    complete,
    exact_cosines,
    pick,
    relevance_of,
)
from memories.search.statements import ARM_DEPTH, filters
from memories.search.user_index import UserIndex


def _fetch(sql: str, args: dict[str, Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cur:
        cur.execute(sql, args)
        return list(cur.fetchall())


def _frozen(params: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))


NOT_A_CANDIDATE = float("nan")


class UserSearch:
    """The user's searchable memories as one caller sees them: through the in-memory index when
    it fits the budget, else in PostgreSQL. One statement reads the user's generation and
    statistics, the model of their vectors (`model`: the query is embedded with it,
    `embed_query`), turns the query into lexeme keys and reads the owner's category marks
    (`marks`: (slug, sensitive) pairs, by slug)."""

    def __init__(
        self,
        owner_id: int,
        *,
        visible: str,
        params: dict[str, Any],
        query: str = "",
        whole_store: bool = False,
        use_index: bool = True,
        expand: bool = True,
    ) -> None:
        self.owner_id = owner_id
        self.visible = visible
        self.params = {"category": None, **params}
        self.query = query
        # A short query's words with their related terms (`expand=False`: its own words only).
        self.related = related_terms.expansions(query) if expand else []
        self.short = expand and related_terms.is_short(query)
        # The owner's own apps without a category see every searchable memory but apps'
        # echoes: the trigger-kept totals are their corpus, the index's owner view their mask.
        self.whole = whole_store and self.params["category"] is None
        self.index: UserIndex | None = None
        self.mask: np.ndarray | None = None
        # The cut-off the last `best` held its results to (`cut_off`, or the caller's).
        self._applied_cut_off: float | None = None
        for _ in range(2):  # a write between the reads: once more, then PostgreSQL
            self._read_head()
            if not use_index or self._open_index():
                return
        self.index = self.mask = None

    def _read_head(self) -> None:
        query, deciding = lexical.for_query(self.query)
        args = {
            "cfgs": [a.config for a in lexical.ANALYSES],
            "prefixes": [a.prefix for a in lexical.ANALYSES],
            "q": query,
            "owner": self.owner_id,
            # Each word's related terms under the analysis of their lexicon's language.
            "heads": [lexical.segment(e.word, characters=False) for e in self.related],
            "related": [lexical.segment(e.terms, characters=False) for e in self.related],
            "rcfgs": [lexical.analysis_of(e.language).config for e in self.related],
            "rprefixes": [lexical.analysis_of(e.language).prefix for e in self.related],
            **moves.live_params(),
        }
        ((generation, documents, length, changes_from, model, found, related, marks),) = _fetch(
            statements.HEAD_SQL, args
        )
        # The model of the user's vectors: the query is embedded with it (`embed_query`).
        self.model = str(model)
        self.marks = tuple((slug, sensitive == "true") for slug, sensitive in marks)
        self.generation = None if generation is None else int(generation)
        self.changes_from = None if changes_from is None else int(changes_from)
        self.documents, self.length = int(documents or 0), int(length or 0)
        # Each term of the query its own group with its lexemes under every analysis
        # (`lexical.terms`); a related lexeme joins its word's group, unless the query holds it
        # already (or an earlier word's group took it).
        group_of: dict[str, int] = {}
        key_of: dict[str, int] = {}
        query_lexemes = [
            lexical.QueryLexeme(int(a), lexeme, int(key), tuple(map(int, positions.split(","))))
            for a, lexeme, key, positions in found
        ]
        for lexeme, key, group in lexical.terms(query_lexemes, deciding):
            group_of[lexeme] = group
            key_of[lexeme] = key
        for head, lexeme, key in related:
            if head in group_of and lexeme not in group_of:
                group_of[lexeme] = group_of[head]
                key_of[lexeme] = int(key)
        self.lexemes = list(group_of)
        self.keys = tuple(key_of[lx] for lx in self.lexemes)
        self.groups = tuple(group_of[lx] for lx in self.lexemes)

    def _open_index(self) -> bool:
        """Use the index if it fits; False when the user's memories changed under us."""
        view = None
        if not self.whole:
            frozen = _frozen(self.params)
            view = View(filters(self.visible), self.params, frozen)
        found = for_user(
            self.owner_id,
            self.generation,
            changes_from=self.changes_from,
            searchable=self.documents,
            postings=self.length,
            view=view,
            model=self.model,
        )
        if found is None:
            return True  # too big for the budget, or the cache is off: PostgreSQL
        index, mask = found
        if view is not None and mask is None:
            return False
        self.index, self.mask = index, (index.owner_view if view is None else mask)
        # Read after the head: the user may have switched models in between (its vectors say).
        self.model = index.model
        return True

    @property
    def profile(self) -> SearchProfile:
        """The relevance score and cut-off of the model of the vectors this search compares the
        query with (`model`: the user's, not the process's EMBEDDING_MODEL)."""
        return profile_for(self.model).search

    def weights(self, corpus: Corpus) -> Weights:
        """The profile's weights for this query (`SearchProfile.weights_for`)."""
        return self.profile.weights_for(short=self.short, ideal=corpus.ideal, known=corpus.known)

    @cached_property
    def kin_share(self) -> float:
        """The share of the user's searchable memories in a language that could hold the query's
        words (`lexical.kin`), for a model whose profile discounts an unknown query by them
        (`SearchProfile.unknown_by_language`); 1 otherwise. A query in another language than
        the store's shares no lexeme with it whatever it is about: that says nothing about
        whether the store knows the query's subject, so the discount does not count those
        memories. Counted over the caller's view, as the BM25 statistics are: a share of the
        whole store would let a memory an app may not see move the scores the app reads."""
        if not self.profile.unknown_by_language:
            return 1.0
        kin = lexical.kin(self.query)
        if kin is None:
            return 1.0
        held, total = _kin_counts(self, kin)
        return held / total if total else 1.0

    def embed_query(self) -> np.ndarray:
        """The query's vector under the model of the vectors this search compares it with."""
        return get_embedder(self.model).embed_query(self.query)

    # -- the arms, apart (tests, benchmarks, related memories) --

    def dense(self, qvec: np.ndarray, depth: int = ARM_DEPTH) -> list[tuple[uuid.UUID, float]]:
        """The `depth` visible memories most similar to `qvec`, best first, exact cosines."""
        if self.index is None:
            return self._dense_sql(qvec, depth)
        index = self.index
        cosine = self._hide(index.cosines(qvec))
        rows = pick(cosine - COSINE_ERROR, cosine + COSINE_ERROR, depth, -math.inf)
        exact = exact_cosines(index.matrix[rows], qvec)
        found = best_of([index.memory_id(r) for r in rows], exact, depth, -math.inf)
        return [(c.id, c.score) for c in found]

    def lexical(
        self, depth: int = ARM_DEPTH, *, k1: float | None = None, b: float | None = None
    ) -> list[tuple[uuid.UUID, float]]:
        """The `depth` visible memories with the highest BM25 for the query, best first (k1 and
        b: the profile's unless given)."""
        k1 = self.profile.bm25_k1 if k1 is None else k1
        b = self.profile.bm25_b if b is None else b
        if self.index is None:
            ranked, _, _ = self._lexical_sql(depth, (), k1=k1, b=b)
            return ranked
        _, bm25 = self._bm25(k1, b)
        matched = self._hide(np.where(bm25 > 0, bm25, NOT_A_CANDIDATE))
        rows = pick(matched, matched, depth, -math.inf)
        found = best_of([self.index.memory_id(r) for r in rows], bm25[rows], depth, -math.inf)
        return [(c.id, c.score) for c in found]

    def arrays(
        self, qvec: np.ndarray, *, k1: float, b: float
    ) -> tuple[np.ndarray, np.ndarray, float, float, int]:
        """Cosine (approximate) and BM25 of every row of the index, the query's ideal BM25, its
        known part and the number of visible memories: what `relevance` takes (the sweep varies
        k1 and b)."""
        assert self.index is not None
        corpus, bm25 = self._bm25(k1, b)
        return self.index.cosines(qvec), bm25, corpus.ideal, corpus.known, corpus.documents

    def _hide(self, values: np.ndarray) -> np.ndarray:
        """`values` with the rows the caller may not see taken out of the running."""
        if self.mask is not None:
            values[~self.mask] = NOT_A_CANDIDATE
        return values

    def _bm25(self, k1: float, b: float) -> tuple[Corpus, np.ndarray]:
        """The caller's corpus for the query and the BM25 of every row of the index (rows the
        caller may not see count for nothing and score what they score)."""
        index, visible = self.index, self.mask
        assert index is not None
        documents = len(index) if visible is None else int(visible.sum())
        length = int(index.dl.sum() if visible is None else index.dl[visible].sum())
        matches = [index.postings(key, visible) for key in self.keys]
        df = tuple(len(rows) for rows, _ in matches)
        corpus = Corpus(self.keys, df, documents, length, k1, b, self.groups, self.kin_share)
        scores = np.zeros(len(index), dtype=np.float64)
        for idf, members in zip(corpus.idf, corpus.members, strict=True):
            # A word's forms under other languages' configurations and its related terms are
            # mostly in no memory: only the members some row holds are read.
            held = [i for i in members if len(matches[i][0])] or [members[0]]
            rows, tf = matches[held[0]]
            if len(held) > 1:  # a word and its other forms: counts summed per row
                rows, at = np.unique(
                    np.concatenate([matches[i][0] for i in held]), return_inverse=True
                )
                tf = np.bincount(
                    at, weights=np.concatenate([matches[i][1] for i in held]).astype(np.float64)
                )
            if len(rows):
                scores[rows] += corpus.term(idf, tf, index.dl[rows])
        return corpus, scores

    # -- both arms, scored --

    @property
    def applied_cut_off(self) -> float:
        """The cut-off the last `best` held its results to; the profile's before any."""
        return self.profile.min_score if self._applied_cut_off is None else self._applied_cut_off

    def cut_offs(self, corpus: Corpus, min_score: float | None) -> tuple[float, float]:
        """The floor every result is held to and the score the best one must reach for the
        query to be answered at all: the caller's `min_score` for both when given; else, for a
        short query none of whose words a visible memory holds under a profile with an
        `answered_floor`, that floor (at most the cut-off) and `cut_off`; else `cut_off` for
        both. Such a query is found by meaning alone: whether the store knows its subject is
        the best memory's to say, and a synonym's memory scores near the best one."""
        if min_score is not None:
            return min_score, min_score
        answer = self.cut_off(corpus)
        floor = self.profile.answered_floor
        if floor is None or not self._unknown_short(corpus):
            return answer, answer
        return min(floor, answer), answer

    def _answered(self, found: list[Candidate], floor: float, answer: float) -> list[Candidate]:
        """`found` (the best at least `floor`), or nothing when the best is below `answer`; the
        cut-off the caller is told is the one the answer was held to."""
        if found and found[0].score >= answer:
            self._applied_cut_off = floor
            return found
        self._applied_cut_off = answer
        return []

    def _unknown_short(self, corpus: Corpus) -> bool:
        """A short query with words, none of which (nor a related term) a visible memory holds."""
        return self.short and corpus.ideal > 0 and corpus.known <= 0

    def cut_off(self, corpus: Corpus) -> float:
        """The profile's cut-off for this query: for a short query none of whose words a visible
        memory holds, raised towards the profile's `unknown_min_score` by the share of the
        visible memories that could have held them (`Corpus.kin`, `kin_share`), so a query in
        another language than the store's keeps `min_score`. A function of the query and the
        visible memories alone: a caller is told it without learning anything it may not see."""
        profile = self.profile
        raised = profile.unknown_min_score
        if raised is None or not self._unknown_short(corpus):
            return profile.min_score
        # Weighted so a whole share (or none) gives the profile's value to the digit.
        return raised * corpus.kin + profile.min_score * (1 - corpus.kin)

    def best(
        self, qvec: np.ndarray, *, limit: int, min_score: float | None = None
    ) -> list[Candidate]:
        """The `limit` most relevant visible memories scoring at least `min_score` (unless given,
        the profile's cut-offs for the query, `cut_offs`: nothing when the best is below the
        one the query must reach; the one the results were held to is kept in
        `applied_cut_off`)."""
        if self.index is None:
            return self._best_sql(qvec, limit=limit, min_score=min_score)
        index = self.index
        corpus, bm25 = self._bm25(self.profile.bm25_k1, self.profile.bm25_b)
        floor, answer = self.cut_offs(corpus, min_score)
        weights = self.weights(corpus)
        cosine = index.cosines(qvec)
        rows = self._contenders(cosine, bm25, limit)
        low, high = bounds(cosine[rows], bm25[rows], corpus, weights)
        rows = rows[pick(low, high, limit, floor)]
        exact = exact_cosines(index.matrix[rows], qvec)
        exact[~index.has_vector[rows]] = np.nan
        scores = [
            relevance_of(float(c), float(bm25[r]), corpus, weights)
            for c, r in zip(exact, rows, strict=True)
        ]
        found = best_of([index.memory_id(r) for r in rows], scores, limit, floor)
        return self._answered(found, floor, answer)

    def _contenders(self, cosine: np.ndarray, bm25: np.ndarray, limit: int) -> np.ndarray:
        """The visible rows that may be among the `limit` most relevant, in row order: every
        row holding a query lexeme, and of the rest only those whose cosine may be among their
        `limit` best. Without keyword evidence, relevance depends on the cosine alone, through
        its clipped value (clip(cosine, cosine_zero, cosine_full); none without a vector), and never
        decreases with it; rows whose clipped cosines tie are all kept, so ties are still broken
        by id. Why: scoring every row twice (`_bounds`) cost more than the scan itself in a store
        of 50,000 memories, where a query's words are in a tenth of them (docs/benchmarks.md)."""
        visible = np.ones(len(bm25), dtype=bool) if self.mask is None else self.mask.copy()
        matched = bm25 > 0
        plain = np.flatnonzero(visible & ~matched)
        clipped = np.nan_to_num(cosine[plain], nan=0.0)
        zero, full = self.profile.weights.cosine_zero, self.profile.weights.cosine_full
        low = np.clip(clipped - COSINE_ERROR, zero, full)
        high = np.clip(clipped + COSINE_ERROR, zero, full)
        visible[plain] = False
        visible[plain[pick(low, high, limit, -math.inf)]] = True
        return np.flatnonzero(visible)

    # -- in PostgreSQL --

    def _corpus(self) -> tuple[int, int]:
        """The count and total length of the memories this caller sees."""
        return (self.documents, self.length) if self.whole else _subset_stats(self)

    def _lexical_sql(
        self, depth: int, also: Sequence[uuid.UUID], *, k1: float, b: float
    ) -> tuple[list[tuple[uuid.UUID, float]], dict[uuid.UUID, float], Corpus]:
        """The best `depth` BM25s (as PostgreSQL computes them: they rank), those of the memories
        `also` among the rest, and the caller's corpus for the query."""
        documents, length = self._corpus()
        args = {
            **self.params,
            "lexemes": self.lexemes,
            "groups": list(self.groups),
            "owner": self.owner_id,
            "n_docs": float(documents),
            "avgdl": Corpus((), (), documents, length, k1, b).avgdl,
            "k1": k1,
            "b": b,
            "depth": depth,
            "also": list(also),
        }
        rows = _fetch(statements.LEXICAL_SQL.format(filters=filters(self.visible)), args)
        held = {int(key): int(n) for key, n in (rows[0][3] if rows else [])}
        df = tuple(held.get(key, 0) for key in self.keys)
        corpus = Corpus(self.keys, df, documents, length, k1, b, self.groups, self.kin_share)
        ranked = [(row[0], float(row[1])) for row in rows if row[2] <= depth]
        extra = {row[0]: float(row[1]) for row in rows if row[2] > depth}
        return ranked, extra, corpus

    def _dense_rows(self, qvec: np.ndarray, depth: int) -> list[tuple[uuid.UUID, float]]:
        """The `depth` first visible memories by cosine as pgvector computes it (they rank), those
        without a vector of the current model last (NaN)."""
        sql, args = statements.dense_statement(
            qvec, visible=self.visible, params=self.params, depth=depth, model=self.model
        )
        return [(m, math.nan if sim is None else float(sim)) for m, sim in _fetch(sql, args)]

    def _evidence(
        self, ids: Sequence[uuid.UUID], qvec: np.ndarray
    ) -> dict[uuid.UUID, tuple[float, int, dict[int, int]]]:
        """Each visible memory's exact cosine, length and count of each query lexeme."""
        args = {
            **self.params,
            "ids": list(ids),
            "model": self.model,
            "lexemes": self.lexemes,
            "owner": self.owner_id,
        }
        rows = _fetch(statements.EVIDENCE_SQL.format(filters=filters(self.visible)), args)
        zero = bytes(4 + 4 * DIMENSIONS)
        vectors = np.stack(
            [np.frombuffer(bytes(r[1] or zero), dtype=">f4", offset=4) for r in rows]
            or [np.zeros(DIMENSIONS, dtype=">f4")]
        )
        cosines = exact_cosines(vectors.astype(np.float32), qvec)
        return {
            r[0]: (
                float(cosines[i]),
                int(r[2]),
                dict(zip(map(int, r[3]), map(int, r[4]), strict=True)),
            )
            for i, r in enumerate(rows)
        }

    def _dense_sql(self, qvec: np.ndarray, depth: int) -> list[tuple[uuid.UUID, float]]:
        fetch = depth + 10
        while True:
            rows = self._dense_rows(qvec, fetch)
            cosine = np.array([c for _, c in rows], dtype=np.float64)
            picked = pick(cosine - COSINE_ERROR, cosine + COSINE_ERROR, depth, -math.inf)
            ids = [rows[i][0] for i in picked]
            evidence = self._evidence(ids, qvec)
            exact = [evidence[m][0] if m in evidence else math.nan for m in ids]
            found = best_of(ids, exact, depth, -math.inf)
            last = cosine[-1] if len(rows) == fetch else math.nan  # NaN: nothing left with a vector
            if math.isnan(last) or complete(found, depth, -math.inf, last + COSINE_ERROR):
                return [(c.id, c.score) for c in found]
            fetch *= 4

    def _best_sql(
        self, qvec: np.ndarray, *, limit: int, min_score: float | None
    ) -> list[Candidate]:
        """Each arm's best `depth`, the union scored; deeper while a memory outside both could
        still score among the best (it scores at most what the last of each arm scores)."""
        depth = max(ARM_DEPTH, limit)
        while True:
            dense = self._dense_rows(qvec, depth)
            lexical, extra, corpus = self._lexical_sql(
                depth, [m for m, _ in dense], k1=self.profile.bm25_k1, b=self.profile.bm25_b
            )
            # The corpus is the visible memories' whatever the depth: the same cut-offs each round.
            floor, answer = self.cut_offs(corpus, min_score)
            weights = self.weights(corpus)
            # Past the arms: at most the last cosine (none left when the last has no vector) and
            # the last BM25 (nothing left to match when the arm came back short).
            everything = len(dense) < depth
            last_cos = dense[-1][1] if dense else math.nan
            last_bm25 = lexical[-1][1] if len(lexical) == depth else 0.0
            cosines = dict(dense)
            ids = list(dict.fromkeys([*cosines, *(m for m, _ in lexical)]))
            bm25 = {**extra, **dict(lexical)}
            # A match the dense arm did not reach has no vector (all came back) or a cosine at
            # most the last one's.
            low_cos = np.array([cosines.get(m, math.nan) for m in ids], dtype=np.float64)
            high_cos = np.array([cosines.get(m, last_cos) for m in ids], dtype=np.float64)
            scores = np.array([bm25.get(m, 0.0) for m in ids], dtype=np.float64)
            low, _ = bounds(low_cos, scores, corpus, weights)
            _, high = bounds(high_cos, scores, corpus, weights)
            picked = [ids[i] for i in pick(low, high, limit, floor)]
            evidence = self._evidence(picked, qvec)
            exact = [
                relevance_of(cos, corpus.bm25(dl, tf), corpus, weights)
                for cos, dl, tf in (evidence[m] for m in picked if m in evidence)
            ]
            found = best_of([m for m in picked if m in evidence], exact, limit, floor)
            if everything:
                return self._answered(found, floor, answer)
            _, outside = bounds(np.array([last_cos]), np.array([last_bm25]), corpus, weights)
            if complete(found, limit, floor, float(outside[0])):
                return self._answered(found, floor, answer)
            depth *= 4


# BM25 statistics of views narrower than the owner's (an app's consent, a category), per process,
# until the user's next write changes the generation: a count and a total length each.
_SUBSETS = 1024


def _kin_counts(search: UserSearch, kin: tuple[str, ...]) -> tuple[int, int]:
    return _view_counts(search, statements.KIN_SQL, {"kin": list(kin)}, ("kin", kin))


def _subset_stats(search: UserSearch) -> tuple[int, int]:
    return _view_counts(search, statements.SUBSET_SQL, {}, ())


def _view_counts(
    search: UserSearch, sql: str, args: dict[str, Any], tag: tuple[Any, ...]
) -> tuple[int, int]:
    """Two counts over the memories the caller sees (`sql` filtered by the view), kept per
    process until the user's next write changes the generation."""
    key = (
        str(connection.settings_dict["NAME"]),
        search.owner_id,
        search.generation,
        search.visible,
        _frozen(search.params),
        *tag,
    )
    subsets = current().subsets
    counted = subsets.get(key) if search.generation is not None else None
    if counted is None:
        ((first, second),) = _fetch(
            sql.format(filters=filters(search.visible)), {**search.params, **args}
        )
        counted = (int(first), int(second))
        subsets.put(key, counted, 1, _SUBSETS)
    return counted


# ---- entry points -----------------------------------------------------------------------------


def dense_arm(
    qvec: np.ndarray,
    *,
    owner_id: int,
    visible: str,
    params: dict[str, Any],
    depth: int = ARM_DEPTH,
    use_index: bool = True,
    model: str | None = None,
) -> list[tuple[uuid.UUID, float]]:
    """The dense arm alone (related memories, tests, benchmarks). `model`: the one `qvec` is
    of; nothing is found when the user's vectors are of another."""
    search = UserSearch(owner_id, visible=visible, params=params, use_index=use_index)
    if model is not None and model != search.model:
        return []
    return search.dense(qvec, depth)


def lexical_arm(
    query: str,
    *,
    owner_id: int,
    visible: str,
    params: dict[str, Any],
    depth: int = ARM_DEPTH,
    whole_store: bool = False,
    use_index: bool = True,
    k1: float | None = None,
    b: float | None = None,
) -> list[tuple[uuid.UUID, float]]:
    """The lexical arm alone: (id, BM25), best first."""
    search = UserSearch(
        owner_id,
        visible=visible,
        params=params,
        query=query,
        whole_store=whole_store,
        use_index=use_index,
    )
    return search.lexical(depth, k1=k1, b=b)
