"""Category names in one form (kernel/category_names.py): what folds together, what is kept
apart, and what is refused."""

from __future__ import annotations

import pytest

from kernel.category_names import category_name, fold
from kernel.errors import InvalidInput

FULLWIDTH_HEALTH = "\uff48\uff45\uff41\uff4c\uff54\uff48"  # "health" in fullwidth letters


@pytest.mark.parametrize(
    ("given", "folded"),
    [
        (FULLWIDTH_HEALTH, "health"),
        ("\U0001d421\U0001d41e\U0001d41a\U0001d425\U0001d42d\U0001d421", "health"),  # math bold
        ("\u210eealth", "health"),  # the Planck constant sign for the h
        ("HEALTH", "health"),
        ("  Health ", "health"),
        ("Mental Health", "mental-health"),
        ("mental_health!!", "mental-health"),
        ("mental\u00a0\u2014 health", "mental-health"),  # no-break space and an em dash
        ("hea\u200blth", "health"),  # a zero-width space inside
        ("\u00adhealth\u200d", "health"),  # a soft hyphen and a zero-width joiner around it
        ("Stra\u00dfe", "strasse"),  # casefold, not lower
        ("\u2167", "viii"),  # compatibility forms: the Roman numeral eight
        ("Santé", "santé"),  # letters of every script stay
        ("cafe\u0301", "café"),  # a combining accent composes
        ("健康", "健康"),
        ("स्वास्थ्य", "स्वास्थ्य"),  # Devanagari marks are part of the word
    ],
)
def test_names_a_person_reads_as_the_same_fold_to_one(given: str, folded: str) -> None:
    assert fold(given) == folded
    assert category_name(given) == folded


@pytest.mark.parametrize(
    "given",
    [
        "\u04bb\u0435alth",  # Cyrillic shha and ie, then Latin letters: passes for "health"
        "h\u03b5alth",  # a Greek epsilon inside Latin letters
    ],
)
def test_a_name_mixing_look_alike_alphabets_is_refused(given: str) -> None:
    with pytest.raises(InvalidInput, match="mixes"):
        category_name(given)


@pytest.mark.parametrize("given", ["!!!", "\u200b", "--", 42])
def test_a_name_without_a_letter_or_digit_is_refused(given: object) -> None:
    with pytest.raises(InvalidInput):
        category_name(given)


def test_a_name_is_at_most_64_characters_once_folded() -> None:
    assert category_name("a" * 64) == "a" * 64
    with pytest.raises(InvalidInput, match="64"):
        category_name("a" * 65)
    with pytest.raises(InvalidInput, match="64"):
        category_name("\u3316" * 11)  # each one folds to six katakana
