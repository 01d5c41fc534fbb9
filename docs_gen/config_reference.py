"""The configuration reference: every environment variable the code reads, in one table.

Found by parsing the code (no import): every call of the env readers (`env_str`, `env_int`, …,
`env_secret`, which also reads NAME_FILE) and every `os.environ.get`/`os.getenv` with a literal
name, in the project's own modules. The meaning of each comes from `.env.example`, the file an
operator copies from: the comment on the variable's line, or else the comment block above it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV_EXAMPLE = ROOT / ".env.example"
PAGE = "reference/configuration.md"

# Folders that are not the running server: their environment reads are not settings.
_NOT_SERVER = {".venv", ".git", "tests", "bench", "docs_gen", "conformance", "node_modules", "site"}
_READERS = {"env_str", "env_bool", "env_int", "env_list", "env_choice", "env_secret", "env_rate"}
# Where each reader takes its default: (positional index, keyword).
_DEFAULT_ARG = {"env_choice": 2}
_KIND = {
    "env_str": "text",
    "env_bool": "true/false",
    "env_int": "integer",
    "env_list": "comma-separated list",
    "env_choice": "one of",
    "env_secret": "secret",
    "env_rate": "rate (N/s, N/m, N/h, N/d)",
}


@dataclass
class Variable:
    name: str
    kind: str
    default: str | None = None  # None: no default in the code (unset)
    choices: list[str] = field(default_factory=list)


def server_modules(root: Path = ROOT) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("*.py")
        if not _NOT_SERVER.intersection(path.relative_to(root).parts[:-1])
    )


def _literal(node: ast.expr) -> object:
    """A constant expression (`512 * 1024`, `"x"`, `[...]`) evaluated; ValueError otherwise."""
    allowed = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.List, ast.Tuple, ast.operator, ast.unaryop)
    if not all(isinstance(n, (*allowed, ast.expr_context)) for n in ast.walk(node)):
        raise ValueError("not a constant expression")
    code = compile(ast.Expression(body=node), "<default>", "eval")
    return eval(code, {"__builtins__": {}}, {})  # noqa: S307 - only constants and arithmetic, checked above  # nosec B307


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(item) for item in value)
    return str(value)


def _default(call: ast.Call, reader: str) -> str | None:
    index = _DEFAULT_ARG.get(reader, 1)
    node = next((kw.value for kw in call.keywords if kw.arg == "default"), None)
    if node is None and len(call.args) > index:
        node = call.args[index]
    if node is None:
        return {"env_bool": "false", "env_list": ""}.get(reader)
    try:
        return _show(_literal(node))
    except ValueError:
        return f"computed: `{ast.unparse(node)}`"


def _name(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _is_environ_get(func: ast.expr) -> bool:
    text = ast.unparse(func)
    return text in {"os.environ.get", "os.getenv", "environ.get"}


def read_variables(root: Path = ROOT) -> dict[str, Variable]:
    """Every variable the server's code reads from the environment, by name."""
    found: dict[str, Variable] = {}
    for path in server_modules(root):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            reader = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            name = _name(node.args[0]) if node.args else None
            if name is None:
                continue
            if reader in _READERS:
                variable = Variable(name, _KIND[reader], _default(node, reader))
                if reader == "env_choice" and isinstance(node.args[1], ast.Tuple):
                    variable.choices = [str(_literal(e)) for e in node.args[1].elts]
                found.setdefault(name, variable)
                if reader == "env_secret":
                    found.setdefault(f"{name}_FILE", Variable(f"{name}_FILE", "file path"))
            elif _is_environ_get(func):
                default = _name(node.args[1]) if len(node.args) > 1 else None
                found.setdefault(name, Variable(name, "text", default))
    return found


_SETTING = re.compile(r"^#\s*([A-Z][A-Z0-9_]+)=(.*)$")


def _clean(text: str) -> str:
    return " ".join(text.split())


def documented_meanings(path: Path = ENV_EXAMPLE) -> dict[str, str]:
    """Each variable `.env.example` shows (as `# NAME=value`), in its order, with its meaning.

    The meaning is the comment after the value (continued on lines indented past the `#`), or,
    without one, the comment block above the group of variables it belongs to.
    """
    meanings: dict[str, str] = {}
    block: list[str] = []
    in_group = False  # the previous line was a variable: a new comment starts a new block
    continued: str | None = None  # the variable whose trailing comment may continue
    for raw in path.read_text().splitlines():
        line = raw.strip()
        setting = _SETTING.match(line)
        if setting:
            name, rest = setting.groups()
            comment = rest.partition("  #")[2]
            meanings[name] = _clean(comment) or _clean(" ".join(block))
            continued = name if comment else None
            in_group = True
        elif continued and re.match(r"^#\s{4,}\S", line):
            meanings[continued] += " " + _clean(line.lstrip("# "))
        elif line.startswith("#"):
            if in_group:
                block = []
            block.append(line.lstrip("#").strip())
            in_group, continued = False, None
        else:
            block, in_group, continued = [], False, None
    return meanings


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render(root: Path = ROOT) -> str:
    variables = read_variables(root)
    meanings = documented_meanings(root / ".env.example")
    order = [name for name in meanings if name in variables]
    order += sorted(name for name in variables if name not in meanings)
    rows = []
    for name in order:
        variable = variables[name]
        kind = variable.kind
        if variable.choices:
            kind = "one of " + ", ".join(f"`{choice}`" for choice in variable.choices)
        default = variable.default
        shown = "unset" if default is None or default == "" else default
        if not shown.startswith("computed"):
            shown = f"`{shown}`" if shown != "unset" else shown
        meaning = meanings.get(name, "**not documented in .env.example**")
        rows.append(f"| `{name}` | {_cell(kind)} | {_cell(shown)} | {_cell(meaning)} |")
    return "\n".join(
        [
            "# Configuration reference",
            "",
            "<!-- Generated by `uv run python -m docs_gen` from the code and .env.example:",
            "     do not edit by hand. -->",
            "",
            f"Every environment variable the server reads ({len(order)}), in the order of",
            "`.env.example`. The default is the one in the code; *computed* defaults depend on",
            "other settings. Settings come from the environment only; see",
            "[Configuration](../operator/configuration.md) for the ones that matter most.",
            "",
            "| variable | kind | default | meaning |",
            "|---|---|---|---|",
            *rows,
            "",
        ]
    )
