"""Short queries: does search find what a person means by one to three words?

One user's store of first-person facts (`bench/data/short_queries.json`: targets and distractors),
each query with the one memory it means; most share no word with it ("kids" for "My daughter Mila
is 6..."). Recall@5 = the share of queries whose target is among the first five results, through
`memories.selectors.memories.memory_search` exactly as the app calls it (the real embedding model,
the default cut-off) and again without the cut-off. Dev and held-out are reported apart; the misses
are printed for the dev split only, so nothing is tuned on the held-out third. `--dump FILE`
writes what each dev query was scored from (`bench/evidence.py`), to replay a rule offline.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bench.environment import add_common, bench_user, drop_users, emit, write_store

DATA = Path(__file__).with_name("data") / "short_queries.json"
SPLITS = ("dev", "held_out")
K = 5
DEEP = 100  # how far the misses' ranks are looked for (the search's largest limit)


@dataclass(frozen=True)
class ShortQuery:
    query: str
    target: str | None  # None: the store holds no answer
    split: str


def load(path: Path = DATA) -> tuple[dict[str, str], list[ShortQuery]]:
    """The memories by id, and the queries; a query with no answer has the target None."""
    data = json.loads(path.read_text())
    memories = {m["id"]: m["text"] for m in data["memories"]}
    queries = [ShortQuery(q["query"], q["target"], q["split"]) for q in data["queries"]]
    queries += [ShortQuery(q["query"], None, q["split"]) for q in data.get("no_answer", [])]
    for q in queries:
        assert (q.target is None or q.target in memories) and q.split in SPLITS, q
    return memories, queries


def evaluate(
    memories: dict[str, str],
    queries: Sequence[ShortQuery],
    *,
    k: int = K,
    dump: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Per split: recall@k at the cut-off, with a query's own words only (before related terms)
    and without the cut-off; the mean number of results; the false-hit rate of the queries with
    no answer (the share returning anything), also with their own words only. And the dev
    split's misses (the query, its target's rank without the cut-off, what came first).
    `dump`: gets each dev query's evidence (`bench.evidence`)."""
    from memories.selectors.memories import memory_search

    users: list[Any] = []
    try:
        actor, name_of = write_store("shortqueries", memories, users)
        out: dict[str, Any] = {}
        misses = []
        for split in SPLITS:
            asked = [q for q in queries if q.split == split and q.target is not None]
            found = found_exact = found_uncut = returned = 0
            for q in asked:
                target = q.target
                assert target is not None
                hits = memory_search(actor=actor, query=q.query, limit=k, record=False)
                if dump is not None and split == "dev":
                    dump.append(_dumped(actor, q, hits, name_of))
                exact = memory_search(
                    actor=actor, query=q.query, limit=k, record=False, expand=False
                )
                uncut = memory_search(
                    actor=actor, query=q.query, limit=DEEP, record=False, min_score=0.0
                )
                ranked = [name_of[h.memory.id] for h in uncut]
                found += q.target in [name_of[h.memory.id] for h in hits]
                found_exact += q.target in [name_of[h.memory.id] for h in exact]
                found_uncut += q.target in ranked[:k]
                returned += len(hits)
                if split == "dev" and q.target not in [name_of[h.memory.id] for h in hits]:
                    misses.append(
                        {
                            "query": q.query,
                            "target": q.target,
                            "rank_uncut": _rank(ranked, target),
                            "score": round(uncut[ranked.index(q.target)].score, 3)
                            if q.target in ranked
                            else None,
                            "first": ranked[0],
                            "first_score": round(uncut[0].score, 3),
                        }
                    )
            unanswerable = [q for q in queries if q.split == split and q.target is None]
            false_hits = false_hits_exact = 0
            for q in unanswerable:
                answer = memory_search(actor=actor, query=q.query, limit=k, record=False)
                if dump is not None and split == "dev":
                    dump.append(_dumped(actor, q, answer, name_of))
                false_hits += bool(answer)
                false_hits_exact += bool(
                    memory_search(actor=actor, query=q.query, record=False, expand=False)
                )
            out[split] = {
                "queries": len(asked),
                f"R@{k}": round(found / len(asked), 4),
                f"R@{k}_exact_words": round(found_exact / len(asked), 4),
                f"R@{k}_no_cutoff": round(found_uncut / len(asked), 4),
                "mean_results": round(returned / len(asked), 2),
                "no_answer_queries": len(unanswerable),
                "false_hit_rate": round(false_hits / max(len(unanswerable), 1), 4),
                "false_hit_rate_exact_words": round(
                    false_hits_exact / max(len(unanswerable), 1), 4
                ),
            }
        out["dev_misses"] = misses
        return out
    finally:
        drop_users(users)


def _dumped(actor: Any, q: ShortQuery, hits: Any, name_of: dict[Any, str]) -> dict[str, Any]:
    from bench.evidence import query_evidence

    return {
        **query_evidence(actor, q.query, name_of),
        "target": q.target,
        "found": [name_of[h.memory.id] for h in hits],
        "cut_off": hits.min_score,
    }


def sweep_floor(
    memories: dict[str, str], queries: Sequence[ShortQuery], floors: Sequence[float], k: int = K
) -> list[dict[str, float]]:
    """Recall@k and the false-hit rate of the dev split for each unknown-query floor of short
    queries (the model's `short_unknown_floor`, `memories/search/model_profiles.py`): how it was
    chosen. The held-out split
    is not asked."""
    from django.conf import settings

    from accounts.actors import owner_actor
    from memories.search import model_profiles
    from memories.selectors.memories import memory_search
    from memories.services.adding import NewMemory, memory_create_many

    dev = [q for q in queries if q.split == "dev"]
    user = bench_user("shortqueries-sweep")
    model = str(settings.EMBEDDING_MODEL)
    shipped = model_profiles.profile_for(model)
    try:
        actor = owner_actor(user)
        ids = list(memories)
        results = memory_create_many(actor=actor, items=[NewMemory(text=memories[i]) for i in ids])
        name_of = {r.memory.id: mid for mid, r in zip(ids, results, strict=True)}
        rows = []
        for floor in floors:
            tried = replace(shipped.search, short_unknown_floor=floor)
            model_profiles.PROFILES[model] = replace(shipped, search=tried)
            found = false_hits = 0
            for q in dev:
                hits = memory_search(actor=actor, query=q.query, limit=k, record=False)
                if q.target is None:
                    false_hits += bool(hits)
                else:
                    found += q.target in [name_of[h.memory.id] for h in hits]
            answerable = sum(1 for q in dev if q.target is not None)
            rows.append(
                {
                    "unknown_floor": floor,
                    f"R@{k}": round(found / answerable, 4),
                    "false_hit_rate": round(false_hits / max(len(dev) - answerable, 1), 4),
                }
            )
            print(f"  short-query unknown floor {floor}: {rows[-1]}", flush=True)
        return rows
    finally:
        model_profiles.PROFILES[model] = shipped
        drop_users([user])


def _rank(ranked: list[str], target: str) -> int | None:
    return ranked.index(target) + 1 if target in ranked else None


def run(args: Any) -> None:
    memories, queries = load(Path(args.path))
    if args.floors:
        emit(
            {
                "dev_sweep": sweep_floor(
                    memories, queries, [float(x) for x in args.floors.split(",")]
                )
            }
        )
        return
    dump: list[dict[str, Any]] | None = [] if args.dump else None
    result = evaluate(memories, queries, dump=dump)
    if args.dump:  # dev queries only: a rule is replayed on what the tuning split scores
        Path(args.dump).write_text(json.dumps(dump))
    for miss in result["dev_misses"]:
        print(
            f"  dev miss {miss['query']!r} -> {miss['target']}: rank {miss['rank_uncut']} "
            f"score {miss['score']} (first {miss['first']} {miss['first_score']})"
        )
    for split in SPLITS:
        r = result[split]
        print(
            f"{split:9s} {r['queries']} queries: R@{K} {r[f'R@{K}']:.3f} at the cut-off "
            f"({r[f'R@{K}_exact_words']:.3f} with their own words only), "
            f"{r[f'R@{K}_no_cutoff']:.3f} without; {r['mean_results']} results on average; "
            f"{r['no_answer_queries']} with no answer: false-hit rate {r['false_hit_rate']:.3f} "
            f"({r['false_hit_rate_exact_words']:.3f} with their own words only)"
        )
    emit(result)


def register(sub: Any) -> None:
    parser = sub.add_parser("shortqueries", help="One- to three-word queries: recall@5.")
    parser.add_argument("--path", default=str(DATA), help="The query set (JSON).")
    parser.add_argument(
        "--floors",
        default=None,
        help="Instead: the dev split's figures for each of these short-query unknown floors.",
    )
    parser.add_argument(
        "--dump",
        default=None,
        help="Write each dev query's cosines, BM25s and corpus figures to this JSON file.",
    )
    add_common(parser)
    parser.set_defaults(run=run)
