"""The doctor's report: one line per check with its level. Its own module so that the checks
(`doctor.checks`, `doctor_mcp`, `doctor_consent`) share it without importing each other back."""

from __future__ import annotations

from dataclasses import dataclass, field

OK, WARN, FAIL = "ok", "warn", "FAIL"


@dataclass
class Report:
    lines: list[tuple[str, str]] = field(default_factory=list)

    def add(self, level: str, text: str) -> None:
        self.lines.append((level, text))

    @property
    def failed(self) -> bool:
        return any(level == FAIL for level, _ in self.lines)
