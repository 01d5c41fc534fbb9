"""Categories over REST: the same services as the Categories page (owner only), the vocabulary an
app is told, and names folded at this door too."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.actors import Actor
from accounts.models import User
from kernel.gates import SCOPE_READ, SCOPE_WRITE
from memories.models import Memory, UserCategory
from memories.services.adding import memory_create
from tests.api.tokens import TokenFactory
from tests.personas import signed_in

API = "/api/v1/categories"
FULLWIDTH_HEALTH = "\uff48\uff45\uff41\uff4c\uff54\uff48"

pytestmark = pytest.mark.django_db


def _bearer(secret: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {secret}"})


def _json(client: Client, method: str, path: str, body: object = None):  # type: ignore[no-untyped-def]
    return getattr(client, method)(path, body, content_type="application/json")


def test_the_owner_lists_every_category_with_counts_and_who_sees_it(
    owner: User, owner_api: Client, owner_dash: Actor, make_token: TokenFactory
) -> None:
    make_token(owner, name="Reader", scopes=(SCOPE_READ,))
    memory_create(actor=owner_dash, text="Alice's son is nine", categories=["kids"])
    body = {c["slug"]: c for c in owner_api.get(API).json()}
    assert body["kids"] == {
        "slug": "kids",
        "description": "",
        "sensitive": False,
        "custom": True,
        "memories": 1,
        "seen_by": ["Reader"],
    }
    assert body["health"]["sensitive"] and body["health"]["seen_by"] == []


def test_an_app_is_told_the_defaults_and_the_own_categories_its_grant_covers(
    owner: User, owner_api: Client, make_token: TokenFactory
) -> None:
    _json(owner_api, "post", API, {"name": "kids"})
    _json(owner_api, "post", API, {"name": "fertility", "sensitive": True})
    app = _bearer(make_token(owner, scopes=(SCOPE_READ,)))
    body = {c["slug"]: c for c in app.get(API).json()}
    assert "kids" in body and "fertility" not in body
    assert "health" in body and body["health"]["sensitive"]  # the public vocabulary
    assert body["kids"]["memories"] is None and body["kids"]["seen_by"] is None


def test_add_rename_mark_merge_and_delete_through_the_api(
    owner: User, owner_api: Client, owner_dash: Actor
) -> None:
    made = _json(owner_api, "post", API, {"name": "My Kids", "description": "Children"})
    assert made.status_code == 201 and made.json()["slug"] == "my-kids"
    assert _json(owner_api, "post", API, {"name": "my kids"}).status_code == 409
    son = memory_create(actor=owner_dash, text="Alice's son is nine", categories=["my-kids"]).memory
    renamed = _json(owner_api, "patch", f"{API}/my-kids", {"name": "Children", "sensitive": True})
    assert renamed.status_code == 200
    assert renamed.json()["slug"] == "children" and renamed.json()["sensitive"] is True
    son.refresh_from_db()
    assert son.categories == ["children"]
    assert (
        _json(owner_api, "patch", f"{API}/health", {"sensitive": False}).json()["sensitive"]
        is False
    )
    assert _json(owner_api, "patch", f"{API}/health", {"name": "wellbeing"}).status_code == 409
    merged = _json(owner_api, "post", f"{API}/children/merge", {"into": "relationships"})
    assert merged.status_code == 200
    assert merged.json()["slug"] == "relationships" and merged.json()["sensitive"] is True
    _json(owner_api, "post", API, {"name": "pets"})
    memory_create(actor=owner_dash, text="Alice has a cat", categories=["pets", "home"])
    deleted = owner_api.delete(f"{API}/pets")
    assert deleted.status_code == 200 and deleted.json() == {"slug": "pets", "memories": 1}
    assert Memory.objects.get(owner=owner, text="Alice has a cat").categories == ["home"]
    assert owner_api.delete(f"{API}/pets").status_code == 404


def test_an_app_token_may_not_change_categories(
    owner: User, owner_api: Client, make_token: TokenFactory
) -> None:
    _json(owner_api, "post", API, {"name": "kids"})
    app = _bearer(make_token(owner))
    for response in (
        _json(app, "post", API, {"name": "pets"}),
        _json(app, "patch", f"{API}/kids", {"sensitive": True}),
        _json(app, "post", f"{API}/kids/merge", {"into": "work"}),
        app.delete(f"{API}/kids"),
    ):
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "owner_only"
    assert not UserCategory.objects.get(owner=owner, slug="kids").sensitive


def test_another_users_category_is_a_404(owner: User, owner_api: Client, stranger: User) -> None:
    _json(owner_api, "post", API, {"name": "kids"})
    theirs = signed_in(stranger)
    assert _json(theirs, "patch", f"{API}/kids", {"sensitive": True}).status_code == 404
    assert _json(theirs, "post", f"{API}/kids/merge", {"into": "work"}).status_code == 404
    assert theirs.delete(f"{API}/kids").status_code == 404
    assert "kids" not in [c["slug"] for c in theirs.get(API).json()]


def test_a_fullwidth_health_from_an_app_gets_the_same_answer_as_health(
    owner: User, make_token: TokenFactory
) -> None:
    # A new memory may go into any category (memories/ownership.py): a look-alike of a sensitive
    # name lands in that sensitive category, and a new name that means one starts sensitive;
    # either way the app is told that only it can read the memory back.
    app = _bearer(make_token(owner, scopes=(SCOPE_READ, SCOPE_WRITE)))
    plain = _json(
        app, "post", "/api/v1/memories", {"text": "Takes sertraline", "categories": ["health"]}
    )
    look_alike = _json(
        app,
        "post",
        "/api/v1/memories",
        {"text": "Sees a therapist weekly", "categories": [FULLWIDTH_HEALTH]},
    )
    assert plain.status_code == look_alike.status_code == 201
    assert plain.json()["memory"]["categories"][0] == "health"
    assert look_alike.json()["memory"]["categories"][0] == "health"
    assert plain.json()["note"] == look_alike.json()["note"] != ""
    medical = _json(app, "post", "/api/v1/memories", {"text": "Carol", "categories": ["Medical"]})
    assert medical.status_code == 201 and medical.json()["memory"]["categories"][0] == "medical"
    assert UserCategory.objects.get(owner=owner, slug="medical").sensitive
    assert "Medical" in medical.json()["note"]
    assert not UserCategory.objects.filter(owner=owner, slug__contains="health").exists()
    kids = _json(app, "post", "/api/v1/memories", {"text": "Alice's son", "categories": ["Kids"]})
    assert kids.status_code == 201 and kids.json()["memory"]["categories"] == ["kids"]
    assert kids.json()["note"] == ""


def test_bulk_private_is_owner_only_and_all_or_none(
    owner: User, owner_api: Client, owner_dash: Actor, stranger: User, make_token: TokenFactory
) -> None:
    mine = memory_create(actor=owner_dash, text="Alice's note").memory
    other = memory_create(actor=owner_dash, text="Alice's other note").memory
    url = "/api/v1/memories/bulk/private"
    app = _bearer(make_token(owner))
    refused = _json(app, "post", url, {"memory_ids": [str(mine.id)], "private": True})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "owner_only"
    missing = _json(
        owner_api,
        "post",
        url,
        {"memory_ids": [str(mine.id), "00000000-0000-0000-0000-000000000000"], "private": True},
    )
    assert missing.status_code == 404
    done = _json(
        owner_api, "post", url, {"memory_ids": [str(mine.id), str(other.id)], "private": True}
    )
    assert done.json() == {"changed": 2}
    assert Memory.objects.filter(owner=owner, is_private=True).count() == 2
    assert (
        _json(
            signed_in(stranger), "post", url, {"memory_ids": [str(mine.id)], "private": False}
        ).status_code
        == 404
    )
