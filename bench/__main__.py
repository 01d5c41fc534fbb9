"""Dispatch `python -m bench NAME ...` to `bench.NAME.main(argv)`."""

from __future__ import annotations

import importlib
import sys


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m bench NAME [options]   (e.g. categories)")
        return 0 if argv else 2
    module = importlib.import_module(f"bench.{argv[0]}")
    return int(module.main(argv[1:]) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
