"""The shipped embedding models' files: found in their installed packages, checked by sha256.

A model is code's input the server trusts with every memory, so nothing is loaded that does not
match the digest this release pinned."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


class EmbeddingModelUnavailable(ImproperlyConfigured):
    """A model's package is missing, a file altered, or its engine cannot be built or loaded."""


def package_file(package: str, *parts: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingModelUnavailable(
            f"The package {package!r} is not installed; it carries an offline embedding model. "
            "Run `uv sync` (it is a project dependency)."
        )
    path = Path(next(iter(spec.submodule_search_locations)), *parts)
    if not path.exists():
        raise EmbeddingModelUnavailable(
            f"{path} is missing from the installed {package!r} package."
        )
    return path


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def checked(package: str, name: str, expected: str) -> Path:
    """`name` in `package`, refused unless its sha256 is `expected`."""
    path = package_file(package, name)
    actual = sha256(path)
    if actual != expected:
        raise EmbeddingModelUnavailable(
            f"{path} has sha256 {actual}, expected {expected}: refusing an unknown {name}."
        )
    return path
