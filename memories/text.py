"""Text rules shared by every write: validation limits and the normalisation used for duplicates."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from django.conf import settings
from django.utils.translation import gettext_noop

from kernel.errors import InvalidInput

_PUNCT_OR_SPACE = re.compile(r"[\W_]+", re.UNICODE)


def clean_text(text: object, *, field: str = "text") -> str:
    """Strip and validate memory text; raise InvalidInput with a message a caller can act on."""
    if not isinstance(text, str):
        raise InvalidInput(gettext_noop("Text must be a string."), field=field)
    cleaned = text.replace("\x00", "").strip()
    if not cleaned:
        raise InvalidInput(gettext_noop("Text is empty."), field=field)
    limit = settings.MEMORY_MAX_CHARS
    if len(cleaned) > limit:
        raise InvalidInput(
            gettext_noop("Text is %(n)d characters; the limit is %(limit)d."),
            field=field,
            n=len(cleaned),
            limit=limit,
        )
    return cleaned


def normalise(text: str) -> str:
    """Case, whitespace and punctuation folded away: two texts that differ only there are equal."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _PUNCT_OR_SPACE.sub(" ", folded).strip()


def text_key(text: str) -> str:
    return hashlib.sha256(normalise(text).encode()).hexdigest()
