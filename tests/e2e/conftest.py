"""Browser tests: Playwright (sync API) driving Debian's Chromium against pytest-django's
live server. Playwright's sync API runs an event loop in this thread, so Django's async-safety
check must be told that the ORM calls made by fixtures here are fine."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@contextmanager
def launch_chromium(*extra_args: str) -> Iterator[Any]:
    """Debian's Chromium under Playwright (sync API), with extra command-line switches.

    While Playwright's loop runs in this thread, Django must accept the fixtures' ORM calls;
    only for the caller's module, so no other test (or subprocess) inherits the switch."""
    if not shutil.which(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *extra_args]
            )
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One Chromium per test module. Not per session: Playwright's sync API keeps an event loop
    running in this thread until it stops, which breaks later tests that run their own loop."""
    with launch_chromium() as browser:
        yield browser
