"""The access log over REST: the owner's events only, filtered and paginated."""

from __future__ import annotations

from django.test import Client

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from memories.services.adding import memory_create
from tests.api.tokens import TokenFactory, token_app

API = "/api/v1/access-events"


def test_events_are_filtered_by_action_memory_and_app_and_exclude_other_users(
    owner_api: Client,
    owner: User,
    owner_dash: Actor,
    stranger_dash: Actor,
    make_token: TokenFactory,
) -> None:
    tea = memory_create(actor=owner_dash, text="I like green tea").memory
    memory_create(actor=stranger_dash, text="I like coffee")
    token = make_token(owner, name="claude")
    claude = token_app(token)
    Client(headers={"Authorization": f"Bearer {token}"}).get(f"/api/v1/memories/{tea.id}")

    everything = owner_api.get(API).json()["items"]
    assert everything, "the owner's events are listed"
    stranger_ids = set(
        AccessEvent.objects.filter(owner=stranger_dash.user).values_list("pk", flat=True)
    )
    assert not stranger_ids & {e["id"] for e in everything}

    reads = owner_api.get(API, {"action": "read"}).json()["items"]
    assert [(e["app_name"], e["memory_ids"]) for e in reads] == [("claude", [str(tea.id)])]
    by_app = owner_api.get(API, {"app_id": claude.pk}).json()["items"]
    assert {e["app_id"] for e in by_app} == {claude.pk}
    by_memory = owner_api.get(API, {"memory_id": str(tea.id)}).json()["items"]
    assert {e["action"] for e in by_memory} >= {"add", "read"}


def test_events_page_with_a_cursor_newest_first(owner_api: Client, owner_dash: Actor) -> None:
    for text in ("one", "two", "three"):
        memory_create(actor=owner_dash, text=text)
    first = owner_api.get(API, {"action": "add", "limit": "2"}).json()
    assert len(first["items"]) == 2 and first["next_cursor"]
    rest = owner_api.get(API, {"action": "add", "limit": 2, "cursor": first["next_cursor"]}).json()
    ids = [e["id"] for e in first["items"] + rest["items"]]
    assert len(ids) == 3 and ids == sorted(ids, reverse=True)
    assert rest["next_cursor"] is None


def test_a_bad_action_or_cursor_is_a_400(owner_api: Client) -> None:
    assert owner_api.get(API, {"action": "dance"}).status_code == 400
    assert owner_api.get(API, {"cursor": "abc"}).status_code == 400


def test_a_connected_app_cannot_read_the_access_log(owner: User, make_token: TokenFactory) -> None:
    client = Client(headers={"Authorization": f"Bearer {make_token(owner)}"})
    response = client.get(API)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "owner_only"
