"""The documentation site's search, in Chromium, opened the two ways the README names: served
(`uv run mkdocs serve`, or the built `site/` behind any web server) it finds pages; opened from
disk, where browsers refuse the script search runs in, it says how to open the site instead of
waiting forever at "Initializing search" (issue 39)."""

from __future__ import annotations

import functools
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.browser import launch_chromium

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 20_000
# Building the search index runs in a web worker; on a loaded CI machine it can take most of a
# minute, and a query typed before it is ready was at times never answered: the test waits for
# the index ("Initializing search" gone) before it types.
SEARCH_READY_TIMEOUT = 120_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return out


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site behind a plain web server, as `python -m http.server` serves it."""
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launch_chromium() as chromium:
        yield chromium


def _search(page: Any, words: str) -> Any:
    page.locator("label.md-search__icon, .md-search__input").first.click()
    box = page.locator("input.md-search__input")
    box.press_sequentially(words)  # key by key, as a person types: the search listens to keys
    return box


def test_served_the_search_finds_pages(browser: Any, served: str) -> None:
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{served}/index.html")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.wait_for_function(
        "() => !document.querySelector('.md-search-result__meta')"
        ".textContent.includes('Initializing')",
        timeout=SEARCH_READY_TIMEOUT,
    )
    _search(page, "erase receipt")
    results = page.locator(".md-search-result__item")
    results.first.wait_for()
    assert "Export, delete, erase" in page.locator(".md-search-result").inner_text()
    page.close()


def test_from_disk_the_search_says_how_to_open_the_site(browser: Any, site: Path) -> None:
    page = browser.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto((site / "index.html").as_uri())
    box = page.locator("input.md-search__input")
    box.wait_for(state="attached")
    placeholder = box.get_attribute("placeholder") or ""
    assert "mkdocs serve" in placeholder, placeholder
    assert box.is_disabled()
    assert page.get_by_role("link", name="Export, delete, erase").count()  # the pages still open
    page.close()
