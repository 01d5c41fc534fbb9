"""The independently written extractor sets (dev2, tuned on; outside, never tuned on; fresh, a
dev part and a held-out part) keep the shape issues 25 and 38 ask of them: their sizes, a pos/neg
tag that agrees with every label, each kind of hard message often enough to count, conversations
that give fragments their context, and (fresh) a split fixed on every record."""

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from bench.extract import SPLITS, Example, asked, load, load_split

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
SETS = {"dev2": (620, 30), "outside": (220, 10), "fresh": (640, 30)}
FILES = {"dev2": SPLITS["dev2"], "outside": SPLITS["outside"], "fresh": SPLITS["fresh-dev"]}


@pytest.fixture(scope="module")
def sets() -> dict[str, list[Example]]:
    return {name: load(FILES[name]) for name in SETS}


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


@pytest.mark.parametrize("name", ["outside", "fresh"])
def test_an_independent_set_shares_no_message_or_conversation_with_the_others(
    sets: dict[str, list[Example]], name: str
) -> None:
    independent = sets[name]
    others = [e for other, examples in sets.items() if other != name for e in examples]
    tuned = others + load(SPLITS["dev"]) + load(SPLITS["heldout"])
    assert {e.text for e in independent} & {e.text for e in tuned} == set()
    assert {e.id for e in independent} & {e.id for e in tuned} == set()
    conversations = {e.conversation for e in independent if e.conversation}
    assert conversations & {e.conversation for e in tuned if e.conversation} == set()


def test_the_fresh_set_has_its_split_on_every_record_and_a_third_held_out(
    sets: dict[str, list[Example]],
) -> None:
    fresh = sets["fresh"]
    assert all(e.tags[-1] in ("dev", "heldout") for e in fresh)
    assert all(("dev" in e.tags) != ("heldout" in e.tags) for e in fresh)
    parts = {e.conversation: e.tags[-1] for e in fresh if e.conversation}
    assert all(parts[e.conversation] == e.tags[-1] for e in fresh if e.conversation)
    dev, heldout = load_split("fresh-dev"), load_split("fresh-heldout")
    assert len(dev) + len(heldout) == len(fresh)
    assert 0.28 <= len(heldout) / len(fresh) <= 0.36
    languages = {t for e in heldout for t in e.tags if t.startswith("lang-")}
    assert len(languages) == 7
    assert sum(any(t.startswith("lang-") for t in e.tags) for e in fresh) / len(fresh) >= 0.08
    assert sum(bool(e.previous) for e in fresh) >= 10


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


def test_prev_lines_become_the_records_context_not_its_text(tmp_path: Path) -> None:
    path = tmp_path / "set.txt"
    path.write_text(
        "%% b1 pos fragment\n%prev assistant: What kind of bike do you ride?\n"
        "gravel bike, a Canyon\n%fact I ride a Canyon gravel bike\n\n"
        "%% b2 neg\n%conversation c1 | Bikes\n%prev user: hi\n%prev assistant: Hello!\n"
        "thanks: bye\n%none\n"
    )
    answer, bye = load(path)
    assert answer.previous == (("assistant", "What kind of bike do you ride?"),)
    assert answer.text == "gravel bike, a Canyon"
    assert bye.previous == (("user", "hi"), ("assistant", "Hello!"))
    assert (bye.conversation, bye.text) == ("c1", "thanks: bye")
    path.write_text("%% b3 neg\n%prev narrator: once upon a time\nhi\n%none\n")
    with pytest.raises(ValueError, match="bad %prev line"):
        load(path)


def test_the_context_set_has_its_split_on_every_record_and_shares_no_message(
    sets: dict[str, list[Example]],
) -> None:
    context = load(SPLITS["context-dev"])
    assert len(context) >= 100
    assert all(e.tags[-1] in ("dev", "heldout") for e in context)
    heldout = load_split("context-heldout")
    assert len(load_split("context-dev")) + len(heldout) == len(context)
    assert 0.28 <= len(heldout) / len(context) <= 0.36
    assert sum(bool(e.previous) for e in context) >= 50
    others = [e for examples in sets.values() for e in examples]
    others += load(SPLITS["dev"]) + load(SPLITS["heldout"])
    assert {e.text for e in context} & {e.text for e in others} == set()
    assert {e.id for e in context} & {e.id for e in others} == set()


def test_the_extractor_is_handed_the_assistants_message_just_before_a_record_only() -> None:
    said = (("user", "hi"), ("assistant", "What do you do for a living?"))
    assert asked(said) == "What do you do for a living?"
    assert asked((*said, ("user", "one more thing"))) == ""
    assert asked(()) == ""


def test_the_recall_set_holds_a_third_out_by_position_and_speaks_every_claimed_language(
    sets: dict[str, list[Example]],
) -> None:
    recall = load(SPLITS["recall-dev"])
    assert len(recall) >= 60
    assert [e.tags[-1] for e in recall] == [
        "heldout" if i % 3 == 2 else "dev" for i in range(len(recall))
    ]
    assert len(load_split("recall-dev")) + len(load_split("recall-heldout")) == len(recall)
    languages = {t for e in recall for t in e.tags if t.startswith("lang-")}
    assert languages == {f"lang-{c}" for c in ("zh", "ja", "de", "es", "fr", "pt", "ru")}
    assert sum(bool(e.previous) for e in recall) >= 20  # answers to the assistant's question
    others = [e for examples in sets.values() for e in examples]
    others += load(SPLITS["dev"]) + load(SPLITS["heldout"]) + load(SPLITS["context-dev"])
    assert {e.text for e in recall} & {e.text for e in others} == set()
    assert {e.id for e in recall} & {e.id for e in others} == set()


def test_the_voices_set_holds_a_third_out_by_hash_and_speaks_every_claimed_language(
    sets: dict[str, list[Example]],
) -> None:
    voices = load(SPLITS["voices-dev"])
    assert len(voices) >= 200

    def held_out(example: Example) -> bool:
        key = (example.conversation or example.id).encode()
        return int(hashlib.sha256(key).hexdigest(), 16) % 3 == 0

    assert [e.tags[-1] for e in voices] == ["heldout" if held_out(e) else "dev" for e in voices]
    assert len(load_split("voices-dev")) + len(load_split("voices-heldout")) == len(voices)
    languages = Counter(t for e in voices for t in e.tags if t.startswith("lang-"))
    assert set(languages) == {f"lang-{c}" for c in ("en", "zh", "ja", "de", "es", "fr", "pt", "ru")}
    assert min(languages.values()) >= 12
    kinds = Counter(t for e in voices for t in e.tags)
    for kind in ("q", "ann", "ppl", "pref", "frag", "multi", "nonnative", "prodrop"):
        assert kinds[kind] >= 8, kind
    assert sum(bool(e.previous) for e in voices) >= 20
    others = [e for examples in sets.values() for e in examples]
    others += load(SPLITS["dev"]) + load(SPLITS["heldout"]) + load(SPLITS["context-dev"])
    others += load(SPLITS["recall-dev"])
    # a short answer ("yes pls", "sí, por favor") may be anyone's; a message is not
    shared = {e.text for e in voices} & {e.text for e in others}
    assert {text for text in shared if len(text) > 20} == set()
    assert {e.id for e in voices} & {e.id for e in others} == set()


def test_the_threads_set_holds_a_third_out_by_hash_and_speaks_every_claimed_language(
    sets: dict[str, list[Example]],
) -> None:
    threads = load(SPLITS["threads-dev"])
    assert len(threads) >= 200

    def held_out(example: Example) -> bool:
        key = (example.conversation or example.id).encode()
        return int(hashlib.sha256(key).hexdigest(), 16) % 3 == 0

    assert [e.tags[-1] for e in threads] == ["heldout" if held_out(e) else "dev" for e in threads]
    assert len(load_split("threads-dev")) + len(load_split("threads-heldout")) == len(threads)
    languages = Counter(t for e in threads for t in e.tags if t.startswith("lang-"))
    assert set(languages) == {f"lang-{c}" for c in ("en", "zh", "ja", "de", "es", "fr", "pt", "ru")}
    assert min(languages.values()) >= 16
    kinds = Counter(t for e in threads for t in e.tags)
    for kind in ("passing", "list", "multi", "frag", "nonnative", "q", "ann", "ppl", "pref"):
        assert kinds[kind] >= 8, kind
    assert sum(bool(e.previous) for e in threads) >= 15  # answers to the assistant's question
    assert sum(bool(e.conversation) for e in threads) >= 40  # fragments after the person's own
    others = [e for examples in sets.values() for e in examples]
    for split in ("dev", "heldout", "context-dev", "recall-dev", "voices-dev"):
        others += load(SPLITS[split])
    shared = {e.text for e in threads} & {e.text for e in others}
    assert {text for text in shared if len(text) > 20} == set()
    assert {e.id for e in threads} & {e.id for e in others} == set()


def test_the_asides_set_holds_a_third_out_by_hash_and_speaks_every_claimed_language(
    sets: dict[str, list[Example]],
) -> None:
    asides = load(SPLITS["asides-dev"])
    assert len(asides) >= 120

    def held_out(example: Example) -> bool:
        key = (example.conversation or example.id).encode()
        return int(hashlib.sha256(key).hexdigest(), 16) % 3 == 0

    assert [e.tags[-1] for e in asides] == ["heldout" if held_out(e) else "dev" for e in asides]
    assert len(load_split("asides-dev")) + len(load_split("asides-heldout")) == len(asides)
    languages = Counter(t for e in asides for t in e.tags if t.startswith("lang-"))
    assert set(languages) == {f"lang-{c}" for c in ("en", "zh", "ja", "de", "es", "fr", "pt", "ru")}
    assert sum(languages.values()) - languages["lang-en"] >= len(asides) / 3
    kinds = Counter(t for e in asides for t in e.tags)
    for kind in ("pref", "ans", "frag", "adv", "prodrop", "family", "passing"):
        assert kinds[kind] >= 8, kind
    assert kinds["clause"] >= 4  # German da / weil
    assert sum(bool(e.previous) for e in asides) >= 20  # answers to the assistant's question
    assert sum(bool(e.conversation) for e in asides) >= 30  # fragments after the person's own
    others = [e for examples in sets.values() for e in examples]
    for split in ("dev", "heldout", "context-dev", "recall-dev", "voices-dev", "threads-dev"):
        others += load(SPLITS[split])
    shared = {e.text for e in asides} & {e.text for e in others}
    assert {text for text in shared if len(text) > 20} == set()
    assert {e.id for e in asides} & {e.id for e in others} == set()


def test_the_ml2_set_holds_a_third_out_by_hash_in_each_of_the_seven_other_languages(
    sets: dict[str, list[Example]],
) -> None:
    ml2 = load(SPLITS["ml2-dev"])
    assert len(ml2) >= 210

    def held_out(example: Example) -> bool:
        key = (example.conversation or example.id).encode()
        return int(hashlib.sha256(key).hexdigest(), 16) % 3 == 0

    assert [e.tags[-1] for e in ml2] == ["heldout" if held_out(e) else "dev" for e in ml2]
    assert len(load_split("ml2-dev")) + len(load_split("ml2-heldout")) == len(ml2)
    assert len(load_split("ml2-heldout")) >= len(ml2) / 4
    languages = Counter(t for e in ml2 for t in e.tags if t.startswith("lang-"))
    others = {f"lang-{c}": 30 for c in ("zh", "ja", "de", "es", "fr", "pt", "ru")}
    assert {lang: n for lang, n in languages.items() if n < 30} == {}
    assert set(languages) == set(others)
    for lang in others:  # facts to keep and messages to drop in every language
        pos = [e for e in ml2 if lang in e.tags and e.fact_bearing]
        assert len(pos) >= 15 and len([e for e in ml2 if lang in e.tags]) - len(pos) >= 10, lang
    kinds = Counter(t for e in ml2 for t in e.tags)
    for kind in ("q", "ann", "ppl", "pref", "multi", "frag", "ans", "code", "paste", "chitchat"):
        assert kinds[kind] >= 7, kind
    assert sum(bool(e.previous) for e in ml2) >= 20  # answers to the assistant's question
    assert sum(bool(e.conversation) for e in ml2) >= 30  # fragments after the person's own
    others_sets = [e for examples in sets.values() for e in examples]
    for split in ("dev", "heldout", "context-dev", "recall-dev", "voices-dev", "threads-dev"):
        others_sets += load(SPLITS[split])
    others_sets += load(SPLITS["asides-dev"])
    shared = {e.text for e in ml2} & {e.text for e in others_sets}
    assert {text for text in shared if len(text) > 20} == set()
    assert {e.id for e in ml2} & {e.id for e in others_sets} == set()
