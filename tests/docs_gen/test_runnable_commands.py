"""The commands the guides mark runnable (`<!-- runnable -->` before a ```sh block) still run.

Each line of such a block runs from the repository root with a fresh, empty CONTEXT_LAYER_HOME
and must exit 0. Mark only commands that need no server, network or account (`--help`, checks)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARK = "<!-- runnable -->"
_BLOCK = re.compile(r"^" + re.escape(MARK) + r"\n```(?:sh|bash|shell)\n(.*?)\n```", re.S | re.M)
_MARKS = re.compile(r"^" + re.escape(MARK) + r"$", re.M)


def runnable_commands(docs: Path = ROOT / "docs") -> list[tuple[str, str]]:
    """(page, command) for every line of every runnable block, in page order."""
    found = []
    for page in sorted(docs.rglob("*.md")):
        text = page.read_text()
        for block in _BLOCK.findall(text):
            for line in block.splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    found.append((str(page.relative_to(ROOT)), line.strip()))
        assert len(_MARKS.findall(text)) == len(_BLOCK.findall(text)), (
            f"{page}: {MARK} not before a ```sh block"
        )
    return found


COMMANDS = runnable_commands()


def test_the_guides_mark_commands_runnable_and_only_uv_run_ones() -> None:
    pages = {page for page, _ in COMMANDS}
    assert {
        "docs/guide/connect-any-client.md",
        "docs/guide/import.md",
        "docs/operator/doctor.md",
    } <= pages
    assert all(command.startswith("uv run ") for _, command in COMMANDS)


def test_a_marker_that_is_not_before_a_shell_block_is_refused(tmp_path: Path) -> None:
    (tmp_path / "page.md").write_text(f"{MARK}\n\n```json\n{{}}\n```\n")
    with pytest.raises(AssertionError, match="not before"):
        runnable_commands(tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize(("page", "command"), COMMANDS, ids=[c for _, c in COMMANDS])
def test_a_runnable_command_of_the_guides_exits_0(page: str, command: str, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env |= {"CONTEXT_LAYER_HOME": str(tmp_path / "home"), "UV_PYTHON_DOWNLOADS": "never"}
    result = subprocess.run(  # noqa: S602 - the command is the guide's, run as a reader would  # nosec B602
        command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, f"{page}: `{command}` failed:\n{result.stderr[-2000:]}"
