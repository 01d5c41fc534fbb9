"""What lets a person into their account besides the password: second factors and browser
sessions. Removed or ended only through these services (the owner's own apps, an operator acting
through the owner's `cli` app on their request), each recorded in the owner's access log.

An operator can never read or set either (accounts/admin.py): a TOTP secret or a session key would
let them become the user. Removing a lost authenticator or ending a session signs nobody in.
"""

from __future__ import annotations

from collections.abc import Sequence

from allauth.mfa.base.internal.flows import delete_dangling_recovery_codes
from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from django.db import transaction

from accounts.actors import Actor
from activity.models import AccessEvent
from activity.services import access_event_create
from kernel.gates import require_owner


def authenticators_remove(*, actor: Actor, authenticator_ids: Sequence[object]) -> int:
    """Remove the owner's authenticators (a lost phone, a lost key), and the recovery codes left
    with no factor to recover, as allauth does when the owner deactivates one."""
    require_owner(actor)
    with transaction.atomic():
        removed = list(
            Authenticator.objects.select_for_update().filter(
                user=actor.user, pk__in=[str(i) for i in authenticator_ids]
            )
        )
        if not removed:
            return 0
        Authenticator.objects.filter(user=actor.user, pk__in=[a.pk for a in removed]).delete()
        delete_dangling_recovery_codes(actor.user)
        kinds = sorted({str(a.type) for a in removed})
        access_event_create(
            actor, AccessEvent.Action.STATE, detail={"authenticators_removed": kinds}
        )
    return len(removed)


def sessions_end(*, actor: Actor, session_ids: Sequence[object]) -> int:
    """End the owner's browser sessions: the session itself goes, not only its listing, so the
    browser holding it is signed out at its next request."""
    require_owner(actor)
    with transaction.atomic():
        sessions = list(
            UserSession.objects.filter(user=actor.user, pk__in=[str(i) for i in session_ids])
        )
        for session in sessions:
            session.end()
        if sessions:
            access_event_create(
                actor, AccessEvent.Action.STATE, detail={"sessions_ended": len(sessions)}
            )
    return len(sessions)
