"""The import graph of the apps, read with `ast`: no cycles, accounts' domain below memories, the
access log (`activity`) below memories too, and contextlayer's shared modules below every app.

Every import counts, including those inside functions: a lazy import hides a cycle from Python's
loader, not from the design (the module still cannot be understood, or moved, without the other).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "activity", "memories", "mcpbridge", "contextlayer")

# The domain of accounts: who acts, through which app, with which grant and credential.
ACCOUNTS_DOMAIN = (
    "accounts.models",
    "accounts.services",
    "accounts.selectors",
    "accounts.actors",
    "accounts.client_tokens",
    "accounts.oauth_tokens",
    "accounts.credentials",
    "accounts.oidc",
)
# contextlayer's composition root: where the apps are put together (settings names them as
# strings only). Every other contextlayer module is shared and imports no app.
COMPOSITION_ROOT = {
    "contextlayer.settings",
    "contextlayer.urls",
    "contextlayer.asgi",
    "contextlayer.api",  # the one NinjaAPI, with each app's router
    "contextlayer.api_auth",  # the API's credential seam
    "contextlayer.body_limit",  # the ASGI wrapper in front of MCP, uploads and Django
}


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported_names(name: str, path: Path) -> Iterator[str]:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)  # a submodule, maybe


def import_graph() -> dict[str, set[str]]:
    """Module → the modules of the apps it imports (the nearest enclosing module of a name)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for imported in _imported_names(name, path):
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                edges.add(imported)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_reader_sees_a_cycle_through_a_lazy_import() -> None:
    graph = {"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}, "a.w": {"a.x"}}
    assert cycles(graph) == [["a.x", "a.y", "a.z"]]
    graph = import_graph()
    assert "memories.visibility" in graph["memories.services"]
    assert "contextlayer.errors" in graph["accounts.services"]
    assert "activity.audit" in graph["accounts.services"]
    assert "accounts.actors" in graph["activity.audit"]


def test_no_module_of_the_apps_imports_itself_back_through_others() -> None:
    assert cycles(import_graph()) == []


def _shared(graph: dict[str, set[str]]) -> set[str]:
    return {n for n in graph if n.split(".")[0] == "contextlayer" and n not in COMPOSITION_ROOT}


def test_the_domain_of_accounts_does_not_import_memories_or_the_mcp_bridge() -> None:
    graph = import_graph()
    assert set(ACCOUNTS_DOMAIN) <= set(graph)  # a renamed module must be renamed here too
    upward = {
        name: sorted(m for m in graph[name] if m.split(".")[0] in ("memories", "mcpbridge"))
        for name in ACCOUNTS_DOMAIN
    }
    assert {name: found for name, found in upward.items() if found} == {}


def test_the_access_log_imports_only_the_accounts_domain_and_shared_modules() -> None:
    """Every service records in the access log, accounts' included: it may name an actor and a
    connected app, never a memory module or a front door (that would put it above its callers)."""
    graph = import_graph()
    activity = {n for n in graph if n.split(".")[0] == "activity"}
    assert {"activity.models", "activity.audit"} <= activity
    allowed = activity | set(ACCOUNTS_DOMAIN) | _shared(graph)
    outside = {name: sorted(graph[name] - allowed) for name in activity}
    assert {name: found for name, found in outside.items() if found} == {}


def test_contextlayers_shared_modules_import_no_app() -> None:
    graph = import_graph()
    shared = _shared(graph)
    assert "contextlayer.errors" in shared and "contextlayer.tenancy" in shared
    apps = {
        name: sorted(m for m in graph[name] if m.split(".")[0] != "contextlayer") for name in shared
    }
    assert {name: found for name, found in apps.items() if found} == {}
