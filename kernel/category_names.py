"""Category names in one form, whichever entry point they came through.

A name is folded before it is looked up or stored: Unicode compatibility forms (NFKC: "health"
in fullwidth letters, U+FF48 U+FF45 ..., is "health"), case (casefold), invisible format
characters (zero-width space and joiner, soft hyphen: dropped) and every run of spaces or
punctuation (one "-"), so two names a person reads as the same are the same category. A name
that mixes Latin letters with Cyrillic or Greek ones is refused: "health" written with a
Cyrillic shha and ie (U+04BB, U+0435) would fold to a name of its own and pass for "health".
Letters of every script are kept ("santé", "健康"), so the vocabulary is not English only. The
accounts domain (grants, client tokens) folds with this too, so it lives here, beside the other
shared rules.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext_noop

from kernel.errors import InvalidInput

MAX_LENGTH = 64  # the column's width (memories, grants)
_CONFUSABLE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def _script(char: str) -> str | None:
    """LATIN, CYRILLIC or GREEK for a letter of those scripts; None for anything else."""
    if not char.isalpha():
        return None
    word = unicodedata.name(char, "").split(" ", 1)[0]
    return word if word in _CONFUSABLE_SCRIPTS else None


def fold(raw: str) -> str:
    """The name's one form: NFKC, casefolded, format characters gone, every run of other
    characters than letters, marks and digits one "-", none at either end. May be empty."""
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", raw).casefold())
    out: list[str] = []
    dash = False
    for char in text:
        kind = unicodedata.category(char)
        if kind == "Cf":  # zero-width and other invisible format characters
            continue
        if kind[0] in "LMN":
            if dash and out:
                out.append("-")
            out.append(char)
            dash = False
        else:
            dash = True
    return "".join(out)


def category_name(raw: object, *, field: str = "categories") -> str:
    """A name given at an entry point, folded and checked: InvalidInput with a sentence a caller can
    act on when it is not a string, has no letter or digit, is too long, or mixes look-alike
    alphabets.
    """
    if not isinstance(raw, str):
        raise InvalidInput(gettext_noop("Categories must be strings."), field=field)
    name = fold(raw)
    if not any(c.isalnum() for c in name):
        raise InvalidInput(
            gettext_noop("%(name)r is not a category name: use letters or digits."),
            field=field,
            name=raw.strip()[:64],
        )
    if len(name) > MAX_LENGTH:
        raise InvalidInput(
            gettext_noop("A category name is at most %(n)d characters."), field=field, n=MAX_LENGTH
        )
    scripts = {s for s in map(_script, name) if s}
    if len(scripts) > 1:
        raise InvalidInput(
            f"{raw.strip()[:64]!r} mixes {' and '.join(sorted(s.title() for s in scripts))} "
            "letters, so it could pass for another category; write it in one alphabet.",
            field=field,
        )
    return name


def label(slug: str) -> str:
    """How a person reads a category name: "mental-health" → "Mental health"."""
    return slug.replace("-", " ").capitalize()
