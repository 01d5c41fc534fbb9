"""`python -m bench <name> [args]`: a minimal dispatcher (the full one lives on feat/bench)."""

from __future__ import annotations

import sys

from bench import backfill

BENCHMARKS = {"backfill": backfill.main}


def main(argv: list[str]) -> None:
    if not argv or argv[0] not in BENCHMARKS:
        sys.exit(f"usage: python -m bench {{{','.join(BENCHMARKS)}}} [options]")
    BENCHMARKS[argv[0]](argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
