"""The names apps show under. A client chooses its own, so one may not pass for one of the owner's
own apps or an import: the rule for every place a third-party name is set (consent, CIMD, DCR)."""

from __future__ import annotations

import unicodedata

from accounts.models import ConnectedApp


def _name_key(name: str) -> str:
    """What a name looks like to a person: case, width, spacing, punctuation and invisible
    characters folded away: "Dash-board", a full-width "API", "c" + zero-width space + "li"
    all fold to a reserved name."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


def _reserved_names() -> frozenset[str]:
    names = (
        *ConnectedApp.OWNER_APPS,
        *ConnectedApp.IMPORT_NAMES.values(),
        "Context Layer",
        "admin",
    )
    return frozenset(_name_key(n) for n in names)


def third_party_name(name: str) -> str:
    """The name an OAuth client shows under. The client chooses it, so it may not pass for one
    of the owner's own apps (dashboard, api, cli) or an import: such a name gets a suffix."""
    name = " ".join((name or "").split())[:100] or "App"
    if _name_key(name) in _reserved_names() or not _name_key(name):
        return f"{name} (third-party app)"
    return name
