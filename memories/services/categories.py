"""Categories: the user's own beside the default vocabulary, and (re)classification of memories.

What a caller may know of is `memories.selectors.categories`; classification itself is local
(memories/classify.py), so it works offline in every extraction mode. A name is folded at every
entry point (kernel/category_names.py); a name that is in no vocabulary yet becomes one of the
user's own categories with the first memory filed under it, sensitive from the start when it
means a sensitive category (`name_meaning`). The owner's changes to the vocabulary (rename,
merge, delete, sensitive) are memories/services/category_changes.py.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.category_names import category_name
from kernel.errors import Conflict, InvalidInput
from kernel.gates import SCOPE_WRITE, require, require_owner
from memories.categories.signals import sensitive_meaning
from memories.categories.vocabulary import DEFAULT_SLUGS, Category
from memories.classify import Classifier, classifier_for
from memories.models import Memory, UserCategory
from memories.ownership import mark_changed_by, protected_categories
from memories.search import moves
from memories.search.embeddings import current_model, get_embedder
from memories.selectors.categories import CategoryInfo
from memories.visibility import sensitive_categories, visible_q

DESCRIPTION_MAX = 300


def _user_categories(user: User) -> list[Category]:
    """The user's own categories the classifier can learn: those with a description (a name
    alone, brought in by a memory, teaches it nothing); never a default's sensitivity mark."""
    rows = (
        UserCategory.objects.filter(owner=user)
        .exclude(description="")
        .exclude(slug__in=DEFAULT_SLUGS)
        .order_by("slug")
    )
    return [Category(r.slug, r.description, r.sensitive) for r in rows]


def classify_for_owner(user: User, vectors: Sequence[Any], texts: Sequence[str]) -> list[list[str]]:
    """Categories for these memories (embeddings and texts), from the default vocabulary and
    the user's own; a memory in a language the classifier is not validated for is labelled
    `UNCHECKED` when nothing sensitive was found (memories/classify.py)."""
    if not len(vectors):
        return []
    return classifier_for(_user_categories(user)).label_memories(vectors, texts)


def name_meaning(user: User, slug: str) -> str | None:
    """The sensitive category a new (folded) name means, or None: by the vocabulary's words
    (`sensitive_meaning`), else by the local classifier reading the name as a text, with the
    user's own categories ("therapy-notes", "fertility-clinic"). Fails closed like the classifier:
    a name it cannot tell from a sensitive one starts sensitive, one click from shared."""
    meaning = sensitive_meaning(slug)
    if meaning is not None:
        return meaning
    spoken = slug.replace("-", " ")
    vector = get_embedder().embed([spoken])
    # A name is read with the English signal words (a name is too short to tell its language).
    labels = classifier_for(_user_categories(user)).classify(vector, [spoken], [None])[0]
    sensitive = sensitive_categories(user.pk)
    return next((label for label in labels if label in sensitive), None)


@dataclass(frozen=True)
class NewCategory:
    """A name a write brings into the user's vocabulary."""

    slug: str
    means: str | None  # the sensitive category its name means: it starts sensitive


def new_categories(user: User, slugs: Collection[str]) -> list[NewCategory]:
    """The names among these (folded) that are in no vocabulary of the user yet, each with what
    it means. No query and no embedding when every name is a default."""
    wanted = [s for s in dict.fromkeys(slugs) if s not in DEFAULT_SLUGS]
    if not wanted:
        return []
    known = set(
        UserCategory.objects.filter(owner=user, slug__in=wanted).values_list("slug", flat=True)
    )
    return [NewCategory(s, name_meaning(user, s)) for s in wanted if s not in known]


def categories_lock(actor: Actor, labels: Iterable[str]) -> set[str]:
    """In a write's transaction, before its memories carry these labels: the user's own
    categories among them are locked (FOR SHARE) until the write commits, so a rename, merge or
    delete (which locks them FOR UPDATE: memories/services/category_changes.py) waits for the write
    or goes first. Returns the labels that are in no vocabulary (renamed, merged or deleted since
    the write looked, or new): stored as they are, they would name a category no grant and no
    sensitive mark knows."""
    own = sorted(set(labels) - DEFAULT_SLUGS)
    if not own:
        return set()
    with connection.cursor() as cur:
        cur.execute(
            "SELECT slug FROM memories_usercategory WHERE owner_id = %s AND slug = ANY(%s) "
            "ORDER BY slug FOR SHARE",
            [actor.user.pk, own],
        )
        held = {row[0] for row in cur.fetchall()}
    return set(own) - held


def categories_create(actor: Actor, new: Sequence[NewCategory], used: Collection[str]) -> None:
    """In a write's transaction: the rows of the new names its stored memories carry (`used`),
    sensitive when the name means a sensitive category; a name someone created meanwhile stays
    as they made it."""
    rows = [
        UserCategory(
            owner=actor.user, slug=n.slug, sensitive=n.means is not None, created_by=actor.label
        )
        for n in new
        if n.slug in used
    ]
    if rows:
        UserCategory.objects.bulk_create(rows, ignore_conflicts=True)


def category_description(raw: str) -> str:
    """A description as given, checked: it teaches the classifier (empty: nothing to learn)."""
    description = (raw or "").strip()
    if len(description) > DESCRIPTION_MAX:
        raise InvalidInput(
            gettext_noop("Describe the category in at most %(n)d characters."),
            field="description",
            n=DESCRIPTION_MAX,
        )
    return description


@dataclass(frozen=True)
class CategoryAdded:
    category: CategoryInfo
    means: str | None  # why it started sensitive: the sensitive category its name means


def category_add(
    *, actor: Actor, slug: str, description: str = "", sensitive: bool | None = None
) -> CategoryAdded:
    """Add a category of the user's own; a description teaches the local classifier to file
    memories under it. `sensitive=None`: sensitive when its name means a sensitive category."""
    require_owner(actor, SCOPE_WRITE)
    slug = category_name(slug, field="slug")
    if slug in DEFAULT_SLUGS:
        raise Conflict(gettext_noop("%(slug)r is already a default category."), slug=slug)
    description = category_description(description)
    means = name_meaning(actor.user, slug) if sensitive is None else None
    is_sensitive = means is not None if sensitive is None else sensitive
    try:
        with transaction.atomic():
            UserCategory.objects.create(
                owner=actor.user,
                slug=slug,
                description=description,
                sensitive=is_sensitive,
                created_by=actor.label,
                reviewed_at=timezone.now(),  # the owner is looking at it as it is made
            )
            access_event_create(
                actor,
                AccessEvent.Action.STATE,
                detail={"categories": {"added": [slug]}, "sensitive": is_sensitive},
            )
    except IntegrityError:
        raise Conflict(gettext_noop("You already have a category %(slug)r."), slug=slug) from None
    return CategoryAdded(CategoryInfo(slug, description, is_sensitive, True), means)


def memory_recategorize(
    *,
    actor: Actor,
    all_memories: bool = False,
    batch: int = 256,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Re-run local classification on memories whose categories the user did not choose.

    By default only uncategorised memories; `all_memories` re-labels every automatic one too.
    """
    require(actor, SCOPE_WRITE)
    qs = Memory.objects.filter(visible_q(actor), categories_set_by_user=False)
    if not all_memories:
        qs = qs.filter(categories__len=0)
    ids = list(qs.order_by("created_at", "id").values_list("id", flat=True))
    classifier = classifier_for(_user_categories(actor.user))
    model = current_model()
    changed = 0
    for start in range(0, len(ids), batch):
        with transaction.atomic():
            changed += _recategorize_batch(actor, ids[start : start + batch], classifier, model)
        if progress:
            progress(min(start + batch, len(ids)), len(ids))
    return changed


def _recategorize_batch(actor: Actor, ids: list[Any], classifier: Classifier, model: str) -> int:
    """One batch of `memory_recategorize`, in the caller's transaction: the rows locked, labelled
    again, saved with who changed them and recorded with one access event; returns how many
    changed."""
    rows = list(
        Memory.objects.select_for_update()
        .filter(owner=actor.user, id__in=ids, categories_set_by_user=False)
        .order_by("created_at", "id")
    )
    # The classifier's model, whatever model the owner's vectors are in.
    vectors = moves.vectors_of(actor.user.pk, model, [m.id for m in rows], [m.text for m in rows])
    labels = classifier.label_memories(vectors, [m.text for m in rows]) if rows else []
    gone = categories_lock(actor, {c for cats in labels for c in cats})
    labels = [[c for c in cats if c not in gone] for cats in labels]
    now = timezone.now()
    updated = []
    fields = ["categories", "updated_at"]
    for memory, cats in zip(rows, labels, strict=True):
        # What this actor may not remove stays (for an app: memories:write is not the
        # owner's say over labels, memories/ownership.py).
        keep = protected_categories(actor, memory)
        cats = [*cats, *(c for c in memory.categories if c in keep and c not in cats)]
        if list(memory.categories) != cats:
            memory.categories = cats
            memory.updated_at = now
            fields[2:] = mark_changed_by(actor, memory, now)
            updated.append(memory)
    owned = Memory.objects.filter(owner=actor.user)
    owned.bulk_update(updated, fields)
    if updated:
        access_event_create(
            actor,
            AccessEvent.Action.UPDATE,
            [m.id for m in updated],
            detail={"categorized": len(updated)},
        )
    return len(updated)
