"""The check both hashed-feature models need (the instruction model, the sensitive-label model):
their weights are looked up by feature numbers, so those numbers must not move with Python's
salted hash() from one process to the next."""

from __future__ import annotations

import os
import subprocess
import sys


def features_in_fresh_processes(module: str, text: str) -> set[str]:
    """`module.features(text)` as printed by two new interpreters with different hash seeds."""
    run = f"from {module} import features; print(features(%r).tolist())"
    return {
        subprocess.run(
            [sys.executable, "-c", run % text],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ("1", "2")
    }
