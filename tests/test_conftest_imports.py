"""Helpers shared by tests live in helper modules named for what they hold (tests/personas.py,
tests/<app>/<topic>.py); conftest files hold fixtures and hooks only, and pytest finds fixtures by
name. A fixture imported from a conftest is registered again in the importing module."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def conftest_imports(source: str) -> list[int]:
    """The lines of `source` that import a conftest module or import from one, at any depth."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        if any(name.split(".")[-1] == "conftest" for name in names):
            found.append(node.lineno)
    return found


def test_every_way_of_importing_a_conftest_is_found() -> None:
    source = """
from tests.conftest import signed_in
from tests.api.conftest import token_app
import tests.mcpbridge.conftest
from tests.e2e import conftest
from tests.personas import issue_token

def later():
    from tests.accounts.conftest import sign_in
"""
    assert conftest_imports(source) == [2, 3, 4, 5, 9]


def test_no_module_under_tests_imports_from_a_conftest() -> None:
    offenders = [
        f"{path.relative_to(TESTS.parent)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        for line in conftest_imports(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "import the helper from its helper module instead"
