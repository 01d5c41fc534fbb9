"""What the sign-in and sign-up pages say about signing up, under SIGNUP_POLICY."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from django import template
from django.conf import settings

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
        return {"title": "This invitation cannot be used", "text": problem}
    if settings.SIGNUP_POLICY == "invite":
        text = "Sign-up on this server is by invitation. Use the link you were sent."
    else:
        text = "Sign-up is closed on this server. Ask whoever runs it to create your account."
    return {"title": "Sign-up is closed", "text": text}
