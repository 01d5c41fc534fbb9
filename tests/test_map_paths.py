"""The map (ARCHITECTURE.md, and CONTRIBUTING.md, which links to it) names only what exists: every
path it writes in backticks (`a/b.py`, `a/b/`) and every `module::name` (a top-level name, or
`Class.attr`, of that module, read with `ast`), so a move or a rename that forgets the map fails
here instead of leaving a newcomer a wrong address.

Fenced blocks are left out (shell commands with made-up paths, the drawn tree); so are spans that
hold a placeholder (`<user>`, `*`, `…`) and URLs. A self-test on a made-up document and tree shows
the check reads what it should and fails when a named path or name is removed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAP = ("ARCHITECTURE.md", "CONTRIBUTING.md")

FENCE = re.compile(r"^```.*?^```", re.M | re.S)
SPAN = re.compile(r"`([^`\n]+)`")
PLACEHOLDER = re.compile(r"[<>*{}…\[\]]|\.\.\.|://")
NAMED = re.compile(r"(?P<module>[\w./-]+)::(?P<name>[A-Za-z_][\w.]*)")
PATH = re.compile(r"(?<![\w./-])(?P<path>[\w.-]+(?:/[\w.-]+)*(?:/|\.[a-z]{1,5}))(?![\w/-])")


def named_in(text: str) -> list[str]:
    """Every path and `module::name` the text writes in an inline backtick span."""
    found = []
    for span in SPAN.findall(FENCE.sub("", text)):
        if PLACEHOLDER.search(span):
            continue
        for token in span.split():
            if token.startswith("/"):
                continue  # a URL path, not a file
            if NAMED.fullmatch(token) or ("/" in token and PATH.fullmatch(token)):
                found.append(token)
    return found


def _module_file(root: Path, module: str) -> Path:
    if module.endswith(".py"):
        return root / module
    file = root / Path(*module.split("."))
    return file / "__init__.py" if file.is_dir() else file.with_suffix(".py")


def _bound(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """Names a block of statements defines (not those it imports)."""
    names: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        names[leaf.id] = node
    return names


def _has_name(file: Path, name: str) -> bool:
    scope = _bound(ast.parse(file.read_text(encoding="utf-8")).body)
    head, _, attr = name.partition(".")
    node = scope.get(head)
    if node is None:
        return False
    if not attr:
        return True
    return isinstance(node, ast.ClassDef) and attr in _bound(node.body)


def missing(root: Path, names: list[str]) -> list[str]:
    """The names that do not exist under `root`."""
    gone = []
    for token in names:
        match = NAMED.fullmatch(token)
        if match:
            file = _module_file(root, match["module"])
            if not file.is_file() or not _has_name(file, match["name"]):
                gone.append(token)
        elif not (root / token).exists() or (token.endswith("/") and not (root / token).is_dir()):
            gone.append(token)
    return gone


def test_the_map_names_only_paths_and_names_that_exist() -> None:
    for doc in MAP:
        names = named_in((ROOT / doc).read_text(encoding="utf-8"))
        assert len(names) >= 10, f"{doc}: the check read almost nothing ({names})"
        assert missing(ROOT, names) == [], f"{doc} names what does not exist"


def test_architecture_names_a_module_name_and_a_folder() -> None:
    names = named_in((ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8"))
    assert any("::" in n for n in names) and any(n.endswith("/") for n in names)


MADE_UP_DOC = """# A map

`shop/` holds the shop: `shop/cart.py` (the cart, `shop/cart.py::Cart.total` and
`shop.cart::checkout`), its prices in `shop/prices.json`, and `shop.cart::TAX` beside
`kernel.ratelimit.take`, `RATE_LIMIT`, `/api/v1/cart`, `<user>/index.snap`, `a*.py` and
`manage.py doctor`, which are not paths.

```sh
uv run pytest tests/made_up/test_x.py
```
"""

MADE_UP_MODULE = """
import os
from json import loads as checkout_json

TAX: float = 0.2


class Cart:
    total = 0

    def add(self) -> None: ...


def checkout() -> None: ...
"""


def _made_up_tree(root: Path) -> None:
    (root / "shop").mkdir()
    (root / "shop" / "__init__.py").write_text("")
    (root / "shop" / "cart.py").write_text(MADE_UP_MODULE)
    (root / "shop" / "prices.json").write_text("{}")


def test_the_check_reads_a_made_up_document_and_fails_when_a_named_path_is_removed(
    tmp_path: Path,
) -> None:
    _made_up_tree(tmp_path)
    names = named_in(MADE_UP_DOC)
    assert names == [
        "shop/",
        "shop/cart.py",
        "shop/cart.py::Cart.total",
        "shop.cart::checkout",
        "shop/prices.json",
        "shop.cart::TAX",
    ]
    assert missing(tmp_path, names) == []

    (tmp_path / "shop" / "prices.json").unlink()
    assert missing(tmp_path, names) == ["shop/prices.json"]

    (tmp_path / "shop" / "cart.py").unlink()
    assert missing(tmp_path, names) == [
        "shop/cart.py",
        "shop/cart.py::Cart.total",
        "shop.cart::checkout",
        "shop/prices.json",
        "shop.cart::TAX",
    ]


def test_the_check_fails_on_a_name_the_module_does_not_define(tmp_path: Path) -> None:
    _made_up_tree(tmp_path)
    imported_or_absent = [
        "shop/cart.py::os",  # imported, not defined there
        "shop/cart.py::checkout_json",
        "shop/cart.py::Cart.remove",
        "shop/cart.py::checkout.inner",  # a function's insides are not a name of the module
        "shop.till::Till",
        "shop/cart/",  # a file named as a folder
    ]
    assert missing(tmp_path, imported_or_absent) == imported_or_absent
    assert missing(tmp_path, ["shop/cart.py::Cart.add", "shop/"]) == []
