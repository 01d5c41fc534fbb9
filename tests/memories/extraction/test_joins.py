"""When the local extractor joins a later message to what the person kept earlier in the
conversation (issue 36 item 4): a clause that names its own subject — someone introduced by
relation or by name, "my dog Biscuit", a first person with an object of its own — is a new
fact, never a fragment of the one before, in English and in the seven other languages; a clause
that does lean back ("It's my main income", "I ride it to work") is still joined. The examples
are written here, not taken from the labelled sets."""

# ruff: noqa: RUF001 - Chinese and Japanese text is written with its own punctuation

from __future__ import annotations

import pytest

from tests.memories.extracted import conversation_memories as _conversation


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("My daughter is called Ada.", "This is my cat Miso."),
        ("We moved to Leeds last year.", "That's my brother Tom, he lives nearby."),
        ("I play tennis twice a week.", "These are my kids, Ada and Ben."),
        ("I started a new job at a bank.", "I love that my commute is only ten minutes."),
        ("I play the piano in a trio.", "I also teach at this music school in Leith."),
    ],
)
def test_a_later_message_that_names_its_own_subject_is_kept_on_its_own(
    first: str, second: str
) -> None:
    assert _conversation(first, second) == [[first], [second]]


def test_a_name_introduced_without_a_first_person_is_not_joined_to_the_fact_before() -> None:
    before, after = _conversation("I work as a night nurse.", "This is Pepper, my greyhound.")
    assert before == ["I work as a night nurse."]
    assert all("night nurse" not in memory for memory in after), after


@pytest.mark.parametrize(
    ("first", "second", "joined"),
    [
        (
            "I sell ceramics on Etsy.",
            "It's my main income.",
            "I sell ceramics on Etsy; it's my main income.",
        ),
        (
            "I run three times a week.",
            "I do it mostly before work.",
            "I run three times a week; I do it mostly before work.",
        ),
        (
            "I grew up on a farm.",
            "I'm used to this kind of work.",
            "I grew up on a farm; I'm used to this kind of work.",
        ),
    ],
)
def test_a_later_message_that_leans_back_is_still_joined(
    first: str, second: str, joined: str
) -> None:
    assert _conversation(first, second) == [[first], [joined]]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Meine Tochter heißt Ada.", "Das ist meine Katze Miso."),
        ("Mi hija se llama Ada.", "Esta es mi gata Miso."),
        ("Ma fille s'appelle Ada.", "Voici mon chat Miso."),
        ("Minha filha se chama Ada.", "Este é o meu gato Miso."),
        ("Мою дочь зовут Ада.", "Это моя кошка Мисо."),
        ("我女儿叫艾达。", "这是我的猫，叫米索。"),
        ("娘の名前はエイダです。", "これはうちの猫のミソです。"),
    ],
)
def test_in_the_seven_other_languages_a_new_subject_is_kept_on_its_own(
    first: str, second: str
) -> None:
    assert _conversation(first, second) == [[first], [second]]
