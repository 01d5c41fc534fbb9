"""The cosines reconciliation trusts, per embedding model (the one place they live).

Cosines mean different things per model: all-MiniLM-L6-v2 puts unrelated sentences near 0,
multilingual-e5-small near .75. When `memories/search/model_profiles.py` (branch `retune`) lands,
these belong in its `ModelProfile`; until then this table is the one home, chosen with
`python -m bench reconcile` on the dev split of bench/data/reconcile_pairs.json only.
"""

from __future__ import annotations

from dataclasses import dataclass

E5_MODEL = "intfloat/multilingual-e5-small-q4"
MINILM_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


@dataclass(frozen=True)
class Fitted:
    """A pair scorer's logistic regression (`scorer`), fitted per model on the dev splits only by
    `python -m bench reconcile-fit`, which prints this literal with its cross-validated figures."""

    weights: tuple[float, ...]  # one per `scorer.FEATURES`, in that order
    bias: float
    review: float  # from this probability a close pair the rules leave beside goes to Review


@dataclass(frozen=True)
class Cosines:
    floor: float  # below this the stored memory is about something else: both stay
    update: float  # a change cue at or above this supersedes (same people, same slot)
    slot_update: float  # a change cue in the same slot (job, home, …) supersedes from this
    restate: float  # no conflict at or above this is the same fact: merged
    unsure: float  # a pair above this that is neither goes to the owner's Review
    fitted: Fitted | None = None  # the pair scorer's weights for this model's cosines, if fitted


COSINES: dict[str, Cosines] = {
    MINILM_MODEL: Cosines(
        floor=0.35,
        update=0.45,
        slot_update=0.30,
        restate=0.80,
        unsure=0.55,
        # `python -m bench reconcile-fit`, 6 December 2026 (branch `reconcile38c`)
        fitted=Fitted(
            weights=(0.624, 0.240, 0.105, 0.016, 0.546, 0.222, 1.538, 0.0, -0.153, 0.909, 0.0),
            bias=-2.343,
            review=0.365,
        ),
    ),
    # e5's slot_update is its update: not tuned for that model (branch `retune` owns it).
    E5_MODEL: Cosines(
        floor=0.80,
        update=0.80,
        slot_update=0.80,
        restate=0.92,
        unsure=0.88,
        fitted=Fitted(
            weights=(0.498, 0.111, 0.197, 0.167, 0.586, 0.394, 1.657, 1.065, -0.168, 0.926, -0.076),
            bias=-2.484,
            review=0.374,
        ),
    ),
}


def for_model(name: str) -> Cosines:
    """The model's cosines; another model gets MiniLM's (its space's baseline is near 0 too)."""
    return COSINES.get(name, COSINES[MINILM_MODEL])
