"""The local extractor on what people tell assistants in the shapes the earlier passes missed
(issue 38.3, fourth pass): a list the writer makes of themselves under a heading, in English,
Chinese, German and Japanese; a task list gives nothing. Also Japanese sentences without a
subject, Spanish perfects, a Portuguese message with English-looking words, admission news and
how long a question says the writer has had something. The examples are written here, not
taken from the labelled sets."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own punctuation

from __future__ import annotations

import pytest

from memories.extraction.local import local_extractor
from memories.extraction.local_lists import self_list


def _alone(message: str) -> list[str]:
    (kept,) = local_extractor().extract([message])
    return [k.text for k in kept]


def test_a_list_the_writer_makes_of_themselves_keeps_each_item_with_its_heading() -> None:
    message = "A bit about me:\n- 31, from Ghana\n- accountant at a bank\nWhat CV layout works?"
    assert _alone(message) == [
        "A bit about me: 31, from Ghana",
        "A bit about me: accountant at a bank",
    ]


@pytest.mark.parametrize(
    ("message", "items"),
    [
        (
            "我的基本情况：\n1. 28岁\n2. 在广州做护士\n3. 对海鲜过敏\n帮我写个自我介绍。",
            ["我的基本情况: 28岁", "我的基本情况: 在广州做护士", "我的基本情况: 对海鲜过敏"],
        ),
        (
            "Ein paar Infos zu mir:\n- 52 Jahre alt\n- Tischler aus Kassel\n- Diabetiker",
            [
                "Ein paar Infos zu mir: 52 Jahre alt",
                "Ein paar Infos zu mir: Tischler aus Kassel",
                "Ein paar Infos zu mir: Diabetiker",
            ],
        ),
        (
            "私のプロフィール：\n・名古屋在住\n・エンジニア歴5年",
            ["私のプロフィール: 名古屋在住", "私のプロフィール: エンジニア歴5年"],
        ),
    ],
)
def test_a_list_about_the_writer_is_kept_in_other_languages(message: str, items: list[str]) -> None:
    assert self_list(message)[0] == items
    assert _alone(message) == items


@pytest.mark.parametrize(
    "message",
    [
        "Make me a packing list for Oslo:\n- hand luggage only\n- it may snow",
        "Compare these for me:\n- Kindle\n- Kobo",
        "帮我比较一下：\n1. 小米\n2. 华为",
        "Bitte vergleiche für mich:\n- Bahn\n- Auto",
        "この三つを比べてください：\n・東京\n・大阪",
    ],
)
def test_a_list_that_describes_a_task_gives_nothing(message: str) -> None:
    assert self_list(message)[0] == []


@pytest.mark.parametrize(
    ("message", "fact"),
    [
        ("去年から陶芸を習っています。", "去年から陶芸を習っています。"),
        ("¡Por fin me he comprado una bici!", "¡Por fin me he comprado una bici!"),
        (
            "Comprei um apartamento no Porto!!! Mudo em maio.",
            "Comprei um apartamento no Porto!!! Mudo em maio.",
        ),
    ],
)
def test_news_said_without_a_pronoun_is_kept_in_other_languages(message: str, fact: str) -> None:
    assert _alone(message) == [fact]


@pytest.mark.parametrize(
    "message",
    [
        "ありがとうございます、試してみます。",
        "スクリプトを書きました。エラーの意味を教えてください。",
        "同僚が毎朝ジョギングしています。",
    ],
)
def test_japanese_thanks_one_off_doings_and_colleagues_give_nothing(message: str) -> None:
    assert _alone(message) == []


def test_admission_news_is_kept_and_someone_elses_news_is_not() -> None:
    assert _alone("My son just got into Durham to read law! What should he take?") == [
        "My son just got into Durham to read law!"
    ]
    assert _alone("My friend's mum just got diagnosed with diabetes. What do I say?") == []


def test_how_long_a_question_says_the_writer_has_had_something_is_kept() -> None:
    assert _alone("Is a bike I've had since 2015 worth a service?") == [
        "I have had a bike since 2015"
    ]


@pytest.mark.parametrize(
    "message",
    [
        "Bitte sieze mich nicht, duz mich einfach.",
        "以后回答我的时候不要用表情。",
        "Не пиши мне смайлики никогда.",
    ],
)
def test_how_the_writer_wants_to_be_answered_is_kept_though_asked(message: str) -> None:
    assert _alone(message) == [message]


@pytest.mark.parametrize(
    "message",
    ["Напиши мне пост для инстаграма с эмодзи.", "Schreib mir immer einen kurzen Text dazu?"],
)
def test_a_task_for_the_writer_is_not_a_way_to_answer_them(message: str) -> None:
    assert _alone(message) == []


@pytest.mark.parametrize(
    "message",
    [
        "Kannst du den Text korrigieren?\nIch bin seit 2019 bei der Firma und leite den Vertrieb.",
        "Sehr geehrte Frau Müller,\nich bin seit zehn Jahren Pflegekraft.\nMit freundlichen Grüßen",
        "帮我改一下这封邮件\n尊敬的王总，我是市场部的李娜，下周我休假。",
    ],
)
def test_a_letter_pasted_without_quotes_gives_nothing(message: str) -> None:
    assert _alone(message) == []
