"""The map (what the store knows, at a glance) and the activity page (who read or wrote what)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from activity.models import AccessEvent
from activity.selectors import activity_apps, activity_daily, activity_events
from memories.selectors.memories import event_memories
from memories.selectors.stats import app_recent_reads, memory_map
from web.charts import activity_chart, map_layout
from web.dashboard import DashboardRequest, actor_for_request, dashboard_view
from web.forms import ActivityFilterForm

CHART_DAYS = 14


@require_GET
@dashboard_view
def map_page(request: DashboardRequest) -> HttpResponse:
    actor = actor_for_request(request)
    data = memory_map(actor=actor)
    return render(request, "memories/map.html", {"map": data, "layout": map_layout(data)})


@require_GET
@vary_on_headers("HX-Request")
@dashboard_view
def activity_page(request: DashboardRequest) -> HttpResponse:
    actor = actor_for_request(request)
    form = ActivityFilterForm(request.GET)
    filters = form.filters()
    older_than = request.GET.get("older_than") or ""
    # A cursor this page issued is an event id; anything else (², 10**30) starts from the top.
    cursor = older_than.isascii() and older_than.isdigit() and len(older_than) <= 18
    page = activity_events(actor=actor, filters=filters, before=int(older_than) if cursor else None)
    daily = activity_daily(actor=actor, days=CHART_DAYS, filters=filters)
    context = {
        "form": form,
        "filters_set": form.filters_set(),
        "page": page,
        "chart": activity_chart(daily, today=timezone.localdate(), days=CHART_DAYS),
        "chart_days": CHART_DAYS,
    }
    htmx = request.htmx
    if htmx and not htmx.history_restore_request:
        return render(request, "memories/activity.html#activity-results", context)
    context.update(
        apps=activity_apps(actor=actor),
        actions=AccessEvent.Action.choices,
        recent=app_recent_reads(actor=actor),
    )
    return render(request, "memories/activity.html", context)


@require_GET
@dashboard_view
def activity_event_page(request: DashboardRequest, event_id: int) -> HttpResponse:
    """The memories one event touched (a bulk delete, a search, an import's adds): the owner's
    own, each opened from here; those in the trash or deleted for good are said so."""
    found = event_memories(actor=actor_for_request(request), event_id=event_id)
    return render(request, "memories/activity_event.html", {"found": found, "e": found.event})
