"""Pytest plugin: every query our code runs on a tenant table must carry its owner predicate.

Installed for the whole suite from tests/conftest.py. A `connection.execute_wrapper` sits on every
database connection the test process opens (the main thread and the uvicorn/MCP server threads
alike), parses each statement that names a tenant table (tests/owner_sql.py says what counts as
filtered by owner) and decides whose query it is by walking the Python stack from the query
outwards to the first frame of this repository:

- a frame of our app code (accounts/, memories/, contextlayer/, mcpbridge/, bench/), or Django's
  request handler (so admin and allauth views, whose querysets are evaluated inside Django, count
  as the app): the query is **checked**;
- a frame under tests/ first: a fixture creating rows or an assertion reading them. It is counted
  but not checked; test code may look at any tenant's rows to prove isolation;
- none at all (test database creation, flushes between tests) or a migration: not checked.

Why the stack and not "only while a request is in progress": services, MCP tools, tasks and
management commands are all called directly by tests, and they must be checked too; the nearest
frame says who built the query. The price is that a lazy queryset returned by app code and
evaluated in a test counts as the test's (the view/tool paths evaluate inside app code).

Exemptions, each counted by reason in the summary line:
- `with cross_tenant("why")` (kernel/tenancy.py) around a deliberately owner-free path;
- Django's own row navigation from rows already loaded by a checked query: the deletion
  collector's cascades, related-object descriptors and prefetches. These are accepted only when
  every unfiltered reference is *keyed* (its primary key, or a foreign key between tenant tables,
  equal to given values); the owner-checked fetch that produced those keys was checked itself.

A violation fails the test that caused it (at teardown) and is listed at the end of the session.

Not covered: servers the tests start as subprocesses (stdio MCP, gunicorn) run their queries in
another process; and the check proves that an owner predicate is present, not that its value is
the acting user's (the isolation property tests in tests/reliability prove that end to end).
"""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import django
import pytest
from django.db import connections
from django.db.backends.signals import connection_created

from kernel.tenancy import cross_tenant_reason
from tests.owner_sql import Analysis, analyze

ROOT = Path(__file__).resolve().parent.parent
_ROOT = f"{ROOT}/"
_TESTS = f"{ROOT}/tests/"
_VENV = f"{ROOT}/.venv/"
_DJANGO = f"{Path(django.__file__).parent}/"
_SKIP = {__file__, str(Path(__file__).with_name("owner_sql.py"))}
_NAVIGATION = {
    "db/models/deletion.py": "django deletion cascade by keys of collected rows",
    "db/models/fields/related_descriptors.py": "django related-object access from a loaded row",
    "db/models/query.py:prefetch_one_level": "django prefetch by keys of loaded rows",
}
_HANDLER = f"{_DJANGO}core/handlers/base.py"

_forced_app: ContextVar[bool] = ContextVar("owner_check_forced_app", default=False)


@dataclass(frozen=True)
class Violation:
    site: str
    sql: str
    tables: tuple[str, ...]

    def __str__(self) -> str:
        sql = self.sql if len(self.sql) < 500 else f"{self.sql[:150]} … {self.sql[-350:]}"
        return f"{self.site}: owner-free query on {', '.join(self.tables)}: {sql}"


@dataclass
class Tally:
    checked: int = 0
    passed: int = 0
    test_code: int = 0
    not_ours: int = 0
    exempted: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


TALLY = Tally()
_capture: list[list[Violation]] = []


@contextmanager
def as_app_code() -> Iterator[None]:
    """Treat queries in the block as app code even though a test runs them (for self-tests)."""
    token = _forced_app.set(True)
    try:
        yield
    finally:
        _forced_app.reset(token)


@contextmanager
def captured_violations() -> Iterator[list[Violation]]:
    """Collect violations into a list instead of failing the test (for self-tests)."""
    found: list[Violation] = []
    _capture.append(found)
    try:
        yield found
    finally:
        _capture.remove(found)


def _ours(filename: str) -> bool:
    return filename.startswith(_ROOT) and not filename.startswith(_VENV) and filename not in _SKIP


def _origin(frame: FrameType | None) -> tuple[str, str, str | None]:
    """(kind, site, navigation): kind is app, test, migration or library."""
    navigation: str | None = None
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(_DJANGO):
            rel = filename[len(_DJANGO) :]
            reason = _NAVIGATION.get(rel) or _NAVIGATION.get(f"{rel}:{frame.f_code.co_name}")
            navigation = navigation or reason
            if filename == _HANDLER:
                return "app", "django request handler", navigation
        elif _ours(filename):
            site = f"{filename[len(_ROOT) :]}:{frame.f_lineno}"
            if filename.startswith(_TESTS):
                return ("app" if _forced_app.get() else "test"), site, navigation
            if "/migrations/" in filename:
                return "migration", site, navigation
            return "app", site, navigation
        frame = frame.f_back
    return "library", "", navigation


def inspect_query(sql: str, frame: FrameType | None) -> None:
    analysis: Analysis = analyze(sql)
    if not analysis.tables:
        return
    kind, site, navigation = _origin(frame)
    with TALLY.lock:
        if kind == "test":
            TALLY.test_code += 1
            return
        if kind != "app":
            TALLY.not_ours += 1
            return
        TALLY.checked += 1
        if analysis.ok:
            TALLY.passed += 1
            return
        reason = cross_tenant_reason()
        if reason is None and navigation and all(u.keyed for u in analysis.unfiltered):
            reason = navigation
        if reason is not None:
            TALLY.exempted[reason] += 1
            return
        tables = tuple(sorted({u.table for u in analysis.unfiltered}))
        violation = Violation(site, " ".join(sql.split()), tables)
        if _capture:
            _capture[-1].append(violation)
        else:
            TALLY.violations.append(violation)


def _wrapper(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    inspect_query(sql, sys._getframe(1))
    return execute(sql, params, many, context)


def _install(sender: Any = None, connection: Any = None, **_: Any) -> None:
    # First in the list: Django's execute_wrapper() pops the last one when its block ends.
    if connection is not None and _wrapper not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, _wrapper)


@pytest.fixture(scope="session", autouse=True)
def _owner_predicate_installed() -> Iterator[None]:
    connection_created.connect(_install, weak=False, dispatch_uid="owner-predicate-check")
    for conn in connections.all(initialized_only=True):
        _install(connection=conn)
    yield
    connection_created.disconnect(dispatch_uid="owner-predicate-check")


@pytest.fixture(autouse=True)
def _owner_predicate_enforced(_owner_predicate_installed: None) -> Iterator[None]:
    before = len(TALLY.violations)
    yield
    new = TALLY.violations[before:]
    if new:
        pytest.fail(
            "queries on tenant tables without an owner predicate:\n"
            + "\n".join(f"  {v}" for v in new),
            pytrace=False,
        )


def summary_line() -> str:
    reasons = ", ".join(f"{reason}: {n}" for reason, n in TALLY.exempted.most_common())
    return (
        f"owner-predicate: queries checked={TALLY.checked} on tenant tables, "
        f"violations={len(TALLY.violations)}, exempted={sum(TALLY.exempted.values())} "
        f"({reasons or 'none'}); not checked: {TALLY.test_code} from test code, "
        f"{TALLY.not_ours} from migrations/test database setup"
    )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not (TALLY.checked or TALLY.test_code):
        return
    terminalreporter.write_sep("-", "owner predicate")
    for violation in dict.fromkeys(TALLY.violations):
        terminalreporter.write_line(f"VIOLATION {violation}")
    terminalreporter.write_line(summary_line())
