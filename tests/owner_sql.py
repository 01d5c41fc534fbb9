"""Does a SQL statement constrain every tenant table it touches to one owner? (parsed, not grepped)

A *tenant table* is a table of our own apps (accounts, activity, memories) whose model has an
`owner` foreign key to the user: each of its rows belongs to exactly one user. Every other table of
those apps is listed in `NOT_TENANT` with the reason it is not one, and a test keeps the two lists
complete, so a new model forces the decision.

What counts as "filtered by owner", per reference to a tenant table in a SELECT, UPDATE or DELETE
(every query block is checked, subqueries and CTEs included):

- a top-level conjunct of its block's WHERE or of a JOIN ... ON: `t.owner_id = <value>`,
  `t.owner_id IN (<values>)` or `t.owner_id = ANY(<value>)`, where a value holds no column;
  anything under an OR does not count;
- a join to a table that is itself constrained: `t.owner_id = u.owner_id`, or along a foreign key
  between two tenant tables (`v.memory_id = m.id`, either direction), because such a key only
  ever links rows of the same owner;
- `t.col IN (SELECT u.col2 FROM ...)` where `u` is constrained inside the subquery and the two
  columns are linked the same way (how Django writes updates and deletes through joins).

An INSERT into a tenant table must name the owner column. A reference that is only *keyed*
(its primary key, or a foreign key to another tenant table, equal to given values) is reported
as such: the query checker accepts it only from Django's own row navigation (see
`tests/owner_queries.py`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import sqlglot
from django.apps import apps
from django.conf import settings
from sqlglot import exp

NOT_TENANT = {
    "accounts_user": "the user row itself: read by id or email to find the owner",
    "accounts_invitation": "instance-wide sign-up links created by operators, owned by no user",
    "memories_erasurereceipt": "proof of an erasure, deliberately without a link to the user",
    "accounts_rotatedrefreshtoken": "part of allauth's token store (like its Token, keyed by "
    "the token's hash and the user): the token endpoint finds a replayed token by its hash",
}
OWNER_APPS = ("accounts", "activity", "memories")


@dataclass(frozen=True)
class TenantSchema:
    owner: dict[str, str]  # table -> owner column
    pk: dict[str, str]  # table -> primary key column
    links: frozenset[tuple[str, str, str]]  # (table, fk column, target tenant table)


@cache
def tenant_schema() -> TenantSchema:
    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    models = [m for label in OWNER_APPS for m in apps.get_app_config(label).get_models()]
    owner: dict[str, str] = {}
    for model in models:
        field = next((f for f in model._meta.fields if f.name == "owner"), None)
        if field is not None and field.related_model is user_model:
            owner[model._meta.db_table] = str(field.column)
    pk = {m._meta.db_table: str(m._meta.pk.column) for m in models if m._meta.db_table in owner}
    links = frozenset(
        (m._meta.db_table, str(f.column), f.related_model._meta.db_table)
        for m in models
        if m._meta.db_table in owner
        for f in m._meta.fields
        if f.is_relation and f.related_model is not None and f.related_model._meta.db_table in owner
    )
    return TenantSchema(owner=owner, pk=pk, links=links)


@dataclass(frozen=True)
class Unfiltered:
    """One reference to a tenant table that the statement does not tie to an owner."""

    table: str
    keyed: bool  # constrained by its primary key / a tenant foreign key to given values
    detail: str


@dataclass(frozen=True)
class Analysis:
    tables: frozenset[str]  # tenant tables the statement touches
    unfiltered: tuple[Unfiltered, ...]

    @property
    def ok(self) -> bool:
        return not self.unfiltered


_NOTHING = Analysis(frozenset(), ())
_BLOCKS = (exp.Select, exp.Update, exp.Delete)


def analyze(sql: str) -> Analysis:
    schema = tenant_schema()
    if not any(table in sql for table in schema.owner):
        return _NOTHING  # cheap pre-filter; the decision itself is made on the parse tree
    return _analyze(sql)


@cache
def _analyze(sql: str) -> Analysis:
    schema = tenant_schema()
    try:
        statements = [s for s in sqlglot.parse(sql, read="postgres") if s is not None]
    except sqlglot.errors.SqlglotError as error:
        hit = frozenset(t for t in schema.owner if t in sql)
        return Analysis(hit, tuple(Unfiltered(t, False, f"unparsed: {error}") for t in hit))
    tables: set[str] = set()
    unfiltered: list[Unfiltered] = []
    for statement in statements:
        solver = _Solver(schema)
        seen: set[int] = set()
        for insert in statement.find_all(exp.Insert):
            seen.add(id(_insert_target(insert)))
            tables.update(solver.check_insert(insert, unfiltered))
        for block in statement.find_all(*_BLOCKS):
            solver.solve(block)
        for block in statement.find_all(*_BLOCKS):
            for alias, node in solver.sources(block).items():
                seen.add(id(node))
                table = node.name
                if table not in schema.owner:
                    continue
                tables.add(table)
                if (id(block), alias) not in solver.constrained:
                    keyed = (id(block), alias) in solver.keyed
                    unfiltered.append(Unfiltered(table, keyed, f"{table} AS {alias}"))
        for node in statement.find_all(exp.Table):
            if node.name in schema.owner and id(node) not in seen:
                tables.add(node.name)
                unfiltered.append(Unfiltered(node.name, False, "in an unrecognised position"))
    return Analysis(frozenset(tables), tuple(unfiltered))


def _insert_target(insert: exp.Insert) -> exp.Expression:
    target = insert.this
    return target.this if isinstance(target, exp.Schema) else target


def _conjuncts(condition: exp.Expression | None) -> Iterator[exp.Expression]:
    if condition is None:
        return
    while isinstance(condition, exp.Paren):
        condition = condition.this
    if isinstance(condition, exp.Where):
        yield from _conjuncts(condition.this)
    elif isinstance(condition, exp.And):
        yield from _conjuncts(condition.this)
        yield from _conjuncts(condition.expression)
    else:
        yield condition


def _is_value(node: exp.Expression) -> bool:
    """A parameter, literal or expression of them: no column and no subquery inside."""
    return not any(isinstance(n, exp.Column | exp.Query) for n in node.walk())


Ref = tuple[int, str, str, str]  # (block id, alias, table, column)


class _Solver:
    def __init__(self, schema: TenantSchema) -> None:
        self.schema = schema
        self.constrained: set[tuple[int, str]] = set()
        self.keyed: set[tuple[int, str]] = set()
        self._done: set[int] = set()
        self._sources: dict[int, dict[str, exp.Table]] = {}

    def check_insert(self, insert: exp.Insert, out: list[Unfiltered]) -> set[str]:
        target = insert.this
        table = _insert_target(insert)
        if not isinstance(table, exp.Table) or table.name not in self.schema.owner:
            return set()
        owner = self.schema.owner[table.name]
        columns = [c.name for c in target.expressions] if isinstance(target, exp.Schema) else []
        if owner not in columns:
            out.append(Unfiltered(table.name, False, f"INSERT without {owner}"))
        return {table.name}

    def sources(self, block: exp.Expression) -> dict[str, exp.Table]:
        """The tables this block reads or writes directly (subqueries are blocks of their own)."""
        if id(block) in self._sources:
            return self._sources[id(block)]
        nodes: list[exp.Expression] = []
        if isinstance(block, exp.Update | exp.Delete):
            nodes.append(block.this)
        from_ = block.args.get("from_")
        if from_ is not None:
            nodes.append(from_.this)
            nodes.extend(from_.expressions)
        nodes.extend(block.args.get("using") or [])
        nodes.extend(j.this for j in block.args.get("joins") or [])
        found = {n.alias_or_name: n for n in nodes if isinstance(n, exp.Table)}
        self._sources[id(block)] = found
        return found

    def _conditions(self, block: exp.Expression) -> list[exp.Expression]:
        found = list(_conjuncts(block.args.get("where")))
        for join in block.args.get("joins") or []:
            found.extend(_conjuncts(join.args.get("on")))
        return found

    def _parent(self, block: exp.Expression) -> exp.Expression | None:
        node = block.parent
        while node is not None and not isinstance(node, _BLOCKS):
            node = node.parent
        return node

    def _resolve(self, block: exp.Expression, column: exp.Expression) -> Ref | None:
        if not isinstance(column, exp.Column):
            return None
        scope: exp.Expression | None = block
        while scope is not None:
            sources = self.sources(scope)
            if column.table:
                node = sources.get(column.table)
            else:
                node = next(iter(sources.values())) if len(sources) == 1 else None
            if node is not None:
                return (id(scope), node.alias_or_name, node.name, column.name)
            if not column.table:
                return None
            scope = self._parent(scope)
        return None

    def _linked(self, a: Ref, b: Ref) -> bool:
        owner, pk, links = self.schema.owner, self.schema.pk, self.schema.links
        (_, _, ta, ca), (_, _, tb, cb) = a, b
        if ta not in owner or tb not in owner:
            return False
        return (
            (ca == owner[ta] and cb == owner[tb])
            or (ta == tb and ca == cb == pk[ta])
            or ((ta, ca, tb) in links and cb == pk[tb])
            or ((tb, cb, ta) in links and ca == pk[ta])
        )

    def _is_constrained(self, ref: Ref | None) -> bool:
        return ref is not None and (ref[0], ref[1]) in self.constrained

    def solve(self, block: exp.Expression) -> None:
        if id(block) in self._done:
            return
        self._done.add(id(block))
        owner, pk, links = self.schema.owner, self.schema.pk, self.schema.links
        conditions = self._conditions(block)
        changed = True
        while changed:
            changed = False
            for cond in conditions:
                for ref, other, keyed_ok in self._sides(block, cond):
                    if ref is None or ref[2] not in owner:
                        continue
                    key = (ref[0], ref[1])
                    table, column = ref[2], ref[3]
                    if other is not None and _is_value(other):
                        if column == owner[table] and key not in self.constrained:
                            self.constrained.add(key)
                            changed = True
                        elif keyed_ok and (
                            column == pk[table]
                            or any((table, column) == (t, c) for t, c, _ in links)
                        ):
                            self.keyed.add(key)
                        continue
                    other_ref = self._other_ref(block, other)
                    if (
                        key not in self.constrained
                        and self._is_constrained(other_ref)
                        and other_ref is not None
                        and self._linked(ref, other_ref)
                    ):
                        self.constrained.add(key)
                        changed = True

    def _sides(
        self, block: exp.Expression, cond: exp.Expression
    ) -> Iterator[tuple[Ref | None, exp.Expression | None, bool]]:
        if isinstance(cond, exp.EQ):
            yield self._resolve(block, cond.this), cond.expression, True
            yield self._resolve(block, cond.expression), cond.this, True
        elif isinstance(cond, exp.In):
            ref = self._resolve(block, cond.this)
            query = cond.args.get("query")
            if query is not None:
                yield ref, query, False
            elif cond.expressions and all(_is_value(e) for e in cond.expressions):
                yield ref, exp.Tuple(expressions=list(cond.expressions)), True

    def _other_ref(self, block: exp.Expression, other: exp.Expression | None) -> Ref | None:
        """The column on the other side of a join condition, or projected by an IN subquery."""
        if isinstance(other, exp.Column):
            return self._resolve(block, other)
        select = other.this if isinstance(other, exp.Subquery) else other
        if isinstance(select, exp.Select) and len(select.expressions) == 1:
            self.solve(select)
            return self._resolve(select, select.expressions[0].unalias())
        return None
