"""The local extractor on messages from its labelled dev set: what it must drop, what it must keep
(in the writer's own words), other languages, and when two memories say the same thing."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from bench.extract import SPLITS, Example, load, message_scores, turns
from memories.extraction.local import Kept, local_extractor
from memories.extraction.repeats import RepeatIndex
from memories.search.embeddings import get_embedder


@cache
def _dev() -> dict[str, Example]:
    return {e.id: e for e in load(SPLITS["dev"])}


def _extract(example_id: str) -> list[Kept]:
    (kept,) = local_extractor().extract([_dev()[example_id].text])
    return kept


HARD_NEGATIVES = {
    "a_pasted_email_written_in_the_first_person": "d006",
    "a_cover_letter_pasted_for_a_grammar_check": "d087",
    "code_that_prints_i_am": "d007",
    "a_sql_query_searching_for_i_am_a_developer": "d076",
    "program_output_between_repl_lines": "d239",
    "role_play_where_the_user_plays_a_knight": "d012",
    "role_play_told_with_asterisk_actions": "d032",
    "a_state_of_the_moment": "d009",
    "a_headache_right_now": "d022",
    "a_first_person_question": "d010",
    "a_hypothetical_move_abroad": "d013",
    "a_fact_about_a_public_figure": "d015",
    "a_complaint_about_the_assistant": "d016",
    "a_follow_up": "d003",
    "a_pasted_college_essay": "d021",
    "a_quoted_review_from_a_manager": "d112",
    "a_request_phrased_as_i_need": "d241",
    "a_coworkers_opinion_reported": "d073",
}

HARD_POSITIVES = {
    # example id, a clause that must be among the memories, word for word
    "a_job_and_city_buried_in_a_design_doc_request": ("d005", "backend dev at a fintech startup"),
    "training_plans_inside_a_meal_planning_request": ("d020", "first marathon in October"),
    "a_self_introduction_before_a_code_question": ("d054", "PhD student in computational biology"),
    "facts_before_a_pasted_csv": ("d319", "two knee surgeries"),
    "facts_after_a_pasted_grant_intro": ("d303", "postdoc in environmental science"),
    "a_studio_owner_before_pasted_website_copy": ("d042", "small pottery studio in Asheville"),
    "lowercase_with_typos": ("d017", "nurse"),
    "a_diet_in_a_by_the_way": ("d079", "vegan"),
    "a_standing_instruction_about_answers": ("d200", "emojis in every response"),
}


@pytest.mark.parametrize("example_id", HARD_NEGATIVES.values(), ids=HARD_NEGATIVES.keys())
def test_the_extractor_keeps_nothing_from_a_hard_negative(example_id: str) -> None:
    assert not _dev()[example_id].facts  # the label agrees
    assert _extract(example_id) == []


@pytest.mark.parametrize("example_id,clause", HARD_POSITIVES.values(), ids=HARD_POSITIVES.keys())
def test_the_extractor_keeps_a_hard_positive_in_the_writers_words(
    example_id: str, clause: str
) -> None:
    kept = _extract(example_id)
    assert any(clause in k.text for k in kept), [k.text for k in kept]
    message = _dev()[example_id].text.lower()
    for k in kept:  # a clause of the message, not a paraphrase
        assert k.text.lower().rstrip(".") in message


def test_a_fact_in_a_question_prefix_becomes_a_first_person_statement() -> None:
    (kept,) = _extract("d167")  # "As a type 2 diabetic, is it ok for me to eat mango?"
    assert kept.text == "I'm a type 2 diabetic"


def test_a_clause_that_points_back_stays_with_what_it_points_at() -> None:
    kept = _extract("d141")  # "..., so I'm not squeamish about any of this."
    assert [k.text for k in kept] == [
        "I grew up on a farm in Iowa, so I'm not squeamish about any of this."
    ]


def test_the_vector_handed_to_the_import_is_the_embedding_of_the_memory_text() -> None:
    (kept,) = _extract("d046")
    expected = get_embedder().embed([kept.text])[0]
    assert np.allclose(kept.vector, expected, atol=1e-5)


def test_a_self_statement_in_another_language_is_kept_whole_and_a_request_is_dropped() -> None:
    for example_id in ("d161", "d163", "d165", "d314"):  # es, fr, de, ru self-statements
        (kept,) = _extract(example_id)
        assert kept.whole and kept.text == _dev()[example_id].text
    for example_id in ("d162", "d164", "d166", "d236", "d315", "d317"):  # requests, a mood
        assert _extract(example_id) == [], example_id


@pytest.mark.slow
def test_the_dev_set_meets_the_aim_at_message_level() -> None:
    """The floor the issue sets (precision >= 0.85, recall >= 0.75); bench extract has figures."""
    examples = list(_dev().values())
    kept = local_extractor().extract([e.text for e in examples])
    scores = message_scores([e.fact_bearing for e in examples], [bool(k) for k in kept])
    assert scores["precision"] >= 0.85 and scores["recall"] >= 0.75, scores


@pytest.mark.slow
def test_the_dev_set_meets_the_aim_on_dev2_read_conversation_by_conversation() -> None:
    """Issue 25's floor on the independently written dev set (precision >= 0.92, recall >= 0.90),
    each message read in its conversation as an import reads it; bench extract has figures."""
    examples = load(SPLITS["dev2"])
    kept = local_extractor().extract(turns(examples))
    scores = message_scores([e.fact_bearing for e in examples], [bool(k) for k in kept])
    assert scores["precision"] >= 0.92 and scores["recall"] >= 0.90, scores


def test_the_labelled_sets_are_large_and_mixed_enough() -> None:
    dev, heldout = load(SPLITS["dev"]), load(SPLITS["heldout"])
    assert len(dev) >= 300 and len(heldout) >= 100
    for examples in (dev, heldout):
        assert sum(not e.fact_bearing for e in examples) / len(examples) >= 0.4
    assert not {e.text for e in dev} & {e.text for e in heldout}


def _index(*texts: str) -> RepeatIndex[str]:
    index: RepeatIndex[str] = RepeatIndex()
    for text, vector in zip(texts, get_embedder().embed(list(texts)), strict=True):
        index.add(text, text, vector)
    return index


def _repeats(index: RepeatIndex[str], text: str) -> str | None:
    return index.find(text, get_embedder().embed([text])[0])


def test_a_rewording_that_adds_nothing_repeats_the_earlier_memory() -> None:
    index = _index("I am a vegetarian", "I'm vegetarian and I live in Lisbon")
    assert _repeats(index, "i'm vegetarian btw") == "I am a vegetarian"  # the earliest
    assert _repeats(index, "I'm Vegetarian!") == "I am a vegetarian"


def test_a_different_number_a_negation_or_a_new_detail_is_not_a_repeat() -> None:
    index = _index("I have two kids", "I eat meat", "I live in Berlin")
    assert _repeats(index, "I have three kids") is None  # cosine 0.92, still another fact
    assert _repeats(index, "I don't eat meat") is None
    assert _repeats(index, "I live in Berlin with my partner") is None


def test_repeats_are_found_among_many_memories() -> None:
    facts = [f"My favourite number is {n}" for n in range(30)]
    index = _index("I am a vegetarian", *facts, "I'm a vegetarian too")
    assert _repeats(index, "I'm vegetarian") == "I am a vegetarian"
    assert _repeats(index, "my favourite number is 29") == "My favourite number is 29"
    assert _repeats(index, "My favourite number is 31") is None
