"""Input types that PostgreSQL can always store or compare, so bad input is a 400, never a 500."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from pydantic import AfterValidator, Field


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
# A primary key that fits a bigint column.
DbId = Annotated[int, Field(ge=1, le=2**63 - 1)]
