"""Domain errors, shared by every app; each entry point maps them to its own idiom once (HTTP
status, tool error, Http404, CommandError). They live in the project package so that `accounts`
and `contextlayer` need not import `memories` for them.

A message is English, one sentence, the same for the API, MCP and the command line. A sentence the
dashboard shows is marked `gettext_noop(...)` where it is raised, with its varying parts as
`%(name)s` places filled from keyword values
(`InvalidInput(gettext_noop("At most %(n)d."), n=3)`): the dashboard translates the template at its
one mapping point (`web.dashboard.error_sentence`); everyone else reads `message`.
"""

from __future__ import annotations


class DomainError(Exception):
    code = "error"

    def __init__(self, message: str, **values: object) -> None:
        text = message % values if values else message
        super().__init__(text)
        self.message = text
        self.template = message  # the sentence before its places were filled
        self.values = values


class InvalidInput(DomainError):
    code = "invalid"

    def __init__(self, message: str, *, field: str = "", **values: object) -> None:
        super().__init__(message, **values)
        self.field = field


class NotFound(DomainError):
    """Missing, or belonging to someone else: the two are indistinguishable on purpose."""

    code = "not_found"

    def __init__(self, what: str = "memory") -> None:
        super().__init__(f"No {what} with that id.")


class ScopeRequired(DomainError):
    code = "insufficient_scope"

    def __init__(self, scope: str) -> None:
        super().__init__(f"This app was not granted {scope}.")
        self.scope = scope


class AppPaused(DomainError):
    code = "app_paused"

    def __init__(self, app_name: str) -> None:
        super().__init__(
            f"The app {app_name!r} is paused by the user; it cannot read or write memories now."
        )


class AppDisconnected(DomainError):
    """The owner disconnected this app: it stays refused, relaunched or not, until the owner
    allows it again. The sentence says both, for the person reading a client's log."""

    code = "app_disconnected"

    def __init__(self, app_name: str, allow_again: str) -> None:
        super().__init__(
            f"The owner disconnected the app {app_name!r}; it stays refused until the owner "
            f"allows it again: {allow_again}"
        )


class Conflict(DomainError):
    code = "conflict"


class UserEdited(Conflict):
    """The memory was edited by hand: a model may only propose a change to it."""


class OwnerOnly(DomainError):
    """Managing apps and reading the access log is the owner's job, not a connected app's."""

    code = "owner_only"

    def __init__(self) -> None:
        super().__init__("Only the owner (signed in, or through a built-in door) may do this.")


class OwnersChoice(OwnerOnly):
    """An app tried to undo what the owner decides about a memory (a category the owner set, a
    sensitive category): refused after the memory was found, since the app may see it, with a
    sentence that says why (`memories/ownership.py`)."""

    code = "owners_choice"

    def __init__(self, message: str) -> None:
        DomainError.__init__(self, message)


class LLMNotConfigured(InvalidInput):
    """Extraction with an LLM was asked for, but this server has none configured. Each entry point
    words it for its own reader (a flag on the command line, a choice in the browser)."""

    def __init__(self) -> None:
        super().__init__(
            "Extraction with an LLM needs an LLM configured on this server (EXTRACTION_MODE).",
            field="extractor",
        )
