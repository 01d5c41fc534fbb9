"""Deleting, merging or renaming a category (or marking one sensitive) keeps every memory exactly as
hidden as before, from the apps present and from apps connected afterwards: random sequences of
those changes over random grants, memories and categories, each change checked against what every
app saw just before it, and what an app made just before it would have seen.

Measured before the fix (issue 39, item 2): delete a sensitive category, and a client token made
afterwards with the default grant found its memories first."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from accounts.actors import Actor, actor_for, owner_actor
from accounts.models import ALL_SCOPES, ConnectedApp, User
from accounts.services import Grant
from kernel.errors import DomainError
from memories.models import Memory
from memories.selectors.grants import known_categories
from memories.services.categories import category_add
from memories.services.category_changes import category_delete, category_merge, category_update
from memories.visibility import visible_q

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

OWN = ["bees", "clinic", "diary", "garden"]  # the owner's own categories (names to draw from)
DEFAULTS = ["food", "health", "work"]  # defaults in play (health is sensitive by default)
NEW_NAMES = ["apiary", "notebook", "plot"]  # what a rename may choose
FUTURE = ["default", "everything", "default, no uncategorised"]  # grants of apps made later

_counter = itertools.count()


class _Undo(Exception):
    """Raised to roll a savepoint back."""


@dataclass(frozen=True)
class Op:
    kind: str  # delete | merge | rename | sensitive
    slug: str
    other: str = ""  # merge: the target; rename: the new name


op_strategy = st.one_of(
    st.builds(Op, st.just("delete"), st.sampled_from(OWN)),
    st.builds(Op, st.just("merge"), st.sampled_from(OWN), st.sampled_from(OWN + DEFAULTS)),
    st.builds(Op, st.just("rename"), st.sampled_from(OWN), st.sampled_from(NEW_NAMES)),
    st.builds(Op, st.just("sensitive"), st.sampled_from(OWN + DEFAULTS)),
)

# A grant: each known category ticked or not (by position in OWN + DEFAULTS), uncategorised or
# not, or None for the default grant.
grant_strategy = st.one_of(
    st.none(), st.tuples(st.lists(st.booleans(), min_size=7, max_size=7), st.booleans())
)
memory_strategy = st.tuples(
    st.sets(st.sampled_from(OWN + DEFAULTS), max_size=3),
    st.integers(min_value=-1, max_value=2),  # the app that wrote it (-1: the owner)
    st.booleans(),  # private
)


def _grant(owner: User, spec: tuple[list[bool], bool] | None) -> Grant:
    known = known_categories(owner)
    if spec is None:
        return Grant.default(known=known, scopes=ALL_SCOPES)
    ticks, uncategorised = spec
    names = OWN + DEFAULTS
    ticked = [n for n, on in zip(names, ticks, strict=True) if on and n in {c.slug for c in known}]
    if not ticked and not uncategorised:
        uncategorised = True
    return Grant.from_ticks(
        known=known, scopes=ALL_SCOPES, ticked=ticked, sees_uncategorised=uncategorised
    )


def _future_grant(owner: User, kind: str) -> Grant:
    known = known_categories(owner)
    if kind == "everything":
        return Grant.from_ticks(
            known=known, scopes=ALL_SCOPES, ticked=[c.slug for c in known], sees_uncategorised=True
        )
    grant = Grant.default(known=known, scopes=ALL_SCOPES)
    if kind == "default":
        return grant
    return Grant(grant.scopes, grant.categories, grant.hidden_categories, sees_uncategorised=False)


def _make_app(owner: User, grant: Grant) -> ConnectedApp:
    app = ConnectedApp(owner=owner, kind=ConnectedApp.Kind.TOKEN, name=f"app {next(_counter)}")
    grant.apply_to(app)
    app.save()
    return app


def _sees(owner: User, app: ConnectedApp) -> frozenset[str]:
    app = ConnectedApp.objects.get(owner=owner, pk=app.pk)  # its grant as stored now
    actor = actor_for(owner, app)
    return frozenset(Memory.objects.filter(visible_q(actor)).values_list("text", flat=True))


def _would_see(owner: User, kind: str) -> frozenset[str]:
    """What an app made now with this kind of grant sees, leaving no app behind."""
    try:
        with transaction.atomic():
            seen = _sees(owner, _make_app(owner, _future_grant(owner, kind)))
            raise _Undo
    except _Undo:
        return seen


def _apply(owner_dash: Actor, op: Op) -> bool:
    """The change, through the service the dashboard and the API call; False when refused."""
    change: Callable[[], object]
    if op.kind == "delete":
        change = lambda: category_delete(actor=owner_dash, slug=op.slug)  # noqa: E731
    elif op.kind == "merge":
        change = lambda: category_merge(actor=owner_dash, source=op.slug, into=op.other)  # noqa: E731
    elif op.kind == "rename":
        change = lambda: category_update(actor=owner_dash, slug=op.slug, name=op.other)  # noqa: E731
    else:
        change = lambda: category_update(actor=owner_dash, slug=op.slug, sensitive=True)  # noqa: E731
    try:
        change()
    except DomainError:
        return False
    return True


def _check(
    own_sensitive: list[bool],
    memories: list[tuple[set[str], int, bool]],
    present: list[tuple[list[bool], bool] | None],
    ops: list[Op],
) -> None:
    owner = User.objects.create_user(f"owner-{next(_counter)}@example.com", "x")
    dash = owner_actor(owner)
    for slug, sensitive in zip(OWN, own_sensitive, strict=True):
        category_add(actor=dash, slug=slug, description="", sensitive=sensitive)
    apps = [_make_app(owner, _grant(owner, spec)) for spec in present]
    now = timezone.now()
    Memory.objects.bulk_create(
        Memory(
            owner=owner,
            text=f"memory {n}",
            text_key=uuid.uuid4().hex,
            categories=sorted(cats),
            origin_app=apps[writer] if 0 <= writer < len(apps) else None,
            is_private=private,
            created_at=now,
            updated_at=now,
        )
        for n, (cats, writer, private) in enumerate(memories)
    )
    for op in ops:
        before = {app.pk: _sees(owner, app) for app in apps}
        future_before = {kind: _would_see(owner, kind) for kind in FUTURE}
        if not _apply(dash, op):
            continue
        for app in apps:
            after = _sees(owner, app)
            assert after <= before[app.pk], f"{op}: app {app.pk} now sees {after - before[app.pk]}"
            if op.kind == "rename":
                assert after == before[app.pk], f"{op}: a rename changed what app {app.pk} sees"
            written = Memory.objects.filter(owner=owner, origin_app=app, is_private=False)
            assert set(written.values_list("text", flat=True)) <= after, "an app lost its own"
        for kind in FUTURE:
            after = _would_see(owner, kind)
            gained = after - future_before[kind]
            assert not gained, f"{op}: an app made now with the {kind} grant sees {gained}"
            if op.kind == "rename":
                assert after == future_before[kind], f"{op}: a rename changed a new app's sight"


SENSITIVE_GONE = (
    [True, False, False, False],
    [({"bees"}, -1, False), ({"bees", "food"}, -1, False), (set(), -1, False)],
    [None, ([True, False, False, False, True, False, True], True)],
    [Op("delete", "bees")],
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    own_sensitive=st.lists(st.booleans(), min_size=4, max_size=4),
    memories=st.lists(memory_strategy, min_size=1, max_size=10),
    present=st.lists(grant_strategy, min_size=1, max_size=3),
    ops=st.lists(op_strategy, min_size=1, max_size=4),
)
@example(*SENSITIVE_GONE)  # the measured case: a sensitive category deleted
def test_category_changes_keep_every_memory_as_hidden_from_apps_present_and_future(
    own_sensitive: list[bool],
    memories: list[tuple[set[str], int, bool]],
    present: list[tuple[list[bool], bool] | None],
    ops: list[Op],
) -> None:
    try:
        with transaction.atomic():
            _check(own_sensitive, memories, present, ops)
            raise _Undo  # each example starts from an empty store
    except _Undo:
        pass
