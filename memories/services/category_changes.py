"""The owner's changes to their category vocabulary: rename, merge, delete, the sensitive mark,
and seeing a new category's notice. Adding one is `user_categories.category_add`.

Each change carries every reference in one transaction: the memories' `categories`, every app's
grant (`ConnectedApp.categories` and `hidden_categories`; a client token is its own app), the
grants of consents not yet redeemed (kept on their authorization codes), and the user's own
categories, which the classifier learns. And none widens what an app sees:

- **Merge** (`source` into `target`; a rename is a merge into a new name): an app sees the merged
  category only if it saw every category merged into it, so a sensitive category merged into a
  shared one takes the shared one out of the sight of apps that could not see the sensitive one
  (it is hidden from them: an unticked category). The merged category is sensitive if either
  was. It stays ticked for an app only if the app had ticked every one; otherwise it is left to
  the rule for categories created after the grant (shared unless sensitive), or hidden.
- **Delete**: memories keep their other categories, and stay exactly as hidden as before from
  apps present and future. A shared category: an app that had unticked it still cannot see its
  memories (hidden from that app by name, `Memory.hidden_from`). A sensitive category, which an
  app connected later would not have seen either: its memories are kept for the apps that could
  see it (`Memory.seen_only_by`, narrowed again by a later delete), so no app connected since
  sees them until the owner says so. Either way an app still reads back what it wrote itself.
- **Sensitive**: marking a category sensitive hides it from every app that did not tick it;
  unmarking shares it with apps that neither ticked nor unticked it (the owner's own choice).

Default categories are the classifier's vocabulary and every grant's starting point: they are
never renamed, merged away or deleted, but the owner may mark or unmark any of them sensitive (a
`UserCategory` row named like the default holds that choice) and merge their own into them.

Concurrent writes: a write locks the owner's categories it files memories under (FOR SHARE,
`user_categories.categories_lock`), and every change here locks the categories it changes FOR
UPDATE first, so a memory is never stored under a name that a change has just removed.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from allauth.idp.oidc.models import Token
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from accounts.models import ConnectedApp
from accounts.services import PENDING_GRANT
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.category_names import category_name, fold
from kernel.errors import Conflict, InvalidInput, NotFound
from kernel.gates import SCOPE_WRITE, require_owner
from memories.categories.vocabulary import DEFAULT_SLUGS
from memories.models import UserCategory
from memories.services.categories import category_description, name_meaning
from memories.visibility import hidden_categories, sensitive_categories

TICKED, HIDDEN, NEITHER = "ticked", "hidden", "neither"


@dataclass(frozen=True)
class CategoryChange:
    """What a change did, for the sentence the owner reads after it."""

    slug: str  # the category now (after a rename or merge: the new or target name)
    memories: int = 0  # memories whose categories changed
    apps: list[str] = field(default_factory=list)  # apps whose grant changed
    hidden_from: int = 0  # memories hidden from an app by name (a delete)
    # A sensitive category deleted: the apps its memories are kept for (None: not that case).
    kept_for: list[str] | None = None
    means: str | None = None  # a rename onto a name that means this sensitive category


def _state(categories: Sequence[str], hidden: Sequence[str], slug: str) -> str:
    if slug in hidden:
        return HIDDEN
    return TICKED if slug in categories else NEITHER


def merged_grant(
    categories: Sequence[str],
    hidden: Sequence[str],
    involved: Sequence[str],
    target: str,
    sensitive: frozenset[str],
) -> tuple[list[str], list[str]]:
    """One grant's ticked and unticked lists after the `involved` categories become `target`
    (the owner's `sensitive` categories as they were before): `target` is hidden unless the
    grant saw every involved category, ticked only if it ticked every one, else in neither list
    (shared unless sensitive). Never more than the grant saw before."""
    states = {slug: _state(categories, hidden, slug) for slug in involved}
    saw_all = all(
        state == TICKED or (state == NEITHER and slug not in sensitive)
        for slug, state in states.items()
    )
    ticked = [c for c in categories if c not in states]
    unticked = [c for c in hidden if c not in states]
    if not saw_all:
        unticked.append(target)
    elif all(state == TICKED for state in states.values()):
        ticked.append(target)
    return ticked, unticked


def _lock(actor: Actor, slugs: Sequence[str]) -> dict[str, UserCategory]:
    """The user's own rows of these names, locked FOR UPDATE (writes filing memories under them
    wait, and this waits for theirs), in name order like the writes lock them."""
    rows = (
        UserCategory.objects.select_for_update()
        .filter(owner=actor.user, slug__in=list(slugs))
        .order_by("slug")
    )
    return {row.slug: row for row in rows}


# Why a default category cannot be changed so, by what was tried.
_DEFAULT_REFUSALS = {
    "renamed": gettext_noop(
        "%(slug)r is a default category: it cannot be renamed. You can mark it sensitive, or "
        "merge a category of your own into it."
    ),
    "described anew": gettext_noop(
        "%(slug)r is a default category: it cannot be described anew. You can mark it "
        "sensitive, or merge a category of your own into it."
    ),
    "deleted": gettext_noop(
        "%(slug)r is a default category: it cannot be deleted. You can mark it sensitive, or "
        "merge a category of your own into it."
    ),
    "merged into another": gettext_noop(
        "%(slug)r is a default category: it cannot be merged into another. You can mark it "
        "sensitive, or merge a category of your own into it."
    ),
}


def _refuse_default(slug: str, doing: str) -> None:
    if slug in DEFAULT_SLUGS:
        raise Conflict(_DEFAULT_REFUSALS[doing], slug=slug)


def _own(actor: Actor, raw: str, *, doing: str) -> tuple[str, UserCategory]:
    """One of the user's own categories, locked; a default is refused with why, a name the
    user does not have is NotFound."""
    slug = fold(raw)
    _refuse_default(slug, doing)
    row = _lock(actor, [slug]).get(slug)
    if row is None:
        raise NotFound("category")
    return slug, row


def _rewrite_memories(actor: Actor, sources: Sequence[str], target: str | None) -> list[str]:
    """Every memory of the owner (any state, superseded ones and apps' echoes too) under one of
    `sources` is filed under `target` instead (None: under none of them), keeping the order of
    its other categories and each name once. Returns the ids changed."""
    with connection.cursor() as cur:
        cur.execute(
            """
            UPDATE memories_memory m SET categories = ARRAY(
                SELECT s.c FROM (
                    SELECT CASE WHEN u.x = ANY(%(sources)s) THEN %(target)s::varchar
                                ELSE u.x END AS c,
                           min(u.o) AS o
                    FROM unnest(m.categories) WITH ORDINALITY AS u(x, o)
                    GROUP BY 1
                ) s
                WHERE s.c IS NOT NULL
                ORDER BY s.o
            )::varchar[]
            WHERE m.owner_id = %(owner)s AND m.categories && %(sources)s::varchar[]
            RETURNING m.id
            """,
            {"sources": list(sources), "target": target, "owner": actor.user.pk},
        )
        return [str(row[0]) for row in cur.fetchall()]


def _rewrite_grants(
    actor: Actor, sources: Sequence[str], target: str | None, sensitive: frozenset[str]
) -> list[str]:
    """Every grant of the owner (apps, client tokens, consents on codes not yet redeemed) after
    `sources` become `target` (None: are deleted, and drop out of both lists). Returns the names
    of the apps whose grant changed."""

    def rewritten(ticked: list[str], unticked: list[str]) -> tuple[list[str], list[str]]:
        if target is None:
            return [c for c in ticked if c not in sources], [
                c for c in unticked if c not in sources
            ]
        involved = [*sources, *([target] if target in ticked or target in unticked else [])]
        return merged_grant(ticked, unticked, involved, target, sensitive)

    changed: list[str] = []
    apps = ConnectedApp.objects.select_for_update().filter(owner=actor.user).order_by("pk")
    for app in apps:
        ticked, unticked = rewritten(list(app.categories), list(app.hidden_categories))
        if (ticked, unticked) != (list(app.categories), list(app.hidden_categories)):
            app.categories, app.hidden_categories = ticked, unticked
            app.save(update_fields=["categories", "hidden_categories"])
            changed.append(app.name)
    codes = Token.objects.select_for_update().filter(
        user=actor.user, type=Token.Type.AUTHORIZATION_CODE
    )
    for code in codes:
        pending = code.data.get(PENDING_GRANT) if isinstance(code.data, dict) else None
        if not pending:
            continue
        ticked, unticked = rewritten(pending["categories"], pending["hidden_categories"])
        code.data = {
            **code.data,
            PENDING_GRANT: {**pending, "categories": ticked, "hidden_categories": unticked},
        }
        code.save(update_fields=["data"])
    return changed


def _record(actor: Actor, memory_ids: Sequence[str], **change: object) -> None:
    """The change's access event: an update of the memories it moved (names under `categories`,
    which the admin hides), a state change when it moved none."""
    action = AccessEvent.Action.UPDATE if memory_ids else AccessEvent.Action.STATE
    access_event_create(actor, action, [uuid.UUID(m) for m in memory_ids], detail=dict(change))


def _set_sensitive(actor: Actor, slug: str, sensitive: bool, row: UserCategory | None) -> bool:
    """The mark on a default (its `UserCategory` row, made on first use) or on the user's own
    row; the previous mark."""
    now = timezone.now()
    if row is None:  # a default without a row yet
        before = slug in sensitive_categories(actor.user.pk)
        UserCategory.objects.create(
            owner=actor.user, slug=slug, sensitive=sensitive, reviewed_at=now
        )
        return before
    before = row.sensitive
    row.sensitive, row.reviewed_at = sensitive, now
    row.save(update_fields=["sensitive", "reviewed_at"])
    return before


def category_update(
    *,
    actor: Actor,
    slug: str,
    name: str | None = None,
    sensitive: bool | None = None,
    description: str | None = None,
) -> CategoryChange:
    """Change one category, all in one transaction: rename it (one of the user's own, onto a
    name not in use: merging is `category_merge`), mark or unmark it sensitive (any category),
    or describe it (the user's own; the classifier learns the description). A new name that
    means a sensitive category makes the category sensitive, unless `sensitive` says otherwise."""
    require_owner(actor, SCOPE_WRITE)
    current = fold(slug)
    new = category_name(name, field="name") if name is not None else current
    means = None
    if new != current:
        _refuse_default(current, "renamed")
        if new in DEFAULT_SLUGS:
            raise Conflict(
                gettext_noop("%(slug)r is a default category: merge into it instead."), slug=new
            )
        means = name_meaning(actor.user, new)
        if sensitive is None and means is not None:
            sensitive = True
    if description is not None:
        _refuse_default(current, "described anew")
        description = category_description(description)
    try:
        with transaction.atomic():
            change = _update(actor, current, new, sensitive, description)
    except IntegrityError:
        raise Conflict(
            gettext_noop("A category named %(slug)r appeared meanwhile; merge into it."), slug=new
        ) from None
    return replace(change, means=means)


def _update(
    actor: Actor, current: str, new: str, sensitive: bool | None, description: str | None
) -> CategoryChange:
    rows = _lock(actor, sorted({current, new}))
    before = sensitive_categories(actor.user.pk)
    row = rows.get(current)
    if row is None and current not in DEFAULT_SLUGS:
        raise NotFound("category")
    change: dict[str, object] = {}
    moved: list[str] = []
    apps: list[str] = []
    if new != current and row is not None:
        if new in rows:
            raise Conflict(
                gettext_noop("You already have a category %(slug)r: merge into it instead."),
                slug=new,
            )
        moved = _rewrite_memories(actor, [current], new)
        apps = _rewrite_grants(actor, [current], new, before)
        row.slug = new
        row.save(update_fields=["slug"])
        change["categories"] = {"from": [current], "to": [new]}
    if description is not None and row is not None:
        row.description = description
        row.save(update_fields=["description"])
        change["described"] = True
    if sensitive is not None:
        was = _set_sensitive(actor, new, sensitive, row)
        change.setdefault("categories", {"marked": [new]})
        change["sensitive"] = {"from": was, "to": sensitive}
    if change:
        _record(actor, moved, **change, apps=len(apps))
    return CategoryChange(slug=new, memories=len(moved), apps=apps)


def category_merge(*, actor: Actor, source: str, into: str) -> CategoryChange:
    """File every memory of one of the user's own categories under another category (the
    user's own or a default), then remove the first. The merged category is shared with an app
    only if both were, and sensitive if either was (see the module's rule)."""
    require_owner(actor, SCOPE_WRITE)
    target = fold(into)
    with transaction.atomic():
        slug, row = _own(actor, source, doing="merged into another")
        if target == slug:
            raise InvalidInput(gettext_noop("Choose another category to merge into."), field="into")
        rows = _lock(actor, [target])
        if target not in DEFAULT_SLUGS and target not in rows:
            raise NotFound("category")
        before = sensitive_categories(actor.user.pk)
        moved = _rewrite_memories(actor, [slug], target)
        apps = _rewrite_grants(actor, [slug], target, before)
        UserCategory.objects.filter(owner=actor.user, pk=row.pk).delete()
        merged_sensitive = slug in before or target in before
        if merged_sensitive and target not in before:
            _set_sensitive(actor, target, True, rows.get(target))
        _record(
            actor, moved, categories={"from": [slug], "to": [target]}, merged=True, apps=len(apps)
        )
    return CategoryChange(slug=target, memories=len(moved), apps=apps)


def category_delete(*, actor: Actor, slug: str) -> CategoryChange:
    """Remove one of the user's own categories: memories keep their other categories; an app
    that could not see it still cannot see its memories (hidden from that app by name)."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        name, row = _own(actor, slug, doing="deleted")
        sensitive = sensitive_categories(actor.user.pk)
        hidden, kept_for = _keep_hidden_from_apps_that_could_not_see(actor, name, sensitive)
        moved = _rewrite_memories(actor, [name], None)
        apps = _rewrite_grants(actor, [name], None, sensitive)
        UserCategory.objects.filter(owner=actor.user, pk=row.pk).delete()
        _record(
            actor,
            moved,
            categories={"from": [name], "to": []},
            deleted=True,
            apps=len(apps),
            hidden_from=hidden,
            kept_for=None if kept_for is None else len(kept_for),
        )
    return CategoryChange(
        slug=name, memories=len(moved), apps=apps, hidden_from=hidden, kept_for=kept_for
    )


def _keep_hidden_from_apps_that_could_not_see(
    actor: Actor, slug: str, sensitive: frozenset[str]
) -> tuple[int, list[str] | None]:
    """Before a category goes, what it hid stays hidden (but from the app that wrote a memory).
    A sensitive category hid its memories from every app that did not tick it, present and
    future: they are kept for the apps that ticked it (intersected with any earlier list). A
    shared one hid them from the apps that unticked it: hidden from those by name. Returns how
    many (memory, app) pairs of hiding were added by name, and for a sensitive category the
    names of the apps its memories are kept for."""
    apps = list(
        ConnectedApp.objects.filter(owner=actor.user, revoked_at=None)
        .exclude(kind=ConnectedApp.Kind.BUILTIN)
        .order_by("pk")
    )
    blind = [a.pk for a in apps if slug in hidden_categories(a, sensitive)]
    with connection.cursor() as cur:
        if slug in sensitive:
            seeing = [a.pk for a in apps if a.pk not in blind]
            cur.execute(
                """
                UPDATE memories_memory SET seen_only_by = ARRAY(
                    SELECT a FROM unnest(%(seeing)s::bigint[]) AS a
                    WHERE seen_only_by IS NULL OR a = ANY(seen_only_by) ORDER BY a
                )
                WHERE owner_id = %(owner)s AND categories && ARRAY[%(slug)s]::varchar[]
                """,
                {"seeing": seeing, "owner": actor.user.pk, "slug": slug},
            )
            return 0, [a.name for a in apps if a.pk in seeing]
        added = 0
        for app_id in blind:
            cur.execute(
                """
                UPDATE memories_memory SET hidden_from = array_append(hidden_from, %(app)s)
                WHERE owner_id = %(owner)s AND categories && ARRAY[%(slug)s]::varchar[]
                  AND NOT hidden_from @> ARRAY[%(app)s]::bigint[]
                  AND origin_app_id IS DISTINCT FROM %(app)s
                """,
                {"app": app_id, "owner": actor.user.pk, "slug": slug},
            )
            added += cur.rowcount
    return added, None


def category_reviewed(*, actor: Actor, slug: str) -> None:
    """The owner saw a new category's notice and keeps it as it is."""
    require_owner(actor, SCOPE_WRITE)
    name = fold(slug)
    with transaction.atomic():
        updated = UserCategory.objects.filter(owner=actor.user, slug=name).update(
            reviewed_at=timezone.now()
        )
        if not updated:
            raise NotFound("category")
        _record(actor, [], categories={"reviewed": [name]})
