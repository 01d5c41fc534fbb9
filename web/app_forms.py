"""Consent and grant forms: scopes (read / write / delete) and which categories an app may see.

One model on every form: each category is a checkbox, and what is unticked is hidden. Sensitive
categories start unticked; the grant-to-rule step is `memories.visibility.hidden_categories`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.models import ALL_SCOPES, SCOPE_LABELS, ConnectedApp, User
from accounts.services import Grant
from kernel.gates import SCOPE_READ, SCOPE_WRITE
from memories.selectors.grants import known_categories
from memories.visibility import hidden_categories


def grant_initial(user: User, app: ConnectedApp | None) -> dict[str, Any]:
    """Form values for an existing grant (exactly what the rule makes of it), or the defaults."""
    known = known_categories(user)
    if app is None:
        default = Grant.default(known=known, scopes=())
        return {"categories": list(default.categories), "sees_uncategorised": True}
    hidden = set(hidden_categories(app))
    return {
        "categories": [c.slug for c in known if c.slug not in hidden],
        "sees_uncategorised": app.sees_uncategorised,
    }


def category_label(slug: str, sensitive: bool, count: int) -> str:
    name = slug.replace("-", " ").capitalize()
    if sensitive:
        return ngettext(
            "%(name)s · sensitive (%(n)d memory)", "%(name)s · sensitive (%(n)d memories)", count
        ) % {"name": name, "n": count}
    return ngettext("%(name)s (%(n)d memory)", "%(name)s (%(n)d memories)", count) % {
        "name": name,
        "n": count,
    }


class CategoryFieldsMixin(forms.Form):
    categories = forms.MultipleChoiceField(
        label=_("Which memories it may see"),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    sees_uncategorised = forms.BooleanField(label=_("Memories without a category"), required=False)

    def setup_categories(self, user: User, counts: dict[str, int]) -> None:
        """Offer every category of this user (defaults, then their own), with how many memories
        each holds, so the person sees what a tick shares."""
        self.known = known = known_categories(user)
        self.fields["categories"].choices = [  # type: ignore[attr-defined]
            (c.slug, category_label(c.slug, c.sensitive, counts.get(c.slug, 0))) for c in known
        ]
        self.sensitive_slugs = {c.slug for c in known if c.sensitive}
        uncategorised = counts.get("", 0)
        self.fields["sees_uncategorised"].label = ngettext(
            "Memories without a category (%(n)d memory)",
            "Memories without a category (%(n)d memories)",
            uncategorised,
        ) % {"n": uncategorised}

    def grant(self, scopes: list[str]) -> Grant:
        """The cleaned grant; raises InvalidInput (shown on the form) when it makes no sense."""
        return Grant.from_ticks(
            known=self.known,
            scopes=scopes,
            ticked=self.cleaned_data.get("categories") or [],
            sees_uncategorised=bool(self.cleaned_data.get("sees_uncategorised")),
        )


REVIEW_LABEL = _("Review this app's changes before they're saved")


class GrantForm(CategoryFieldsMixin, forms.Form):
    """Edit an existing app's grant from the connected apps page."""

    scopes = forms.MultipleChoiceField(
        label=_("It may"),
        choices=[(s, SCOPE_LABELS[s]) for s in ALL_SCOPES],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        initial=[SCOPE_READ],
    )

    def __init__(self, *args: Any, user: User, category_counts: dict[str, int], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.setup_categories(user, category_counts)


class ClientTokenForm(CategoryFieldsMixin, forms.Form):
    """A client token for programs that send `Authorization: Bearer` (Cursor, VS Code, ...),
    with the same category choice as consent (the command's `--categories`)."""

    name = forms.CharField(max_length=120, label=_("Name"), help_text=_("e.g. Cursor on my laptop"))
    scopes = forms.MultipleChoiceField(
        label=_("It may"),
        choices=[(s, SCOPE_LABELS[s]) for s in ALL_SCOPES],
        widget=forms.CheckboxSelectMultiple,
        initial=[SCOPE_READ, SCOPE_WRITE],
    )
    expires = forms.TypedChoiceField(
        label=_("Expires"),
        choices=[
            ("30", _("in 30 days")),
            ("90", _("in 90 days")),
            ("365", _("in a year")),
            ("0", _("never")),
        ],
        coerce=int,
        initial="90",
    )

    # Present only on the dashboard's form: a request without it gets the default grant, as
    # the command does without --categories.
    choose = forms.CharField(widget=forms.HiddenInput, required=False, initial="1")

    def __init__(self, *args: Any, user: User, category_counts: dict[str, int], **kwargs: Any):
        kwargs.setdefault("initial", {**grant_initial(user, None), "expires": "90"})
        super().__init__(*args, **kwargs)
        self.setup_categories(user, category_counts)

    def expires_at(self) -> datetime | None:
        days = self.cleaned_data["expires"]
        return timezone.now() + timedelta(days=days) if days else None
