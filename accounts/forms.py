"""Consent and grant forms: scopes (read / write / delete) and which categories an app may see."""

from __future__ import annotations

from typing import Any

from allauth.idp.oidc.forms import AuthorizationForm
from django import forms

from accounts.models import ALL_SCOPES, SCOPE_READ, SCOPE_WRITE, ConnectedApp
from accounts.oidc import OIDCAdapter
from accounts.services import Grant
from memories.categories import DEFAULT_CATEGORIES
from memories.errors import InvalidInput

ALL = "all"
CHOSEN = "chosen"


def _category_choices() -> list[tuple[str, str]]:
    return [
        (c.slug, f"{c.slug.title()}{' (sensitive)' if c.sensitive else ''}")
        for c in DEFAULT_CATEGORIES
    ]


def grant_initial(app: ConnectedApp | None) -> dict[str, Any]:
    """Form values for an existing grant, or the defaults: all non-sensitive categories."""
    if app is None:
        return {
            "category_mode": ALL,
            "categories": [c.slug for c in DEFAULT_CATEGORIES if not c.sensitive],
        }
    if app.all_categories:
        cats = [c.slug for c in DEFAULT_CATEGORIES if not c.sensitive or c.slug in app.categories]
    else:
        cats = list(app.categories)
    return {"category_mode": ALL if app.all_categories else CHOSEN, "categories": cats}


class CategoryFieldsMixin(forms.Form):
    category_mode = forms.ChoiceField(
        label="Which memories it may see",
        choices=[
            (ALL, "All memories, except sensitive categories left unticked below"),
            (CHOSEN, "Only memories in the ticked categories"),
        ],
        widget=forms.RadioSelect,
        initial=ALL,
        required=False,  # absent when allauth skips consent for a trusted client: all categories
    )
    categories = forms.MultipleChoiceField(
        label="Categories",
        choices=_category_choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )

    def grant(self, scopes: list[str]) -> Grant:
        """The cleaned grant; raises InvalidInput (shown on the form) when it makes no sense."""
        return Grant.clean(
            scopes=scopes,
            all_categories=(self.cleaned_data.get("category_mode") or ALL) == ALL,
            categories=self.cleaned_data.get("categories") or [],
        )


class ConsentForm(CategoryFieldsMixin, AuthorizationForm):
    """allauth's consent form (signed request, requested scopes) plus the category choice."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        scopes = self.fields["scopes"]
        order = {s: i for i, s in enumerate((*ALL_SCOPES, "offline_access", "openid"))}
        scopes.choices = sorted(  # type: ignore[attr-defined]
            scopes.choices,  # type: ignore[attr-defined]
            key=lambda ch: order.get(ch[0], 99),
        )
        scopes.label = "It may"

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if cleaned is not None and "scopes" in cleaned:
            try:
                self.cleaned_grant = self.grant(cleaned["scopes"])
            except InvalidInput as exc:
                raise forms.ValidationError(exc.message) from None
        return cleaned


class GrantForm(CategoryFieldsMixin, forms.Form):
    """Edit an existing app's grant from the connected apps page."""

    scopes = forms.MultipleChoiceField(
        label="It may",
        choices=[(s, OIDCAdapter.scope_display[s]) for s in ALL_SCOPES],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        initial=[SCOPE_READ],
    )


class ClientTokenForm(forms.Form):
    """A client token for programs that send `Authorization: Bearer` (Cursor, VS Code, ...)."""

    name = forms.CharField(max_length=120, label="Name", help_text="e.g. Cursor on my laptop")
    scopes = forms.MultipleChoiceField(
        label="It may",
        choices=[(s, OIDCAdapter.scope_display[s]) for s in ALL_SCOPES],
        widget=forms.CheckboxSelectMultiple,
        initial=[SCOPE_READ, SCOPE_WRITE],
    )
