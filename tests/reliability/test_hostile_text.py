"""NUL characters and other text PostgreSQL cannot hold, at every door (issue 24, item 9).

PostgreSQL's text and jsonb cannot store U+0000. Sent by a client, it must be a clear refusal
(or, inside an export, dropped) — never a crash, a 500, an "Error executing tool", or a log
line or stored error that quotes what the user sent: logs and the admin's task results outlive
an erase.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from accounts.actors import owner_actor
from accounts.models import User
from memories.ingest.detect import load_export
from memories.models import Memory
from memories.services.adding import memory_create
from memories.services.imports import import_execute
from memories.transfer_models import ImportRun
from tests.memories.exports import claude_export, claude_message
from tests.personas import signed_in

pytestmark = pytest.mark.django_db(transaction=True)

MARKER = "Zanzibar-7731"  # the user's text: it must not appear in any log line


def _logged(caplog: pytest.LogCaptureFixture) -> str:
    """The log lines these records become on the server (its JSON formatter)."""
    from kernel.logging import JsonFormatter

    return "\n".join(JsonFormatter().format(r) for r in caplog.records)


def _tool_failed(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("add_memory", {"text": f"Likes {MARKER} tea", "category": "fo\x00od"}),
        ("add_memories", {"texts": [f"Likes {MARKER} tea"], "category": "\x00"}),
        ("add_memory", {"text": f"Likes {MARKER}\x00 tea"}),
        ("search_memory", {"query": f"{MARKER}\x00"}),
        ("search_memory", {"query": "tea", "category": "fo\x00od"}),
        ("list_memories", {"category": "fo\x00od"}),
        ("list_memories", {"cursor": f"{MARKER}\x00"}),
        ("get_memory", {"memory_id": "\x00"}),
        ("update_memory", {"memory_id": "\x00", "text": "x"}),
        ("delete_memory", {"memory_id": f"{MARKER}\x00"}),
    ],
)
def test_a_nul_in_any_tool_argument_is_a_clear_tool_error_and_no_error_log(
    owner: User,
    mcp_for: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
    tool: str,
    arguments: dict[str, Any],
) -> None:
    client = mcp_for(owner)
    caplog.set_level(logging.INFO)
    result = client.call(tool, arguments)
    text = _tool_failed(result)
    assert result.is_error and "NUL" in text, text
    assert not re.fullmatch(r"Error executing tool [^:]*", text.strip()), text  # a crash
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], _logged(caplog)
    assert MARKER not in _logged(caplog)
    assert not Memory.objects.filter(text__contains=MARKER).exists()


def _nul_export() -> bytes:
    export = claude_export()
    export[0]["name"] = f"Divorce\x00 lawyer {MARKER}"
    export[0]["chat_messages"].append(
        claude_message("m-9", "human", f"I am a nurse\x00 and I live in {MARKER}.")
    )
    return json.dumps(export).encode()


@pytest.mark.parametrize("extractor", ["local", "none"])
def test_an_import_with_nul_in_its_messages_and_title_is_estimated_and_logs_no_text(
    owner: User, caplog: pytest.LogCaptureFixture, extractor: str
) -> None:
    owner_api = signed_in(owner)
    caplog.set_level(logging.INFO)
    upload = SimpleUploadedFile("conversations.json", _nul_export(), "application/json")
    created = owner_api.post(
        "/api/v1/imports", {"file": upload, "source": "auto", "extractor": extractor}
    )
    assert created.status_code == 201, created.content
    assert "\\u0000" not in created.content.decode()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], _logged(caplog)
    assert MARKER not in _logged(caplog)


def test_a_nul_in_a_conversation_title_does_not_fail_the_conversation(
    owner: User, tmp_path: Any
) -> None:
    path = tmp_path / "conversations.json"
    path.write_bytes(_nul_export())
    run = import_execute(
        actor=owner_actor(owner), export=load_export(path, "auto"), extractor="none"
    )
    assert run.conversations_failed == 0 and run.errors == []
    memories = Memory.objects.filter(owner=owner, provenance__conversation_id="c-1")
    assert memories.exists()
    assert {m.provenance["conversation_title"] for m in memories} == {f"Divorce lawyer {MARKER}"}
    assert memories.filter(text=f"I am a nurse and I live in {MARKER}.").exists()


def test_a_stored_import_error_never_quotes_what_the_user_wrote(
    owner: User, tmp_path: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Whatever fails inside a conversation (here a database error quoting the row it could
    not store, as PostgreSQL's do), the run's stored errors name the conversation and say in
    plain words that it was not stored; the log names the kind of failure; neither quotes the
    text."""
    from django.db import DataError

    from memories.services import import_plans

    def refuses(*args: Any, **kwargs: Any) -> Any:
        raise DataError(f'invalid input: CONTEXT: JSON data, line 1: {{"title": "{MARKER}"')

    monkeypatch.setattr(import_plans, "memory_create_many", refuses)
    caplog.set_level(logging.INFO)
    path = tmp_path / "conversations.json"
    path.write_bytes(json.dumps(claude_export()).encode())
    run = import_execute(
        actor=owner_actor(owner), export=load_export(path, "auto"), extractor="none"
    )
    assert run.conversations_failed >= 1
    stored = json.dumps(ImportRun.objects.get(pk=run.pk).errors)
    assert MARKER not in stored and "could not store it" in stored and "DataError" not in stored
    assert MARKER not in _logged(caplog) and "DataError" in _logged(caplog)


def test_a_logged_exception_keeps_its_type_and_place_but_not_what_the_user_sent() -> None:
    """The server's log formatter (every JSON line: the app, gunicorn, uvicorn): PostgreSQL's
    own refusal quotes the JSON it refused; the line names the error and where it happened."""
    from django.db import DataError, OperationalError, connection

    from kernel.logging import JsonFormatter

    def logged(exc: BaseException) -> str:
        record = logging.LogRecord(
            "django.request", logging.ERROR, __file__, 1, "boom", None, (type(exc), exc, None)
        )
        return JsonFormatter().format(record)

    try:
        with connection.cursor() as cur:
            cur.execute("SELECT %s::jsonb", [json.dumps({"title": f"\x00 {MARKER}"})])
    except DataError as exc:
        assert MARKER in str(exc)  # PostgreSQL quoted it
        line = logged(exc)
    assert MARKER not in line and "DataError" in line and "test_hostile_text.py" in line
    plumbing = logged(OperationalError("connection to server on socket failed"))
    assert "connection to server on socket failed" in plumbing


N = f"{MARKER}\x00"
# Every door a browser, a client or a stranger reaches with text, each parameter carrying a NUL:
# (persona, method, path, data). "{m}" is a memory of the owner's.
ENTRY_POINTS = [
    *[
        ("owner", "get", url, {name: N})
        for url, names in (
            ("/", ("q", "category", "app", "state", "cursor", "created_after", "before")),
            ("/activity/", ("app", "action", "older_than", "created_after")),
            ("/map/", ("app",)),
            ("/memories/{m}/", ("next",)),
            ("/review/", ("q",)),
            ("/connect/", ("app",)),
        )
        for name in names
    ],
    ("owner", "post", "/memories/add", {"text": N, "categories": N}),
    ("owner", "post", "/memories/{m}/edit", {"text": N}),
    ("owner", "post", "/memories/{m}/categories", {"categories": N}),
    ("owner", "post", "/memories/{m}/state", {"state": N}),
    ("owner", "post", "/memories/{m}/hide", {"app": N}),
    ("owner", "post", "/bulk/", {"ids": N, "action": N, "categories": N}),
    ("owner", "post", "/apps/tokens", {"name": N, "scopes": ["memories:read"]}),
    ("owner", "post", "/erase/", {"confirm": N}),
    ("owner", "post", "/import/", {"source": N, "extractor": N}),
    ("stranger", "post", "/accounts/login/", {"login": N, "password": N}),
    ("stranger", "post", "/accounts/signup/", {"email": N, "password1": N, "password2": N}),
    ("stranger", "post", "/accounts/password/reset/", {"email": N}),
    ("app", "get", "/api/v1/memories", {"text": N}),
    ("app", "get", "/api/v1/memories", {"app": N}),
    ("app", "get", "/api/v1/memories", {"cursor": N}),
    ("app", "get", "/api/v1/memories/search", {"q": N}),
    ("app", "get", "/api/v1/memories/search", {"q": "figs", "category": N}),
    ("app", "get", "/api/v1/memories/a\x00b", {}),  # a path is logged: no user text in it
    ("app", "json", "/api/v1/memories", {"text": N}),
    ("app", "json", "/api/v1/memories", {"text": "ok", "categories": [N]}),
    ("owner", "patch", "/api/v1/memories/{m}", {"text": "Owner likes plums", "reason": N}),
    ("owner", "get", "/api/v1/access-events", {"cursor": N}),
    ("owner", "json", "/api/v1/categories", {"slug": N, "description": N}),
    *[
        ("operator", "get", f"/admin/{model}/", {"q": N})
        for model in (
            "accounts/user",
            "accounts/connectedapp",
            "memories/memory",
            "activity/accessevent",
            "allauth_idp_oidc/client",
            "allauth_idp_oidc/token",
            "account/emailaddress",
            "usersessions/usersession",
        )
    ],
    ("stranger", "json", "/identity/o/api/clients", {"client_name": N, "redirect_uris": []}),
    (
        "stranger",
        "json",
        "/identity/o/api/clients",
        {"client_name": "x", "redirect_uris": [f"http://127.0.0.1/{N}"]},
    ),
    ("owner", "get", "/identity/o/authorize", {"response_type": "code", "client_id": N}),
    ("owner", "get", "/identity/o/authorize", {"client_id": "x", "redirect_uri": N}),
    ("owner", "get", "/identity/o/authorize", {"client_id": "x", "state": N}),
    ("stranger", "post", "/identity/o/api/token", {"grant_type": "authorization_code", "code": N}),
    ("stranger", "post", "/identity/o/api/token", {"grant_type": "refresh_token", "client_id": N}),
    ("stranger", "post", "/identity/o/api/token", {"grant_type": N}),
    ("stranger", "post", "/identity/o/api/revoke", {"token": N}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("persona", "method", "path", "data"), ENTRY_POINTS)
def test_a_nul_at_any_entry_point_is_refused_clearly_never_a_500(
    owner: User,
    caplog: pytest.LogCaptureFixture,
    persona: str,
    method: str,
    path: str,
    data: dict[str, Any],
) -> None:
    from django.test import Client

    from tests.personas import issue_token

    memory = memory_create(actor=owner_actor(owner), text="Owner likes figs").memory
    if persona == "owner":
        browser = signed_in(owner)
    elif persona == "operator":
        browser = signed_in(User.objects.create_superuser("op@example.com", "operator pw 1"))
    elif persona == "app":
        secret = issue_token(owner, name="App", scopes=["memories:read", "memories:write"]).secret
        browser = Client(headers={"Authorization": f"Bearer {secret}"})
    else:
        browser = Client()
    browser.raise_request_exception = False
    url = path.replace("{m}", str(memory.id))
    caplog.set_level(logging.INFO)
    if method in ("json", "patch"):
        send = browser.post if method == "json" else browser.patch
        response = send(url, json.dumps(data), content_type="application/json")
    else:
        response = getattr(browser, method)(url, data)
    assert response.status_code < 500, (response.status_code, url)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], _logged(caplog)
    assert MARKER not in _logged(caplog)
    assert not Memory.objects.filter(text__contains=MARKER).exists()
