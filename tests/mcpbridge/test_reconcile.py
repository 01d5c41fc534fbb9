"""Local reconciliation through the real MCP SDK client over HTTP: an app writes a fact and later
a changed one, a restatement or a look-alike, and reads back what is current (no LLM)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import Memory, MemoryProposal, MemoryVersion
from memories.services import adding, marks, text_changes
from tests.mcpbridge.mcp_clients import McpHttp, text_of


@pytest.fixture(autouse=True)
def reconcile_on(settings: SettingsWrapper) -> None:
    """Local reconciliation is off by default (settings.RECONCILE_LOCAL); these tests turn it on."""
    settings.RECONCILE_LOCAL = True


pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

OLD_JOB = "I work as a backend engineer at Acme Logistics."
NEW_JOB = "I just started a new job as a staff engineer at Finch Robotics."


def _listed(mcp: McpHttp) -> list[str]:
    listed = mcp.call("list_memories", {})
    assert not listed.is_error, text_of(listed)
    return [m["text"] for m in listed.structured_content["memories"]]


def test_a_new_job_replaces_the_old_one_which_stays_in_history_and_can_be_restored(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    mcp = mcp_for(owner)
    assert not mcp.call("add_memory", {"text": OLD_JOB}).is_error
    added = mcp.call("add_memory", {"text": NEW_JOB})
    assert not added.is_error and added.structured_content["created"] == 1

    assert _listed(mcp) == [NEW_JOB]
    found = mcp.call("search_memory", {"query": "job"}).structured_content["results"]
    assert [m["text"] for m in found] == [NEW_JOB]
    old = Memory.objects.get(owner=owner, text=OLD_JOB)
    new = Memory.objects.get(owner=owner, text=NEW_JOB)
    assert old.superseded_by_id == new.id
    [version] = MemoryVersion.objects.filter(memory=new)
    assert version.kind == MemoryVersion.Kind.SUPERSEDE and version.text == OLD_JOB

    # Undo: the owner brings the old text back from the newer memory's history.
    text_changes.memory_restore_version(
        actor=owner_actor(owner), memory_id=new.id, version_id=version.pk
    )
    assert _listed(mcp) == [OLD_JOB]


def test_a_restatement_is_one_memory_keeping_the_new_wording(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    mcp = mcp_for(owner)
    first = mcp.call("add_memory", {"text": "My brother Jonas is an architect."})
    again = mcp.call("add_memory", {"text": "Jonas, my brother, works as an architect."})
    assert again.structured_content["created"] == 0
    assert (
        again.structured_content["memories"][0]["id"]
        == first.structured_content["memories"][0]["id"]
    )
    assert _listed(mcp) == ["My brother Jonas is an architect."]
    kept = Memory.objects.get(owner=owner)
    assert [r["text"] for r in kept.metadata["restated_as"]] == [
        "Jonas, my brother, works as an architect."
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The user is allergic to peanuts.", "I'm allergic to peanuts."),
        ("Meine Tochter Lea ist sechs.", "Lea, meine Tochter, ist 6 Jahre alt."),
        ("私はベジタリアンです。", "肉は食べません。"),
        ("我住在北京。", "I live in Beijing."),
    ],
)
def test_a_restatement_in_other_words_or_another_language_is_the_stored_memory(
    owner: User, mcp_for: Callable[..., McpHttp], old: str, new: str
) -> None:
    mcp = mcp_for(owner)
    first = mcp.call("add_memory", {"text": old}).structured_content
    again = mcp.call("add_memory", {"text": new}).structured_content
    assert again["created"] == 0
    assert again["memories"][0]["id"] == first["memories"][0]["id"]
    assert _listed(mcp) == [old]


def test_a_new_phone_replaces_the_old_one_though_they_share_no_word(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    mcp = mcp_for(owner)
    mcp.call("add_memory", {"text": "My phone is a Pixel 7."})
    mcp.call("add_memory", {"text": "I switched to an iPhone 15 last month."})
    assert _listed(mcp) == ["I switched to an iPhone 15 last month."]
    found = mcp.call("search_memory", {"query": "phone"}).structured_content["results"]
    assert [m["text"] for m in found] == ["I switched to an iPhone 15 last month."]


def test_a_sister_and_a_brother_stay_two_memories(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    mcp = mcp_for(owner)
    mcp.call("add_memory", {"text": "My sister lives in Leeds."})
    mcp.call("add_memory", {"text": "My brother lives in Leeds."})
    assert sorted(_listed(mcp)) == ["My brother lives in Leeds.", "My sister lives in Leeds."]
    assert not MemoryProposal.objects.filter(owner=owner).exists()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Ich arbeite bei Siemens.", "Ich habe bei Siemens gekündigt und arbeite jetzt bei Bosch."),
        ("我在阿里巴巴工作。", "我离职了，现在在腾讯工作。"),  # noqa: RUF001
    ],
)
def test_a_german_or_chinese_update_replaces_the_old_fact(
    owner: User, mcp_for: Callable[..., McpHttp], old: str, new: str
) -> None:
    mcp = mcp_for(owner)
    mcp.call("add_memory", {"text": old})
    mcp.call("add_memory", {"text": new})
    assert _listed(mcp) == [new]
    replaced = Memory.objects.get(owner=owner, text=old)
    assert replaced.superseded_by is not None and replaced.superseded_by.text == new


def test_an_app_is_never_answered_with_a_memory_it_may_not_see(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    """A private memory of the owner's is as if absent: the app's update of it is stored as new,
    and the private memory is neither replaced nor named."""
    dash = owner_actor(owner)
    hidden = adding.memory_create(actor=dash, text=OLD_JOB).memory
    marks.memory_set_private_many(actor=dash, memory_ids=[hidden.id], private=True)
    mcp = mcp_for(owner)
    added = mcp.call("add_memory", {"text": NEW_JOB})
    assert added.structured_content["created"] == 1
    assert str(hidden.id) not in text_of(added)
    hidden.refresh_from_db()
    assert hidden.superseded_by_id is None
    assert _listed(mcp) == [NEW_JOB]


def test_batch_adds_report_what_was_stored_and_what_waits_for_the_owner(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    mcp = mcp_for(owner)
    mcp.call("add_memory", {"text": "I work at Acme Logistics."})
    answer = mcp.call(
        "add_memories",
        {"texts": ["I work at Acme Logistics.", "My cat is called Miso."]},
    ).structured_content
    assert answer["created"] == 1 and answer["already_known"] == 1
    assert not answer.get("pending")


def test_two_texts_of_one_batch_restating_each_other_are_one_memory(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    """Within a batch too: the later wording is answered with the earlier one's memory."""
    mcp = mcp_for(owner)
    answer = mcp.call(
        "add_memories",
        {
            "texts": [
                "My brother Jonas is an architect.",
                "Jonas, my brother, works as an architect.",
                "Meine Katze heißt Miso.",
            ]
        },
    ).structured_content
    assert answer["created"] == 2 and answer["already_known"] == 1
    assert sorted(_listed(mcp)) == ["Meine Katze heißt Miso.", "My brother Jonas is an architect."]


def test_a_later_text_of_one_batch_replaces_the_earlier_one_it_updates(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    mcp = mcp_for(owner)
    mcp.call("add_memories", {"texts": [OLD_JOB, NEW_JOB]})
    assert _listed(mcp) == [NEW_JOB]
    old = Memory.objects.get(owner=owner, text=OLD_JOB)
    assert old.superseded_by is not None and old.superseded_by.text == NEW_JOB


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Our team lead is reading about a used Volvo.", "Our coach is reading about a Volvo."),
        ("Meine Mutter wohnt in Graz.", "Meine Schwiegermutter wohnt in Graz."),
        ("我的室友会拉大提琴。", "我的邻居会拉大提琴。"),
        ("兄は銀行で働いています。", "義兄は銀行で働いています。"),
        ("I'm a nurse.", "Tom is a nurse."),
        ("我是护士。", "她是护士。"),
    ],
)
def test_another_persons_look_alike_fact_is_stored_beside_the_first_never_merged(
    owner: User, mcp_for: Callable[..., McpHttp], old: str, new: str
) -> None:
    mcp = mcp_for(owner)
    mcp.call("add_memory", {"text": old})
    added = mcp.call("add_memory", {"text": new})
    assert added.structured_content["created"] == 1
    assert sorted(_listed(mcp)) == sorted([old, new])
    assert not Memory.objects.filter(owner=owner, superseded_by__isnull=False).exists()
    assert not MemoryProposal.objects.filter(owner=owner).exists()
