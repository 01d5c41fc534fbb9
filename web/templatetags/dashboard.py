"""Template helpers for the dashboard: a memory's origin, the stats header, the trash's notices
and Undo."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from django import template
from django.conf import settings
from django.contrib.messages.storage.base import Message
from django.http import HttpRequest
from django.utils import dateformat, timezone
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.timesince import timesince
from django.utils.translation import gettext, pgettext, pgettext_lazy

from accounts.models import User
from activity.models import AccessEvent
from kernel import language
from memories.models import Memory
from memories.selectors.review_work import ReviewWork, review_work
from memories.selectors.stats import MemoryStats, memory_stats
from memories.selectors.trash import trash_notices
from web import presentation
from web.dashboard import actor_for_request
from web.presentation import (
    OriginInfo,
    SourceInfo,
    change_summary,
    changed_by_label,
    origin_of,
    source_of,
)

register = template.Library()


@register.filter
def origin(memory: Memory) -> OriginInfo:
    return origin_of(memory)


@register.filter
def source(memory: Memory) -> SourceInfo | None:
    return source_of(memory)


@register.filter
def change(event: AccessEvent) -> str:
    return change_summary(event)


@register.filter
def changed_by(memory: Memory) -> str:
    return changed_by_label(memory)


@register.filter
def join_names(apps: list[Any]) -> str:
    """Apps (or anything with a name) as "A, B and C"."""
    return presentation.join_names([str(getattr(a, "name", a)) for a in apps])


@register.filter
def ago(moment: datetime) -> str:
    """'just now' or '3 hours ago': how long ago, to the largest unit, in the page's language."""
    if timezone.now() - moment < timedelta(minutes=1):
        return gettext("just now")
    return gettext("%(time)s ago") % {"time": timesince(moment, depth=1)}


# How a time reads, by style, in Django's date-format letters: the server writes it in UTC (and
# says so); static/js/app.js rewrites it in the browser's own zone and puts the zone in the
# title. "ago" keeps its words. Each language words its dates its own way (the .po files).
_MOMENT_FORMATS = {
    "datetime": pgettext_lazy("date and time", "j M Y, H:i"),
    "seconds": pgettext_lazy("date and time with seconds", "j M Y, H:i:s"),
    "short": pgettext_lazy("day and time, no year", "j M, H:i"),
    "date": pgettext_lazy("date", "j M Y"),
}


def _formatted(at: datetime, style: str) -> str:
    return dateformat.format(at, str(_MOMENT_FORMATS[style]))


@register.filter
def moment(value: datetime | str | None, style: str = "datetime") -> str:
    """A <time> the owner reads in their local time (app.js), UTC until the script runs."""
    if isinstance(value, str):
        text = value
        try:
            value = datetime.fromisoformat(text)
        except ValueError:
            return text
    if value is None:
        return ""
    if timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    at = value.astimezone(UTC)
    full = f"{_formatted(at, 'datetime')} UTC"
    if style == "ago":
        text = ago(at)
    elif style == "date":
        text = _formatted(at, "date")
    else:
        text = f"{_formatted(at, style if style in _MOMENT_FORMATS else 'datetime')} UTC"
    return format_html(
        '<time datetime="{}" data-local="{}" title="{}">{}</time>',
        at.isoformat(),
        style if style in (*_MOMENT_FORMATS, "ago") else "datetime",
        full,
        text,
    )


@register.filter
def source_name(source: str) -> str:
    return presentation.source_name(str(source))


@register.filter
def extractor_name(extractor: str) -> str:
    return str(presentation.EXTRACTOR_NAMES.get(str(extractor), str(extractor)))


@register.filter
def humanize_key(key: str) -> str:
    return presentation.provenance_label(str(key))


@register.filter
def provenance_value(value: Any, key: str) -> str:
    """A provenance value as a person reads it: times (`…_at` keys) as '2 Dec 2026, 22:19 UTC'."""
    if str(key).endswith("_at") and isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
        if timezone.is_aware(moment):
            return f"{_formatted(moment.astimezone(UTC), 'datetime')} UTC"
        return _formatted(moment, "datetime")
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
    return {"stats": memory_stats(actor=actor_for_request(request))}  # type: ignore[arg-type]


@register.simple_tag(takes_context=True)
def review_link(context: template.Context) -> ReviewWork | None:
    """What the Review link says (memories.selectors.review_work), for the signed-in user only."""
    request = context.get("request")
    if not isinstance(getattr(request, "user", None), User):
        return None
    return review_work(actor=actor_for_request(request))  # type: ignore[arg-type]


@register.filter
def app_name(name: str) -> str:
    """An app's name as a person reads it: the owner's own apps ("dashboard") in the page's
    language, any other app's name as it is."""
    return presentation.app_display_name(str(name))


@register.filter
def app_subject(name: str) -> str:
    """Who deleted, at the start of a sentence: an app's name as it is, or the owner's own app in
    words ("The command line")."""
    label = presentation.app_display_name(str(name))
    return label if label == name else label[:1].upper() + label[1:]


@register.filter
def undo_batch(message: Message) -> str:
    """The delete a message offers to undo (its trash batch), or ''."""
    return presentation.undo_batch(str(message.extra_tags or ""))


@register.filter
def page_path(request: HttpRequest) -> str:
    """The page the person is on, also inside an htmx fragment (where a form returns to)."""
    htmx = getattr(request, "htmx", None)
    current = htmx.current_url_abs_path if htmx else None
    return current or request.get_full_path()


@register.simple_tag
def trash_days() -> int:
    return int(settings.TRASH_DAYS)


@register.inclusion_tag("memories/_trash_notices.html", takes_context=True)
def app_delete_notices(context: template.Context) -> dict[str, Any]:
    """Deletes the owner did not make here (an app, the API, an operator) and has not seen yet:
    on every dashboard page, each with Restore, until restored or dismissed."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if not isinstance(user, User):
        return {"notices": []}
    return {
        "notices": trash_notices(actor=actor_for_request(request)),  # type: ignore[arg-type]
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag(takes_context=True)
def chosen_language(context: template.Context) -> str:
    """The language the person chose (their account's, else this browser's cookie), '' when
    the browser's own applies: what the language switch shows selected."""
    request = context.get("request")
    if request is None:
        return ""
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return language.chosen_language(request) or (cookie if language.offered(cookie) else "")


@register.filter
def fill_count(sentence: str, number: int) -> str:
    """A translated sentence with its {n}/{max} place filled with a number, written as the page's
    language writes numbers (static/js/app.js fills the same sentences as the person types)."""
    return re.sub(r"\{\w+\}", number_format(number, force_grouping=True), str(sentence))


@register.filter
def state_name(state: str) -> str:
    """A memory's state ("paused") in the page's language."""
    return presentation.state_name(str(state))


@register.filter
def deleted_by(batch: Any) -> str:
    """Who, within the app, made a trash batch (" (admin:x)" for the command line), or ''."""
    return "" if batch.deleted_by == batch.app_name else f" ({batch.deleted_by})"


@register.filter
def deleter(batch: Any) -> str:
    """Who made a trash batch, at the start of a sentence: "Claude", "The command line (x)"."""
    return app_subject(batch.app_name) + deleted_by(batch)


@register.filter
def join_parts(parts: list[str]) -> str:
    """Parts of one line ("9 in health; 2 private"), separated as the page's language does."""
    return pgettext("between the parts of a sentence", "; ").join(str(p) for p in parts)
