"""Which lexemes a text has, for the lexical arm (BM25), the same for memories and queries and on
both search paths (they read the lexemes from `tsv`).

- **Segmentation.** PostgreSQL's parser reads a run of Chinese or Japanese characters as one
  word, so "过敏" never matched "我对花生过敏". A run of Han and kana becomes its overlapping
  character bigrams, as Lucene's CJK analyzer does ("我对 对花 花生 生过 过敏"); a memory also
  keeps each character (a one-character query, "猫", finds "我家有一只猫"), a query keeps a
  character only where it stands alone, so a longer query is matched by its bigrams alone.
  Fullwidth and halfwidth forms are folded first (fullwidth Latin, halfwidth katakana).
- **A configuration per language** (`memories/language.py` tells the language): German text is
  stemmed as German, not as English. Each configuration's lexemes carry its prefix ("de:kind"),
  so a Spanish stem of an English word ("planes" -> "plan") never matches an English memory
  about plans; English and text with no configuration of its own (Chinese, Japanese, too short
  to tell) keep today's `english` lexemes, unprefixed; a language we do not know is not stemmed
  (`simple`).
- **A query** is read under every configuration: its language decides which of its words are
  terms (stop words, and which words are one term), and each term's lexemes under the other
  configurations join its group, which BM25 counts as one term (`memories/search/scoring.py`,
  as related terms do): "Kinder" finds "Kind" in a German memory and "kinder" in an English one,
  and a configuration no visible memory uses adds nothing (its lexemes are in no memory).

The SQL function `memory_tsvector(config, prefix, body)` (migration `memory_language`) builds a
memory's or a query's tsvector from `Analysed`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection

from memories import language as text_language


@dataclass(frozen=True)
class Analysis:
    """A PostgreSQL text-search configuration and the prefix of its lexemes."""

    config: str
    prefix: str


DEFAULT = Analysis("english", "")
GERMAN = Analysis("german", "de:")
SPANISH = Analysis("spanish", "es:")
FRENCH = Analysis("french", "fr:")
PORTUGUESE = Analysis("portuguese", "pt:")
RUSSIAN = Analysis("russian", "ru:")
UNSTEMMED = Analysis("simple", "x:")
# Every analysis, in the order a query lists its lexemes.
ANALYSES = (DEFAULT, GERMAN, SPANISH, FRENCH, PORTUGUESE, RUSSIAN, UNSTEMMED)
_BY_LANGUAGE = {
    text_language.GERMAN: GERMAN,
    text_language.SPANISH: SPANISH,
    text_language.FRENCH: FRENCH,
    text_language.PORTUGUESE: PORTUGUESE,
    text_language.RUSSIAN: RUSSIAN,
    text_language.OTHER: UNSTEMMED,
}


def analysis_of(language: str) -> Analysis:
    """The analysis of text in `language` (a code of `memories/language.py`)."""
    return _BY_LANGUAGE.get(language, DEFAULT)


# ---- segmentation ------------------------------------------------------------------------------

# Han and kana, as Lucene's CJKBigramFilter pairs them.
_CJK = text_language.UNSPACED
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WIDTH_FORMS = re.compile("[\uff01-\uffef]+")
_NEEDS_SEGMENTING = re.compile(f"[{_CJK}\uff01-\uffef]")


def segment(text: str, *, characters: bool) -> str:
    """`text` as the parser should read it: each run of Han and kana as its bigrams, spaced
    (`characters`: with each character as well; without, only a character standing alone). Text
    without either is returned as it is."""
    if not _NEEDS_SEGMENTING.search(text):
        return text
    text = _WIDTH_FORMS.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)

    def grams(match: re.Match[str]) -> str:
        run = match.group()
        pairs = [run[i : i + 2] for i in range(len(run) - 1)]
        if characters or len(run) == 1:
            pairs = [*run, *pairs]
        return " " + " ".join(pairs) + " "

    return _CJK_RUN.sub(grams, text)


@dataclass(frozen=True)
class Analysed:
    """What a memory's `tsv` is built from: its language, the analysis, the text to parse."""

    language: str
    config: str
    prefix: str
    body: str


def for_memory(text: str) -> Analysed:
    """How a memory's text is indexed (its language is stored with it)."""
    language = text_language.detect(text).code
    analysis = analysis_of(language)
    return Analysed(language, analysis.config, analysis.prefix, segment(text, characters=True))


# Which texts, analysed as memories are, hold one of a query's lexemes (1-based positions).
_HOLDING_SQL = """
SELECT t.n FROM unnest(%(cfgs)s::text[], %(prefixes)s::text[], %(bodies)s::text[])
    WITH ORDINALITY AS t(cfg, prefix, body, n)
WHERE tsvector_to_array(memory_tsvector(t.cfg::regconfig, t.prefix, t.body)) && %(lexemes)s::text[]
"""


def holding(texts: Sequence[str], lexemes: Sequence[str]) -> list[bool]:
    """Which of `texts` hold one of a query's `lexemes` (`UserSearch.lexemes`: its words under
    every analysis, and their related terms), each text analysed as a memory's is: the lexical
    arm's own rule for what a query's words match, for texts that are not in the index (an
    app's writes held for the owner's review). One statement; none without texts or lexemes."""
    if not lexemes or not any(texts):
        return [False] * len(texts)
    analysed = [for_memory(text) for text in texts]
    args = {
        "cfgs": [a.config for a in analysed],
        "prefixes": [a.prefix for a in analysed],
        "bodies": [a.body for a in analysed],
        "lexemes": list(lexemes),
    }
    with connection.cursor() as cur:
        cur.execute(_HOLDING_SQL, args)
        held = {int(n) - 1 for (n,) in cur.fetchall()}
    return [i in held for i in range(len(texts))]


def for_query(query: str) -> tuple[str, int]:
    """The query as the parser should read it, and which of ANALYSES decides its terms (that of
    its language; English's when it cannot be told)."""
    analysis = analysis_of(text_language.detect(query).code)
    return segment(query, characters=False), ANALYSES.index(analysis)


def kin(query: str) -> tuple[str, ...] | None:
    """The languages (codes of `memories/language.py`) of the memories that could hold the
    query's words: its own language's (Chinese and Japanese together: both are read as the same
    character bigrams), and memories too short to tell; for a query whose language cannot be
    told, every language written in its script. None: any memory (a query without letters).
    Search discounts a query whose words no memory holds by the memories that could have held
    them (`memories/search/scoring.py`, `SearchProfile.unknown_by_language`)."""
    written = text_language.script(query)
    if written == "none":
        return None
    code = text_language.detect(query).code
    if written == "cjk" or code in (text_language.CHINESE, text_language.JAPANESE):
        return (text_language.CHINESE, text_language.JAPANESE, text_language.UNKNOWN)
    if code in text_language.CLAIMED:
        return (code, text_language.UNKNOWN)
    same_script = [c for c in text_language.CLAIMED if text_language.SCRIPT_OF[c] == written]
    return (*same_script, text_language.OTHER, text_language.UNKNOWN)


# ---- a query's terms ---------------------------------------------------------------------------


@dataclass(frozen=True)
class QueryLexeme:
    """One lexeme of the query under one analysis (its index in ANALYSES), with its key and the
    positions of the words it came from."""

    analysis: int
    lexeme: str
    key: int
    positions: tuple[int, ...]


def terms(found: Sequence[QueryLexeme], deciding: int) -> list[tuple[str, int, int]]:
    """The query's lexemes as (lexeme, key, group), listed by group: each lexeme of the deciding
    analysis is a group of its own (in the order given), and a lexeme of another analysis joins
    the group of the first word it came from that the deciding analysis kept (a word it dropped
    as a stop word brings nothing)."""
    out: list[tuple[str, int, int]] = []
    group_at: dict[int, int] = {}
    for found_lexeme in found:
        if found_lexeme.analysis == deciding:
            for position in found_lexeme.positions:
                group_at.setdefault(position, len(out))
            out.append((found_lexeme.lexeme, found_lexeme.key, len(out)))
    taken = {lexeme for lexeme, _, _ in out}
    for found_lexeme in found:
        if found_lexeme.analysis == deciding or found_lexeme.lexeme in taken:
            continue
        group = next((group_at[p] for p in found_lexeme.positions if p in group_at), None)
        if group is not None:
            out.append((found_lexeme.lexeme, found_lexeme.key, group))
            taken.add(found_lexeme.lexeme)
    return sorted(out, key=lambda term: term[2])
