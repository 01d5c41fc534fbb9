"""Varied, unique, memory-like sentences and questions for the synthetic benchmarks (seeded)."""

from __future__ import annotations

import itertools

import numpy as np

WHO = (
    "I",
    "My sister",
    "My brother",
    "My partner",
    "My manager",
    "Our neighbour",
    "My daughter",
    "My son",
    "My best friend",
    "My mother",
    "My father",
    "Our team lead",
    "My dentist",
    "My landlord",
    "My colleague Priya",
    "My cousin Tom",
    "Grandma",
    "My flatmate",
    "Our coach",
    "My old teacher",
)
DOES = (
    "prefers",
    "is allergic to",
    "started learning",
    "stopped buying",
    "keeps talking about",
    "booked",
    "recommended",
    "cannot stand",
    "collects",
    "wants to try",
    "gave me",
    "forgot",
    "is saving for",
    "lost",
    "repaired",
    "borrowed",
    "is reading about",
    "signed up for",
    "complained about",
    "is excited about",
)
WHAT = (
    "oat milk",
    "the cello",
    "a trip to Japan",
    "vinyl records",
    "penicillin",
    "dark roast coffee",
    "a standing desk",
    "Portuguese lessons",
    "the bouldering gym",
    "a vegetarian cookbook",
    "an electric bike",
    "the night train to Vienna",
    "watercolour paints",
    "a mechanical keyboard",
    "sourdough baking",
    "the football season tickets",
    "a used Volvo",
    "tax software",
    "a yoga retreat",
    "noise-cancelling headphones",
    "a pottery class",
    "the Rust compiler",
    "a sailing course",
    "spicy ramen",
    "a new passport",
    "the garden shed",
    "chess openings",
    "a marathon plan",
    "the dentist bill",
    "houseplants",
)
WHEN = (
    "last week",
    "every Sunday",
    "since March",
    "before the wedding",
    "this summer",
    "after the move",
    "on weekdays",
    "during the holidays",
    "next month",
    "in the mornings",
    "for years",
    "since the kids were born",
    "at the office",
    "when it rains",
    "on Fridays",
)
_ASK = (
    "What does {who} think about {what}?",
    "Who {does} {what}?",
    "When did {who} talk about {what}?",
    "Anything about {what}?",
    "what do I know about {who_l} and {what}",
    "{what} plans",
)


def memory_texts(n: int, seed: int = 0) -> list[str]:
    """n distinct sentences (fails loudly if n exceeds the combinations)."""
    combos = list(itertools.product(WHO, DOES, WHAT, WHEN))
    if n > len(combos):
        raise ValueError(f"at most {len(combos)} distinct texts")
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(combos), size=n, replace=False)
    return [f"{w} {d} {o} {t}." for w, d, o, t in (combos[i] for i in picks)]


def queries(n: int, seed: int = 1) -> list[str]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        template = _ASK[rng.integers(len(_ASK))]
        who = WHO[rng.integers(len(WHO))]
        out.append(
            template.format(
                who=who,
                who_l=who.lower(),
                does=DOES[rng.integers(len(DOES))],
                what=WHAT[rng.integers(len(WHAT))],
            )
        )
    return out
