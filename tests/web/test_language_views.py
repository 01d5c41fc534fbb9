"""The language switch (web/views/language.py): in Account it is saved on the account and
applies from the next page on, on every browser the person signs in from; on the sign-in page it
is kept in a cookie. kernel/language.py applies it; tests/kernel/test_language.py covers the
browser's own language and the machines' English."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.actors import owner_actor
from accounts.languages import user_language_set
from accounts.models import User
from kernel.errors import InvalidInput
from tests.personas import signed_in

ENGLISH = "en-US,en;q=0.9"
GERMAN = "de-DE,de;q=0.9"
JAPANESE = "ja-JP,ja;q=0.9"
CHINESE = "zh-CN,zh;q=0.9"


def _lang(page_html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', page_html)
    assert found, "every page names its language"
    return found.group(1)


def test_the_account_menu_offers_the_switch_with_the_persons_choice_selected(owner: User) -> None:
    owner.language = "zh-hans"
    owner.save()
    html = signed_in(owner).get("/", HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()
    assert 'id="language-account"' in html
    assert re.search(r'<option value="zh-hans" lang="zh-hans" selected>简体中文</option>', html)
    assert "<summary>账号</summary>" in html


def test_choosing_chinese_in_account_is_saved_and_the_next_page_is_chinese(owner: User) -> None:
    browser = signed_in(owner)
    assert _lang(browser.get("/", HTTP_ACCEPT_LANGUAGE=GERMAN).content.decode()) == "en"
    answer = browser.post(
        "/language/", {"language": "zh-hans", "next": "/trash/"}, HTTP_ACCEPT_LANGUAGE=GERMAN
    )
    assert answer.status_code == 302 and answer["Location"] == "/trash/"
    owner.refresh_from_db()
    assert owner.language == "zh-hans"
    page = browser.get("/trash/", HTTP_ACCEPT_LANGUAGE=GERMAN)
    assert _lang(page.content.decode()) == "zh-hans"
    assert "回收站" in page.content.decode()


@pytest.mark.parametrize("browser_language", [ENGLISH, GERMAN, JAPANESE])
def test_the_accounts_language_follows_the_person_to_another_browser(
    owner: User, browser_language: str
) -> None:
    user_language_set(actor=owner_actor(owner), language="zh-hans")
    elsewhere = signed_in(owner)  # no cookie of this browser's
    page = elsewhere.get("/", HTTP_ACCEPT_LANGUAGE=browser_language)
    assert _lang(page.content.decode()) == "zh-hans"
    # And it keeps the sign-in page in Chinese on that browser after signing out.
    elsewhere.post("/accounts/logout/")
    after = elsewhere.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=browser_language)
    assert _lang(after.content.decode()) == "zh-hans"


def test_choosing_the_browsers_language_again_forgets_the_choice(owner: User) -> None:
    browser = signed_in(owner)
    browser.post("/language/", {"language": "zh-hans", "next": "/"})
    browser.post("/language/", {"language": "", "next": "/"})
    owner.refresh_from_db()
    assert owner.language == ""
    assert _lang(browser.get("/", HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()) == "en"
    assert _lang(browser.get("/", HTTP_ACCEPT_LANGUAGE=CHINESE).content.decode()) == "zh-hans"


@pytest.mark.parametrize("asked", ["de", "ja", "xx", "zh-hans<script>"])
def test_a_language_the_server_does_not_offer_changes_nothing(owner: User, asked: str) -> None:
    owner.language = "zh-hans"
    owner.save()
    browser = signed_in(owner)
    answer = browser.post("/language/", {"language": asked, "next": "/"})
    assert answer.status_code == 302
    owner.refresh_from_db()
    assert owner.language == "zh-hans"
    with pytest.raises(InvalidInput):
        user_language_set(actor=owner_actor(owner), language=asked)


def test_the_switch_returns_only_to_a_page_of_this_site(owner: User) -> None:
    answer = signed_in(owner).post(
        "/language/", {"language": "zh-hans", "next": "https://elsewhere.example/"}
    )
    assert answer.status_code == 302 and answer["Location"] == "/"


def test_the_sign_in_pages_switch_keeps_the_choice_in_a_cookie(db: None) -> None:
    browser = Client()
    answer = browser.post(
        "/language/",
        {"language": "zh-hans", "next": "/accounts/login/"},
        HTTP_ACCEPT_LANGUAGE=GERMAN,
    )
    assert answer.status_code == 302
    assert answer.cookies["django_language"].value == "zh-hans"
    page = browser.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=GERMAN).content.decode()
    assert _lang(page) == "zh-hans" and re.search(r"<h1>\s*登录\s*</h1>", page)


def test_the_switch_takes_only_a_post(owner: User) -> None:
    assert signed_in(owner).get("/language/?language=zh-hans").status_code == 405
    owner.refresh_from_db()
    assert owner.language == ""
