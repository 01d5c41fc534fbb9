"""The local extractor on what people say in passing (issue 38, item 3): announcements, people
named tersely, preferences, facts before a long question, someone else's doings. The examples
are written here, not taken from the labelled sets; the rules hold whatever the embedding model."""

from __future__ import annotations

from memories.extraction.local import Turn, local_extractor


def _alone(message: str) -> list[str]:
    (kept,) = local_extractor().extract([message])
    return [k.text for k in kept]


def _kept(*messages: str) -> list[list[str]]:
    said = [Turn(m, "c1") for m in messages]
    return [[k.text for k in kept] for kept in local_extractor().extract(said)]


def test_an_announcement_with_the_i_left_out_is_kept_as_a_first_person_fact() -> None:
    assert _alone("Officially a grandad! Our son had a baby girl.")[0].startswith(
        "I'm officially a grandad"
    )
    assert _alone("Guess who finally quit vaping?") == ["I finally quit vaping"]
    assert "I'm retiring in June after 30 years at the post office!" in _alone(
        "Retiring in June after 30 years at the post office!"
    )


def test_news_that_lasts_is_kept_though_said_with_this_week_or_this_morning() -> None:
    assert _alone("Our youngest started school this week! How do I handle the mornings?")
    assert _alone("I finally paid off my mortgage this morning!!!")
    assert _alone("I'm 68 and just got my first laptop, how do I make the text bigger?")
    assert _alone("I just spilled tea on my laptop this morning.") == []


def test_a_relation_named_without_my_is_the_writers() -> None:
    assert _alone("Wife is a midwife, works nights.")[0].startswith("My wife is a midwife")
    kept = _alone("Our little one turned two. She's obsessed with diggers.")
    assert any(k.startswith("Our little one is obsessed") for k in kept)


def test_a_preference_is_kept_however_the_model_scores_it() -> None:
    assert _alone("I prefer buses to trams whenever the trip is under an hour.")
    assert _alone("I hate being given bullet points, just write prose.")
    assert _alone("I hate it when you do that.") == []


def test_a_fact_before_a_long_question_is_kept_as_a_statement() -> None:
    assert _alone(
        "I'm allergic to sesame, is hummus from the supermarket safe or is it always made with it?"
    ) == ["I'm allergic to sesame"]


def test_a_sentence_with_commas_and_numbers_is_prose_not_a_pasted_table() -> None:
    assert _alone("We have three hens, Dot, Mabel and Fern, all about 2 years old.")


def test_a_label_and_its_colon_stay_one_fact_unless_a_quotation_follows() -> None:
    (kept,) = local_extractor().extract(
        ["My setup: Debian on an old ThinkPad X220, running Syncthing. Why is it slow?"]
    )
    assert kept and kept[0].text.startswith("My setup: Debian on an old ThinkPad")
    assert (
        _alone('my opening: "The Industrial Revolution began in Britain for many reasons."') == []
    )


def test_a_long_statement_names_its_own_it_and_the_next_message_leans_on_it() -> None:
    first, second = _kept(
        "I repair vintage watches for collectors as a side thing, been doing it since 2019.",
        "it brings in maybe 6k a year, do I need to register?",
    )
    assert first and second and "it brings in maybe 6k a year" in second[0]


def test_someone_elses_doings_reading_or_a_hypothetical_are_not_the_writers_facts() -> None:
    assert _alone("A man in my street got fined for parking on the verge, is that legal?") == []
    assert _alone("A recruiter offered me 40k for a junior role. Is that low?") == []
    assert _alone("Priya says your French is better than mine") == []
    assert _alone("I read that people in Sardinia live longest, is it the diet?") == []
    assert _alone("if we went for all of March, could I work from there?") == []
    assert _alone("forgot my keys and it's pouring") == []
    assert _alone("You are a grumpy ship's cook. I walk into the galley and ask for soup.") == []


def test_thanks_does_not_lean_on_the_fact_before_it() -> None:
    first, second = _kept(
        "I'm writing my dad's eulogy, this is what I have so far:", "that means a lot"
    )
    assert first and second == []


def test_the_person_a_dash_hands_a_fact_to_stays_with_the_fact() -> None:
    assert _alone("Three of them are vegan — my sister and my two nephews") == [
        "Three of them are vegan — my sister and my two nephews"
    ]
