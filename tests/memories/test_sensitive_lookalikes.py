"""Sensitive labels that are right both ways (issue 25, item 4): a payments team, a hobby's budget
or a gym membership is not a finance secret hidden from every app, Sunday chores and holiday
plans are not religion, and debts, salary, a bank, rent, worship and prayer still are sensitive."""

from __future__ import annotations

import pytest

from accounts.actors import Actor, actor_for, stdio_app
from accounts.models import User
from bench.categories import load_ordinary, run
from kernel.errors import NotFound
from memories.categories.vocabulary import SENSITIVE
from memories.classify import classifier_for
from memories.search.embeddings import get_embedder
from memories.selectors.memories import memory_get
from memories.services import adding


def _labels(texts: list[str]) -> list[list[str]]:
    return classifier_for().classify(get_embedder().embed(texts), texts)


# Measured: filed under finance before this change (docs/benchmarks.md).
ORDINARY = [
    "I'm the tech lead for the payments team.",
    "My team owns the invoicing service.",
    "My budget for the bike upgrade is 400 euros.",
    "I'm putting money aside for a new drum kit.",
    "My gym membership is 35 euros a month.",
    "My side project is a bill-splitting app for flatmates.",
]
SECRETS = [
    "I earn about 85,000 euros a year.",
    "My bank is Monzo.",
    "Owes 12,000 pounds on credit cards.",
    "We're saving up for a new roof.",
    "I pay 1,400 a month in rent.",
    "Missed two car finance payments.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_work_on_payments_and_budgets_for_hobbies_are_not_finance(text: str) -> None:
    assert "finance" not in _labels([text])[0]


@pytest.mark.parametrize("text", SECRETS)
def test_money_of_ones_own_is_still_finance(text: str) -> None:
    assert "finance" in _labels([text])[0]


def test_a_signal_word_still_makes_a_look_alike_finance() -> None:
    [labels] = _labels(["I'm the tech lead for the payments team and still paying off a loan."])
    assert "finance" in labels


@pytest.mark.django_db
def test_a_default_grant_app_reads_the_payments_tech_lead(owner: User, owner_dash: Actor) -> None:
    memory = adding.memory_create(
        actor=owner_dash, text="I'm the tech lead for the payments team."
    ).memory
    assert "finance" not in memory.categories
    app = actor_for(owner, stdio_app(owner, "cursor"))  # the default grant: nothing sensitive
    assert memory_get(actor=app, memory_id=memory.id).id == memory.id
    salary = adding.memory_create(actor=owner_dash, text="I earn about 85,000 euros a year.")
    with pytest.raises(NotFound):
        memory_get(actor=app, memory_id=salary.memory.id)


def test_the_ordinary_set_is_big_varied_and_a_third_held_out() -> None:
    facts = load_ordinary()
    heldout = [f for f in facts if f.split == "heldout"]
    assert len(facts) >= 200
    assert 0.3 <= len(heldout) / len(facts) <= 0.36
    assert {"work", "hobby_budget", "gym", "food", "travel", "family", "tech", "pets"} <= {
        f.topic for f in heldout
    }


def test_ordinary_facts_are_rarely_sensitive_on_the_held_out_third() -> None:
    """Measured on the held-out third: every sensitive category at most 0.047 (finance; 0.07
    before the everyday look-alikes), any sensitive label 0.093 (0.14 before); sensitive recall
    unchanged (docs/benchmarks.md)."""
    report = run(["heldout"])["heldout"]
    ordinary = report["ordinary_set"]
    assert max(ordinary["false_positive"].values()) <= 0.05, ordinary
    assert ordinary["false_positive_any"] <= 0.1, ordinary
    assert report["sensitive_set"]["recall_any"] >= 0.9, report["sensitive_set"]
    assert report["sensitive_recall"] >= 0.95, report


# The reported misfile, and everyday facts with weekday and holiday words written for this test
# (religion on main for "I water the plants on Sundays" and six of these).
WEEKDAYS_AND_HOLIDAYS = [
    "I water the plants on Sundays.",
    "I do the laundry on Mondays.",
    "I take the kids swimming on Sundays.",
    "We open our presents on Christmas Eve.",
    "I have a lie-in on Sundays.",
    "I hate Mondays.",
    "We celebrate my son's birthday with a picnic.",
    "Thanksgiving is at my sister's house this year.",
]
WORSHIP = [
    "I go to church on Sundays.",
    "We go to mass on Christmas Eve.",
    "I pray five times a day.",
    "We keep the Sabbath from Friday sunset.",
    "I fast during Ramadan.",
]


@pytest.mark.parametrize("text", WEEKDAYS_AND_HOLIDAYS)
def test_sunday_chores_and_holiday_plans_are_not_sensitive(text: str) -> None:
    assert not SENSITIVE & set(_labels([text])[0])


@pytest.mark.parametrize("text", WORSHIP)
def test_worship_on_a_weekday_or_a_holiday_is_still_religion(text: str) -> None:
    assert "religion" in _labels([text])[0]
