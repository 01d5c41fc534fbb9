"""`bench embedding-candidates`' measures: recall@5 per store and split from the cosine alone,
and the fixed projection that takes a 512-dimensional model to the store's 384."""

from __future__ import annotations

import json
import zlib

import numpy as np

from bench import embedding_candidates
from bench.embedding_candidates import Candidate, orthogonal_projection

_DATA = json.loads(embedding_candidates.MULTILINGUAL.read_text())
_TEXT_OF = {m["id"]: m["text"] for m in _DATA["memories"]}


def _vector(text: str) -> np.ndarray:
    return np.random.default_rng(zlib.crc32(text.encode())).standard_normal(64)


def _oracle(texts: list[str]) -> np.ndarray:
    """A query means exactly its target memories: its vector is the sum of theirs (a text asked
    of several stores, "corgi" of the Chinese and the Portuguese one, has a target in each)."""
    targets: dict[str, set[str]] = {}
    for q in _DATA["queries"]:
        targets.setdefault(q["text"], set()).add(_TEXT_OF[q["target"]])
    return np.stack([sum(_vector(m) for m in sorted(targets[t])) for t in texts])


def _passages(texts: list[str]) -> np.ndarray:
    return np.stack([_vector(t) for t in texts])


def test_a_model_that_knows_each_query_s_memory_finds_nearly_every_one_in_both_splits() -> None:
    report, rate, dev_queries = embedding_candidates._multilingual(
        Candidate("oracle", _passages, _oracle, {})
    )
    for split in ("dev", "heldout"):
        for kind in ("same", "cross"):
            assert report[split][kind]["R@5"] >= 0.98, (split, kind)
            assert set(report[split][kind]["per_language"]) <= {
                m["lang"] for m in _DATA["memories"]
            }
    assert rate > 0 and len(dev_queries) == 100


def test_a_model_blind_to_meaning_finds_few() -> None:
    report, _, _ = embedding_candidates._multilingual(Candidate("blind", _passages, _passages, {}))
    # five of ~75 memories by chance: about .07
    assert report["dev"]["same"]["R@5"] < 0.2 and report["dev"]["cross"]["R@5"] < 0.2


def test_the_projection_keeps_orthonormal_directions_and_roughly_keeps_cosines() -> None:
    p = orthogonal_projection(512, 384)
    assert p.shape == (512, 384)
    assert np.allclose(p.T @ p, np.eye(384), atol=1e-5)
    rng = np.random.default_rng(1)
    base = rng.standard_normal(512)
    near = base + 0.5 * rng.standard_normal(512)
    far = rng.standard_normal(512)
    unit = [v / np.linalg.norm(v) for v in (base, near, far)]
    projected = [v @ p / np.linalg.norm(v @ p) for v in unit]
    assert projected[0] @ projected[1] > projected[0] @ projected[2] + 0.5
    assert abs(projected[0] @ projected[1] - unit[0] @ unit[1]) < 0.1
