"""Invitation links: created by the operator, used once to sign up under SIGNUP_POLICY=invite."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.models import Invitation, User

SESSION_KEY = "contextlayer_invitation"


@dataclass(frozen=True)
class NewInvitation:
    invitation: Invitation
    token: str  # shown once; only its hash is stored


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_create(*, created_by: User | None, email: str = "", days: int = 7) -> NewInvitation:
    token = secrets.token_urlsafe(24)
    invitation = Invitation.objects.create(
        token_hash=_hash(token),
        email=email.strip().lower(),
        created_by=created_by,
        expires_at=timezone.now() + timedelta(days=days),
    )
    return NewInvitation(invitation=invitation, token=token)


def invitation_lookup(token: str) -> Invitation | None:
    """The usable invitation for this token, or None (unknown, used or expired)."""
    if not token:
        return None
    invitation = Invitation.objects.filter(token_hash=_hash(token)).first()
    if invitation is None or not invitation.is_usable:
        return None
    return invitation


def invitation_problem(token: str) -> str:
    """Why a sign-up link does not work, in words for the person holding it ('' if it does, or if
    there is no link at all)."""
    if not token:
        return ""
    invitation = Invitation.objects.filter(token_hash=_hash(token)).first()
    if invitation is None:
        return gettext_noop("This invitation link is not valid. Check that you copied all of it.")
    if invitation.used_at is not None:
        return gettext_noop(
            "This invitation link was already used. Each link signs up one account."
        )
    if not invitation.is_usable:
        return gettext_noop("This invitation link has expired.")
    return ""


def invitation_accepts(invitation: Invitation, email: str) -> bool:
    return not invitation.email or invitation.email == email.strip().lower()


@transaction.atomic
def invitation_use(*, token: str, user: User) -> bool:
    """Mark the invitation used by this new account; False when it was used in the meantime."""
    updated = Invitation.objects.filter(
        token_hash=_hash(token), used_at=None, expires_at__gt=timezone.now()
    ).update(used_at=timezone.now(), used_by=user)
    return updated == 1
