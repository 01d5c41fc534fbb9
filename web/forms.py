"""Dashboard forms: they parse and validate input; the service layer decides."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from activity.models import AccessEvent
from activity.selectors import ActivityFilters
from memories.models import LIVE_STATE_CHOICES, MemoryState
from memories.selectors.memories import MemoryFilters

STATE_CHOICES = [*LIVE_STATE_CHOICES, ("all", _("All states"))]


def _start_of(day: date | None) -> datetime | None:
    if not day:
        return None
    try:
        return timezone.make_aware(datetime.combine(day, time.min))
    except OverflowError:  # the calendar's first day east of UTC: no lower bound
        return None


def _end_of(day: date | None) -> datetime | None:
    """The end of a day, exclusive: a 'to' date includes that whole day."""
    if not day or day == date.max:  # the calendar's last day has no next one: no upper bound
        return None
    return _start_of(day + timedelta(days=1))


def split_categories(raw: str) -> list[str]:
    return [c.strip() for c in raw.split(",") if c.strip()]


class MemoryFilterForm(forms.Form):
    q = forms.CharField(required=False, max_length=500, label=_("Search"))
    app = forms.CharField(required=False, max_length=120, label=_("App"))
    category = forms.CharField(required=False, max_length=64, label=_("Category"))
    uncategorised = forms.BooleanField(required=False, label=_("Uncategorised only"))
    pinned = forms.BooleanField(required=False, label=_("Pinned only"))
    state = forms.ChoiceField(
        required=False, choices=STATE_CHOICES, initial=MemoryState.ACTIVE, label=_("State")
    )
    after = forms.DateField(
        required=False,
        label=pgettext_lazy("date", "From"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    before = forms.DateField(
        required=False,
        label=pgettext_lazy("date", "To"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def filters(self) -> MemoryFilters:
        data = self.cleaned_data if self.is_valid() else {}
        state = data.get("state") or MemoryState.ACTIVE
        return MemoryFilters(
            state=None if state == "all" else state,
            category=data.get("category") or None,
            uncategorised=bool(data.get("uncategorised")),
            pinned=bool(data.get("pinned")),
            app_name=data.get("app") or None,
            created_after=_start_of(data.get("after")),
            created_before=_end_of(data.get("before")),
        )

    def query(self) -> str:
        return (self.cleaned_data.get("q") or "").strip() if self.is_valid() else ""

    def filters_set(self) -> int:
        """How many filters beyond search are set: a phone folds them away and says how many."""
        f = self.filters()
        return sum(
            bool(x)
            for x in (
                f.category,
                f.uncategorised,
                f.app_name,
                f.created_after,
                f.created_before,
                f.state != MemoryState.ACTIVE,
            )
        )

    def is_filtered(self) -> bool:
        f = self.filters()
        return bool(
            self.query()
            or f.category
            or f.uncategorised
            or f.pinned
            or f.app_name
            or f.created_after
            or f.created_before
            or f.state != MemoryState.ACTIVE
        )


class MemoryTextForm(forms.Form):
    text = forms.CharField(label=_("Memory"), widget=forms.Textarea(attrs={"rows": 3}))


class AddMemoryForm(MemoryTextForm):
    categories = forms.CharField(
        required=False, max_length=500, label=_("Categories (comma-separated)")
    )


class CategoriesForm(forms.Form):
    categories = forms.CharField(required=False, max_length=500, label=_("Categories"))


class StateForm(forms.Form):
    state = forms.ChoiceField(choices=LIVE_STATE_CHOICES)


class BulkForm(forms.Form):
    ACTIONS = [
        ("archived", _("Archive")),
        ("paused", _("Pause")),
        ("active", _("Restore to active")),
        ("categories", _("Set categories")),
        ("private", _("Make private")),
        ("not-private", _("Unmark private")),
        ("pin", _("Pin to the profile")),
        ("unpin", _("Unpin")),
        ("delete", _("Delete")),
    ]
    action = forms.ChoiceField(choices=ACTIONS, label=_("With selected"))
    ids = forms.TypedMultipleChoiceField(choices=(), required=True, coerce=str)
    categories = forms.CharField(required=False, max_length=500, label=_("Categories"))
    confirm = forms.BooleanField(required=False)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # Ids are checked by the service layer (another user's id is a 404 there).
        self.fields["ids"].valid_value = lambda value: True  # type: ignore[attr-defined]


class ActivityFilterForm(forms.Form):
    app = forms.CharField(required=False, max_length=120, label=_("App"))
    action = forms.ChoiceField(
        required=False,
        choices=[("", _("Any action")), *AccessEvent.Action.choices],
        label=_("Action"),
    )
    after = forms.DateField(
        required=False,
        label=pgettext_lazy("date", "From"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    before = forms.DateField(
        required=False,
        label=pgettext_lazy("date", "To"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def filters(self) -> ActivityFilters:
        data = self.cleaned_data if self.is_valid() else {}
        return ActivityFilters(
            app_name=data.get("app") or None,
            action=data.get("action") or None,
            since=_start_of(data.get("after")),
            until=_end_of(data.get("before")),
        )

    def filters_set(self) -> int:
        """How many filters are set: a phone folds them away and says how many."""
        f = self.filters()
        return sum(bool(x) for x in (f.app_name, f.action, f.since, f.until))


class CategoryAddForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Name"))
    description = forms.CharField(
        required=False, max_length=300, label=_("What belongs in it"), widget=forms.Textarea
    )
    sensitive = forms.BooleanField(required=False, label=_("Sensitive"))


class CategoryEditForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Name"))
    description = forms.CharField(
        required=False, max_length=300, label=_("What belongs in it"), widget=forms.Textarea
    )
