"""Browser tests: Playwright (sync API) driving Debian's Chromium (tests/browser.py) against
pytest-django's live server. The steps a person takes in it (sign in, confirm the password) are
in tests/e2e/steps.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import launch_chromium
from tests.e2e.steps import new_page


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One Chromium per test module. Not per session: Playwright's sync API keeps an event loop
    running in this thread until it stops, which breaks later tests that run their own loop."""
    with launch_chromium() as browser:
        yield browser


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    """A desktop-sized page on the live server; CSP violations it reports are collected."""
    page = new_page(browser, live_server.url, {"width": 1280, "height": 900})
    yield page
    page.context.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder drives Chromium: all are slow (`-m "not slow"` leaves them out)."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.slow)
