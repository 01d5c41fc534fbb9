"""Template helpers for the dashboard: a memory's origin and the stats header."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

from accounts.actors import owner_actor
from accounts.models import User
from activity.models import AccessEvent
from memories.models import Memory
from memories.presentation import (
    OriginInfo,
    and_list,
    change_summary,
    changed_by_label,
    origin_of,
)
from memories.selectors import MemoryStats, memory_stats

register = template.Library()


@register.filter
def origin(memory: Memory) -> OriginInfo:
    return origin_of(memory)


@register.filter
def change(event: AccessEvent) -> str:
    return change_summary(event)


@register.filter
def changed_by(memory: Memory) -> str:
    return changed_by_label(memory)


@register.filter
def join_names(apps: list[Any]) -> str:
    """Apps (or anything with a name) as "A, B and C"."""
    return and_list([getattr(a, "name", str(a)) for a in apps])


@register.filter
def ago(moment: datetime) -> str:
    """'just now' or '3 hours ago': how long ago, to the largest unit."""
    if timezone.now() - moment < timedelta(minutes=1):
        return "just now"
    return f"{timesince(moment, depth=1)} ago"


@register.filter
def humanize_key(key: str) -> str:
    return str(key).replace("_", " ").capitalize()


@register.filter
def provenance_value(value: Any, key: str) -> str:
    """A provenance value as a person reads it: times (`…_at` keys) as '2 Dec 2026, 22:19 UTC'."""
    if str(key).endswith("_at") and isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
        if timezone.is_aware(moment):
            moment = moment.astimezone(UTC)
            return f"{moment:%-d %b %Y, %H:%M} UTC"
        return f"{moment:%-d %b %Y, %H:%M}"
    return "" if value is None else str(value)


@register.inclusion_tag("memories/_stats.html", takes_context=True)
def stats_header(context: template.Context) -> dict[str, Any]:
    """Store-wide figures on every dashboard page, for the signed-in user only."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if not isinstance(user, User):
        return {"stats": None}
    if isinstance(context.get("stats"), MemoryStats):  # the view already has them
        return {"stats": context["stats"]}
    return {"stats": memory_stats(actor=owner_actor(user))}
