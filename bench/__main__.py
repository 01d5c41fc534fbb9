"""`python -m bench <name>`: each benchmark prints readable lines, then one JSON object last."""

from __future__ import annotations

import argparse

from bench import add, locomo, locomo_sweep, search
from bench.environment import setup_django


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    sub = parser.add_subparsers(dest="name", required=True)
    for module in (add, search, locomo, locomo_sweep):
        module.register(sub)
    args = parser.parse_args(argv)
    setup_django(args.database_url)
    args.run(args)


if __name__ == "__main__":
    main()
