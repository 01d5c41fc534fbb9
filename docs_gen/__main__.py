"""Write the generated reference pages: `uv run python -m docs_gen` (`--check`: fail if stale)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pages() -> dict[str, Callable[[], str]]:
    """Each generated page (relative to docs/) and its generator; sets Django up first."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "contextlayer.settings")
    os.environ["MEM0_TELEMETRY"] = "False"
    import django

    django.setup()
    from docs_gen import api_reference, config_reference, mcp_reference

    return {
        config_reference.PAGE: config_reference.render,
        mcp_reference.PAGE: mcp_reference.render,
        api_reference.PAGE: api_reference.render,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m docs_gen", description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed page is stale")
    args = parser.parse_args(argv)
    stale = []
    for page, render in pages().items():
        path = ROOT / "docs" / page
        text = render()
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(page)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    for page in stale:
        print(f"docs/{page} is stale: run `uv run python -m docs_gen`", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
