"""The layers, checked on the import graph read with `ast`, by folder alone (no list of exceptions).
The rules are stated here; the tree they apply to is drawn once, in ARCHITECTURE.md.

- the kernel imports no app;
- services never import an entry point (a package or module named `web`, `api`, `views`,
  `management` or `admin` at any depth, `mcpbridge`, `contextlayer`), and selectors never import
  their own app's services (a read records its access event through `activity.services`, an app
  below; the reverse would put a write under a read);
- `memories.extraction` and `memories.ingest` are pure: no models, no `django.db`, no services or
  selectors;
- no cycle between top-level packages (`memories`, `accounts`), nor between second-level ones
  (`memories.services`, `memories.search`, `accounts.actors`), nor between modules.

Every import counts, including those inside functions: a lazy import hides a cycle from Python's
loader, not from the design (the module still cannot be understood, or moved, without the other).
Each rule has a self-test on a small made-up graph, so none of them passes by reading nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOT_APPS = {"tests", "bench"}
ENTRY_POINT_PARTS = {"web", "api", "views", "management", "admin"}
ENTRY_POINT_PACKAGES = {"mcpbridge", "contextlayer", "api", "web"}
PURE = ("memories.extraction", "memories.ingest")

Graph = dict[str, set[str]]


def _packages(root: Path) -> list[Path]:
    return sorted(
        p for p in root.iterdir() if (p / "__init__.py").is_file() and p.name not in NOT_APPS
    )


def _modules(root: Path) -> dict[str, Path]:
    found = {}
    for package in _packages(root):
        for path in package.rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
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


def raw_imports(root: Path = ROOT) -> Graph:
    """Module → every dotted name it imports, the libraries' included."""
    return {name: set(_imported_names(name, path)) for name, path in _modules(root).items()}


def import_graph(root: Path = ROOT) -> Graph:
    """Module → the modules of the apps it imports (the nearest enclosing module of a name)."""
    modules = _modules(root)
    graph: Graph = {}
    for name, names in raw_imports(root).items():
        edges = set()
        for imported in names:
            while imported and imported not in modules:
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                edges.add(imported)
        graph[name] = edges
    return graph


def collapsed(graph: Graph, depth: int) -> Graph:
    """The graph of packages: every module named by its first `depth` parts."""
    out: Graph = {}
    for name, edges in graph.items():
        node = ".".join(name.split(".")[:depth])
        targets = {".".join(e.split(".")[:depth]) for e in edges}
        out.setdefault(node, set()).update(targets - {node})
    for edges in list(out.values()):
        for target in edges:
            out.setdefault(target, set())
    return out


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iteratively)."""
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


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _is_services(name: str) -> bool:
    return "services" in name.split(".")


def _is_selectors(name: str) -> bool:
    return "selectors" in name.split(".")


def _is_entry_point(name: str) -> bool:
    parts = name.split(".")
    return parts[0] in ENTRY_POINT_PACKAGES or bool(ENTRY_POINT_PARTS & set(parts[1:]))


def _offending(graph: Graph, source: Callable[[str], bool], target: Callable[[str], bool]) -> Graph:
    found = {name: {m for m in edges if target(m)} for name, edges in graph.items() if source(name)}
    return {name: edges for name, edges in found.items() if edges}


def kernel_imports_of_apps(graph: Graph) -> Graph:
    return _offending(graph, lambda n: _within(n, "kernel"), lambda m: not _within(m, "kernel"))


def services_imports_of_entry_points(graph: Graph) -> Graph:
    return _offending(graph, _is_services, _is_entry_point)


def selectors_imports_of_services(graph: Graph) -> Graph:
    """What a selector imports of its own app's services."""
    found = {
        name: {m for m in edges if _is_services(m) and m.split(".")[0] == name.split(".")[0]}
        for name, edges in graph.items()
        if _is_selectors(name)
    }
    return {name: edges for name, edges in found.items() if edges}


def impure_imports(graph: Graph, raw: Graph) -> Graph:
    """What `extraction` and `ingest` import of models, the database, services or selectors."""

    def pure(name: str) -> bool:
        return any(_within(name, prefix) for prefix in PURE)

    def layered(module: str) -> bool:
        parts = module.split(".")
        return bool({"models", "services", "selectors"} & set(parts))

    found = _offending(graph, pure, layered)
    for name, names in raw.items():
        database = {n for n in names if _within(n, "django.db")}
        if pure(name) and database:
            found.setdefault(name, set()).update(database)
    return found


# --- self-tests: each rule fails on a made-up graph that breaks it --------------------------------


def test_the_graph_reader_sees_a_cycle_through_a_lazy_import(tmp_path: Path) -> None:
    files = {
        "low/models.py": "def f():\n    from high import views  # lazy\n",
        "high/views.py": "from low import models\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).parent.joinpath("__init__.py").write_text("")
        (tmp_path / name).write_text(text)
    graph = import_graph(tmp_path)
    assert "high.views" in graph["low.models"] and "low.models" in graph["high.views"]
    assert cycles(collapsed(graph, 1)) == [["high", "low"]]
    assert cycles({"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}, "a.w": {"a.x"}}) == [
        ["a.x", "a.y", "a.z"]
    ]


def test_each_rule_sees_what_breaks_it() -> None:
    graph: Graph = {
        "kernel.errors": {"accounts.models"},
        "accounts.services": {"accounts.api", "kernel.errors"},
        "accounts.models": set(),
        "accounts.api": {"accounts.services"},
        "memories.services.remember": {"mcpbridge.server", "memories.search.index"},
        "memories.selectors.memories": {"memories.services.remember", "activity.services"},
        "memories.extraction.matching": {"memories.selectors.memories", "kernel.errors"},
        "memories.ingest.chatgpt": {"memories.models"},
        "memories.search.index": set(),
        "memories.models": set(),
        "mcpbridge.server": set(),
    }
    raw = {"memories.ingest.text": {"django.db.models", "json"}, "kernel.env": {"django.db"}}
    assert kernel_imports_of_apps(graph) == {"kernel.errors": {"accounts.models"}}
    assert services_imports_of_entry_points(graph) == {
        "accounts.services": {"accounts.api"},
        "memories.services.remember": {"mcpbridge.server"},
    }
    assert selectors_imports_of_services(graph) == {
        "memories.selectors.memories": {"memories.services.remember"}
    }
    assert impure_imports(graph, raw) == {
        "memories.extraction.matching": {"memories.selectors.memories"},
        "memories.ingest.chatgpt": {"memories.models"},
        "memories.ingest.text": {"django.db.models"},
    }
    assert cycles(collapsed(graph, 1)) == [["accounts", "kernel"]]
    assert cycles(collapsed(graph, 2)) == [["accounts.api", "accounts.services"]]


def test_the_rules_read_the_whole_tree() -> None:
    graph = import_graph()
    assert {"kernel", "contextlayer", "accounts", "memories", "mcpbridge"} <= set(
        collapsed(graph, 1)
    )
    assert any(_is_services(n) for n in graph) and any(_is_selectors(n) for n in graph)
    assert any(_is_entry_point(n) for n in graph)
    assert any(_within(n, PURE[0]) for n in graph) and any(_within(n, PURE[1]) for n in graph)


# --- the rules, on this tree ----------------------------------------------------------------------


def test_the_kernel_imports_no_app() -> None:
    assert kernel_imports_of_apps(import_graph()) == {}


def test_services_never_import_an_entry_point() -> None:
    assert services_imports_of_entry_points(import_graph()) == {}


def test_selectors_never_import_services() -> None:
    assert selectors_imports_of_services(import_graph()) == {}


def test_extraction_and_ingest_import_no_models_database_services_or_selectors() -> None:
    assert impure_imports(import_graph(), raw_imports()) == {}


def test_no_top_level_package_imports_itself_back_through_others() -> None:
    assert cycles(collapsed(import_graph(), 1)) == []


def test_no_second_level_package_imports_itself_back_through_others() -> None:
    assert cycles(collapsed(import_graph(), 2)) == []


def test_no_module_imports_itself_back_through_others() -> None:
    assert cycles(import_graph()) == []
