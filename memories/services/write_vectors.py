"""What a write computes from its texts outside the transaction (vectors under every model the
owner needs, local categories) and what it stages inside it (the next model's vectors, the
second search arm). Adds and text changes both go through here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings

from accounts.actors import Actor
from accounts.models import ConnectedApp
from memories.categories.vocabulary import UNCHECKED
from memories.search import moves, second_arm
from memories.search.embeddings import current_model
from memories.services import categories as user_categories
from memories.visibility import sensitive_categories


def embedded_for(
    actor: Actor, texts: Sequence[str], given: dict[str, list[Any]] | None = None
) -> moves.Vectors:
    """The texts' vectors under the classifier's model (EMBEDDING_MODEL) and the owner's models
    as this process last saw them, embedded before any transaction (the model is the slow part;
    a write embeds again inside only for a model the owner's row names since)."""
    return moves.Vectors(texts, given).ensure(
        [current_model(), *moves.expected(actor.user.pk).written]
    )


def stage(
    actor: Actor,
    models: moves.Models,
    rows: Sequence[int],
    ids: Sequence[Any],
    embedded: moves.Vectors,
) -> None:
    """While the owner moves to another model, the written rows' vectors of that model too
    (`moves.stage`): at the owner's switch they become the rows' own. And, under a model with a
    second search arm (multilingual-e5), the rows' USE vectors (`second_arm.write`: those not in
    English; an English text's goes)."""
    second_arm.write(
        actor.user.pk,
        models.written,
        [ids[n] for n in rows],
        [embedded.texts[n] for n in rows],
    )
    if models.next and rows:
        moves.stage(
            actor.user.pk,
            models.next,
            [ids[n] for n in rows],
            [embedded.texts[n] for n in rows],
            [embedded.of(models.next)[n] for n in rows],
        )


def auto_categories(
    actor: Actor, given: Sequence[list[str]], embedded: moves.Vectors
) -> list[list[str]]:
    """Local classification, before any app can read the rows: every label for the memories that
    came without categories; for an app's memories that came with some, the sensitive ones the
    classifier finds beyond the app's choice (an app's own label never carries sensitive text
    past the fail-closed guard: "depression" filed under hobbies is health too). The classifier
    compares vectors of its own model (EMBEDDING_MODEL), whatever the owner's vectors are."""
    guarded = not actor.app.is_owner_app and actor.app.kind != ConnectedApp.Kind.IMPORT
    todo = [i for i, cats in enumerate(given) if guarded or not cats]
    out: list[list[str]] = [[] for _ in given]
    if not todo or not settings.AUTO_CATEGORIZE:
        return out
    vectors, texts = embedded.of(current_model()), embedded.texts
    labels = user_categories.classify_for_owner(
        actor.user, [vectors[i] for i in todo], [texts[i] for i in todo]
    )
    sensitive = sensitive_categories(actor.user.pk) if any(given[i] for i in todo) else frozenset()
    for i, cats in zip(todo, labels, strict=True):
        if sensitive & set(given[i]):  # already hidden as sensitive: nothing left unchecked
            cats = [c for c in cats if c != UNCHECKED]
        out[i] = [c for c in cats if c in sensitive and c not in given[i]] if given[i] else cats
    return out
