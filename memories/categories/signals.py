"""The rules that read a sensitive category's signal words: which a text of each language is
matched with (its English ones, `signals_by_language`, `lexicons`), and what a new category's name
means by its words (`sensitive_meaning`)."""

from __future__ import annotations

import re

from memories.categories.lexicons import LEXICONS
from memories.categories.signals_by_language import SIGNALS_BY_LANGUAGE
from memories.categories.vocabulary import DEFAULT_CATEGORIES, Category

_NAME_WORDS = {word: c.slug for c in DEFAULT_CATEGORIES if c.sensitive for word in c.names}


# Whose signal words a text of each language is read with, beside the English ones: Chinese and
# Japanese share Han characters (a short run of Han may be either, memories/language.py), and a
# text in a language we do not claim, or too short to tell, is read with every language's: more
# caution where less is known.
_SIGNAL_LANGUAGES: dict[str | None, tuple[str, ...]] = {
    None: (),
    "en": ("en",),
    "zh": ("zh", "ja"),
    "ja": ("ja", "zh"),
    **{code: (code,) for code in ("de", "es", "fr", "pt", "ru")},
}
_EVERY_LANGUAGE = tuple(dict.fromkeys([*SIGNALS_BY_LANGUAGE, *LEXICONS]))


def signal_words(category: Category, language: str | None = None) -> list[str]:
    """The category's signals for a text in `language`: its English ones, and those of that
    language, `SIGNALS_BY_LANGUAGE` and `LEXICONS` (a code of memories/language.py; any code but a
    claimed one reads every language's). None: the English signals only (a category's name)."""
    others = _SIGNAL_LANGUAGES.get(language, _EVERY_LANGUAGE)
    return [
        *category.signals,
        *(
            s
            for code in others
            for table in (SIGNALS_BY_LANGUAGE, LEXICONS)
            for s in table.get(code, {}).get(category.slug, ())
        ),
    ]


def signals_pattern(category: Category, language: str | None = None) -> re.Pattern[str]:
    """`signal_words` as one case-insensitive pattern (one that matches nothing when there are
    none: a user's own category, `UNCHECKED`)."""
    signals = signal_words(category, language) or [r"(?!)"]
    return re.compile("|".join(f"(?:{s})" for s in signals), re.IGNORECASE)


_NAME_SIGNALS = [
    (c.slug, signals_pattern(c)) for c in DEFAULT_CATEGORIES if c.sensitive and c.signals
]


def sensitive_meaning(slug: str) -> str | None:
    """The sensitive default category a (folded) category name means by its words, or None: one
    of its words is in a sensitive category's `names` ("medical", "my-therapy" → health), or the
    name read as words shows one of its `signals` ("antidepressants", "court-case")."""
    words = slug.split("-")
    for word in (slug, *words):
        if word in _NAME_WORDS:
            return _NAME_WORDS[word]
    spoken = " ".join(words)
    for category, signals in _NAME_SIGNALS:
        if signals.search(spoken):
            return category
    return None
