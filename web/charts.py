"""Geometry for the server-rendered SVG charts (the map and the activity chart).

The templates only place shapes at the coordinates computed here: no chart library, no script.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta
from urllib.parse import urlencode

from django.utils import dateformat
from django.utils.translation import gettext_lazy, pgettext

from activity.selectors import DailyActivity
from memories.selectors.stats import MemoryMap

UNCATEGORISED = gettext_lazy("uncategorised")


@dataclass(frozen=True)
class MapCell:
    x: float
    y: float
    r: float
    count: int
    category: str
    app: str
    href: str
    hue: int  # one colour per app column


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    text: str
    count: int = 0


@dataclass(frozen=True)
class MapLayout:
    width: int
    height: int
    cells: list[MapCell]
    rows: list[Label]
    columns: list[Label]


def map_layout(data: MemoryMap, *, cell_w: int = 128, cell_h: int = 52) -> MapLayout:
    """Categories down, apps across; each circle's area is proportional to its count."""
    left, top = 150, 64
    biggest = max(data.cells.values(), default=1)
    max_r = min(cell_w, cell_h) / 2 - 4
    rows = [
        Label(left - 12, top + i * cell_h + cell_h / 2, cat or str(UNCATEGORISED), n)
        for i, (cat, n) in enumerate(data.categories)
    ]
    columns = [
        Label(left + j * cell_w + cell_w / 2, top - 14, app or "unknown", n)
        for j, (app, n) in enumerate(data.apps)
    ]
    cells = []
    for i, (cat, _) in enumerate(data.categories):
        for j, (app, _) in enumerate(data.apps):
            n = data.cells.get((cat, app), 0)
            if not n:
                continue
            query = {"app": app, **({"category": cat} if cat else {"uncategorised": "on"})}
            cells.append(
                MapCell(
                    x=left + j * cell_w + cell_w / 2,
                    y=top + i * cell_h + cell_h / 2,
                    r=max(4.0, max_r * math.sqrt(n / biggest)),
                    count=n,
                    category=cat or str(UNCATEGORISED),
                    app=app,
                    href="/?" + urlencode(query),
                    hue=j % 6,
                )
            )
    return MapLayout(
        width=left + max(1, len(data.apps)) * cell_w + 16,
        height=top + max(1, len(data.categories)) * cell_h + 16,
        cells=cells,
        rows=rows,
        columns=columns,
    )


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    w: float
    h: float
    kind: str  # "read" or "write"
    count: int
    day: date


@dataclass(frozen=True)
class AppChart:
    app: str
    y: float  # top of this app's band
    bars: list[Bar]
    reads: int
    writes: int


@dataclass(frozen=True)
class ActivityChart:
    width: int
    height: int
    band: int
    apps: list[AppChart]
    days: list[Label]
    baseline_x: float


def activity_chart(
    rows: list[DailyActivity], *, today: date, days: int = 14, band: int = 70
) -> ActivityChart:
    """One band per app, its name and totals above its bars; per day a reads bar and a writes bar
    side by side, one shared scale. 324 px wide for 14 days: a phone shows it whole, the latest
    day included (the names once took a column of their own and the chart 708 px)."""
    left, top, day_w, label = 12, 8, 22, 20
    first = today - timedelta(days=days - 1)
    by_app: dict[str, dict[date, DailyActivity]] = {}
    for row in rows:
        by_app.setdefault(row.app_name, {})[row.day] = row
    peak = max([max(r.reads, r.writes) for r in rows] or [1]) or 1
    apps = []
    for i, app in enumerate(sorted(by_app)):
        y0 = top + i * band
        bars = []
        for d in range(days):
            day = first + timedelta(days=d)
            today_row = by_app[app].get(day)
            counts = (today_row.reads, today_row.writes) if today_row else (0, 0)
            for k, (kind, n) in enumerate(zip(("read", "write"), counts, strict=True)):
                if not n:
                    continue
                h = max(2.0, (band - 8 - label) * n / peak)
                x = left + d * day_w + 2 + k * 9
                bars.append(Bar(x, y0 + band - 8 - h, 8, h, kind, n, day))
        apps.append(
            AppChart(
                app=app,
                y=y0,
                bars=bars,
                reads=sum(r.reads for r in by_app[app].values()),
                writes=sum(r.writes for r in by_app[app].values()),
            )
        )
    labels = [
        Label(
            left + d * day_w + day_w / 2,
            top + len(apps) * band + 16,
            dateformat.format(day, pgettext("chart day", "d M")),
        )
        for d, day in enumerate(first + timedelta(days=n) for n in range(days))
    ]
    return ActivityChart(
        width=left + days * day_w + 4,
        height=top + max(1, len(apps)) * band + 28,
        band=band,
        apps=apps,
        days=labels,
        baseline_x=left,
    )
