"""Credentials and instructions recognised in labelled texts (bench/data/harm.json, issue 37).

    uv run python -m bench harm [--split dev|heldout|all] [--data PATH] [--cv] [--show] [--json]
    uv run python -m bench harm --train

Each item is `credential`, `instruction` or `ordinary` (a look-alike that must flow as today),
with its kind, language and split (`dev`: looked at and tuned on; `heldout`: every third item of
each kind and language, never looked at; the file says how it was written). `--data` reads
another file of the same shape (a second held-out set written later by someone else): every item
is evaluated, whatever its split, and none is ever printed.

An item is recognised as a credential when `memories.harm.credentials` finds one; as an
instruction when the rules (`memories.harm.instructions`) or the model
(`memories.harm.instruction_model`, over the text with its credentials withheld) say so; an
ordinary item is a false positive when either is found. Recall and false positives are given per
label, per kind and per language, with the instruction side split into rules alone, model alone
and both (what the product does). `--show` lists the dev items got wrong (held-out items never).

The model is trained on its hand-written list and on this file's dev split, so its dev figures
flatter it. `--cv` estimates on dev what it does on texts it was not trained on: dev's instruction
and ordinary items are cut into three folds (every third item of each kind and language), the
model trained again without one fold and that fold scored; the rules are unchanged (they were
written on all of dev, so the combined figure still flatters them: see "model alone").

What an app's write keeps: for credential items whose `keep` names a lasting fact, the share
whose remainder is not empty (a fact kept); for the others, the share whose remainder is empty
(nothing kept); and in every remainder and redacted text, no credential found again.

Speed: microseconds per text for the credential and instruction rules and for the model, over
the split's texts; median of 3 rounds.

`--train` trains the model (memories/harm/instruction_examples.py and this file's dev split,
never its held-out split) and writes memories/harm/instruction_model.json.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "harm.json"
LABELS = ("credential", "instruction", "ordinary")
FOLDS = 3


def load(path: Path, split: str) -> list[dict[str, Any]]:
    items = json.loads(path.read_text())["items"]
    return [i for i in items if split == "all" or i.get("split", split) == split]


def _setup() -> None:
    """A throwaway CONTEXT_LAYER_HOME (the model folder goes there) and Django's settings."""
    if "CONTEXT_LAYER_HOME" not in os.environ:
        home = tempfile.mkdtemp(prefix="contextlayer-bench-")
        atexit.register(shutil.rmtree, home, ignore_errors=True)
        os.environ["CONTEXT_LAYER_HOME"] = home
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def _withheld(text: str) -> str:
    from memories.harm.credentials import find_credentials
    from memories.harm.screen import Screening

    return Screening(text=text, found=tuple(find_credentials(text)), instruction="").redacted


def model_scores(items: Sequence[dict[str, Any]]) -> list[Any]:
    from memories.harm.instruction_model import score

    return [score(_withheld(i["text"])) for i in items]


def evaluate(items: list[dict[str, Any]]) -> dict[str, Any]:
    from memories.harm.credentials import find_credentials
    from memories.harm.instructions import instruction_reason
    from memories.harm.screen import screen

    scored = model_scores(items)
    tables: dict[str, dict[tuple[str, str], Counter[str]]] = {"kind": {}, "lang": {}}
    misses: list[dict[str, Any]] = []
    keep = Counter[str]()
    for item, model in zip(items, scored, strict=True):
        found = find_credentials(item["text"])
        rules = bool(instruction_reason(item["text"]))
        flags = {
            "credential": bool(found),
            "rules": rules,
            "model": model.instructs,
            "instruction": rules or model.instructs,
        }
        label = item["label"]
        if label == "credential":
            hit = flags["credential"]
        elif label == "instruction":
            hit = flags["instruction"]
        else:
            hit = flags["credential"] or flags["instruction"]
        for by, key in (("kind", item["kind"]), ("lang", item["lang"])):
            counts = tables[by].setdefault((label, key), Counter())
            counts["n"] += 1
            counts["hit"] += hit
            counts["rules"] += flags["rules"] or (label == "ordinary" and flags["credential"])
            counts["model"] += flags["model"] or (label == "ordinary" and flags["credential"])
        if (label == "ordinary") == hit:
            misses.append({**item, "found": [f.kind for f in found], "model": model.score})
        if label == "credential" and found:
            s = screen(item["text"], instructions=False)
            keep["n"] += 1
            wanted = item.get("keep") is not None
            keep["right"] += bool(s.remainder) == wanted
            keep["with_fact"] += wanted
            keep["fact_kept"] += wanted and bool(s.remainder)
            keep["leaked"] += bool(find_credentials(s.remainder) or find_credentials(s.redacted))
    totals: dict[str, Counter[str]] = {label: Counter() for label in LABELS}
    for (label, _), counts in tables["kind"].items():
        totals[label].update(counts)
    return {
        "n": len(items),
        "credential_recall": _rate(totals["credential"]),
        "instruction_recall": _rate(totals["instruction"]),
        "ordinary_false_positive": _rate(totals["ordinary"]),
        "instruction_recall_rules_alone": _rate(totals["instruction"], "rules"),
        "instruction_recall_model_alone": _rate(totals["instruction"], "model"),
        "ordinary_false_positive_rules_alone": _rate(totals["ordinary"], "rules"),
        "ordinary_false_positive_model_alone": _rate(totals["ordinary"], "model"),
        "per_kind": {f"{lb}/{k}": _pair(c) for (lb, k), c in sorted(tables["kind"].items())},
        "per_lang": {f"{lb}/{k}": _pair(c) for (lb, k), c in sorted(tables["lang"].items())},
        "keep": {
            "right": _share(keep["right"], keep["n"]),
            "fact_kept": _share(keep["fact_kept"], keep["with_fact"]),
            "leaked": keep["leaked"],
        },
        "misses": misses,
    }


def _rate(c: Counter[str], key: str = "hit") -> float:
    return round(c[key] / c["n"], 3) if c["n"] else 0.0


def _pair(c: Counter[str]) -> str:
    return f"{c['hit']}/{c['n']}"


def _share(a: int, b: int) -> float:
    return round(a / b, 3) if b else 0.0


# --- Cross-validation within dev --------------------------------------------------------------


def folds(items: Sequence[dict[str, Any]]) -> list[int]:
    """Each item's fold: its place among the items of its label, kind and language, mod FOLDS."""
    seen: Counter[tuple[str, str, str]] = Counter()
    out = []
    for item in items:
        key = (item["label"], item["kind"], item["lang"])
        out.append(seen[key] % FOLDS)
        seen[key] += 1
    return out


def cross_validate(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Instruction recall and ordinary false positives on dev with the model trained out of
    fold (see the module's docstring)."""
    from memories.harm import instruction_model as im
    from memories.harm.credentials import find_credentials
    from memories.harm.instructions import instruction_reason

    items = [i for i in items if i["label"] != "credential"]
    fold_of = folds(items)
    model = [False] * len(items)
    for fold in range(FOLDS):
        kept = [i for i, f in zip(items, fold_of, strict=True) if f != fold]
        weights = im.fit(*im.training_list(kept))
        for n, (item, f) in enumerate(zip(items, fold_of, strict=True)):
            if f == fold:
                model[n] = im.score(_withheld(item["text"]), weights).instructs
    per_kind: dict[str, Counter[str]] = {}
    for item, hit in zip(items, model, strict=True):
        rule = bool(instruction_reason(item["text"])) or (
            item["label"] == "ordinary" and bool(find_credentials(item["text"]))
        )
        counts = per_kind.setdefault(f"{item['label']}/{item['kind']}", Counter())
        counts["n"] += 1
        counts["hit"] += bool(hit or rule)
        counts["model"] += bool(hit)
    totals = {label: Counter[str]() for label in ("instruction", "ordinary")}
    for key, counts in per_kind.items():
        totals[key.split("/")[0]].update(counts)
    return {
        "folds": FOLDS,
        "instruction_recall": _rate(totals["instruction"]),
        "ordinary_false_positive": _rate(totals["ordinary"]),
        "instruction_recall_model_alone": _rate(totals["instruction"], "model"),
        "ordinary_false_positive_model_alone": _rate(totals["ordinary"], "model"),
        "per_kind": {
            key: f"{c['hit']}/{c['n']} (model {c['model']})" for key, c in sorted(per_kind.items())
        },
    }


# --- Speed ------------------------------------------------------------------------------------


def speed(items: list[dict[str, Any]], rounds: int = 3) -> dict[str, float]:
    from memories.harm.credentials import find_credentials
    from memories.harm.instruction_model import score
    from memories.harm.instructions import instruction_reason

    texts = [i["text"] for i in items]

    def timed(run: Callable[[], object]) -> float:
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            run()
            times.append((time.perf_counter() - start) / max(1, len(texts)))
        return statistics.median(times)

    rules = timed(lambda: [(find_credentials(t), instruction_reason(t)) for t in texts])
    model = timed(lambda: [score(t) for t in texts])
    return {
        "rules_us_per_text": round(rules * 1e6, 1),
        "model_us_per_text": round(model * 1e6, 1),
    }


# --- Training ---------------------------------------------------------------------------------


def write_weights() -> dict[str, Any]:
    from memories.harm import instruction_model as im

    data = im.train()
    im.WEIGHTS.write_text(json.dumps(data, indent=0) + "\n")
    return {
        "written": str(im.WEIGHTS),
        "training": data["training"],
        "texts": len(im.training_list()[0]),
    }


# --- Main -------------------------------------------------------------------------------------


def _print(split: str, result: dict[str, Any], misses: list[dict[str, Any]], show: bool) -> None:
    print(f"== {split}: {result['n']} texts")
    print(
        f"credential recall {result['credential_recall']}, instruction recall "
        f"{result['instruction_recall']} (rules alone {result['instruction_recall_rules_alone']}, "
        f"model alone {result['instruction_recall_model_alone']}), ordinary false positives "
        f"{result['ordinary_false_positive']} (rules alone "
        f"{result['ordinary_false_positive_rules_alone']}, model alone "
        f"{result['ordinary_false_positive_model_alone']})"
    )
    for key, pair in result["per_kind"].items():
        print(f"  {key:40} {pair}")
    print(f"  keep: {result['keep']}  speed: {result.get('speed')}")
    if show:
        for m in misses:
            print(f"  MISS {m['label']}/{m['kind']} {m['lang']}: {m['text'][:150]!r}")
            print(f"       found {m['found']}, model {m['model']:.3f}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench harm", description=__doc__)
    parser.add_argument("--split", choices=("dev", "heldout", "all"), default="all")
    parser.add_argument("--data", type=Path, help="Another labelled file (never shown).")
    parser.add_argument("--show", action="store_true", help="List the dev items got wrong.")
    parser.add_argument("--cv", action="store_true", help="Cross-validate the model on dev.")
    parser.add_argument("--no-speed", action="store_true", help="Skip the timing.")
    parser.add_argument("--train", action="store_true", help="Train the model, write weights.")
    parser.add_argument("--json", action="store_true", help="Only the JSON object.")
    args = parser.parse_args(argv)
    if args.show and (args.split != "dev" or args.data):
        parser.error("--show lists dev items only: held-out items are never looked at.")
    _setup()
    if args.train:
        print(json.dumps({"bench": "harm --train", **write_weights()}))
        return 0
    out: dict[str, Any] = {"bench": "harm"}
    if args.data:
        splits = [(args.data.name, load(args.data, "all"))]
    else:
        names = ("dev", "heldout") if args.split == "all" else (args.split,)
        splits = [(name, load(DATA, name)) for name in names]
    for name, items in splits:
        result = evaluate(items)
        misses = result.pop("misses")
        if not args.no_speed:
            result["speed"] = speed(items)
        out[name] = result
        if not args.json:
            _print(name, result, misses, args.show)
    if args.cv:
        out["cv"] = cross_validate(load(DATA, "dev"))
        if not args.json:
            cv = out["cv"]
            print(
                f"== dev, {cv['folds']}-fold cross-validated: instruction recall "
                f"{cv['instruction_recall']} (model alone {cv['instruction_recall_model_alone']}), "
                f"ordinary false positives {cv['ordinary_false_positive']} (model alone "
                f"{cv['ordinary_false_positive_model_alone']})"
            )
            for key, pair in cv["per_kind"].items():
                print(f"  {key:40} {pair}")
    if "dev" in out and "heldout" in out:
        out["gap"] = {
            key: round(out["dev"][key] - out["heldout"][key], 3)
            for key in ("credential_recall", "instruction_recall", "ordinary_false_positive")
        }
        if not args.json:
            print(f"dev - held-out: {out['gap']}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
