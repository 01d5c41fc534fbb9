"""The independently written extractor sets (dev2, tuned on; outside, never tuned on) keep the
shape issue 25 asks of them: their sizes, a pos/neg tag that agrees with every label, each kind
of hard message often enough to count, and conversations that give fragments their context."""

from collections import Counter
from pathlib import Path

import pytest

from bench.extract import SPLITS, Example, load

# The kinds issue 25 names, and how often each must appear (dev2, outside).
KINDS = (
    "question-fact",
    "announcement",
    "preference",
    "people",
    "fragment",
    "code",
    "essay",
    "multi",
    "non-native",
    "chitchat",
    "request",
    "temporary",
)
SETS = {"dev2": (620, 30), "outside": (220, 10)}


@pytest.fixture(scope="module")
def sets() -> dict[str, list[Example]]:
    return {name: load(SPLITS[name]) for name in SETS}


@pytest.mark.parametrize("name", SETS)
def test_each_set_is_as_large_as_the_issue_asks(sets: dict[str, list[Example]], name: str) -> None:
    assert len(sets[name]) >= SETS[name][0]


@pytest.mark.parametrize("name", SETS)
def test_every_record_is_tagged_pos_or_neg_as_its_labels_say(
    sets: dict[str, list[Example]], name: str
) -> None:
    for example in sets[name]:
        kind = "pos" if example.facts else "neg"
        other = "neg" if example.facts else "pos"
        assert kind in example.tags and other not in example.tags, example.id
        assert all(fact.strip() for fact in example.facts), example.id


@pytest.mark.parametrize("name", SETS)
def test_each_hard_kind_appears_often_enough_to_count(
    sets: dict[str, list[Example]], name: str
) -> None:
    counts = Counter(tag for example in sets[name] for tag in example.tags)
    assert {kind: counts[kind] for kind in KINDS if counts[kind] < SETS[name][1]} == {}
    assert any(tag.startswith("lang-") for tag in counts)
    assert 0.45 <= counts["pos"] / len(sets[name]) <= 0.56


@pytest.mark.parametrize("name", SETS)
def test_conversations_are_short_titled_and_hold_a_third_of_the_records(
    sets: dict[str, list[Example]], name: str
) -> None:
    examples = sets[name]
    sizes = Counter(e.conversation for e in examples if e.conversation)
    assert sum(sizes.values()) >= 0.3 * len(examples)
    assert {c: n for c, n in sizes.items() if not 2 <= n <= 6} == {}
    titles = {(e.conversation, e.title) for e in examples if e.conversation}
    assert len(titles) == len(sizes) and all(title for _, title in titles)
    assert not any(e.text.startswith("%conversation") for e in examples)


def test_the_outside_set_shares_no_message_or_conversation_with_the_dev_sets(
    sets: dict[str, list[Example]],
) -> None:
    outside = sets["outside"]
    tuned = sets["dev2"] + load(SPLITS["dev"]) + load(SPLITS["heldout"])
    assert {e.text for e in outside} & {e.text for e in tuned} == set()
    assert {e.id for e in outside} & {e.id for e in tuned} == set()
    outside_conversations = {e.conversation for e in outside if e.conversation}
    assert outside_conversations & {e.conversation for e in tuned if e.conversation} == set()


def test_a_conversation_line_becomes_the_records_context_not_its_text(tmp_path: Path) -> None:
    path = tmp_path / "set.txt"
    path.write_text(
        "# comment\n\n"
        "%% a1 pos\n%conversation c1 | Pottery side income\nI sell pottery on Etsy.\n"
        "%fact I sell pottery on Etsy\n\n"
        "%% a2 pos fragment\n%conversation c1 | Pottery side income\n"
        "I earn maybe 8k a year from it.\n%fact I earn about 8k a year from selling pottery\n\n"
        "%% a3 neg\nwrite a haiku\n%none\n"
    )
    first, second, alone = load(path)
    assert (first.conversation, first.title) == ("c1", "Pottery side income")
    assert second.conversation == "c1" and second.text == "I earn maybe 8k a year from it."
    assert alone.conversation is None and alone.title == ""
