"""The consent form: allauth's authorization form with the scopes and categories of the grant."""

from __future__ import annotations

import dataclasses
from typing import Any

from allauth.idp.oidc.forms import AuthorizationForm
from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import ALL_SCOPES
from accounts.services import Grant
from kernel.errors import InvalidInput
from web.app_forms import REVIEW_LABEL, CategoryFieldsMixin
from web.dashboard import error_sentence


class ConsentForm(CategoryFieldsMixin, AuthorizationForm):
    """allauth's consent form (signed request, requested scopes) plus the category choice."""

    # Present only on our page: a trusted client that skips consent gets the default grant.
    choose = forms.CharField(widget=forms.HiddenInput, required=False, initial="1")
    review_writes = forms.BooleanField(label=REVIEW_LABEL, required=False, initial=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        counts = kwargs.pop("category_counts", {})
        super().__init__(*args, **kwargs)
        self.setup_categories(kwargs["user"], counts)
        scopes = self.fields["scopes"]
        order = {s: i for i, s in enumerate((*ALL_SCOPES, "offline_access", "openid"))}
        scopes.choices = sorted(  # type: ignore[attr-defined]
            scopes.choices,  # type: ignore[attr-defined]
            key=lambda ch: order.get(ch[0], 99),
        )
        scopes.label = _("It may")

    def clean(self) -> dict[str, Any] | None:
        cleaned = super().clean()
        if cleaned is not None and "scopes" in cleaned:
            try:
                if cleaned.get("choose"):
                    self.cleaned_grant = dataclasses.replace(
                        self.grant(cleaned["scopes"]),
                        review_writes=bool(cleaned.get("review_writes")),
                    )
                else:
                    self.cleaned_grant = Grant.default(known=self.known, scopes=cleaned["scopes"])
            except InvalidInput as exc:
                raise forms.ValidationError(error_sentence(exc)) from None
        return cleaned
