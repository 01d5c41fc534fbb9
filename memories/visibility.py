"""Which of the owner's memories an actor may see or write: the consent rules, in one place."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef, Q

from accounts.actors import Actor, owner_actor
from accounts.models import ConnectedApp
from kernel.gates import SCOPE_READ
from memories.categories.vocabulary import DEFAULT_CATEGORIES
from memories.models import Memory, MemoryState, UserCategory

_MARKS_SQL = f"SELECT slug, sensitive FROM {UserCategory._meta.db_table} WHERE owner_id = %s"  # noqa: S608


def sensitive_categories(owner_id: int) -> frozenset[str]:
    """Every category that is sensitive for this owner: the defaults marked sensitive (in the
    vocabulary, or by the owner: a `UserCategory` row named like a default holds their choice)
    and the owner's own categories marked sensitive. The one answer to "is this category
    sensitive for this user", for the consent rule and every page that shows it. A plain
    statement: every app's search asks, and building the ORM's query cost more CPU than the read."""
    with connection.cursor() as cur:
        cur.execute(_MARKS_SQL, [owner_id])
        return sensitive_of(cur.fetchall())


def sensitive_of(marks: Iterable[tuple[str, bool]]) -> frozenset[str]:
    """`sensitive_categories` from the owner's `UserCategory` rows as (slug, sensitive) pairs
    (a search reads them with its own first statement)."""
    marked = dict(marks)
    defaults = {c.slug for c in DEFAULT_CATEGORIES if marked.pop(c.slug, c.sensitive)}
    return frozenset(defaults | {slug for slug, sensitive in marked.items() if sensitive})


def hidden_categories(app: ConnectedApp, sensitive: frozenset[str] | None = None) -> list[str]:
    """The categories this app's grant hides: every one the owner unticked, and every sensitive
    one the owner did not tick. A category created after the grant is in neither list, so it is
    hidden exactly when it is sensitive. `sensitive`: the owner's `sensitive_categories`, when
    the caller already holds them (one query for many apps)."""
    if sensitive is None:
        sensitive = sensitive_categories(app.owner_id)
    return sorted(set(app.hidden_categories) | (sensitive - set(app.categories)))


def _grant_q(app: ConnectedApp) -> Q | None:
    """The grant: no memory in a hidden category; no uncategorised one unless it was ticked.
    None when it covers every memory."""
    q = Q()
    hidden = hidden_categories(app)
    if hidden:
        q &= ~Q(categories__overlap=hidden)
    if not app.sees_uncategorised:
        q &= Q(categories__len__gt=0)
    return q if q else None


def _grant_sql(app: ConnectedApp, alias: str, params: dict[str, Any]) -> str | None:
    """`_grant_q` as SQL (adds its parameters to `params`); None when it covers every memory.
    The hidden categories are read once per `params` (a search's fragment names the grant
    twice: for the memory and for the memory an echo restates)."""
    clauses = []
    if "vis_hidden" not in params:
        params["vis_hidden"] = hidden_categories(app)
    hidden = params["vis_hidden"]
    if hidden:
        clauses.append(f"NOT ({alias}.categories && %(vis_hidden)s::varchar[])")
    if not app.sees_uncategorised:
        clauses.append(f"cardinality({alias}.categories) > 0")
    return " AND ".join(clauses) if clauses else None


def _owner_q(actor: Actor) -> Q:
    """What the owner's own apps see: every memory but the apps' echoes (not memories to the
    owner: they show on the memory they restate) and the trash (only the Trash page shows it,
    through memories/services/trash.py). The one home of "not in the trash" for owner reads; apps
    see active memories only, so the trash is outside their rule anyway."""
    return Q(owner=actor.user, echo_of__isnull=True) & ~Q(state=MemoryState.TRASHED)


def trashed_q(actor: Actor) -> Q:
    """The owner's trash as the Trash page lists it: memories a delete named, not the rows that
    went with them (memories/services/trash.py). No app reads it: the owner-only gate comes
    first."""
    return Q(owner=actor.user, state=MemoryState.TRASHED, trashed_with__isnull=True)


def visible_q(actor: Actor) -> Q:
    """Rows of this owner the actor may see (before state filters).

    The owner's own apps: `_owner_q`. Other apps: what `_consented_q` allows, and an echo only to
    the app that stated it, while the memory it restates stays out of that app's sight.
    """
    if actor.app.is_owner_app:
        return _owner_q(actor)
    consented = _consented_q(actor)
    restated = Memory.objects.filter(consented, pk=OuterRef("echo_of_id"))
    own_echo = Q(echo_app=actor.app) & ~Q(Exists(restated))
    return consented & (Q(echo_of__isnull=True) | own_echo)


def _consented_q(actor: Actor) -> Q:
    """An app sees active, non-private memories not hidden from it, in its grant and not kept
    for other apps only (`Memory.seen_only_by`) — or written by itself (it may always read back
    what it wrote, unless made private or hidden from it). Never one held by the store's check
    until the owner decides (memories/services/harm_check.py)."""
    app = actor.app
    q = Q(
        owner=actor.user,
        is_private=False,
        state=MemoryState.ACTIVE,
        superseded_by__isnull=True,
        harm_hold="",
    )
    q &= ~Q(hidden_from__contains=[app.pk])
    allowed = Q(seen_only_by__isnull=True) | Q(seen_only_by__contains=[app.pk])
    granted = _grant_q(app)
    return q & ((allowed if granted is None else granted & allowed) | Q(origin_app=app))


def visible_sql(
    actor: Actor, alias: str = "m", sensitive: frozenset[str] | None = None
) -> tuple[str, dict[str, Any]]:
    """The same rule as `visible_q`, as an SQL fragment for the hand-written search queries.
    `sensitive`: the owner's `sensitive_categories`, when the caller holds them."""
    app = actor.app
    params: dict[str, Any] = {"vis_owner": actor.user.pk}
    if sensitive is not None and not app.is_owner_app:
        params["vis_hidden"] = hidden_categories(app, sensitive)
    if app.is_owner_app:
        return (
            f"{alias}.owner_id = %(vis_owner)s AND {alias}.echo_of_id IS NULL "
            f"AND {alias}.state <> '{MemoryState.TRASHED}'"
        ), params
    params["vis_app"] = app.pk
    restated = _consented_sql(app, "vis_c", params)
    own_echo = (
        f"{alias}.echo_app_id = %(vis_app)s AND NOT EXISTS (SELECT 1 FROM memories_memory vis_c "  # noqa: S608
        f"WHERE vis_c.id = {alias}.echo_of_id AND {restated})"
    )
    consented = _consented_sql(app, alias, params)
    return f"{consented} AND ({alias}.echo_of_id IS NULL OR ({own_echo}))", params


def _consented_sql(app: ConnectedApp, alias: str, params: dict[str, Any]) -> str:
    """`_consented_q` as SQL (adds its arguments to `params`)."""
    clauses = [
        f"{alias}.owner_id = %(vis_owner)s",
        f"{alias}.state = 'active'",
        f"{alias}.superseded_by_id IS NULL",
        f"NOT {alias}.is_private",
        f"{alias}.harm_hold = ''",
        f"NOT ({alias}.hidden_from @> ARRAY[%(vis_app)s]::bigint[])",
    ]
    allowed = (
        f"({alias}.seen_only_by IS NULL OR {alias}.seen_only_by @> ARRAY[%(vis_app)s]::bigint[])"
    )
    granted = _grant_sql(app, alias, params)
    if granted is not None:
        allowed = f"{granted} AND {allowed}"
    clauses.append(f"(({allowed}) OR {alias}.origin_app_id = %(vis_app)s)")
    return " AND ".join(clauses)


def dedup_q(actor: Actor) -> Q:
    """The memories a write may answer "already known" with, or refuse to duplicate: those the
    actor may see. Apps whose answers reach only the owner (the built-in apps and the owner's
    own imports, which may not read) may name any memory."""
    if actor.app.is_owner_app or actor.app.kind == ConnectedApp.Kind.IMPORT:
        return _owner_q(actor)
    return visible_q(actor)


def dedup_reader(actor: Actor) -> Actor | None:
    """Whose sight a write's reconciliation searches with: the model is shown those memories and
    may answer "already known" or "changed" with one of them. The owner's own apps and imports: the
    owner's, as `dedup_q` (an import reads nothing, but its answers reach only the owner, and
    without this it could not tell what the owner already has); an app that may read: its own;
    an app that may only write: nobody's (a model's answer would show it memories it may not
    read), so each fact is new unless its text is already known (`dedup_q`)."""
    if actor.app.is_owner_app:
        return actor
    if actor.app.kind == ConnectedApp.Kind.IMPORT:
        return owner_actor(actor.user)
    return actor if actor.has_scope(SCOPE_READ) else None


def categories_outside_grant(
    app: ConnectedApp, categories: Iterable[str], new_sensitive: Iterable[str] = ()
) -> list[str]:
    """Which of these categories the app's grant does not cover: none for the owner's own apps and
    imports (the owner's own archive; an import app reads nothing). `new_sensitive`: names this
    write would create that start sensitive, which no grant can have ticked yet."""
    wanted = set(categories)
    if not wanted or app.is_owner_app or app.kind == ConnectedApp.Kind.IMPORT:
        return []
    return sorted(wanted & (set(hidden_categories(app)) | set(new_sensitive)))
