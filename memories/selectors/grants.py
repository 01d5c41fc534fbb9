"""What a grant lets an app see, counted over the owner's memories: category counts, the sentence
on the consent and Edit pages, and the apps page's rows (each app with the memories it read and
wrote, from the access log). They read memories, so they live in this app, not in accounts; so
does `known_categories`, the vocabulary every entry point hands to a `Grant`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import MANAGED_KINDS, ClientToken, ConnectedApp, User
from accounts.oauth_clients import key_origins, return_label
from accounts.services import Grant
from activity.models import AccessEvent
from kernel.category_names import label
from kernel.gates import SCOPE_DELETE, SCOPE_READ, SCOPE_WRITE, require_owner
from memories.categories.vocabulary import DEFAULT_SLUGS
from memories.models import Memory, MemoryState, UserCategory
from memories.selectors.categories import CategoryInfo, category_list
from memories.selectors.counting import shareable_q
from memories.visibility import hidden_categories, sensitive_categories, visible_q
from memories.wording import category_label

SCOPE_WORDS = {
    SCOPE_READ: pgettext_lazy("scope", "read"),
    SCOPE_WRITE: pgettext_lazy("scope", "add and change"),
    SCOPE_DELETE: pgettext_lazy("scope", "delete"),
}


def known_categories(user: User) -> list[CategoryInfo]:
    """Every category a grant can name, as the owner sees them (`category_list`: the defaults,
    then the user's own): what `Grant.from_ticks`, `Grant.default` and `client_token_create` take
    as `known`, so the accounts domain never reads the vocabulary itself."""
    return category_list(actor=owner_actor(user))


def _shareable(user: User) -> Any:
    """Memories an app could ever see: the owner's active ones (`memories.selectors.counting`;
    private ones are counted apart)."""
    return Memory.objects.filter(shareable_q(user))


def category_counts(user: User, *, private_too: bool = False) -> dict[str, int]:
    """How many shareable, non-private memories each category holds ("" = no category).
    `private_too`: every active memory as the owner's memories page lists it (private ones
    included, apps' echoes not), for the Categories page."""
    which = "m.echo_of_id IS NULL" if private_too else "NOT m.is_private"
    sql = f"""
        SELECT coalesce(c.slug, ''), count(*)
        FROM {Memory._meta.db_table} m
        LEFT JOIN LATERAL unnest(m.categories) AS c(slug) ON true
        WHERE m.owner_id = %(owner)s AND m.state = %(active)s
          AND m.superseded_by_id IS NULL AND {which}
        GROUP BY 1
    """  # noqa: S608 - the only interpolations are our own table name and one of two clauses
    with connection.cursor() as cur:
        cur.execute(sql, {"owner": user.pk, "active": MemoryState.ACTIVE})
        return {slug: n for slug, n in cur.fetchall()}


def _names(slugs: list[str]) -> str:
    words = [category_label(s) for s in slugs]
    if len(words) > 3:
        more = len(words) - 3
        words = [*words[:3], ngettext("%(n)d more", "%(n)d more", more) % {"n": more}]
    if len(words) < 2:
        return "".join(words)
    head = pgettext("list separator", ", ").join(words[:-1])
    return _("%(names)s and %(last)s") % {"names": head, "last": words[-1]}


@dataclass(frozen=True)
class GrantPreview:
    """What a grant shares, counted with the one visibility rule. The hidden memories are
    counted once each, under the first reason that hides them, in this order: private, hidden
    from this app by name, kept from new apps (a deleted sensitive category), in a hidden
    category, without a category; so the reasons add up to what the app does not see."""

    visible: int
    total: int
    private: int
    in_hidden_categories: int
    hidden_names: list[str] = field(default_factory=list)  # hidden categories holding memories
    uncategorised_hidden: int = 0
    sees_all: bool = False  # nothing is hidden by the grant (private memories aside)
    hidden: list[str] = field(default_factory=list)  # every category the grant hides
    hidden_from_it: int = 0  # hidden from this very app by the owner
    kept_from_it: int = 0  # kept for other apps when a sensitive category was deleted

    @property
    def hidden_parts(self) -> list[str]:
        """The Connected apps page's "Hidden:" line, each memory counted once: "9 in health,
        finance; 2 without a category; 1 private"."""
        parts = []
        if self.in_hidden_categories:
            names = pgettext("list separator", ", ").join(self.hidden_names)
            parts.append(_("%(n)d in %(names)s") % {"n": self.in_hidden_categories, "names": names})
        for n, words in (
            (self.uncategorised_hidden, _("%(n)d without a category")),
            (self.hidden_from_it, _("%(n)d you hid from it")),
            (self.kept_from_it, _("%(n)d kept from new apps")),
            (self.private, _("%(n)d private")),
        ):
            if n:
                parts.append(words % {"n": n})
        return parts

    @property
    def sentence(self) -> str:
        """ "It will see 212 memories; 9 in Health and Finance stay hidden." """
        v = self.visible
        parts = [ngettext("It will see %(n)d memory", "It will see %(n)d memories", v) % {"n": v}]
        if self.in_hidden_categories:
            n = self.in_hidden_categories
            parts.append(
                ngettext("%(n)d in %(names)s stays hidden", "%(n)d in %(names)s stay hidden", n)
                % {"n": n, "names": _names(self.hidden_names)}
            )
        n = self.uncategorised_hidden
        if n:
            parts.append(
                ngettext(
                    "%(n)d without a category stays hidden",
                    "%(n)d without a category stay hidden",
                    n,
                )
                % {"n": n}
            )
        n = self.hidden_from_it
        if n:
            parts.append(
                ngettext(
                    "%(n)d you hid from it stays hidden", "%(n)d you hid from it stay hidden", n
                )
                % {"n": n}
            )
        n = self.kept_from_it
        if n:
            parts.append(
                ngettext(
                    "%(n)d kept from new apps stays hidden",
                    "%(n)d kept from new apps stay hidden",
                    n,
                )
                % {"n": n}
            )
        n = self.private
        if n:
            parts.append(
                ngettext(
                    "%(n)d you marked private is never shared",
                    "%(n)d you marked private are never shared",
                    n,
                )
                % {"n": n}
            )
        return pgettext("between the parts of a sentence", "; ").join(parts) + _(".")


def grant_preview(
    user: User, grant_or_app: Grant | ConnectedApp, counts: dict[str, int] | None = None
) -> GrantPreview:
    """Count what an app with this grant sees, through `visible_q` itself: a proposed grant is put
    on an unsaved app (pk 0 matches no hidden-from list and no memory it wrote)."""
    if isinstance(grant_or_app, ConnectedApp):
        app = grant_or_app
    else:
        app = ConnectedApp(pk=0, owner=user, kind=ConnectedApp.Kind.OAUTH, name="preview")
        grant_or_app.apply_to(app)
    hidden = hidden_categories(app)
    actor = actor_for(user, app, [SCOPE_READ])
    nothing = Q(pk__in=[])
    reasons = {  # in order: a memory counts under the first that hides it
        "private": Q(is_private=True),
        "hidden_from_it": Q(hidden_from__contains=[app.pk]) if app.pk else nothing,
        "kept_from_it": Q(seen_only_by__isnull=False) & ~Q(seen_only_by__contains=[app.pk]),
        "in_hidden": Q(categories__overlap=hidden) if hidden else nothing,
        "uncategorised": nothing if app.sees_uncategorised else Q(categories__len=0),
    }
    unseen = ~visible_q(actor)
    filters: dict[str, Any] = {}
    for name, reason in reasons.items():
        filters[name] = Count("id", filter=unseen & reason)
        unseen &= ~reason
    agg = _shareable(user).aggregate(
        total=Count("id"), visible=Count("id", filter=visible_q(actor)), **filters
    )
    counts = category_counts(user) if counts is None else counts
    holding = (
        sorted((c for c in hidden if counts.get(c)), key=lambda c: (-counts[c], c))
        if agg["in_hidden"]
        else []
    )
    return GrantPreview(
        visible=agg["visible"],
        total=agg["total"],
        private=agg["private"],
        in_hidden_categories=agg["in_hidden"],
        hidden_names=holding,
        uncategorised_hidden=agg["uncategorised"],
        sees_all=not hidden and app.sees_uncategorised,
        hidden=hidden,
        hidden_from_it=agg["hidden_from_it"],
        kept_from_it=agg["kept_from_it"],
    )


@dataclass(frozen=True)
class AppRow:
    app: ConnectedApp
    memories_read: int
    memories_written: int
    preview: GrantPreview | None = None
    returns_to: str = ""
    may: list[str] = field(default_factory=list)  # the scopes, in words
    token: ClientToken | None = None  # a client token's app: its token (expiry, prefix)

    @property
    def can_delete(self) -> bool:
        return SCOPE_DELETE in self.app.scopes


def _distinct_counts(owner_id: int) -> dict[tuple[int, str], int]:
    """Distinct memories each app read and wrote, in one query over the access log."""
    sql = f"""
        SELECT e.app_id,
               CASE WHEN e.action = ANY(%(reads)s) THEN 'r' ELSE 'w' END AS kind,
               count(DISTINCT m.id)
        FROM {AccessEvent._meta.db_table} e, unnest(e.memory_ids) AS m(id)
        WHERE e.owner_id = %(owner)s AND e.app_id IS NOT NULL
          AND e.action = ANY(%(actions)s)
        GROUP BY 1, 2
    """  # noqa: S608 - the only interpolation is our own table name
    params: dict[str, Any] = {
        "owner": owner_id,
        "reads": [str(a) for a in AccessEvent.READS],
        "actions": [str(a) for a in (*AccessEvent.READS, *AccessEvent.AUTHORED)],
    }
    with connection.cursor() as cur:
        cur.execute(sql, params)
        return {(app_id, kind): n for app_id, kind, n in cur.fetchall()}


def connected_app_list(*, actor: Actor) -> list[AppRow]:
    """Every live app that holds a grant, a client token or a stdio connection, newest first."""
    require_owner(actor)
    apps = list(
        ConnectedApp.objects.filter(
            owner=actor.user, kind__in=MANAGED_KINDS, revoked_at=None
        ).order_by("-created_at")
    )
    counts = _distinct_counts(actor.user.pk)
    per_category = category_counts(actor.user)
    tokens = {
        t.app_id: t
        for t in ClientToken.objects.filter(
            owner=actor.user, app__in=[a for a in apps if a.kind == ConnectedApp.Kind.TOKEN]
        )
    }
    return [
        AppRow(
            app=app,
            memories_read=counts.get((app.pk, "r"), 0),
            memories_written=counts.get((app.pk, "w"), 0),
            preview=grant_preview(actor.user, app, per_category),
            returns_to=", ".join(return_label(o) for o in key_origins(app.oauth_client_key)),
            may=[str(SCOPE_WORDS.get(s, s)) for s in app.scopes],
            token=tokens.get(app.pk),
        )
        for app in apps
    ]


def _reading_apps(user: User) -> list[ConnectedApp]:
    """The live apps that may read (the owner's own apps aside), oldest first."""
    apps = ConnectedApp.objects.filter(owner=user, kind__in=MANAGED_KINDS, revoked_at=None)
    return [a for a in apps.order_by("created_at", "pk") if SCOPE_READ in a.scopes]


def apps_seeing(user: User, slugs: list[str]) -> dict[str, list[ConnectedApp]]:
    """Which live apps that may read see each of these categories, by their grants now."""
    sensitive = sensitive_categories(user.pk)
    hidden = {app: set(hidden_categories(app, sensitive)) for app in _reading_apps(user)}
    return {slug: [app for app, h in hidden.items() if slug not in h] for slug in slugs}


@dataclass(frozen=True)
class CategoryRow:
    """One category on the Categories page."""

    slug: str
    description: str
    sensitive: bool
    custom: bool  # the user's own (renamed, merged, deleted); else a default
    memories: int  # active memories filed under it, private ones included
    seen_by: list[ConnectedApp]  # live apps that may read and whose grant shows it
    created_by: str = ""  # who brought the name in (own categories)
    unreviewed: bool = False  # its notice ("apps see it") still shows

    @property
    def label(self) -> str:
        return label(self.slug)

    @property
    def by_owner(self) -> bool:
        """Brought in by one of the owner's own apps (a name from before this was recorded:
        unknown)."""
        return self.created_by in ConnectedApp.OWNER_APPS


def category_overview(*, actor: Actor) -> list[CategoryRow]:
    """Every category of the user (the defaults, then their own) with its count and the apps
    that see it. Owner only."""
    require_owner(actor)
    known = category_list(actor=actor)
    return _rows(actor.user, known)


def category_notices(*, actor: Actor) -> list[CategoryRow]:
    """The user's new categories whose notice still shows (oldest first): each says which apps
    see it, until the owner keeps it as it is or changes it. One query when there is none."""
    require_owner(actor)
    fresh = (
        UserCategory.objects.filter(owner=actor.user, reviewed_at=None)
        .exclude(slug__in=DEFAULT_SLUGS)
        .order_by("created_at", "slug")
    )
    known = [CategoryInfo(r.slug, r.description, r.sensitive, True) for r in fresh]
    return _rows(actor.user, known) if known else []


def _rows(user: User, known: list[CategoryInfo]) -> list[CategoryRow]:
    counts = category_counts(user, private_too=True)
    own = {
        r.slug: r
        for r in UserCategory.objects.filter(
            owner=user, slug__in=[c.slug for c in known if c.custom]
        )
    }
    seen = apps_seeing(user, [c.slug for c in known])
    return [
        CategoryRow(
            slug=c.slug,
            description=c.description,
            sensitive=c.sensitive,
            custom=c.custom,
            memories=counts.get(c.slug, 0),
            seen_by=seen[c.slug],
            created_by=own[c.slug].created_by if c.slug in own else "",
            unreviewed=c.slug in own and own[c.slug].reviewed_at is None,
        )
        for c in known
    ]
