"""Importing with the local extractor: only what the person said about themselves, once, with
provenance; every examined message is in the manifest; a fact said in many chats is one memory."""

# ruff: noqa: RUF001 - Chinese text is written with its own punctuation

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from memories.models import Memory
from memories.services.changing import memory_set_state
from memories.services.deleting import memory_delete
from memories.transfer_models import ImportedConversation, ImportRun
from tests.memories.exports import backfill, claude_message, memory_texts, write_json


def _conversation(cid: str, created: str, *texts: str, title: str = "") -> dict[str, Any]:
    messages = []
    for index, text in enumerate(texts):
        messages.append(claude_message(f"{cid}-u{index}", "human", text, created_at=created))
        messages.append(claude_message(f"{cid}-a{index}", "assistant", "Sure.", created_at=created))
    return {"uuid": cid, "name": title or cid, "created_at": created, "chat_messages": messages}


def _export() -> list[dict[str, Any]]:
    return [
        _conversation(
            "c-dinner",
            "2024-03-01T10:00:00Z",
            "I'm a nurse and I live in Leeds with my wife. Can you suggest a quick dinner?",
            "make it shorter",
            "fix this:\n```\nprint('I am a robot')\n```",
            title="Dinner ideas",
        ),
        _conversation("c-poem", "2024-03-02T10:00:00Z", "write a poem about autumn"),
    ]


def test_local_keeps_only_what_the_person_said_about_themselves_with_provenance(
    owner: User, tmp_path: Path
) -> None:
    path = write_json(tmp_path / "conversations.json", _export())
    summary = backfill(path, owner, "--extractor", "local", "--yes")
    # One message, two facts, two memories in its own words.
    assert memory_texts(owner) == ["I live in Leeds with my wife.", "I'm a nurse"]
    assert "Local extractor: 4 of your messages examined, 1 kept." in summary
    memory = Memory.objects.get(owner=owner, text="I'm a nurse")
    assert memory.origin == "import" and memory.origin_app_name == "Claude import"
    assert memory.created_at.isoformat() == "2024-03-01T10:00:00+00:00"
    prov = memory.provenance
    assert (prov["source"], prov["conversation_id"], prov["message_id"]) == (
        "claude",
        "c-dinner",
        "c-dinner-u0",
    )
    assert prov["conversation_title"] == "Dinner ideas" and prov["extractor"] == "local"
    assert prov["message_created_at"] == "2024-03-01T10:00:00+00:00"
    assert "mentions" not in prov  # said once
    assert memory.categories  # classified locally like any import
    run = ImportRun.objects.get(owner=owner)
    assert (run.extractor, run.messages_examined, run.messages_kept) == ("local", 4, 1)


def test_the_manifest_records_every_examined_message_so_a_rerun_adds_nothing(
    owner: User, tmp_path: Path
) -> None:
    export = _export()
    path = write_json(tmp_path / "conversations.json", export)
    backfill(path, owner, "--extractor", "local", "--yes")
    manifest = ImportedConversation.objects.get(owner=owner, conversation_id="c-dinner")
    assert manifest.message_ids == ["c-dinner-u0", "c-dinner-u1", "c-dinner-u2"]
    before = sorted(Memory.objects.values_list("id", flat=True))
    assert "Imported 0, skipped 2 as already imported" in backfill(
        path, owner, "--extractor", "local", "--yes"
    )
    # A conversation that grew is read again for its new message only.
    export[1]["chat_messages"].append(
        claude_message("c-poem-u9", "human", "I have two cats, Miso and Tofu.")
    )
    write_json(path, export)
    summary = backfill(path, owner, "--extractor", "local", "--yes")
    assert "Imported 1, skipped 1" in summary
    assert "1 of your messages examined, 1 kept" in summary
    new = Memory.objects.exclude(id__in=before)
    assert [m.text for m in new] == ["I have two cats, Miso and Tofu."]
    assert sorted(Memory.objects.filter(id__in=before).values_list("id", flat=True)) == before


def test_a_fact_said_in_several_chats_is_one_memory_the_earliest_with_the_count(
    owner: User, tmp_path: Path
) -> None:
    export = [
        # Listed first, said last: the file's order is not the order things were said in.
        _conversation("c-late", "2024-06-01T09:00:00Z", "i'm vegetarian btw, any pasta ideas?"),
        _conversation("c-early", "2023-01-15T09:00:00Z", "I am a vegetarian. What is tofu?"),
        _conversation(
            "c-mid", "2024-02-01T09:00:00Z", "I'm vegetarian!", "I'm a vegetarian, so no fish."
        ),
    ]
    path = write_json(tmp_path / "conversations.json", export)
    summary = backfill(path, owner, "--extractor", "local", "--yes")
    (memory,) = Memory.objects.filter(owner=owner)
    assert memory.text == "I am a vegetarian."
    assert memory.provenance["conversation_id"] == "c-early"
    assert memory.created_at.isoformat() == "2023-01-15T09:00:00+00:00"
    assert memory.provenance["mentions"] == 4
    places = memory.metadata["also_said_in"]
    assert [p["message_id"] for p in places] == ["c-mid-u0", "c-mid-u1", "c-late-u0"]
    assert places[0]["message_created_at"] == "2024-02-01T09:00:00+00:00"
    assert "Memories: 1 new, 3 already known" in summary
    assert "4 of your messages examined, 4 kept" in summary
    assert AccessEvent.objects.filter(owner=owner, action="update").exists()


def test_a_later_import_counts_a_repeat_on_the_memory_it_already_made(
    owner: User, tmp_path: Path
) -> None:
    first = write_json(
        tmp_path / "one.json",
        [_conversation("c-1", "2024-01-01T00:00:00Z", "I work as a carpenter in Cork.")],
    )
    backfill(first, owner, "--extractor", "local", "--yes")
    second = write_json(
        tmp_path / "two.json",
        [_conversation("c-2", "2024-05-01T00:00:00Z", "I work as a carpenter in Cork")],
    )
    backfill(second, owner, "--extractor", "local", "--yes")
    (memory,) = Memory.objects.filter(owner=owner)
    assert memory.provenance["conversation_id"] == "c-1"
    assert memory.provenance["mentions"] == 2


def test_a_repeat_does_not_bring_back_a_memory_the_person_archived_or_deleted(
    owner: User, owner_dash: Actor, tmp_path: Path
) -> None:
    first = write_json(
        tmp_path / "one.json",
        [
            _conversation(
                "c-1", "2024-01-01T00:00:00Z", "I live in Berlin.", "I'm a smoker.", "I'm 40."
            )
        ],
    )
    backfill(first, owner, "--extractor", "local", "--yes")
    berlin = Memory.objects.get(owner=owner, text="I live in Berlin.")
    memory_set_state(actor=owner_dash, memory_ids=[berlin.id], state="archived")
    smoker = Memory.objects.get(owner=owner, text="I'm a smoker.")
    memory_delete(actor=owner_dash, memory_id=smoker.id)
    ImportedConversation.objects.all().delete()  # even with the manifest gone
    second = write_json(
        tmp_path / "two.json",
        [_conversation("c-2", "2024-05-01T00:00:00Z", "I live in Berlin")],
    )
    backfill(second, owner, "--extractor", "local", "--yes")
    backfill(first, owner, "--extractor", "local", "--yes")
    assert memory_texts(owner) == ["I live in Berlin.", "I'm 40."]
    berlin.refresh_from_db()
    assert berlin.state == "archived"


def test_auto_picks_local_without_an_llm_and_the_dry_run_shows_what_it_would_keep(
    owner: User, tmp_path: Path
) -> None:
    path = write_json(tmp_path / "conversations.json", _export())
    output = backfill(path, owner)
    assert "extractor local; nothing leaves this server." in output and "cost" not in output
    assert (
        "Would keep 1 of your 4 messages, as 2 memories (all of them read). For example:\n"
        "  - I'm a nurse\n"
        "  - I live in Leeds with my wife.\n"
    ) in output
    assert "Dry run: nothing was imported" in output
    assert not Memory.objects.exists() and not ImportRun.objects.exists()


def test_the_dry_run_estimates_from_a_sample_of_a_large_export(
    owner: User, tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memories.services import import_check

    monkeypatch.setattr(import_check, "ESTIMATE_SAMPLE", 4)
    export = [
        _conversation(f"c-{n}", "2024-01-01T00:00:00Z", text)
        for n, text in enumerate(["I'm a pilot.", "write a haiku"] * 5)
    ]
    path = write_json(tmp_path / "conversations.json", export)
    output = backfill(path, owner, "--extractor", "local")
    # 2 of the 4 messages read are kept (one fact, said twice): about half of the 10, and
    # the distinct memories scaled the same way (2.5, rounded half to even).
    assert "Would keep 5 of your 10 messages, as 2 memories (estimated on 4 of them)." in output


def test_none_still_makes_every_message_a_memory(owner: User, tmp_path: Path) -> None:
    path = write_json(tmp_path / "conversations.json", _export())
    backfill(path, owner, "--extractor", "none", "--yes")
    assert len(memory_texts(owner)) == 4
    run = ImportRun.objects.get(owner=owner)
    assert (run.extractor, run.messages_examined) == ("none", 0)


def test_llm_without_an_llm_keeps_the_command_line_wording(owner: User, tmp_path: Path) -> None:
    path = write_json(tmp_path / "conversations.json", _export())
    with pytest.raises(CommandError, match=r"^--extractor llm needs an LLM: set EXTRACTION_MODE"):
        backfill(path, owner, "--extractor", "llm")


def test_an_import_reads_a_later_message_against_the_earlier_ones_of_its_conversation(
    owner: User, tmp_path: Path
) -> None:
    """ "His name is Theo" says who only after "my son"; in another chat it says nothing."""
    export = [
        _conversation(
            "c-school",
            "2024-03-01T10:00:00Z",
            "My son is doing his GCSEs this year.",
            "His name is Theo.",
        ),
        _conversation("c-other", "2024-03-02T10:00:00Z", "His name is Felix."),
    ]
    path = write_json(tmp_path / "conversations.json", export)
    backfill(path, owner, "--extractor", "local", "--yes")
    texts = memory_texts(owner)
    assert "My son is called Theo." in texts
    assert not any("Felix" in text for text in texts)
    memory = Memory.objects.get(owner=owner, text="My son is called Theo.")
    assert memory.provenance["message_id"] == "c-school-u1"


def test_an_import_keeps_a_fragment_that_goes_on_about_the_persons_previous_message(
    owner: User, tmp_path: Path
) -> None:
    """ "Two hives at the back of the plot…" says what only after the message before it; alone,
    in another chat, it says nothing."""
    export = [
        _conversation(
            "c-bees",
            "2024-03-01T10:00:00Z",
            "We keep bees on our allotment outside Bristol.",
            "Two hives at the back of the plot, mostly for the honey.",
        ),
        _conversation(
            "c-alone", "2024-03-02T10:00:00Z", "Three hives by the heather, mostly for the honey."
        ),
    ]
    path = write_json(tmp_path / "conversations.json", export)
    backfill(path, owner, "--extractor", "local", "--yes")
    texts = memory_texts(owner)
    going_on = [text for text in texts if "two hives" in text.lower()]
    assert going_on and "Bristol" in going_on[0]
    assert not any("heather" in text for text in texts)
    memory = Memory.objects.get(owner=owner, text=going_on[0])
    assert memory.provenance["message_id"] == "c-bees-u1"


def test_the_dry_run_says_plainly_when_many_messages_are_in_a_language_local_reads_poorly(
    owner: User, tmp_path: Path
) -> None:
    path = write_json(
        tmp_path / "conversations.json",
        [
            _conversation(
                "c-zh",
                "2024-03-01T10:00:00Z",
                "我对青霉素过敏，感冒了可以吃阿莫西林吗？",
                "我们家上个月领养了一只三花猫，叫年糕！",
                title="猫",
            ),
            _conversation(
                "c-de",
                "2024-03-02T10:00:00Z",
                "Wir haben uns letzte Woche verlobt und planen die Hochzeit im Mai.",
            ),
            _conversation("c-en", "2024-03-03T10:00:00Z", "I'm a nurse and I live in Leeds."),
        ],
    )
    output = backfill(path, owner, "--extractor", "local")
    assert "3 of your 4 messages are not in English: Chinese (2), German (1)." in output
    assert "choose None (one memory per message)" in output and "(--extractor none)" in output
    assert not Memory.objects.exists()


def test_the_dry_run_of_an_english_history_says_nothing_about_languages(
    owner: User, tmp_path: Path
) -> None:
    output = backfill(write_json(tmp_path / "conversations.json", _export()), owner)
    assert "not in English" not in output
