"""The person's dashboard language, stored with the account (kernel/language.py applies it)."""

from __future__ import annotations

from accounts.actors import Actor
from accounts.models import User
from kernel.errors import InvalidInput
from kernel.gates import require_owner
from kernel.language import offered


def user_language_set(*, actor: Actor, language: str) -> User:
    """Store the owner's language ('' follows the browser). An account preference, not memory:
    no access event, as for a password change."""
    require_owner(actor)
    if language and not offered(language):
        raise InvalidInput(f"Unknown language {language!r}.", field="language")
    user = actor.user
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
    return user
