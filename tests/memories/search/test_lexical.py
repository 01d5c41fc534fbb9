"""Which lexemes a text has (memories/search/lexical.py): segmentation of text without spaces, the
configuration of each language, and how a query's lexemes under every configuration become its
terms. Through the search, with PostgreSQL: tests/memories/search/test_languages.py."""

from __future__ import annotations

from memories.search import lexical
from memories.search.lexical import QueryLexeme


def test_a_run_of_han_becomes_its_bigrams_and_a_memory_keeps_each_character() -> None:
    assert lexical.segment("我对花生过敏", characters=False).split() == [
        "我对",
        "对花",
        "花生",
        "生过",
        "过敏",
    ]
    memory = lexical.segment("花生过敏", characters=True).split()
    assert memory == ["花", "生", "过", "敏", "花生", "生过", "过敏"]


def test_a_query_keeps_a_character_only_where_it_stands_alone() -> None:
    assert lexical.segment("猫", characters=False).split() == ["猫"]
    assert lexical.segment("iPhone壳 猫粮", characters=False).split() == ["iPhone", "壳", "猫粮"]


def test_kana_pairs_like_han_and_widths_are_folded() -> None:
    assert "仕事" in lexical.segment("私は仕事が好き", characters=False).split()
    assert lexical.segment("ｺｰﾋｰ", characters=False).split() == ["コー", "ーヒ", "ヒー"]
    assert lexical.segment("ＡＢＣ社", characters=False).split() == ["ABC", "社"]


def test_text_without_han_or_kana_is_parsed_as_written() -> None:
    text = "Die Kinder spielen im Garten, and I'm allergic to peanuts."
    assert lexical.segment(text, characters=True) is text


def test_each_language_has_its_configuration_and_english_keeps_no_prefix() -> None:
    assert lexical.analysis_of("de") == lexical.GERMAN
    assert lexical.analysis_of("ru").config == "russian"
    for code in ("en", "zh", "ja", "und"):
        assert lexical.analysis_of(code) == lexical.DEFAULT
        assert lexical.DEFAULT.prefix == ""
    assert lexical.analysis_of("other").config == "simple"
    prefixes = [a.prefix for a in lexical.ANALYSES]
    assert len(set(prefixes)) == len(prefixes)


def test_a_memory_is_analysed_in_its_language() -> None:
    analysed = lexical.for_memory("Die Kinder spielen jeden Nachmittag im Garten.")
    assert (analysed.language, analysed.config, analysed.prefix) == ("de", "german", "de:")
    chinese = lexical.for_memory("我对花生过敏，吃了会起疹子。")  # noqa: RUF001 - a Chinese comma
    assert chinese.config == "english" and "过敏" in chinese.body.split()


ENGLISH, GERMAN, SPANISH = 0, 1, 2


def test_the_deciding_configuration_makes_the_groups_and_the_others_join_them() -> None:
    # "the kids cares car", English deciding: "the" is a stop word in English, so the German
    # "the" brings nothing; Spanish reads "cares" and "car" as one lexeme, which joins the
    # first word it came from and does not merge the two terms.
    found = [
        QueryLexeme(ENGLISH, "car", 1, (4,)),
        QueryLexeme(ENGLISH, "care", 2, (3,)),
        QueryLexeme(ENGLISH, "kid", 3, (2,)),
        QueryLexeme(GERMAN, "de:the", 4, (1,)),
        QueryLexeme(GERMAN, "de:kid", 5, (2,)),
        QueryLexeme(SPANISH, "es:car", 6, (3, 4)),
    ]
    terms = lexical.terms(found, ENGLISH)
    groups: dict[int, set[str]] = {}
    for lexeme, _, group in terms:
        groups.setdefault(group, set()).add(lexeme)
    assert list(groups.values()) == [{"car"}, {"care", "es:car"}, {"kid", "de:kid"}]
    assert [g for _, _, g in terms] == sorted(g for _, _, g in terms)


def test_two_words_one_lexeme_in_the_deciding_configuration_are_one_term() -> None:
    found = [
        QueryLexeme(ENGLISH, "cat", 1, (1, 2)),  # "cat cats"
        QueryLexeme(GERMAN, "de:cat", 2, (1, 2)),
    ]
    assert lexical.terms(found, ENGLISH) == [("cat", 1, 0), ("de:cat", 2, 0)]
    assert lexical.terms(found, GERMAN) == [("de:cat", 2, 0), ("cat", 1, 0)]


def test_a_querys_kin_are_the_languages_whose_memories_could_hold_its_words() -> None:
    """Chinese and Japanese share their bigrams; a language told is itself (with memories too
    short to tell); a word whose language cannot be told could be in any language of its script;
    a query without letters in any memory."""
    cjk = ("zh", "ja", "und")
    assert lexical.kin("过敏") == lexical.kin("子供") == lexical.kin("ジョギング") == cjk
    assert lexical.kin("Wo wohnt mein Bruder?") == ("de", "und")
    assert lexical.kin("What is my dog called?") == ("en", "und")
    assert lexical.kin("¿Cómo se llama mi perro?") == ("es", "und")
    assert lexical.kin("Где живут мои родители?") == ("ru", "und")
    latin = lexical.kin("dachshund")
    assert latin is not None and {"en", "de", "es", "fr", "pt", "other", "und"} == set(latin)
    assert lexical.kin("2024") is None
