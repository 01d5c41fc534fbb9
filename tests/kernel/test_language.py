"""The language of an answer (kernel/language.py): a person's pages follow their browser (or their
choice, tests/web/test_language_views.py); what a machine reads — the REST API, MCP, the
OAuth server's JSON — stays English whatever the request asks for."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

import pytest
from django.test import Client

from accounts.models import User
from tests.mcpbridge.mcp_clients import McpHttp, text_of
from tests.personas import signed_in

CHINESE = "zh-CN,zh;q=0.9,en;q=0.5"
HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.django_db
def test_a_browser_asking_for_chinese_gets_the_sign_in_page_in_chinese() -> None:
    page = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=CHINESE)
    html = page.content.decode()
    assert page.status_code == 200
    assert '<html lang="zh-hans">' in html
    assert re.search(r"<h1>\s*登录\s*</h1>", html)  # allauth's own translation
    assert ">语言</label>" in html  # the switch, ours
    assert page["Content-Language"] == "zh-hans"
    assert "Accept-Language" in page["Vary"]


@pytest.mark.django_db
def test_allauths_own_pages_and_fields_come_in_allauths_chinese() -> None:
    """Pages and forms the project does not override (password reset, the sign-in fields) use
    allauth's own zh_Hans catalog, not one of ours."""
    reset = Client().get("/accounts/password/reset/", HTTP_ACCEPT_LANGUAGE=CHINESE)
    assert re.search(r"<h1>\s*密码重置\s*</h1>", reset.content.decode())
    login = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=CHINESE).content.decode()
    assert 'placeholder="电子邮件地址"' in login and 'placeholder="密码"' in login
    assert "忘记密码？" in login  # noqa: RUF001 (a Chinese question mark)


@pytest.mark.django_db
@pytest.mark.parametrize("asked", ["de-DE,de;q=0.9", "ja-JP,ja;q=0.9", "fr-FR,fr;q=0.9", ""])
def test_a_language_the_server_does_not_offer_falls_back_to_english(asked: str) -> None:
    page = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=asked)
    html = page.content.decode()
    assert '<html lang="en">' in html and re.search(r"<h1>\s*Sign In\s*</h1>", html)
    assert not HAN.search(html.replace("简体中文", ""))  # the switch names Chinese in Chinese
    assert page["Content-Language"] == "en"


@pytest.mark.django_db
def test_the_api_answers_in_english_whatever_the_person_or_the_browser_chose(
    owner: User,
) -> None:
    owner.language = "zh-hans"
    owner.save()
    browser = signed_in(owner)
    missing = browser.get(f"/api/v1/memories/{uuid.uuid4()}", HTTP_ACCEPT_LANGUAGE=CHINESE)
    assert missing.status_code == 404
    assert missing.json()["error"]["message"] == "No memory with that id."
    empty = browser.post(
        "/api/v1/memories",
        {"text": "   "},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=CHINESE,
    )
    assert empty.status_code == 400 and "Text is empty." in empty.content.decode()
    listed = browser.get("/api/v1/memories", HTTP_ACCEPT_LANGUAGE=CHINESE)
    assert listed.status_code == 200
    for answer in (missing, empty, listed):
        assert not HAN.search(answer.content.decode())
        assert answer.get("Content-Language") is None
    schema = browser.get("/api/v1/openapi.json", HTTP_ACCEPT_LANGUAGE=CHINESE)
    assert schema.status_code == 200 and not HAN.search(schema.content.decode())


@pytest.mark.django_db
def test_the_oauth_servers_errors_stay_english_in_a_chinese_browser() -> None:
    answer = Client().post(
        "/identity/o/api/token",
        {"grant_type": "authorization_code", "code": "made-up", "client_id": "nobody"},
        HTTP_ACCEPT_LANGUAGE=CHINESE,
    )
    assert answer.status_code in (400, 401)
    body = answer.json()
    assert body["error"] in ("invalid_client", "invalid_grant", "invalid_request")
    assert not HAN.search(answer.content.decode())
    metadata = Client().get("/.well-known/oauth-authorization-server", HTTP_ACCEPT_LANGUAGE=CHINESE)
    assert metadata.status_code == 200 and not HAN.search(metadata.content.decode())


@pytest.mark.django_db(transaction=True)
def test_mcp_answers_and_errors_stay_english_for_a_client_that_asks_for_chinese(
    owner: User, mcp_for: Callable[..., McpHttp]
) -> None:
    owner.language = "zh-hans"
    owner.save()
    client = mcp_for(owner)
    client.headers = {"Accept-Language": CHINESE}
    refused = client.call("add_memory", {"text": "   "})
    assert refused.is_error and "Text is empty." in text_of(refused)
    peanuts = "我对花生过敏，吃了会起疹子。"  # noqa: RUF001 (a Chinese comma)
    added = client.call("add_memory", {"text": peanuts})
    assert not added.is_error
    found = client.call("get_memory", {"memory_id": str(uuid.uuid4())})
    assert found.is_error and "No memory with that id." in text_of(found)
    for answer in (refused, found):
        assert not HAN.search(text_of(answer))
    # The memory itself is Chinese; everything the server wrote around it is English.
    assert not HAN.search(text_of(added).replace(peanuts, ""))
