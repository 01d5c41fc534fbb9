"""The local extractor on what people say on the way (issue 38.3, fifth pass): sentences that
open on an adverb and leave out "I", a message that only goes on about the person's previous
one, "they" for the children just named, the place a request says the writer lives in, a
non-native "since two years living…", and the same shapes in Chinese, German, Japanese,
Spanish, French and Russian; with what must still give nothing (a state of the moment, a reply
to the assistant, a life not lived). The examples are written here, not taken from the labelled
sets."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own punctuation

from __future__ import annotations

from pathlib import Path

import pytest

from accounts.models import User
from memories.extraction.local import local_extractor
from memories.models import Memory
from tests.memories.exports import backfill, chatgpt_conversation, memory_texts, write_json
from tests.memories.extracted import conversation_memories as _conversation


def _alone(message: str) -> list[str]:
    (kept,) = local_extractor().extract([message])
    return [k.text for k in kept]


@pytest.mark.parametrize(
    ("message", "memory"),
    [
        ("Normally walk the dog before work, it takes half an hour.", "I normally walk the dog"),
        ("Always loved sailing, bought a small dinghy last spring.", "I always loved sailing"),
        ("Can't drink milk, lactose intolerant.", "I can't drink milk"),
    ],
)
def test_a_sentence_that_leaves_out_i_after_an_adverb_is_kept_in_the_first_person(
    message: str, memory: str
) -> None:
    assert any(kept.startswith(memory) for kept in _alone(message)), _alone(message)


@pytest.mark.parametrize(
    "message",
    [
        "Probably going to be late tonight.",
        "Usually the bus is on time, not today.",
        "Still can't believe it.",
    ],
)
def test_an_adverb_before_a_state_of_the_moment_or_someone_else_keeps_nothing(
    message: str,
) -> None:
    assert _alone(message) == []


def test_a_message_that_only_goes_on_about_the_previous_one_is_joined_to_it() -> None:
    first, second = _conversation(
        "We rent a flat on the top floor of an old building in Gdańsk.",
        "Two bedrooms, a tiny balcony facing the harbour.",
    )
    assert len(first) == 1
    assert len(second) == 1
    assert "Gdańsk" in second[0] and "balcony" in second[0]


@pytest.mark.parametrize(
    "reply",
    [
        "Fair enough, carry on.",
        "Shorter version please.",
        "Still sore from it though.",
        "cargo or cabin then",
        "how many lessons a week",
    ],
)
def test_a_reply_or_a_state_of_the_moment_after_a_fact_is_not_joined_to_it(reply: str) -> None:
    first, second = _conversation("I play the double bass in a jazz trio.", reply)
    assert first and second == []


def test_a_fragment_after_a_message_that_kept_nothing_is_dropped() -> None:
    assert _conversation("What's a good jazz album to start with?", "Mostly piano trios.") == [
        [],
        [],
    ]


def test_they_after_the_kids_are_named_are_the_writers_children() -> None:
    assert "My kids are 8 and 11." in _alone("What board games suit the kids? They're 8 and 11.")


def test_they_with_no_children_named_just_before_is_not_made_into_children() -> None:
    kept = _alone("My kids love the beach. We went to Cornwall. They're 8 and 11.")
    assert "My kids are 8 and 11." not in kept


def test_a_request_that_names_where_the_writer_lives_keeps_the_place() -> None:
    assert "We live in Utrecht" in _alone("Any day trips from Utrecht, where we live, by train?")


def test_a_non_native_since_with_years_becomes_how_long_the_writer_has_done_it() -> None:
    assert _alone("Since four years working in Oslo as electrician.") == [
        "I have been working in Oslo as electrician for four years."
    ]


def test_a_life_the_writer_has_not_lived_yet_is_not_a_fact() -> None:
    assert _alone("If I ever get a dog I want a greyhound.") == []


def test_a_child_starting_school_is_news_that_lasts_though_it_is_next_week() -> None:
    assert any("starts school" in kept for kept in _alone("Our son starts school next week."))


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("Wir haben seit letztem Jahr einen Schrebergarten.", "Meistens Gemüse, ein paar Kräuter."),
        ("我们家去年买了一辆电动车。", "一般周末才开。"),
        ("毎朝ヨガをしています。", "だいたい三十分くらいです。"),
        ("Tenemos una gata desde marzo.", "Se llama Nube, es muy tranquila."),
        ("Je fais du yoga depuis cinq ans.", "Surtout le matin, avant le travail."),
        ("Я бегаю по утрам уже год.", "Обычно пять километров."),
    ],
)
def test_a_fragment_on_how_often_or_what_it_is_called_goes_on_from_a_statement(
    first: str, then: str
) -> None:
    assert _conversation(first, then) == [[first], [then]]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("Wir haben seit letztem Jahr einen Schrebergarten.", "Gerade noch Unkraut jäten."),
        ("我们家去年买了一辆电动车。", "一般今天不开。"),
        ("毎朝ヨガをしています。", "だいたい何分がいいですか？"),
    ],
)
def test_a_fragment_of_the_moment_or_a_question_after_a_statement_keeps_nothing(
    first: str, then: str
) -> None:
    assert _conversation(first, then) == [[first], []]


def test_the_same_fragment_with_no_statement_before_it_keeps_nothing() -> None:
    assert _alone("Meistens Gemüse, ein paar Kräuter.") == []


@pytest.mark.parametrize(
    ("message", "memory"),
    [
        ("Напиши стих, только без рифмы — терпеть её не могу.", "терпеть её не могу"),
        ("在北京当老师十年了。", "在北京当老师十年了。"),
        ("紅茶にしてください。コーヒーは飲めません。", "コーヒーは飲めません。"),
    ],
)
def test_a_dislike_a_job_or_what_the_writer_cannot_drink_is_kept_as_written(
    message: str, memory: str
) -> None:
    assert any(memory in kept for kept in _alone(message)), _alone(message)


def test_german_gerade_opening_a_task_of_the_moment_is_not_a_verb_but_news_with_it_stays() -> None:
    assert _alone("Gerade noch Kisten schleppen.") == []
    news = "Wir haben gerade unsere erste Wohnung in Graz gekauft."
    assert _alone(news) == [news]


def test_an_import_keeps_the_joined_memory_in_place_of_the_one_it_goes_on_about(
    owner: User, tmp_path: Path
) -> None:
    """The person sees one memory with both halves, not the first half again beside it, and
    what follows is kept as before."""
    export = [
        chatgpt_conversation(
            "g-flat",
            ("user", "We rent a flat on the top floor of an old building in Gdańsk."),
            ("assistant", "Sounds lovely. Anything else I should know for the move?"),
            ("user", "Two bedrooms, a tiny balcony facing the harbour."),
            ("user", "I play the double bass in a jazz trio."),
        ),
    ]
    backfill(write_json(tmp_path / "c.json", export), owner, "--extractor", "local", "--yes")
    texts = memory_texts(owner)
    assert sum("Gdańsk" in text for text in texts) == 1, texts
    [flat] = [text for text in texts if "Gdańsk" in text]
    assert "balcony" in flat
    assert any("double bass" in text for text in texts)
    memory = Memory.objects.get(owner=owner, text=flat)
    assert memory.provenance["message_id"] == "g-flat-2"  # the message that completed it


def test_an_import_keeps_a_later_fact_with_its_own_subject_beside_the_one_before(
    owner: User, tmp_path: Path
) -> None:
    """The false join the fresh-clone CI met: with the joined memory in its anchor's place, a
    join of these two would lose the daughter's memory inside the cat's."""
    export = [
        chatgpt_conversation(
            "g-family",
            ("user", "My son is called Jonah."),
            ("assistant", "Nice to meet you both. How can I help?"),
            ("user", "This is my dog Pixel."),
        ),
    ]
    backfill(write_json(tmp_path / "c.json", export), owner, "--extractor", "local", "--yes")
    assert sorted(memory_texts(owner)) == ["My son is called Jonah.", "This is my dog Pixel."]
