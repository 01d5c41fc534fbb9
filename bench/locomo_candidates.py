"""Issue 25's retrieval candidates, measured on LoCoMo at the shipped cut-off before any is built.

For every question (categories 1-4) and every no-answer question, the search's own arrays are
taken once through the in-memory index, exactly as the app scores (`UserSearch.arrays`: cosine,
BM25, the query's ideal and known BM25, the store's size); then each candidate changes one input
and the shipped relevance score and cut-off (`memories.search.relevance.relevance`, the model's
`min_score` in `memories/search/model_profiles.py`) rank again:

- `context`: each turn embedded with its context, as an import could (the previous turn of its
  session; or the conversation's title, the session date and the previous turn), its vector used
  alone, mixed with the turn's own (`alpha` of the context vector), or the better of the two
  cosines. `alpha` is chosen leaving one conversation out;
- `prf`: a second, dense hop from the top hits (Rocchio: the query vector plus `beta` times the
  mean of the top `m` hits' vectors), for multi-hop questions;
- `statement`: the question embedded without its leading question words ("What did Caroline
  research?" -> "Caroline research"), as a statement is;
- `related_long`: related terms (`memories/search/related_terms.py`) for long questions too (the
search
  expands only queries of at most three words).

Reported: R@10 (categories 1-4, what is left above the cut-off) per conversation and pooled, the
categories, and the no-answer false-hit rate (the share with anything at or above the cut-off).
"""

from __future__ import annotations

import functools
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bench.environment import add_common, emit
from bench.locomo import each_tenant, load, no_answer_questions, session_keys

ALPHAS = (0.3, 0.5, 0.7, 1.0)
K = 10
_QUESTION_WORDS = re.compile(
    r"^(what|when|where|who|whom|which|why|how|would|does|did|do|is|are|was|were|has|have|had|"
    r"can|could|will)\b( (did|does|do|is|are|was|were|has|have|had|kind of|type of|many|much|"
    r"long|often))?\s*",
    re.IGNORECASE,
)


def as_statement(question: str) -> str:
    """The question without its leading question words and its question mark."""
    return _QUESTION_WORDS.sub("", question).rstrip("?").strip() or question


@dataclass
class Asked:
    """One question's arrays over its conversation's rows (the in-memory index's order)."""

    category: int  # 0: a no-answer question
    gold: frozenset[int]
    qvec: np.ndarray
    statement_vec: np.ndarray
    cosine: np.ndarray
    bm25: np.ndarray
    ideal: float
    known: float
    documents: int
    weights: Any
    # the same with related terms for long questions too
    bm25_related: np.ndarray
    ideal_related: float
    known_related: float


@dataclass
class Conv:
    name: str
    asked: list[Asked] = field(default_factory=list)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)  # variant -> (rows, 384)


def _context_texts(path: Path) -> dict[str, dict[str, dict[str, str]]]:
    """{conversation: {variant: {dia_id: text to embed}}}."""
    raw = {str(s.get("sample_id")): s["conversation"] for s in json.loads(path.read_text())}
    out: dict[str, dict[str, dict[str, str]]] = {}
    for conv in load(path):
        c = raw[conv.sample_id]
        title = f"Conversation between {c['speaker_a']} and {c['speaker_b']}"
        session = {}
        date = {}
        for key in session_keys(c):
            for t in c[key]:
                session[t["dia_id"]] = key
                date[t["dia_id"]] = c.get(f"{key}_date_time", "")
        turns = conv.turns
        prev = [
            turns[i - 1].text if i and session[turns[i - 1].dia_id] == session[t.dia_id] else ""
            for i, t in enumerate(turns)
        ]
        out[conv.sample_id] = {
            "plain": {t.dia_id: t.text for t in turns},
            "prev": {t.dia_id: f"{p}\n{t.text}".strip() for p, t in zip(prev, turns, strict=True)},
            "title_date_prev": {
                t.dia_id: f"{title}, {date[t.dia_id]}\n{p}\n{t.text}".replace("\n\n", "\n")
                for p, t in zip(prev, turns, strict=True)
            },
        }
    return out


def collect(path: Path) -> list[Conv]:
    from memories.search import related_terms, scoring
    from memories.search.embeddings import get_embedder
    from memories.visibility import visible_sql

    conversations = load(path)
    unanswerable = no_answer_questions(conversations)
    contexts = _context_texts(path)
    embedder = get_embedder()
    out: list[Conv] = []
    for tenant in each_tenant(conversations):
        started = time.perf_counter()
        name = tenant.conv.sample_id
        conv = Conv(name)
        visible, params = visible_sql(tenant.actor)
        texts = [(q.question, q.gold, q.category) for q in tenant.conv.questions]
        texts += [(t, frozenset(), 0) for t in unanswerable.get(name, [])]
        rows: list[str] = []
        for text, gold, category in texts:
            if not 1 <= category <= 4 and category != 0:
                continue
            s = scoring.UserSearch(
                tenant.user.pk, visible=visible, params=params, query=text, whole_store=True
            )
            assert s.index is not None, "scored through the in-memory index"
            rows = rows or [tenant.dia_of[s.index.memory_id(r)] for r in range(len(s.index))]
            qvec = embedder.embed_query(text)
            k1, b = s.profile.bm25_k1, s.profile.bm25_b
            cosine, bm25, ideal, known, documents = s.arrays(qvec, k1=k1, b=b)
            shipped = related_terms.expansions
            # Related terms for every question, not only short ones.
            related_terms.expansions = functools.partial(shipped, any_length=True)
            try:
                r = scoring.UserSearch(
                    tenant.user.pk, visible=visible, params=params, query=text, whole_store=True
                )
                _, bm25_r, ideal_r, known_r, _ = r.arrays(qvec, k1=k1, b=b)
            finally:
                related_terms.expansions = shipped
            conv.asked.append(
                Asked(
                    category,
                    frozenset(i for i, d in enumerate(rows) if d in gold),
                    qvec,
                    embedder.embed_query(as_statement(text)),
                    cosine.copy(),
                    bm25.copy(),
                    ideal,
                    known,
                    documents,
                    s.profile.weights_for(short=s.short, ideal=ideal, known=known),
                    bm25_r.copy(),
                    ideal_r,
                    known_r,
                )
            )
        for variant, by_dia in contexts[name].items():
            conv.vectors[variant] = np.asarray(embedder.embed([by_dia[d] for d in rows]))
        out.append(conv)
        print(
            f"{name}: {len(conv.asked)} questions ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    return out


Cosines = Callable[[Conv, Asked], np.ndarray]


def _unit(m: np.ndarray) -> np.ndarray:
    return m / np.linalg.norm(m, axis=-1, keepdims=True)


def _scores(conv: Conv, a: Asked, cosines: Cosines | None, related: bool) -> np.ndarray:
    from memories.search.relevance import relevance

    cos = cosines(conv, a) if cosines else a.cosine
    if related:
        return relevance(
            cos, a.bm25_related, a.ideal_related, a.known_related, a.documents, a.weights
        )
    return relevance(cos, a.bm25, a.ideal, a.known, a.documents, a.weights)


def evaluate(
    convs: list[Conv], cosines: Cosines | None = None, related: bool = False
) -> dict[str, Any]:
    """R@10 at the shipped cut-off per conversation, pooled and per category; false-hit rate."""
    from memories.search.model_profiles import current

    cut = current().search.min_score
    per: dict[str, float | None] = {}
    pooled: list[tuple[int, float]] = []
    hits: list[bool] = []
    for conv in convs:
        mine = []
        for a in conv.asked:
            s = _scores(conv, a, cosines, related)
            if a.category == 0:
                hits.append(bool(s.max() >= cut))
                continue
            top = [int(i) for i in np.argsort(-s, kind="stable")[:K] if s[i] >= cut]
            mine.append((a.category, len(a.gold.intersection(top)) / len(a.gold)))
        per[conv.name] = _mean([r for _, r in mine])
        pooled += mine
    return {
        "R@10": _mean([r for _, r in pooled]),
        "per_conversation": per,
        "categories": {f"cat_{c}": _mean([r for cc, r in pooled if cc == c]) for c in (1, 2, 3, 4)},
        "false_hit_rate": _mean([float(h) for h in hits]),
    }


def _mean(values: list[float]) -> float | None:
    """Rounded mean; None for none (one conversation left out may lack a category)."""
    return round(float(np.mean(values)), 4) if values else None


def context_cosines(variant: str, alpha: float | None) -> Cosines:
    """The turn's vector mixed with its context's (`alpha` of the context), or (None) the better
    of the two cosines."""

    def cosines(conv: Conv, a: Asked) -> np.ndarray:
        plain, ctx = conv.vectors["plain"], conv.vectors[variant]
        if alpha is None:
            return np.maximum(plain @ a.qvec, ctx @ a.qvec)
        return _unit(alpha * ctx + (1 - alpha) * plain) @ a.qvec

    return cosines


def prf_cosines(m: int, beta: float) -> Cosines:
    def cosines(conv: Conv, a: Asked) -> np.ndarray:
        first = _scores(conv, a, None, False)
        top = np.argsort(-first, kind="stable")[:m]
        vectors = conv.vectors["plain"]
        return vectors @ _unit(a.qvec + beta * _unit(vectors[top].mean(axis=0)))

    return cosines


def statement_cosines(conv: Conv, a: Asked) -> np.ndarray:
    return conv.vectors["plain"] @ a.statement_vec


def loco_alpha(convs: list[Conv], variant: str) -> dict[str, Any]:
    """The mixing share chosen on four conversations (pooled R@10), scored on the fifth."""
    folds = []
    for test in convs:
        rest = [c for c in convs if c is not test]
        best = max(ALPHAS, key=lambda x: evaluate(rest, context_cosines(variant, x))["R@10"])
        got = evaluate([test], context_cosines(variant, best))
        folds.append((test.name, best, got["R@10"], len([a for a in test.asked if a.category])))
    n = sum(f[3] for f in folds)
    return {
        "R@10": round(sum(f[2] * f[3] for f in folds) / n, 4),
        "folds": [{"held_out": f[0], "alpha": f[1], "R@10": f[2]} for f in folds],
    }


def run(args: Any) -> None:
    convs = collect(Path(args.path))
    results: dict[str, Any] = {"shipped": evaluate(convs)}
    for variant in ("prev", "title_date_prev"):
        for alpha in (*ALPHAS, None):
            label = f"context {variant} " + (f"alpha {alpha}" if alpha else "max")
            results[label] = evaluate(convs, context_cosines(variant, alpha))
        results[f"context {variant} alpha left out"] = loco_alpha(convs, variant)
    for m, beta in itertools.product((1, 3, 5), (0.3, 0.6)):
        results[f"prf m {m} beta {beta}"] = evaluate(convs, prf_cosines(m, beta))
    results["statement"] = evaluate(convs, statement_cosines)
    results["related_long"] = evaluate(convs, related=True)
    for label, r in results.items():
        per = " ".join(f"{k[-2:]} {v:.3f}" for k, v in r.get("per_conversation", {}).items())
        cats = " ".join(f"{k} {v:.3f}" for k, v in r.get("categories", {}).items())
        fh = r.get("false_hit_rate")
        print(f"{label:38s} R@10 {r['R@10']:.4f} false hits {fh} | {per} | {cats}")
        for fold in r.get("folds", []):
            print(f"    {fold}")
    emit(results)


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "locomo-candidates", help="LoCoMo: issue 25's retrieval candidates at the shipped cut-off."
    )
    parser.add_argument("path", help="LoCoMo JSON file (e.g. locomo-dev.json).")
    add_common(parser)
    parser.set_defaults(run=run)
