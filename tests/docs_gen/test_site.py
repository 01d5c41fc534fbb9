"""The documentation site builds strictly and offline; the README stays a front page."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
README_ZH = (ROOT / "README.zh-CN.md").read_text()
CODE_BLOCK = re.compile(r"^```\w*\n.*?^```$", re.S | re.M)
# The exact commands .ci/run and people rely on.
START = "uv run manage.py serve                  # http://127.0.0.1:8000"
TESTS = (
    "uv run pytest                   # everything, as CI (.ci/run) runs it",
    'uv run pytest -m "not slow"     # the fast loop while you work',
)


def test_the_readme_is_a_front_page_with_the_two_commands_unchanged() -> None:
    assert len(README.splitlines()) <= 200
    assert f"```sh\n{START}\n```" in README
    assert "```sh\n" + "\n".join(TESTS) + "\n```" in README


@pytest.mark.parametrize("readme", [README, README_ZH], ids=["en", "zh-CN"])
def test_every_link_of_the_readme_leads_to_a_file(readme: str) -> None:
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [target for target in targets if "://" not in target]
    assert local, "the README links to its guide"
    assert [target for target in local if not (ROOT / target).exists()] == []


def test_the_chinese_quickstart_runs_the_english_readmes_commands_in_its_order() -> None:
    """README.zh-CN.md translates the README up to "Run it for others": its commands and
    snippets are the English ones, character for character, so a change to one shows here."""
    chinese = CODE_BLOCK.findall(README_ZH)
    assert len(chinese) >= 4
    assert chinese == CODE_BLOCK.findall(README)[: len(chinese)]
    assert "[简体中文](README.zh-CN.md)" in README and "[English](README.md)" in README_ZH


@pytest.mark.slow
def test_the_site_builds_strictly_without_a_single_asset_from_the_network(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (site / "search" / "search_index.json").exists()  # the built-in search, a local file
    external = re.compile(r"<(?:script|link|img)\b[^>]*\b(?:src|href)=\"(?:https?:)?//", re.I)
    pages = list(site.rglob("*.html"))
    assert len(pages) > 30
    assert [page.name for page in pages if external.search(page.read_text())] == []
    assert "fonts.googleapis" not in "".join(p.read_text() for p in site.rglob("*.css"))


def test_no_page_leaves_a_code_block_open() -> None:
    """An unclosed ``` swallows the rest of its page, and the strict build does not notice."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    unclosed = [
        str(page.relative_to(ROOT))
        for page in pages
        if sum(line.lstrip().startswith("```") for line in page.read_text().splitlines()) % 2
    ]
    assert unclosed == []


def test_every_json_snippet_a_person_copies_is_valid_json() -> None:
    """The client configurations (Claude Desktop, Cursor, VS Code) are pasted as they are."""
    import json

    guides = [ROOT / "docs" / "guide", ROOT / "docs" / "operator"]
    pages = [ROOT / "README.md", *sorted(p for guide in guides for p in guide.rglob("*.md"))]
    snippets = [
        (page.name, block)
        for page in pages
        for block in re.findall(r"^```json\n(.*?)\n```", page.read_text(), re.S | re.M)
    ]
    assert len(snippets) >= 4
    broken = []
    for name, block in snippets:
        try:
            json.loads(block)
        except ValueError as exc:
            broken.append(f"{name}: {exc}")
    assert broken == []


def test_every_file_of_this_repository_the_docs_name_exists() -> None:
    """A module that moves (or a test renamed) leaves no page pointing at nothing. Paths that
    start with a dot are the client's own files (`.vscode/mcp.json`), not ours."""
    path = re.compile(
        r"`([\w-][\w.-]*(?:/[\w.-]+)+\.(?:py|md|json|ya?ml|toml|html|css|js))(?:::\w+)?`"
    )
    pages = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").rglob("*.md"))]
    named = {(match, page.name) for page in pages for match in path.findall(page.read_text())}
    assert len(named) > 50
    assert sorted((name, page) for name, page in named if not (ROOT / name).exists()) == []
