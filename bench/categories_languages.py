"""Sensitive labels per language on the multilingual set (`bench/data/multilingual.json`), dev
and held-out apart, under the model in EMBEDDING_MODEL (and that model's classifier profile).

Each language's memories are written as one user's store through the services
(`memory_create_many`, as the owner's own app: no categories given, so the local classifier
labels every one) and read back. Reported per language and split:

- sensitive recall, "right": a sensitive memory carries the sensitive category it belongs in;
  "hidden": it carries any sensitive label (what keeps it from an app with the default consent);
- ordinary false positives: the share of ordinary memories (in no sensitive category, many written
  to look like one) that carry a sensitive label, i.e. are hidden from such an app;
- on dev only, the misses and false alarms (the held-out third's texts stay out of sight).

`--path PATH` reads another set of the same shape with its splits as they are (e.g.
bench/data/sensitive_dev2.json, all dev: its misses are listed with `--verbose`).

    uv run python -m bench categories-languages
    uv run python -m bench categories-languages --path bench/data/sensitive_dev2.json --verbose
    EMBEDDING_MODEL=intfloat/multilingual-e5-small-q4 uv run python -m bench categories-languages
    uv run python -m bench categories-languages --data bench/data/sensitive_fresh.json
    uv run python -m bench categories-languages --data bench/data/sensitive_fresh2.json
    uv run python -m bench categories-languages --data bench/data/sensitive_fresh3.json

`--data` reads another file of the same shape (a second held-out set written later by someone
else, e.g. bench/data/sensitive_fresh.json): every memory is evaluated as held-out, whatever its
split, and none of its texts is ever printed (`--verbose` is refused with it).
bench/data/sensitive_fresh3.json (30 sensitive and 30 ordinary facts per language, most ordinary
ones look-alikes) was written by the helper of branch `fresh3`, who never read the rules it tests.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.environment import add_common, bench_user, drop_users, emit

DATA = Path(__file__).with_name("data") / "multilingual.json"
SPLITS = ("dev", "heldout")
# The bar of issue 36: per language, on data nobody tuned on.
RECALL_BAR, FALSE_POSITIVE_BAR = 0.95, 0.05


def _rate(hits: int, total: int) -> float | None:
    return round(hits / total, 3) if total else None


def splits_of(memories: list[dict[str, Any]]) -> tuple[str, ...]:
    """The splits the memories hold (an item without one is held out): dev and held-out first,
    then any other, in order seen."""
    seen = dict.fromkeys(m.get("split", "heldout") for m in memories)
    return (*(s for s in SPLITS if s in seen), *(s for s in seen if s not in SPLITS))


def evaluate(memories: list[dict[str, Any]], labels: list[list[str]]) -> dict[str, Any]:
    """Per split: sensitive recall (right category, any sensitive label) and ordinary false
    positives, from the memories' gold labels and the labels they were stored with."""
    from memories.categories.vocabulary import SENSITIVE

    out: dict[str, Any] = {}
    for split in splits_of(memories):
        rows = [(m, set(cats)) for m, cats in zip(memories, labels, strict=True)]
        rows = [(m, cats) for m, cats in rows if m.get("split", "heldout") == split]
        sensitive = [(m, cats) for m, cats in rows if m["sensitive"]]
        ordinary = [(m, cats) for m, cats in rows if not m["sensitive"]]
        hidden = [bool(cats & SENSITIVE) for _, cats in sensitive]
        alarms = [bool(cats & SENSITIVE) for _, cats in ordinary]
        row: dict[str, Any] = {
            "sensitive": len(sensitive),
            "recall_right": _rate(sum(m["sensitive"] in c for m, c in sensitive), len(sensitive)),
            "recall_hidden": _rate(sum(hidden), len(sensitive)),
            "ordinary": len(ordinary),
            "false_positive": _rate(sum(alarms), len(ordinary)),
        }
        if split == "dev":
            row["missed"] = [
                f"{m['id']} [{m['sensitive']}] {m['text']} -> {sorted(c)}"
                for (m, c), ok in zip(sensitive, hidden, strict=True)
                if not ok
            ]
            row["wrong_category"] = [
                f"{m['id']} [{m['sensitive']}] {m['text']} -> {sorted(c)}"
                for (m, c), ok in zip(sensitive, hidden, strict=True)
                if ok and m["sensitive"] not in c
            ]
            row["false_alarms"] = [
                f"{m['id']} {m['text']} -> {sorted(c & SENSITIVE)}"
                for (m, c), bad in zip(ordinary, alarms, strict=True)
                if bad
            ]
        out[split] = row
    return out


def stored_labels(memories: list[dict[str, Any]], label: str) -> list[list[str]]:
    """The memories written as one store through the services; the labels each was stored with."""
    from accounts.actors import owner_actor
    from memories.services.adding import NewMemory, memory_create_many

    user = bench_user(label)
    try:
        made = memory_create_many(
            actor=owner_actor(user),
            items=[NewMemory(text=m["text"]) for m in memories],
            max_items=len(memories),
        )
        for memory, result in zip(memories, made, strict=True):
            assert result.created, f"memory {memory['id']} was merged as a duplicate"
        return [list(result.memory.categories) for result in made]
    finally:
        drop_users([user])


def load(path: Path, *, all_heldout: bool = False) -> list[dict[str, Any]]:
    """The file's memories; with `all_heldout` (a set nobody tuned on) every one is held-out."""
    memories: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["memories"]
    if all_heldout:
        return [{**m, "split": "heldout"} for m in memories]
    return memories


def run(args: Any) -> None:
    from memories.search.embeddings import get_embedder

    if args.data and args.verbose:
        raise SystemExit("--verbose lists dev texts; a --data file is all held-out, never shown.")
    path = Path(args.data or args.path)
    by_lang: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for memory in load(path, all_heldout=bool(args.data)):
        by_lang[memory["lang"]].append(memory)
    result: dict[str, Any] = {}
    for lang, memories in by_lang.items():
        result[lang] = evaluate(memories, stored_labels(memories, f"sensitive-{lang}"))
    model = get_embedder().model_name
    print(f"model {model}, data {path.name}")
    print(f"{'':4}{'split':9}{'right':>7}{'hidden':>8}{'n':>4}{'false+':>8}{'n':>4}  bar")
    for lang, row in result.items():
        for split, r in row.items():
            ok = (r["recall_hidden"] or 0) >= RECALL_BAR and (
                r["false_positive"] or 0
            ) <= FALSE_POSITIVE_BAR
            print(
                f"{lang:4}{split:9}{r['recall_right']!s:>7}{r['recall_hidden']!s:>8}"
                f"{r['sensitive']:>4}{r['false_positive']!s:>8}{r['ordinary']:>4}  "
                f"{'met' if ok else 'MISSED'}"
            )
    if args.verbose:
        for lang, row in result.items():
            dev = row.get("dev", {})
            for key in ("missed", "wrong_category", "false_alarms"):
                for line in dev.get(key, ()):
                    print(f"  {lang} dev {key}: {line}")
    emit({"model": model, "data": path.name, "languages": result})


def register(sub: Any) -> None:
    parser = sub.add_parser(
        "categories-languages",
        help="Sensitive labels per language on the multilingual set, dev and held-out.",
    )
    parser.add_argument("--path", default=str(DATA), help="The multilingual set (JSON).")
    parser.add_argument(
        "--data",
        default=None,
        help="Another file of the same shape, evaluated all as held-out (texts never shown).",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="list the dev split's misses and false alarms"
    )
    add_common(parser)
    parser.set_defaults(run=run)
