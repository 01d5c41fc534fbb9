"""A memory's text changes: an edit, a restored version, or the text the owner decided after the
store's check. The prior text becomes a version; the new one is embedded, re-indexed and
re-classified in the same transaction as its access event."""

from __future__ import annotations

import uuid
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.errors import Conflict, NotFound
from kernel.gates import SCOPE_WRITE, require_owner
from memories import write_budget
from memories.models import Memory, MemoryVersion
from memories.ownership import changed_by, reclassified
from memories.search import lexical, moves
from memories.search.embeddings import vector_literal
from memories.services import categories as user_categories
from memories.services import harm
from memories.services.locks import locked, text_holders
from memories.services.marks import apply_visibility
from memories.services.write_vectors import auto_categories, embedded_for, stage
from memories.text import text_key

# The text change's UPDATE; who changed it comes from its one home (`ownership.changed_by`).
_TEXT_UPDATE = """
UPDATE memories_memory
SET text = %(text)s, text_key = %(key)s, embedding = %(emb)s::vector,
    embedding_model = %(model)s, app_text = %(app_text)s,
    tsv = memory_tsvector(%(cfg)s::regconfig, %(prefix)s, %(body)s),
    language = %(language)s,
    updated_at = %(now)s,
    user_edited_at = CASE WHEN %(by_owner)s THEN %(now)s ELSE user_edited_at END,
    categories = %(cats)s::varchar[],
    changed_by_app_id = %(app)s, changed_by_name = %(by)s, changed_at = %(changed_at)s,
    echo_of_id = %(echo_of)s, echo_app_id = %(echo_app)s
WHERE id = %(id)s AND owner_id = %(owner)s
"""
# A memory that became an echo hands its own echoes on to the memory it restates (run every
# time, so the statements do not depend on the answer).
_ECHOES_HANDED_ON = (
    "UPDATE memories_memory SET echo_of_id = %(to)s::uuid "
    "WHERE owner_id = %(owner)s AND echo_of_id = %(id)s AND %(to)s::uuid IS NOT NULL"
)


def apply_text(
    actor: Actor,
    memory: Memory,
    new_text: str,
    embedded: moves.Vectors,
    models: moves.Models,
    *,
    kind: str,
    reason: str,
    app_text: str | None = None,
) -> None:
    """`memory` (locked) takes `new_text`, with the vector of the owner's `models` (held in this
    transaction) of the one text of `embedded`: what apps read, `app_text` (the owner's text
    with its credentials withheld) or the text itself."""
    write_budget.charge(actor, 1)  # a new text (and a version) counts like a new memory
    key = text_key(new_text)
    echo_of, echo_app = _echo_after(actor, memory, key)
    MemoryVersion.objects.create(
        memory=memory,
        owner=memory.owner,
        text=memory.text,
        kind=kind,
        changed_by=actor.label,
        reason=reason[:500],
    )
    now = timezone.now()
    automatic = _automatic_labels(actor, memory, embedded)
    indexed = _indexed(embedded, models)
    who = changed_by(actor, now)
    row = {
        "text": new_text,
        "app_text": app_text,
        "key": key,
        **indexed,
        "now": now,
        "by_owner": actor.app.is_owner_app,
        "cats": reclassified(actor, memory, automatic),
        "app": who["changed_by_app"].pk,
        "by": who["changed_by_name"],
        "changed_at": who["changed_at"],
        "echo_of": echo_of,
        "echo_app": echo_app,
        "id": memory.id,
        "owner": memory.owner_id,
    }
    try:
        with transaction.atomic(), connection.cursor() as cur:
            cur.execute(_TEXT_UPDATE, row)
            cur.execute(
                _ECHOES_HANDED_ON, {"to": echo_of, "owner": memory.owner_id, "id": memory.id}
            )
            stage(actor, models, [0], [memory.id], embedded)
    except IntegrityError:
        # Another write stored this text in between: say nothing about which one.
        raise Conflict(
            gettext_noop("The memory changed while it was being updated; try again.")
        ) from None
    memory.refresh_from_db()


def _automatic_labels(actor: Actor, memory: Memory, embedded: moves.Vectors) -> list[str]:
    """A new text may be about something else: automatic labels follow it (those of a category
    renamed, merged or deleted since the classifier was built are left out); `reclassified`
    keeps the owner's labels and what this actor may not remove (a sensitive one, for an app)."""
    automatic = auto_categories(actor, [[]], embedded)[0]
    if not memory.categories_set_by_user:
        gone = user_categories.categories_lock(actor, automatic)
        automatic = [c for c in automatic if c not in gone]
    return automatic


def _echo_after(actor: Actor, memory: Memory, key: str) -> tuple[uuid.UUID | None, int | None]:
    """The memory (and app) `memory` restates once it takes a text of this key: as it was for
    its own text. A text another active memory holds is refused only when the caller may see
    that memory; otherwise this memory becomes the caller's echo of it (its history stays),
    exactly as an add of that text would: the caller cannot tell the two worlds apart."""
    if key == memory.text_key:
        return memory.echo_of_id, memory.echo_app_id
    holders, known = text_holders(actor, {key})
    if key in known:
        raise Conflict(gettext_noop("Another active memory already has this text."))
    holder = holders.get(key)
    return (holder, actor.app.pk) if holder else (None, None)


def _indexed(embedded: moves.Vectors, models: moves.Models) -> dict[str, Any]:
    """What a text change writes from what apps read (the one text of `embedded`): the live
    model's vector and the language and lexemes of `tsv`."""
    (shown,) = embedded.texts
    analysed = lexical.for_memory(shown)
    return {
        "emb": vector_literal(embedded.of(models.live)[0]),
        "model": models.live,
        "language": analysed.language,
        "cfg": analysed.config,
        "prefix": analysed.prefix,
        "body": analysed.body,
    }


def apply_screened_text(
    actor: Actor,
    memory: Memory,
    text: str,
    app_text: str | None,
    embedded: moves.Vectors,
    models: moves.Models,
    *,
    reason: str,
) -> None:
    """A text (and what apps read of it) the owner decided after the store's check
    (memories/services/harm.py): a new text becomes an edit; the same text only changes what
    apps read, and the embedding and lexemes that come from it. `embedded`: of what apps read;
    `models`: held in this transaction, before the memory's row was locked."""
    if text != memory.text:
        apply_text(
            actor,
            memory,
            text,
            embedded,
            models,
            kind=MemoryVersion.Kind.EDIT,
            reason=reason,
            app_text=app_text,
        )
        return
    with connection.cursor() as cur:
        cur.execute(
            """
            UPDATE memories_memory SET app_text = %(app_text)s, embedding = %(emb)s::vector,
                embedding_model = %(model)s,
                tsv = memory_tsvector(%(cfg)s::regconfig, %(prefix)s, %(body)s),
                language = %(language)s
            WHERE id = %(id)s AND owner_id = %(owner)s
            """,
            {
                "app_text": app_text,
                **_indexed(embedded, models),
                "id": memory.id,
                "owner": memory.owner_id,
            },
        )
    stage(actor, models, [0], [memory.id], embedded)


def memory_restore_version(*, actor: Actor, memory_id: object, version_id: int) -> Memory:
    """Bring back an earlier text; the current text becomes a version in turn. The owner's own apps
    only: an old text may have been private, hidden or in another category when it was current."""
    require_owner(actor, SCOPE_WRITE)
    with transaction.atomic():
        memory = locked(actor, memory_id)
        version = MemoryVersion.objects.filter(
            memory=memory, owner=actor.user, pk=version_id
        ).first()
        if version is None:
            raise NotFound("version")
        old_text = version.text
    screened = harm.screen_write(actor, old_text)
    embedded = embedded_for(actor, [screened.app_text or old_text])
    with transaction.atomic():
        models = moves.held(actor.user.pk)
        memory = locked(actor, memory_id)
        apply_text(
            actor,
            memory,
            old_text,
            embedded,
            models,
            kind=MemoryVersion.Kind.RESTORE,
            reason="restored",
            app_text=screened.app_text,
        )
        if screened.private and not memory.is_private:
            apply_visibility(actor, memory, timezone.now(), private=True)
        access_event_create(
            actor, AccessEvent.Action.UPDATE, [memory.id], detail={"restored": version_id}
        )
    return memory
