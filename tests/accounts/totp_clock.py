"""allauth's TOTP clock as the `totp_clock` fixture (tests/conftest.py) pins it, and the codes an
authenticator app shows against it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TotpClock:
    """allauth's TOTP clock, pinned to the middle of one 30-second step: whether a code is still
    valid never depends on how long a loaded machine takes between making and typing it."""

    now: float

    def code(self, secret: str, steps: int = 0) -> str:
        """The code an authenticator app shows `steps` steps from the pinned one (its clock
        drifted ahead for positive steps)."""
        from allauth.mfa import app_settings
        from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value

        counter = int(self.now) // app_settings.TOTP_PERIOD + steps
        return format_hotp_value(hotp_value(secret, counter))
