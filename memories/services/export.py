"""Export: everything the store holds about a user, as JSON (docs/export.schema.json) or Markdown.

The JSON is what `backfill --source contextlayer` restores from. The owner's own apps only: no
connected app can export a user's whole memory.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from django.utils import timezone

from accounts.actors import Actor
from accounts.models import ConnectedApp
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.gates import SCOPE_READ, require_owner
from memories.ingest.own_export import FORMAT, VERSION
from memories.models import Memory, MemoryState, MemoryVersion
from memories.selectors.trash import restorable_until


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _state(memory: Memory) -> str:
    """The state a memory has, or in the trash the one it comes back in."""
    return memory.trash_state if memory.state == MemoryState.TRASHED else memory.state


def _trash(memory: Memory) -> dict[str, Any] | None:
    batch = memory.trash_batch
    if memory.state != MemoryState.TRASHED or batch is None:
        return None
    return {
        "deleted_at": _iso(batch.created_at),
        "deleted_by": batch.deleted_by,
        "restorable_until": _iso(restorable_until(batch.created_at)),
    }


def _memory(memory: Memory, versions: list[MemoryVersion], echoes: list[Memory]) -> dict[str, Any]:
    return {
        "id": str(memory.id),
        "text": memory.text,
        "language": memory.language,
        "categories": list(memory.categories),
        "categories_set_by_user": memory.categories_set_by_user,
        "state": _state(memory),
        "trash": _trash(memory),
        "is_private": memory.is_private,
        "pinned_at": _iso(memory.pinned_at),
        "origin": memory.origin,
        "origin_app_name": memory.origin_app_name,
        "provenance": memory.provenance,
        "metadata": memory.metadata,
        "embedding_model": memory.embedding_model,
        "superseded_by": str(memory.superseded_by_id) if memory.superseded_by_id else None,
        "created_at": _iso(memory.created_at),
        "updated_at": _iso(memory.updated_at),
        "user_edited_at": _iso(memory.user_edited_at),
        "versions": [
            {
                "text": v.text,
                "kind": v.kind,
                "changed_by": v.changed_by,
                "reason": v.reason,
                "created_at": _iso(v.created_at),
            }
            for v in versions
        ],
        # Apps' own statements of this memory, kept for apps that may not see it (echoes).
        "also_stated": [
            {
                "app_name": e.origin_app_name,
                "text": e.text,
                "state": _state(e),
                "in_trash": e.state == MemoryState.TRASHED,
                "created_at": _iso(e.created_at),
            }
            for e in echoes
        ],
    }


def _app(app: ConnectedApp) -> dict[str, Any]:
    return {
        "id": app.pk,
        "kind": app.kind,
        "name": app.name,
        "scopes": list(app.scopes),
        "categories": list(app.categories),
        "hidden_categories": list(app.hidden_categories),
        "sees_uncategorised": app.sees_uncategorised,
        "paused": app.paused,
        "review_writes": app.review_writes,
        "created_at": _iso(app.created_at),
        "last_seen_at": _iso(app.last_seen_at),
        "revoked_at": _iso(app.revoked_at),
    }


def _event(event: AccessEvent) -> dict[str, Any]:
    return {
        "app_id": event.app_id,
        "app_name": event.app_name,
        "actor": event.actor,
        "action": event.action,
        "memory_ids": [str(i) for i in event.memory_ids],
        "count": event.count,
        "detail": event.detail,
        "created_at": _iso(event.created_at),
    }


def export_build(*, actor: Actor) -> dict[str, Any]:
    """The whole store of the actor's user, in the versioned export format."""
    require_owner(actor, SCOPE_READ)
    user = actor.user
    versions: dict[Any, list[MemoryVersion]] = defaultdict(list)
    for version in MemoryVersion.objects.filter(owner=user).order_by("created_at", "pk"):
        versions[version.memory_id].append(version)
    echoes: dict[Any, list[Memory]] = defaultdict(list)
    for echo in Memory.objects.filter(owner=user, echo_of__isnull=False).order_by("created_at"):
        echoes[echo.echo_of_id].append(echo)
    # The trash included, marked (`trash`): it is still the owner's until purged.
    memories = (
        Memory.objects.filter(owner=user, echo_of__isnull=True)
        .select_related("trash_batch")
        .order_by("created_at", "id")
    )
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "account": {"email": user.email, "date_joined": _iso(user.date_joined)},
        "memories": [
            _memory(m, versions.get(m.id, []), echoes.get(m.id, [])) for m in memories.iterator()
        ],
        "connected_apps": [
            _app(a) for a in ConnectedApp.objects.filter(owner=user).order_by("created_at", "pk")
        ],
        "access_log": [
            _event(e)
            for e in AccessEvent.objects.filter(owner=user).order_by("created_at", "pk").iterator()
        ],
    }
    access_event_create(actor, AccessEvent.Action.EXPORT, count=len(document["memories"]))
    return document


def export_markdown(*, actor: Actor) -> str:
    """A readable document: memories grouped by category (a memory appears under each of its
    categories), then the connected apps."""
    document = export_build(actor=actor)
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    trashed: list[dict[str, Any]] = []
    for memory in document["memories"]:
        if memory["superseded_by"]:
            continue
        if memory["trash"]:
            trashed.append(memory)
            continue
        for category in memory["categories"] or ["uncategorised"]:
            groups[category].append(memory)
    lines = [
        "# Context Layer export",
        "",
        f"Exported {document['exported_at']} for {document['account']['email']}: "
        f"{len(document['memories'])} memories.",
        "",
    ]
    for category in sorted(groups, key=lambda c: (c == "uncategorised", c)):
        lines += [f"## {category.capitalize()}", ""]
        for memory in groups[category]:
            text = memory["text"].replace("\n", "\n  ")
            where = memory["provenance"].get("source") or memory["origin_app_name"] or "?"
            state = "" if memory["state"] == "active" else f", {memory['state']}"
            lines.append(f"- {text}  \n  _{memory['created_at'][:10]}, from {where}{state}_")
        lines.append("")
    if trashed:
        lines += ["## In the trash", ""]
        for memory in trashed:
            text = memory["text"].replace("\n", "\n  ")
            trash = memory["trash"]
            lines.append(
                f"- {text}  \n  _deleted {trash['deleted_at'][:10]} by {trash['deleted_by']}, "
                f"restorable until {trash['restorable_until'][:10]}_"
            )
        lines.append("")
    lines += ["## Connected apps", ""]
    for app in document["connected_apps"]:
        status = "revoked" if app["revoked_at"] else ("paused" if app["paused"] else "active")
        scopes = ", ".join(app["scopes"]) or "no scopes"
        lines.append(f"- **{app['name']}** ({app['kind']}, {status}): {scopes}")
    lines.append("")
    return "\n".join(lines)
