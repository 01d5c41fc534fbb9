"""Template helpers for the dashboard: a memory's origin and the stats header."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.actors import owner_actor
from accounts.models import User
from memories.models import Memory
from memories.presentation import OriginInfo, origin_of
from memories.selectors import memory_stats

register = template.Library()


@register.filter
def origin(memory: Memory) -> OriginInfo:
    return origin_of(memory)


@register.inclusion_tag("memories/_stats.html", takes_context=True)
def stats_header(context: template.Context) -> dict[str, Any]:
    """Store-wide figures on every dashboard page, for the signed-in user only."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if not isinstance(user, User):
        return {"stats": None}
    return {"stats": memory_stats(actor=owner_actor(user))}
