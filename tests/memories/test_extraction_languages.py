"""The local extractor on messages in the other claimed languages (issue 38, item 3): a fact
stated beside a question or a request is kept without them, in Chinese, German, Spanish,
Japanese, French, Portuguese and Russian; questions, requests, moods, role-play, hypotheticals
and pasted letters give nothing. The English cases of the same patterns are here too. The
examples are written here, not taken from the labelled sets."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own punctuation

from __future__ import annotations

import pytest

from memories.extraction.local import Turn, local_extractor


def _alone(message: str) -> list[str]:
    (kept,) = local_extractor().extract([message])
    return [k.text for k in kept]


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("我对乳糖不耐受，请问拿铁可以换成燕麦奶吗？", "我对乳糖不耐受"),
        ("Ich bin Linkshänder – welche Füllfederhalter sind gut für mich?", "Ich bin Linkshänder"),
        ("Tengo celiaquía, ¿qué pan puedo comprar en Mercadona?", "Tengo celiaquía"),
        ("私は糖尿病なので、おすすめの低糖質のおやつはありますか？", "私は糖尿病なので"),
        ("Je suis diabétique, est-ce que je peux manger des dattes ?", "Je suis diabétique"),
        (
            "Meu marido tem Parkinson, que exercícios ajudam no equilíbrio?",
            "Meu marido tem Parkinson",
        ),
        ("У меня астма, можно ли мне плавать зимой?", "У меня астма"),
    ],
)
def test_a_fact_beside_a_question_is_kept_without_the_question(message: str, fact: str) -> None:
    assert _alone(message) == [fact]


def test_a_fact_said_in_passing_in_a_request_is_kept_without_the_request() -> None:
    assert _alone("Schreib mir bitte ein Rezept ohne Koriander, ich mag ihn nicht.") == [
        "ich mag ihn nicht."
    ]
    assert _alone("帮我推荐几部电影吧，我最喜欢宫崎骏的动画。") == ["我最喜欢宫崎骏的动画。"]
    assert _alone("Recomiéndame una novela corta, me encanta la ciencia ficción.") == [
        "me encanta la ciencia ficción."
    ]
    assert _alone("Plan me a 3-day trip to Rome. No museums please, I get bored in them.") == [
        "Museums, I get bored in them."
    ]


@pytest.mark.parametrize(
    "message",
    [
        "请问明天北京会下雨吗？",
        "Wie lange muss ein Ei kochen, damit es weich bleibt?",
        "¿Cuántas calorías tiene un aguacate mediano?",
        "この文章を英語に翻訳してください。",
        "Hoy estoy muy cansado, ¿me haces un resumen corto?",  # a mood, then a request
        "Der Zug hat schon wieder Verspätung, ich dreh durch.",
        "你现在扮演一个面试官，我来面试Java开发岗位。",  # role-play
        "假如我是一只猫，我会怎么看人类？",  # a hypothetical
        "Joue un serveur parisien désagréable, je commande un café.",
        "El segundo me gusta más, desarróllalo.",  # picks one of the assistant's options
        '帮我润色一下这封邮件："王总您好，我是市场部的李娜。"',  # a pasted letter
        "Mein Chef meint, das Homeoffice wird abgeschafft.",  # what someone else says
    ],
)
def test_questions_requests_moods_games_and_pasted_words_give_nothing(message: str) -> None:
    assert _alone(message) == []


def test_the_writer_described_in_a_question_as_someone_is_kept() -> None:
    kept = _alone("what's a good first bike for someone who's 5'2 and has never ridden")
    assert kept == ["I'm someone who's 5'2 and has never ridden"]
    assert _alone("what's a good birthday present for someone who loves baking") == []


def test_a_statement_whose_it_a_question_just_named_is_kept_with_the_question() -> None:
    assert _alone(
        "Does anyone know if metformin interacts with alcohol? I've been on it since January."
    ) == ["Does anyone know if metformin interacts with alcohol? I've been on it since January."]


def test_a_few_words_after_a_question_in_another_language_are_read_in_that_language() -> None:
    (kept,) = local_extractor().extract(
        [Turn("52 ans", "c1", "", "Pour adapter le programme, quel âge avez-vous ?")]
    )
    assert [k.text for k in kept] == ["Pour adapter le programme, quel âge j'ai: 52 ans"]
