"""The local extractor on messages read in their conversation, as an import hands them over:
facts inside questions, news, people named by "her" or "his", fragments completed from what came
before or dropped, code and pasted text never kept. The examples are written here, not taken from
the labelled sets."""

from __future__ import annotations

from memories.extraction.local import Turn, local_extractor


def _kept(*messages: str, title: str = "") -> list[list[str]]:
    """What each message of one conversation yields, in order."""
    said = [Turn(m, "c1", title) for m in messages]
    return [[k.text for k in kept] for kept in local_extractor().extract(said)]


def _alone(message: str) -> list[str]:
    (kept,) = local_extractor().extract([message])
    return [k.text for k in kept]


def test_a_fact_before_a_question_is_kept_as_a_statement() -> None:
    assert _alone("I'm allergic to peanuts, is pesto safe for me?") == ["I'm allergic to peanuts"]
    assert _alone("Since I'm gluten intolerant, what can I bake for a party?") == [
        "I'm gluten intolerant"
    ]


def test_a_fact_in_a_participle_before_a_question_becomes_a_first_person_statement() -> None:
    assert _alone("As someone with asthma, can I run a half marathon?") == [
        "I'm someone with asthma"
    ]
    assert _alone("Being diabetic, how should I plan a long hike?") == ["I'm diabetic"]


def test_news_that_lasts_is_kept_though_it_says_just() -> None:
    assert _alone("We just adopted a tabby kitten and called her Biscuit.")
    assert _alone("I just got a new job as a nurse at the children's hospital.")
    assert _alone("I just spilled coffee on my keyboard.") == []


def test_her_name_after_my_partner_names_the_partner() -> None:
    (first,) = _kept("My wife started a pottery course. Her name is Ines and she's a vet.")
    assert "My wife is called Ines and she's a vet." in first


def test_his_in_a_later_message_refers_to_the_son_of_an_earlier_one() -> None:
    _, second = _kept("My son is doing his GCSEs this year.", "His name is Theo.")
    assert second == ["My son is called Theo."]


def test_a_pronoun_with_no_one_to_refer_to_is_not_kept() -> None:
    assert _alone("Her name is Ines and she loves horses.") == []


def test_a_fragment_is_completed_from_the_earlier_message_of_the_conversation() -> None:
    first, second = _kept(
        "I restore old mopeds in my garage.",
        "I sell maybe six a year from it. How do I price them?",
    )
    assert first == ["I restore old mopeds in my garage."]
    assert second == ["I restore old mopeds in my garage; I sell maybe six a year from it."]


def test_a_fragment_with_nothing_to_lean_on_is_dropped() -> None:
    assert _alone("I earn maybe 3k a year from it.") == []
    assert _alone("I prefer the long ones honestly.") == []
    assert _alone("We have a budget of 800 pounds.") == []


def test_the_same_fragment_alone_in_another_conversation_is_not_completed() -> None:
    """Conversations do not lend each other their context."""
    said = [
        Turn("I restore old mopeds in my garage.", "c1"),
        Turn("I sell maybe six a year from it.", "c2"),
    ]
    first, second = local_extractor().extract(said)
    assert [k.text for k in first] == ["I restore old mopeds in my garage."]
    assert second == []


def test_a_clause_that_names_its_own_thing_is_not_a_fragment() -> None:
    assert _alone("I ride a 2009 Vespa with about 30k miles on it.") == [
        "I ride a 2009 Vespa with about 30k miles on it."
    ]


def test_a_missing_i_is_restored() -> None:
    assert _alone("Been learning the cello for two years now.") == [
        "I've been learning the cello for two years now."
    ]


def test_code_in_running_text_is_never_kept() -> None:
    assert _alone("total = sum(\n    i.cost for i in orders\n)") == []
    assert _alone("I.cost for i in orders") == []
    assert _alone("my_list = [x for x in rows if x.active]") == []


def test_a_fact_before_pasted_code_is_kept_and_the_code_is_not() -> None:
    kept = _alone(
        "I'm a data engineer at a shipping company. Why is this slow?\n\n"
        "for row in rows:\n    result.append(transform(row))"
    )
    assert kept == ["I'm a data engineer at a shipping company."]


def test_an_essay_pasted_on_the_line_of_its_introduction_is_never_kept() -> None:
    kept = _alone(
        "I'm a paramedic applying to medical school. here's my personal statement: I have always "
        "been drawn to emergency care. I grew up in a small town where I volunteered with the "
        "ambulance service every weekend."
    )
    assert kept == ["I'm a paramedic applying to medical school."]


def test_long_pasted_paragraphs_that_start_like_the_person_speaking_stay_pasted() -> None:
    paragraph = (
        "Also, I learned that patience matters more than talent. I spent three summers working "
        "on my uncle's farm, and I came to understand that the land rewards people who keep "
        "showing up. I have carried that lesson into every classroom I have taught in since, "
        "and I believe it is what makes me a good candidate for this programme."
    )
    assert _alone(f"Can you proofread my essay:\n\n{paragraph}\n\n{paragraph}") == []


def test_a_non_english_self_statement_is_kept_without_the_question_after_it() -> None:
    (kept,) = local_extractor().extract(
        ["Ich bin Lehrerin und wohne in Leipzig. Kennst du ein gutes Café?"]
    )
    assert [k.text for k in kept] == ["Ich bin Lehrerin und wohne in Leipzig."]
    assert kept[0].whole


def test_someone_elses_doings_at_work_or_next_door_are_not_the_writers_facts() -> None:
    assert _alone("My landlord's son keeps parking on the lawn, what can I do") == []
    assert _alone("My manager is called Priya and we have 1:1s on Tuesdays.") != []


def test_what_a_request_says_of_the_writer_in_passing_is_kept_without_the_request() -> None:
    assert _alone("Suggest some dinners, but no fennel, it tastes of liquorice to me.") == [
        "Fennel, it tastes of liquorice to me."
    ]
    assert _alone("Write a toast for my brother's wedding, make it funny") == []


def test_a_question_keeps_what_it_says_of_the_writer_on_the_way() -> None:
    assert _alone("how do I tell my 7 year old we are moving house") == ["I have a 7 year old"]
    assert _alone("How can I get better at delegating as a new manager?") == ["I'm a new manager"]
    assert _alone("Is it normal that the rent on my flat in Glasgow goes up twice a year?") == [
        "My flat is in Glasgow"
    ]
    assert _alone("What can I use as a substitute for butter?") == []
