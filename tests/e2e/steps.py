"""The steps a person takes in the browser (sign in, confirm the password, answer dialogs) and
the memory rows they see; TIMEOUT is every page's default wait, in milliseconds."""

from __future__ import annotations

import re
from typing import Any

from tests.personas import OWNER_PASSWORD as PASSWORD
from tests.personas import signed_in

TIMEOUT = 20_000  # ms; the machine is small and shared


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


def new_page(browser: Any, base_url: str, viewport: dict[str, int]) -> Any:
    """A page of a new browser context of this size; the CSP violations it reports are collected
    in `page.csp_violations`. Close its context when done (`page.context.close()`)."""
    context = browser.new_context(base_url=base_url, viewport=viewport)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.csp_violations = []
    page.on(
        "console",
        lambda msg: "Content Security Policy" in msg.text and page.csp_violations.append(msg.text),
    )
    return page


def within_width(locator: Any, width: int) -> bool:
    """Whether the element is in sight sideways on a screen this wide (not cut off, not
    scrolled away)."""
    box = locator.bounding_box()
    return bool(box) and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
