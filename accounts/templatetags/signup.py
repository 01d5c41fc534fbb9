"""What the sign-in and sign-up pages say about signing up, under SIGNUP_POLICY."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from django import template
from django.conf import settings
from django.utils.translation import gettext as _

from accounts import invitations

register = template.Library()


@register.simple_tag(takes_context=True)
def signup_open(context: template.Context) -> bool:
    """Whether this visitor could sign up now (the sign-in page invites them only then)."""
    request = context.get("request")
    return request is not None and bool(get_adapter(request).is_open_for_signup(request))


@register.simple_tag(takes_context=True)
def signup_closed_reason(context: template.Context) -> dict[str, Any]:
    """Why sign-up is closed for this visitor: a used or expired invitation says so."""
    request = context.get("request")
    token = ""
    if request is not None:
        token = request.GET.get("invite") or str(request.session.get(invitations.SESSION_KEY, ""))
    problem = invitations.invitation_problem(token)
    if problem:
        return {"title": _("This invitation cannot be used"), "text": _(problem)}
    if settings.SIGNUP_POLICY == "invite":
        text = _("Sign-up on this server is by invitation. Use the link you were sent.")
    else:
        text = _("Sign-up is closed on this server. Ask whoever runs it to create your account.")
    return {"title": _("Sign-up is closed"), "text": text}


@register.simple_tag(takes_context=True)
def connecting_app(context: template.Context) -> str:
    """The app a sign-in is on the way to connecting ("" when it is an ordinary sign-in): the
    sign-in page then says why it is asked ("Sign in to connect Claude"). The name is the one the
    app registered; the consent page that follows shows where it returns to."""
    from urllib.parse import parse_qs, urlsplit

    from allauth.idp.oidc.models import Client
    from django.urls import reverse

    request = context.get("request")
    if request is None:
        return ""
    after = urlsplit(request.POST.get("next") or request.GET.get("next") or "")
    if after.path != reverse("idp:oidc:authorization"):
        return ""
    client_id = (parse_qs(after.query).get("client_id") or [""])[0]
    if not client_id:
        return ""
    name = Client.objects.filter(id=client_id).values_list("name", flat=True).first()
    if name:
        return str(name)
    host = urlsplit(client_id).hostname  # a client identified by its metadata document's URL
    return host or _("an app")
