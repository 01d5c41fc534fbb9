"""The lexical arm alone (BM25) on the multilingual set (`bench/data/multilingual.json`), dev
split only: a diagnostic of which words it finds in each language, not a search figure (search
is both arms; its recall on this set, held-out third included, is the embedding model's tuning).

Each language's memories are one user's store, as the set asks. For each same-language query
(`word`: one or two words or a short phrase; `question`), the memories the lexical arm ranks
(`memories.search.scoring.lexical_arm`, as search runs it, over the whole store): found@5 (the
target among the first five), matched (the target holds any of the query's words), and for the
no-answer queries the share the arm matches anything for. Most word queries share no word with
their target (synonyms, hypernyms, slang: the dense arm's work), so "matched" is the ceiling of
what words alone can do.

    uv run python -m bench lexical-languages
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.environment import add_common, bench_user, drop_users, emit

DATA = Path(__file__).with_name("data") / "multilingual.json"
SPLIT = "dev"  # the held-out third is left to the search's own tuning and figures
KINDS = ("word", "question")
K = 5


def _arm(actor: Any, query: str) -> list[Any]:
    from memories.search import scoring
    from memories.visibility import visible_sql

    visible, params = visible_sql(actor)
    found = scoring.lexical_arm(
        query, owner_id=actor.user.pk, visible=visible, params=params, whole_store=True
    )
    return [memory_id for memory_id, _ in found]


def evaluate(data: dict[str, Any]) -> dict[str, Any]:
    """Per language and kind of query: queries, found@5, matched; per language: no-answer
    queries the arm matches; and the dev split's word queries the arm misses though their
    target holds one of their words (rank beyond five)."""
    from accounts.actors import owner_actor
    from memories.services.adding import NewMemory, memory_create_many

    by_lang: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for memory in data["memories"]:
        by_lang[memory["lang"]].append(memory)
    out: dict[str, Any] = {}
    users = []
    try:
        for lang, memories in by_lang.items():
            user = bench_user(f"lexical-{lang}")
            users.append(user)
            actor = owner_actor(user)
            made = memory_create_many(
                actor=actor, items=[NewMemory(text=m["text"]) for m in memories]
            )
            id_of = {}
            for memory, result in zip(memories, made, strict=True):
                assert result.created, f"memory {memory['id']} was merged as a duplicate"
                id_of[memory["id"]] = result.memory.id
            row: dict[str, Any] = {}
            for kind in KINDS:
                asked = [
                    q
                    for q in data["queries"]
                    if q["kind"] == kind and q["split"] == SPLIT and q["target"] in id_of
                ]
                ranks = []
                for q in asked:
                    ranked = _arm(actor, q["text"])
                    target = id_of[q["target"]]
                    ranks.append(ranked.index(target) + 1 if target in ranked else None)
                row[kind] = {
                    "queries": len(asked),
                    f"found@{K}": sum(1 for r in ranks if r is not None and r <= K),
                    "matched": sum(1 for r in ranks if r is not None),
                    "missed": [
                        [q["id"], r] for q, r in zip(asked, ranks, strict=True) if not r or r > K
                    ],
                }
            no_answer = [q for q in data["no_answer"] if q["lang"] == lang and q["split"] == SPLIT]
            matched = [q["text"] for q in no_answer if _arm(actor, q["text"])]
            row["no_answer"] = {
                "queries": len(no_answer),
                "matched_anything": len(matched),
                "matched": matched,
            }
            out[lang] = row
            print(f"{lang}: {row}", flush=True)
    finally:
        drop_users(users)
    return out


def run(args: Any) -> None:
    data = json.loads(Path(args.path).read_text(encoding="utf-8"))
    result = evaluate(data)
    for kind in KINDS:
        cells = "  ".join(
            f"{lang} {row[kind][f'found@{K}']}/{row[kind]['queries']}"
            f" ({row[kind]['matched']} matched)"
            for lang, row in result.items()
        )
        print(f"{kind:9s} found@{K}: {cells}")
    emit({"split": SPLIT, "languages": result})


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "lexical-languages",
        help="The lexical arm alone on the multilingual set's dev split, per language.",
    )
    parser.add_argument("--path", default=str(DATA), help="The multilingual set (JSON).")
    add_common(parser)
    parser.set_defaults(run=run)
