"""Two shapes of issue 36 item 4 in the local extractor: a Russian life told in the past tense
without "я" (the verb's ending is the person) is kept like its "я" form, and a state of the
body or the mood said with no time word ("I'm really thirsty", "Ich habe Durst") is not a
lasting fact, in the eight languages. The examples are written here, not taken from the
labelled sets."""

from __future__ import annotations

import pytest

from tests.memories.extracted import conversation_memories


@pytest.mark.parametrize(
    "message",
    [
        "Переехал в Тверь в 2015 году.",
        "Родилась и выросла в Иркутске.",
        "Давно работала переводчицей, теперь на фрилансе.",
        "Окончила медучилище, по профессии медсестра.",
    ],
)
def test_a_russian_past_tense_life_step_without_ya_is_kept_as_written(message: str) -> None:
    assert conversation_memories(message) == [[message]]


@pytest.mark.parametrize(
    "message",
    [
        "Он переехал в Тверь в 2015 году.",
        "Ходила сегодня в бассейн.",
        "Потерял ключи, что делать?",
    ],
)
def test_someone_elses_or_one_days_past_in_russian_keeps_nothing(message: str) -> None:
    assert conversation_memories(message) == [[]]


@pytest.mark.parametrize(
    "message",
    [
        "I'm really thirsty.",
        "Ich habe Durst.",
        "Tengo mucha sed, ¿qué bebo?",
        "Je suis épuisée.",
        "Estou com fome.",
        "Я голодна.",
        "我困死了。",
        "眠いです。",
    ],
)
def test_a_state_of_the_body_or_the_mood_without_a_time_word_keeps_nothing(
    message: str,
) -> None:
    assert conversation_memories(message) == [[]]
