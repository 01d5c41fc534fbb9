"""Memories over REST (api/memories.py): every route, another user's ids → 404, missing scope
→ 403."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.middleware.csrf import _get_new_csrf_string
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor, owner_actor
from accounts.client_tokens import hash_secret
from accounts.models import ClientToken, User
from kernel.gates import SCOPE_READ, SCOPE_WRITE
from memories.models import Memory, MemoryState, MemoryVersion
from memories.selectors import memories as memory_reads
from memories.services.adding import memory_create
from tests.api.memory_calls import API, add_memory, error_of
from tests.api.tokens import TokenFactory, token_app
from tests.memories.fake_llm import Brain
from tests.personas import issue_token, signed_in


def test_anonymous_requests_get_401_json_with_a_bearer_challenge(db: None) -> None:
    response = Client().get(API)
    assert response.status_code == 401
    assert error_of(response)["code"] == "unauthenticated"
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_an_unknown_bearer_token_is_refused(db: None) -> None:
    response = Client(headers={"Authorization": "Bearer nonsense"}).get(API)
    assert response.status_code == 401


def test_create_returns_201_then_200_with_the_same_memory_for_identical_text(
    owner_api: Client, owner: User
) -> None:
    first = owner_api.post(
        API, {"text": "I like green tea", "categories": ["Food"]}, content_type="application/json"
    )
    assert first.status_code == 201
    body = first.json()
    assert body["created"] is True
    assert body["memory"]["categories"] == ["food"]
    assert body["memory"]["origin"] == "api"
    again = owner_api.post(API, {"text": "i like green tea!"}, content_type="application/json")
    assert again.status_code == 200
    assert again.json()["created"] is False
    assert again.json()["memory"]["id"] == body["memory"]["id"]
    assert Memory.objects.filter(owner=owner).count() == 1


def test_when_the_model_finds_nothing_worth_remembering_the_answer_is_200_with_a_note(
    owner_api: Client, owner: User, fake_provider: Brain
) -> None:
    fake_provider.facts = {"Lisbon": ["Lives in Lisbon"]}
    response = owner_api.post(
        API, {"text": "Thanks, that was helpful!"}, content_type="application/json"
    )
    assert response.status_code == 200
    assert response.json() == {
        "memory": None,
        "memories": [],
        "created": False,
        "note": "The model found no lasting fact in this text, so nothing was stored.",
    }
    assert not Memory.objects.filter(owner=owner).exists()


def test_every_fact_the_model_extracts_is_in_the_answer_not_only_the_first(
    owner_api: Client, owner: User, fake_provider: Brain
) -> None:
    fake_provider.facts = {"Lisbon": ["Lives in Lisbon", "Works from home"]}
    response = owner_api.post(
        API, {"text": "I moved to Lisbon and work from home now"}, content_type="application/json"
    )
    assert response.status_code == 201
    body = response.json()
    assert [m["text"] for m in body["memories"]] == ["Lives in Lisbon", "Works from home"]
    assert body["memory"] == body["memories"][0] and body["created"] is True
    assert "2 fact(s): 2 added." in body["note"]
    assert Memory.objects.filter(owner=owner).count() == 2


def test_empty_text_is_a_400_naming_the_field(owner_api: Client) -> None:
    response = owner_api.post(API, {"text": "   "}, content_type="application/json")
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert error["field"] == "text"


def test_schema_validation_errors_use_the_same_shape(owner_api: Client) -> None:
    response = owner_api.post(API, {"categories": "x"}, content_type="application/json")
    assert response.status_code == 400
    assert error_of(response)["field"] == "text"


def test_a_body_over_the_upload_limit_is_413(owner_api: Client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = owner_api.post(API, {"text": "x" * 2000}, content_type="application/json")
    assert response.status_code == 413
    assert error_of(response)["code"] == "too_large"


def test_a_host_this_server_does_not_serve_gets_the_api_error_shape(owner_api: Client) -> None:
    response = owner_api.get(API, HTTP_HOST="")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert error_of(response)["code"] == "bad_request"


def test_list_filters_by_state_category_app_and_date_and_pages_with_a_cursor(
    owner_api: Client, owner_dash: Actor
) -> None:
    tea = add_memory(owner_dash, "I like green tea", ("food",))
    add_memory(owner_dash, "I work at Acme", ("work",))
    old = add_memory(owner_dash, "I lived in Oslo")
    Memory.objects.filter(pk=old.pk).update(state=MemoryState.ARCHIVED)

    assert [m["id"] for m in owner_api.get(API, {"category": "food"}).json()["items"]] == [
        str(tea.id)
    ]
    assert len(owner_api.get(API).json()["items"]) == 2
    archived = owner_api.get(API, {"state": "archived"}).json()["items"]
    assert [m["id"] for m in archived] == [str(old.id)]
    assert len(owner_api.get(API, {"state": "all"}).json()["items"]) == 3
    assert len(owner_api.get(API, {"app": "dashboard", "state": "all"}).json()["items"]) == 3
    assert owner_api.get(API, {"app": "elsewhere"}).json()["items"] == []
    future = owner_api.get(API, {"created_after": "2999-01-01T00:00:00Z"}).json()
    assert future["items"] == []

    first = owner_api.get(API, {"state": "all", "limit": "2"}).json()
    assert len(first["items"]) == 2 and first["next_cursor"]
    rest = owner_api.get(API, {"state": "all", "limit": 2, "cursor": first["next_cursor"]}).json()
    assert len(rest["items"]) == 1 and rest["next_cursor"] is None
    seen = {m["id"] for m in first["items"] + rest["items"]}
    assert len(seen) == 3


def test_a_forged_cursor_is_a_400(owner_api: Client) -> None:
    response = owner_api.get(API, {"cursor": "not-a-cursor"})
    assert response.status_code == 400
    assert error_of(response)["field"] == "cursor"


def test_get_returns_the_memory_and_another_users_or_a_malformed_id_is_404(
    owner_api: Client, owner_dash: Actor, stranger_dash: Actor
) -> None:
    mine = add_memory(owner_dash, "I like green tea")
    theirs = add_memory(stranger_dash, "I like black coffee")
    assert owner_api.get(f"{API}/{mine.id}").json()["text"] == "I like green tea"
    for memory_id in (theirs.id, uuid.uuid4(), "not-a-uuid"):
        response = owner_api.get(f"{API}/{memory_id}")
        assert response.status_code == 404
        assert error_of(response)["code"] == "not_found"


def test_patch_changes_text_categories_state_and_privacy_keeping_a_version(
    owner_api: Client, owner_dash: Actor
) -> None:
    memory = add_memory(owner_dash, "I like green tea")
    response = owner_api.patch(
        f"{API}/{memory.id}",
        {
            "text": "I like oolong tea",
            "reason": "changed taste",
            "categories": ["food"],
            "state": "paused",
            "private": True,
        },
        content_type="application/json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["text"] == "I like oolong tea"
    assert body["categories"] == ["food"]
    assert body["state"] == "paused"
    assert body["is_private"] is True
    version = MemoryVersion.objects.get(memory=memory)
    assert (version.text, version.reason) == ("I like green tea", "changed taste")


def test_patch_to_another_active_memorys_text_is_a_409(
    owner_api: Client, owner_dash: Actor
) -> None:
    add_memory(owner_dash, "I like green tea")
    other = add_memory(owner_dash, "I like coffee")
    response = owner_api.patch(
        f"{API}/{other.id}", {"text": "I like green tea."}, content_type="application/json"
    )
    assert response.status_code == 409
    assert error_of(response)["code"] == "conflict"


def test_patch_and_delete_of_another_users_memory_are_404_and_change_nothing(
    owner_api: Client, stranger_dash: Actor
) -> None:
    theirs = add_memory(stranger_dash, "I like black coffee")
    patch = owner_api.patch(
        f"{API}/{theirs.id}", {"text": "hijacked"}, content_type="application/json"
    )
    assert patch.status_code == 404
    assert owner_api.delete(f"{API}/{theirs.id}").status_code == 404
    theirs.refresh_from_db()
    assert theirs.text == "I like black coffee"


def test_delete_removes_the_memory_and_names_the_apps_that_read_it(
    owner_api: Client, owner: User, owner_dash: Actor, make_token: TokenFactory
) -> None:
    memory = add_memory(owner_dash, "I like green tea")
    reader = Client(headers={"Authorization": f"Bearer {make_token(owner, name='claude')}"})
    assert reader.get(f"{API}/{memory.id}").status_code == 200
    response = owner_api.delete(f"{API}/{memory.id}")
    assert response.status_code == 200
    assert response.json() == {"id": str(memory.id), "read_by": ["claude"], "restorable_days": 30}
    assert owner_api.get(f"{API}/{memory.id}").status_code == 404


def test_bulk_state_changes_all_or_refuses_all_when_one_id_is_someone_elses(
    owner_api: Client, owner_dash: Actor, stranger_dash: Actor
) -> None:
    a = add_memory(owner_dash, "I like tea")
    b = add_memory(owner_dash, "I like cake")
    theirs = add_memory(stranger_dash, "I like coffee")
    url = f"{API}/bulk/state"
    refused = owner_api.post(
        url, {"memory_ids": [str(a.id), str(theirs.id)], "state": "archived"}, "application/json"
    )
    assert refused.status_code == 404
    assert Memory.objects.get(pk=a.pk).state == MemoryState.ACTIVE
    done = owner_api.post(
        url, {"memory_ids": [str(a.id), str(b.id)], "state": "archived"}, "application/json"
    )
    assert done.json() == {"changed": 2}
    assert set(Memory.objects.filter(pk__in=[a.pk, b.pk]).values_list("state", flat=True)) == {
        MemoryState.ARCHIVED
    }
    assert Memory.objects.get(pk=theirs.pk).state == MemoryState.ACTIVE


def test_bulk_delete_deletes_only_when_every_id_is_visible(
    owner_api: Client, owner_dash: Actor, stranger_dash: Actor
) -> None:
    a = add_memory(owner_dash, "I like tea")
    theirs = add_memory(stranger_dash, "I like coffee")
    url = f"{API}/bulk/delete"
    refused = owner_api.post(url, {"memory_ids": [str(a.id), str(theirs.id)]}, "application/json")
    assert refused.status_code == 404
    assert Memory.objects.filter(pk__in=[a.pk, theirs.pk]).count() == 2
    done = owner_api.post(url, {"memory_ids": [str(a.id)]}, "application/json")
    assert done.json() == {"deleted": [{"id": str(a.id), "read_by": [], "restorable_days": 30}]}
    assert Memory.objects.get(pk=a.pk).state == "trashed"  # in the owner's trash


@pytest.mark.parametrize(
    ("scopes", "method", "path", "body", "missing"),
    [
        ((SCOPE_WRITE,), "get", "", None, "memories:read"),
        ((SCOPE_WRITE,), "get", "/search?q=tea", None, "memories:read"),
        ((SCOPE_READ,), "post", "", {"text": "new"}, "memories:write"),
        ((SCOPE_READ,), "patch", "/{id}", {"text": "new"}, "memories:write"),
        ((SCOPE_READ, SCOPE_WRITE), "delete", "/{id}", None, "memories:delete"),
        ((SCOPE_READ,), "post", "/bulk/state", "state", "memories:write"),
        ((SCOPE_READ, SCOPE_WRITE), "post", "/bulk/delete", "ids", "memories:delete"),
        ((SCOPE_WRITE,), "get", "/{id}/versions", None, "memories:read"),
        ((SCOPE_READ,), "post", "/{id}/versions/1/restore", None, "memories:write"),
    ],
)
def test_a_token_without_the_scope_gets_403(
    owner: User,
    owner_dash: Actor,
    make_token: TokenFactory,
    scopes: tuple[str, ...],
    method: str,
    path: str,
    body: object,
    missing: str,
) -> None:
    memory = add_memory(owner_dash, "I like green tea")
    client = Client(headers={"Authorization": f"Bearer {make_token(owner, scopes=scopes)}"})
    if body == "state":
        body = {"memory_ids": [str(memory.id)], "state": "archived"}
    elif body == "ids":
        body = {"memory_ids": [str(memory.id)]}
    kwargs = {"data": body, "content_type": "application/json"} if body is not None else {}
    response = getattr(client, method)(API + path.format(id=memory.id), **kwargs)
    assert response.status_code == 403
    error = error_of(response)
    assert error["code"] == "insufficient_scope"
    assert missing in error["message"]
    memory.refresh_from_db()
    assert memory.text == "I like green tea"


def test_a_token_app_sees_only_its_granted_categories(
    owner: User, owner_dash: Actor, make_token: TokenFactory
) -> None:
    food = add_memory(owner_dash, "I like green tea", ("food",))
    health = add_memory(owner_dash, "I take insulin", ("health",))
    client = Client(headers={"Authorization": f"Bearer {make_token(owner, categories=['food'])}"})
    assert [m["id"] for m in client.get(API).json()["items"]] == [str(food.id)]
    assert client.get(f"{API}/{health.id}").status_code == 404


def test_a_paused_apps_token_gets_403_app_paused(owner: User, make_token: TokenFactory) -> None:
    token = make_token(owner)
    app = token_app(token)
    app.paused = True
    app.save()
    response = Client(headers={"Authorization": f"Bearer {token}"}).get(API)
    assert response.status_code == 403
    assert error_of(response)["code"] == "app_paused"


def test_the_browser_session_works_and_unsafe_methods_need_the_csrf_token(owner: User) -> None:
    browser = signed_in(owner, enforce_csrf=True)
    assert browser.get(API).status_code == 200
    refused = browser.post(API, {"text": "I like tea"}, content_type="application/json")
    assert refused.status_code == 403
    assert error_of(refused)["code"] == "csrf_failed"
    token = _get_new_csrf_string()
    browser.cookies["csrftoken"] = token
    accepted = browser.post(
        API, {"text": "I like tea"}, content_type="application/json", headers={"X-CSRFToken": token}
    )
    assert accepted.status_code == 201
    memory = Memory.objects.get(owner=owner)
    assert memory.origin_app_name == "api"


def test_categories_lists_the_vocabulary_with_sensitive_flags(owner_api: Client) -> None:
    body = owner_api.get("/api/v1/categories").json()
    by_slug = {c["slug"]: c for c in body}
    assert by_slug["food"]["sensitive"] is False
    assert by_slug["health"]["sensitive"] is True


def test_a_database_outage_is_a_503_jsonerror_of(
    owner_api: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(**kwargs: object) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(memory_reads, "memory_list", down)
    response = owner_api.get(API)
    assert response.status_code == 503
    assert error_of(response)["code"] == "unavailable"
    assert response["Retry-After"]


def test_openapi_schema_and_docs_are_served(db: None) -> None:
    client = Client()
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["info"]["version"] == "1"
    assert "/api/v1/memories/{memory_id}" in schema["paths"]
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200
    page = docs.content.decode()
    assert "cdn." not in page, "no JavaScript from a CDN"
    assert "/static/ninja/swagger-ui-bundle" in page


def test_the_bearer_hook_is_asked_about_the_api_resource(
    owner: User, monkeypatch: pytest.MonkeyPatch, settings: SettingsWrapper
) -> None:
    from accounts import api_auth

    asked: list[tuple[str, str]] = []

    def resolve(raw: str, *, resource: str) -> None:
        asked.append((raw, resource))
        return None

    monkeypatch.setattr(api_auth, "resolve_api_bearer", resolve)
    client = Client(headers={"Authorization": "Bearer abc"})
    assert client.get(API).status_code == 401
    settings.PUBLIC_URL = "https://memory.example.com"
    client.get(API)
    assert asked == [
        ("abc", "http://testserver/api/v1"),
        ("abc", "https://memory.example.com/api/v1"),
    ]


def test_a_token_past_its_expiry_is_refused_with_401_and_reads_nothing(
    owner: User, owner_dash: Actor, make_token: TokenFactory
) -> None:
    add_memory(owner_dash, "Plays the oboe")
    token = make_token(owner)
    client = Client(headers={"Authorization": f"Bearer {token}"})
    assert [m["text"] for m in client.get(API).json()["items"]] == ["Plays the oboe"]
    ClientToken.objects.filter(token_hash=hash_secret(token)).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    expired = client.get(API)
    assert expired.status_code == 401
    assert error_of(expired)["code"] == "unauthenticated"
    assert "Plays the oboe" not in expired.content.decode()


def test_a_real_client_token_works_until_revoked_and_a_made_up_one_never(
    owner: User, stranger: User
) -> None:
    from accounts.client_tokens import client_token_revoke

    memory_create(actor=owner_actor(owner), text="Plays the oboe", categories=["hobbies"])
    issued = issue_token(owner, name="script", scopes=["read"])
    client = Client(headers={"Authorization": f"Bearer {issued.secret}"})
    listed = client.get(API)
    assert listed.status_code == 200
    assert [m["text"] for m in listed.json()["items"]] == ["Plays the oboe"]
    assert client.post(API, {"text": "no"}, content_type="application/json").status_code == 403
    made_up = Client(headers={"Authorization": "Bearer clt_made_up"})
    assert made_up.get(API).status_code == 401
    client_token_revoke(actor=owner_actor(owner), token=issued.token.pk)
    assert client.get(API).status_code == 401
