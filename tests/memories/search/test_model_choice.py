"""A person chooses the model their own memories are searched with (issue 36): on a server that
runs the English model, one who writes Chinese moves to the multilingual one alone, search keeps
answering during the move, the choice outlives the operator's change of the server's model, and
choosing back stops a move. Only the owner chooses; an app never can."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from kernel.errors import InvalidInput, OwnerOnly
from memories.models import Memory, SearchModel, StagedVector
from memories.selectors.search_model import search_model_state
from memories.services import maintenance
from memories.services.search_model import search_model_choose
from memories.tasks import move_embeddings
from tests.memories.model_moves import (
    E5_MODEL,
    MINILM_MODEL,
    PEANUTS,
    STORE,
    finds_across_languages,
    finds_by_meaning,
    live_model,
    store,
)
from tests.personas import signed_in

pytestmark = pytest.mark.usefixtures("fresh_indexes")


def test_an_owner_who_chooses_many_languages_moves_alone_and_then_finds_across_languages(
    owner: User, owner_dash: Actor, stranger: User, stranger_dash: Actor
) -> None:
    store(owner_dash)
    store(stranger_dash, STORE[:4])
    assert not maintenance.move_needed()

    assert search_model_choose(actor=owner_dash, model=E5_MODEL) is True
    assert maintenance.move_needed()
    state = search_model_state(actor=owner_dash)
    assert (state.live, state.moving_to, state.chosen) == (MINILM_MODEL, E5_MODEL, E5_MODEL)
    # Until the move is done, the owner searches as before: nothing drops out.
    assert finds_by_meaning(owner_dash) and not finds_across_languages(owner_dash)

    report = maintenance.move(batch=4)
    assert (report.users_switched, report.memories_switched, report.done) == (1, 10, True)
    assert live_model(owner) == E5_MODEL and live_model(stranger) == MINILM_MODEL
    assert finds_across_languages(owner_dash) and not finds_across_languages(stranger_dash)
    assert set(Memory.objects.filter(owner=stranger).values_list("embedding_model", flat=True)) == {
        MINILM_MODEL
    }
    assert not maintenance.move_needed()


def test_the_choice_outlives_the_operators_change_of_the_servers_model(
    owner: User,
    owner_dash: Actor,
    stranger: User,
    stranger_dash: Actor,
    settings: SettingsWrapper,
) -> None:
    store(owner_dash, STORE[:3])
    store(stranger_dash, STORE[:3])
    assert search_model_choose(actor=owner_dash, model=MINILM_MODEL) is False  # already on it

    settings.EMBEDDING_MODEL = E5_MODEL
    maintenance.move()
    assert live_model(stranger) == E5_MODEL  # follows the server
    assert live_model(owner) == MINILM_MODEL  # chose English
    assert not maintenance.move_needed()

    assert search_model_choose(actor=owner_dash, model="") is True  # the server's again
    maintenance.move()
    assert live_model(owner) == E5_MODEL


def test_choosing_back_before_the_move_is_done_stops_it_and_drops_what_was_staged(
    owner: User, owner_dash: Actor
) -> None:
    store(owner_dash)
    search_model_choose(actor=owner_dash, model=E5_MODEL)
    maintenance.move(batch=2, memories=4)
    assert StagedVector.objects.filter(owner=owner, model=E5_MODEL).count() == 4
    assert search_model_state(actor=owner_dash).ready == 4

    assert search_model_choose(actor=owner_dash, model=MINILM_MODEL) is False
    row = SearchModel.objects.get(owner=owner)
    assert (row.model, row.next_model, row.chosen) == (MINILM_MODEL, "", MINILM_MODEL)
    assert not StagedVector.objects.filter(owner=owner).exists()
    assert finds_by_meaning(owner_dash)
    assert maintenance.move().embedded == 0


def test_a_person_with_no_memories_yet_writes_the_first_with_the_chosen_model(
    owner: User, owner_dash: Actor
) -> None:
    assert search_model_choose(actor=owner_dash, model=E5_MODEL) is False  # nothing to move
    store(owner_dash)
    assert set(Memory.objects.filter(owner=owner).values_list("embedding_model", flat=True)) == {
        E5_MODEL
    }
    assert finds_across_languages(owner_dash)


def test_an_app_cannot_choose_and_an_unknown_model_is_refused_with_nothing_changed(
    owner: User, owner_dash: Actor, app_actor: Callable[[User, str], Actor]
) -> None:
    store(owner_dash, STORE[:2])
    with pytest.raises(OwnerOnly):
        search_model_choose(actor=app_actor(owner, "Cursor"), model=E5_MODEL)
    with pytest.raises(InvalidInput):
        search_model_choose(actor=owner_dash, model="text-embedding-3-large")
    row = SearchModel.objects.get(owner=owner)
    assert (row.model, row.next_model, row.chosen) == (MINILM_MODEL, "", "")


def test_the_search_page_suggests_many_languages_to_a_chinese_writer_and_queues_the_move(
    owner: User, owner_dash: Actor
) -> None:
    store(owner_dash, (PEANUTS, "我女儿九月开始上幼儿园。", "我每天早上跑步。", STORE[0]))
    browser = signed_in(owner)
    page = browser.get(reverse("memories:search_model")).content.decode()
    assert "data-search-model-suggestion" in page
    assert "Chinese 3" in page and "English 1" in page
    assert PEANUTS not in page  # counts only

    answer = browser.post(reverse("memories:search_model"), {"model": E5_MODEL}, follow=True)
    page = answer.content.decode()
    assert f'data-search-model-moving="{E5_MODEL}"' in page
    assert "0 of 4 ready" in page
    assert "data-search-model-suggestion" not in page  # already on its way
    waiting = DBTaskResult.objects.filter(task_path=move_embeddings.module_path, status="READY")
    assert waiting.count() == 1

    # While it runs, the "Now" section alone asks for itself again every two seconds (htmx).
    polled = browser.get(reverse("memories:search_model"), HTTP_HX_REQUEST="true")
    section = polled.content.decode()
    assert section.lstrip().startswith('<section id="search-model-now-section"')
    assert 'hx-trigger="every 2s"' in section and "<form" not in section
    assert "0 of 4 ready" in section

    assert move_embeddings.call()["done"]
    polled = browser.get(reverse("memories:search_model"), HTTP_HX_REQUEST="true")
    section = polled.content.decode()
    assert f'data-search-model-live="{E5_MODEL}"' in section
    assert "data-search-model-moving" not in section
    assert "hx-trigger" not in section  # switched: it stops asking


def test_the_search_page_refuses_an_unknown_model_in_words_and_changes_nothing(
    owner: User, owner_dash: Actor
) -> None:
    store(owner_dash, STORE[:2])
    answer = signed_in(owner).post(
        reverse("memories:search_model"), {"model": "../../etc/passwd"}, follow=True
    )
    assert "Unknown search model" in answer.content.decode()
    assert SearchModel.objects.get(owner=owner).chosen == ""


def test_reembed_status_tells_a_users_own_choice_from_a_move_not_yet_queued(
    owner_dash: Actor, stranger_dash: Actor, settings: SettingsWrapper
) -> None:
    store(owner_dash, STORE[:3])
    store(stranger_dash, STORE[:2])
    search_model_choose(actor=owner_dash, model=MINILM_MODEL)
    settings.EMBEDDING_MODEL = E5_MODEL
    out = io.StringIO()
    call_command("reembed", "--status", stdout=out)
    status = out.getvalue()
    assert f"1 users on {MINILM_MODEL} (their own choice): 3 memories." in status
    assert f"1 users on {MINILM_MODEL} (not yet queued for the move): 2 memories." in status
