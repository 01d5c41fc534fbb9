"""Input types that PostgreSQL can always store or compare, so bad input is a 400, never a 500."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError


def _to_utc(value: datetime) -> datetime:
    # PostgreSQL refuses offsets beyond ±15:59 and years past 9999; compare in UTC instead.
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        return value.astimezone(UTC)
    except OverflowError:
        raise ValueError("Date out of range.") from None


UtcDatetime = Annotated[datetime, AfterValidator(_to_utc)]
# PostgreSQL text cannot hold NUL characters.
NO_NUL = r"^[^\x00]*$"


def refuse_nul(value: Any) -> Any:
    """A string (or list of strings) with a NUL character is refused with a message a person or
    a model can act on, before it reaches PostgreSQL (which cannot store one: a 500, an error
    log quoting the value)."""
    texts = value if isinstance(value, list) else [value]
    if any(isinstance(t, str) and "\x00" in t for t in texts):
        raise PydanticCustomError(
            "nul_character", "must not contain NUL characters (U+0000), which cannot be stored"
        )
    return value


# A string PostgreSQL can store: NUL refused with a clear message (the schema states it too).
# Further constraints nest: Annotated[StoredText, Field(max_length=64)].
StoredText = Annotated[
    str, AfterValidator(refuse_nul), Field(json_schema_extra={"pattern": NO_NUL})
]
# A primary key that fits a bigint column.
DbId = Annotated[int, Field(ge=1, le=2**63 - 1)]
