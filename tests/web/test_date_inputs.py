"""Dates and cursors at the edges of what a calendar, Python and PostgreSQL hold: every filter of
the dashboard and the API answers them as input (a page or a 4xx), never with a 500 (issue 14)."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.actors import Actor
from memories.services import adding

pytestmark = pytest.mark.django_db

EDGE_DAYS = ["9999-12-31", "0001-01-01", "10000-01-01", "2024-02-30", "0000-00-00", "²", "-1"]
EDGE_CURSORS = ["99999999999999999999999", "²", "-1", "0", "1" * 400]


@pytest.mark.parametrize("value", EDGE_DAYS)
@pytest.mark.parametrize("url", ["/", "/activity/"])
@pytest.mark.parametrize("param", ["before", "after"])
# Days are the owner's days (the browser's zone, kernel/owner_zone.py): the calendar's first
# day east of UTC and its last day west of it are beyond what Python's datetime holds in UTC.
@pytest.mark.parametrize("zone", ["", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_a_dashboard_date_filter_at_the_edge_of_the_calendar_answers_a_page(
    owner_client: Client, owner_dash: Actor, url: str, param: str, value: str, zone: str
) -> None:
    adding.memory_create(actor=owner_dash, text="A fact from today")
    owner_client.cookies["tz"] = zone
    response = owner_client.get(url, {param: value})
    assert response.status_code == 200


def test_the_last_day_of_the_calendar_includes_todays_memories(
    owner_client: Client, owner_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="A fact from today")
    assert "A fact from today" in owner_client.get("/", {"before": "9999-12-31"}).content.decode()
    assert "A fact from today" in owner_client.get("/", {"after": "0001-01-01"}).content.decode()


@pytest.mark.parametrize("value", EDGE_CURSORS)
@pytest.mark.parametrize(("url", "param"), [("/", "cursor"), ("/activity/", "older_than")])
def test_a_dashboard_cursor_nobody_issued_answers_a_page(
    owner_client: Client, owner_dash: Actor, url: str, param: str, value: str
) -> None:
    adding.memory_create(actor=owner_dash, text="A fact from today")
    response = owner_client.get(url, {param: value})
    assert response.status_code in (200, 400)


@pytest.mark.parametrize(
    "value",
    [
        "9999-12-31T23:59:59-01:00",
        "0001-01-01T00:00:00+01:00",
        "9999-12-31",
        "0001-01-01",
        "10000-01-01",
    ],
)
@pytest.mark.parametrize("url", ["/api/v1/memories", "/api/v1/access-events"])
@pytest.mark.parametrize("param", ["created_before", "created_after"])
def test_an_api_date_filter_at_the_edge_of_the_calendar_is_input_not_a_crash(
    owner_client: Client, owner_dash: Actor, url: str, param: str, value: str
) -> None:
    adding.memory_create(actor=owner_dash, text="A fact from today")
    response = owner_client.get(url, {param: value})
    assert response.status_code in (200, 400, 422), response.content[:300]
