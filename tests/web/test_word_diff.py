"""The history's word diff does bounded work at the largest memory (issue 14, item 5).

`difflib.SequenceMatcher(autojunk=False)` over versions of `"a " * n` and `"a b " * n` took 50 s
at 2,000 characters and did not finish 5,000 in ten minutes; the limit is 10,000. Work is
counted, not timed: every token comparison goes through a counting token, and the diff must stay
within its budget plus a linear term. The pytest-timeout marks are a generous net only.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from accounts.actors import Actor
from memories.ingest.detect import load_export
from memories.models import Memory, MemoryVersion
from memories.services.adding import memory_create
from memories.services.changing import memory_update
from memories.services.imports import import_execute
from web import presentation
from web.presentation import DiffPart, diff_opcodes, word_diff

LIMIT = 10_000


def _worst_pairs() -> list[tuple[str, str]]:
    rng = random.Random(14)
    words = ["a", "b", "c"]
    return [
        ("a " * (LIMIT // 2), "a b " * (LIMIT // 4)),  # the issue's pair, at the limit
        ("a b " * (LIMIT // 4), "a " * (LIMIT // 2)),
        (
            " ".join(rng.choice(words) for _ in range(LIMIT // 2 - 1)),
            " ".join(rng.choice(words) for _ in range(LIMIT // 2 - 1)),
        ),
        ("x" * LIMIT, "y" * LIMIT),
        ("a, " * (LIMIT // 3), "b; " * (LIMIT // 3)),
    ]


class CountingToken(str):
    """A token whose equality tests are counted: the diff's unit of work."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        CountingToken.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def _tokens(text: str) -> list[CountingToken]:
    return [CountingToken(t) for t in presentation.tokens(text)]


def _rebuilt(parts: list[DiffPart]) -> tuple[str, str]:
    old = "".join(p.text for p in parts if p.op in ("same", "del"))
    new = "".join(p.text for p in parts if p.op in ("same", "ins"))
    return old, new


@pytest.mark.timeout(120)
@pytest.mark.parametrize("pair", range(len(_worst_pairs())))
def test_a_diff_at_the_size_limit_stays_within_its_budget_of_comparisons(pair: int) -> None:
    old, new = _worst_pairs()[pair]
    assert len(old) <= LIMIT and len(new) <= LIMIT
    a, b = _tokens(old), _tokens(new)
    CountingToken.compared = 0
    opcodes = diff_opcodes(a, b)
    # The budget for the search, plus a pass over both sequences to trim and fall back.
    assert CountingToken.compared <= presentation.DIFF_BUDGET + 2 * (len(a) + len(b))
    # Whatever the path, the opcodes account for every token of both texts, in order.
    assert [i for op in opcodes for i in range(op[1], op[2])] == list(range(len(a)))
    assert [j for op in opcodes for j in range(op[3], op[4])] == list(range(len(b)))


@pytest.mark.timeout(120)
def test_the_issues_pair_renders_a_correct_diff_at_the_size_limit() -> None:
    old, new = "a " * (LIMIT // 2), "a b " * (LIMIT // 4)
    parts = word_diff(old, new)
    assert _rebuilt(parts) == (old, new)
    assert len(parts) <= 2 * len(presentation.tokens(new)) + 2


def test_a_small_edit_in_a_long_text_is_still_shown_word_by_word() -> None:
    base = " ".join(f"word{i}" for i in range(1500))  # ~13,000 characters of distinct words
    old = base[:LIMIT]
    new = old.replace("word700", "changed", 1).replace("word900 ", "", 1)
    parts = word_diff(old, new)
    assert _rebuilt(parts) == (old, new)
    assert [p.text.strip() for p in parts if p.op == "del"] == ["word700", "word900"]
    assert [p.text for p in parts if p.op == "ins"] == ["changed"]


def test_a_short_edit_reads_as_before() -> None:
    parts = word_diff("Prefers window seats", "Prefers aisle seats")
    assert parts == [
        DiffPart("same", "Prefers "),
        DiffPart("del", "window"),
        DiffPart("ins", "aisle"),
        DiffPart("same", " seats"),
    ]


@pytest.mark.slow
@pytest.mark.django_db
@pytest.mark.timeout(300)
def test_the_history_page_of_a_memory_edited_at_the_size_limit_answers(
    owner_client: Client, owner_dash: Actor
) -> None:
    memory = memory_create(actor=owner_dash, text="a " * (LIMIT // 2)).memory
    memory_update(actor=owner_dash, memory_id=memory.id, text="a b " * (LIMIT // 4))
    memory_update(actor=owner_dash, memory_id=memory.id, text="b a " * (LIMIT // 4))
    page = owner_client.get(f"/memories/{memory.id}/")
    assert page.status_code == 200
    assert page.content.decode().count("<del>") >= 2


def _export_with_versions(versions: list[str]) -> dict[str, Any]:
    return {
        "format": "context-layer-export",
        "version": 1,
        "memories": [
            {
                "id": "11111111-1111-1111-1111-111111111111",
                "text": "b a " * (LIMIT // 4),
                "created_at": "2024-01-01T00:00:00Z",
                "updated_at": "2024-01-02T00:00:00Z",
                "versions": [
                    {"text": text, "kind": "edit", "created_at": f"2024-01-01T0{i}:00:00Z"}
                    for i, text in enumerate(versions)
                ],
            }
        ],
    }


@pytest.mark.django_db
@pytest.mark.timeout(300)
def test_a_crafted_export_with_worst_case_versions_imports_and_its_page_answers(
    owner_client: Client, owner_dash: Actor, tmp_path: Path
) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(_export_with_versions(["a " * (LIMIT // 2), "a b " * (LIMIT // 4)])))
    import_execute(actor=owner_dash, export=load_export(path, "contextlayer"))
    memory = Memory.objects.get(owner=owner_dash.user)
    assert MemoryVersion.objects.filter(memory=memory).count() == 2
    assert owner_client.get(f"/memories/{memory.id}/").status_code == 200


@pytest.mark.django_db
def test_an_export_whose_version_is_longer_than_a_memory_may_be_is_refused(
    owner_dash: Actor, tmp_path: Path
) -> None:
    from kernel.errors import InvalidInput

    path = tmp_path / "export.json"
    too_long = "a" * (settings.MEMORY_MAX_CHARS + 1)
    path.write_text(json.dumps(_export_with_versions([too_long])))
    with pytest.raises(InvalidInput, match=r"versions\[0\]"):
        import_execute(actor=owner_dash, export=load_export(path, "contextlayer"))
    assert not Memory.objects.filter(owner=owner_dash.user).exists()
