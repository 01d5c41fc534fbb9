"""Language identification (memories/language.py): the claimed languages come out as themselves,
look-alikes (Italian, Dutch, Catalan, Ukrainian, Korean) as "other", too little as "und". The
accuracy over a labelled set is `bench language`'s (docs/benchmarks.md); these are the rules."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own commas

from __future__ import annotations

import pytest

from memories import language

CLAIMED_SENTENCES = [
    ("en", "I work as a nurse at the children's hospital on night shifts."),
    ("zh", "我对花生过敏，吃了会起疹子。"),
    ("ja", "仕事が忙しくて、最近あまり眠れていません。"),
    ("de", "Meine Tochter geht seit September in die Kita am Fluss."),
    ("es", "Trabajo como enfermera en el hospital infantil, casi siempre de noche."),
    ("fr", "Je travaille comme infirmière à l'hôpital pour enfants, surtout de nuit."),
    ("pt", "Trabalho como enfermeira no hospital infantil, quase sempre no turno da noite."),
    ("ru", "Я работаю медсестрой в детской больнице, в основном по ночам."),
]


@pytest.mark.parametrize(("code", "text"), CLAIMED_SENTENCES)
def test_a_sentence_in_a_claimed_language_is_that_language(code: str, text: str) -> None:
    found = language.detect(text)
    assert found.code == code
    assert found.claimed
    assert found.confidence >= language.CONFIDENT


@pytest.mark.parametrize(
    "text",
    [
        "Lavoro come infermiera all'ospedale pediatrico, quasi sempre di notte.",  # Italian
        "Ik werk als verpleegkundige in het kinderziekenhuis, meestal 's nachts.",  # Dutch
        "Treballo d'infermera a l'hospital infantil, gairebé sempre de nit.",  # Catalan
    ],
)
def test_a_latin_look_alike_of_a_claimed_language_is_never_claimed(text: str) -> None:
    found = language.detect(text)
    assert found.code in (language.OTHER, language.UNKNOWN)
    assert not found.claimed


@pytest.mark.parametrize(
    "text",
    [
        "Я працюю медсестрою в дитячій лікарні, здебільшого вночі.",  # Ukrainian
        "저는 어린이 병원에서 주로 야간 근무를 하는 간호사예요.",  # Korean
        "Δουλεύω ως νοσοκόμα στο παιδιατρικό νοσοκομείο.",  # Greek
    ],
)
def test_a_script_or_letter_no_claimed_language_uses_is_another_language(text: str) -> None:
    assert language.detect(text).code == language.OTHER


def test_kana_makes_japanese_and_han_alone_chinese() -> None:
    assert language.detect("アレルギー").code == "ja"
    assert language.detect("私はゲイです").code == "ja"
    short, long = language.detect("工作"), language.detect("我在一家软件公司工作")
    assert short.code == long.code == "zh"
    assert short.confidence < long.confidence  # two Han characters may be a Japanese word


def test_latin_words_in_a_chinese_sentence_leave_it_chinese() -> None:
    assert language.detect("我的密码管理器是Bitwarden，另外用YubiKey做两步验证。").code == "zh"
    assert language.detect("I love 饺子 and dumplings in general").code == "en"


def test_too_little_to_tell_is_undetermined_not_a_guess() -> None:
    for text in ("", "   ", "12:30", ";)", "Hund"):
        found = language.detect(text)
        assert found.code == language.UNKNOWN, text
        assert not found.claimed


def test_short_english_chat_is_english_whatever_the_identifier_guesses() -> None:
    # The identifier alone reads this as Spanish.
    found = language.detect("So cute! I love your turtles so much!")
    assert found.code == "en"
    assert found.evidence == "english-words"


def test_a_weak_guess_of_a_language_we_do_not_claim_is_undetermined_not_other() -> None:
    # The identifier reads this English as Hungarian at about .62: not enough to call it
    # "other" (which hides a memory from apps), so it is "und".
    found = language.detect("I'm restoring a 1970s camper van.")
    assert found.code == language.UNKNOWN
    assert found.evidence == "hu"
    assert found.confidence < language.OTHER_CONFIDENT
    confident = language.detect("Lavoro come infermiera all'ospedale pediatrico, di notte.")
    assert confident.code == language.OTHER
    assert confident.confidence >= language.OTHER_CONFIDENT
