"""Browser tests: Playwright (sync API) driving Debian's Chromium (tests/browser.py) against
pytest-django's live server, and the steps a person takes in it (sign in, confirm the password)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import launch_chromium
from tests.conftest import OWNER_PASSWORD as PASSWORD
from tests.conftest import signed_in


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One Chromium per test module. Not per session: Playwright's sync API keeps an event loop
    running in this thread until it stops, which breaks later tests that run their own loop."""
    with launch_chromium() as browser:
        yield browser


TIMEOUT = 20_000  # ms; the machine is small and shared


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    """A desktop-sized page on the live server; CSP violations it reports are collected."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.csp_violations = []
    page.on(
        "console",
        lambda msg: "Content Security Policy" in msg.text and page.csp_violations.append(msg.text),
    )
    yield page
    context.close()


def watch_dialogs(page: Any) -> list[str]:
    """The messages of every dialog (alert, confirm) the page opens, each dismissed."""
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return dialogs


def sign_in(page: Any, email: str = "owner@example.com") -> None:
    page.goto("/accounts/login/")
    page.fill("#id_login", email)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))


def confirm_password(page: Any, password: str = PASSWORD) -> None:
    """Erase and token creation ask who is there (re-authentication) before they run; answer
    as the person would, and let allauth carry out the suspended request."""
    page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("main form button[type=submit]")


def log_in(page: Any, user: Any) -> None:
    """Signed in without the sign-in form (for journeys that are not about signing in): the
    session the form would create, as a cookie, then the memories page."""
    from django.conf import settings

    client = signed_in(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    host = "localhost"  # pytest-django's live server
    page.context.add_cookies(
        [{"name": cookie.key, "value": cookie.value, "domain": host, "path": "/"}]
    )
    page.goto("/")


def rows(page: Any) -> Any:
    return page.locator("#memory-rows > li.memory")


def row_with(page: Any, text: str) -> Any:
    return page.locator("#memory-rows > li.memory", has_text=text)
