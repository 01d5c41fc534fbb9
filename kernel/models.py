"""Project-wide tables that belong to no single app."""

from __future__ import annotations

from django.db import models


class RateLimit(models.Model):
    """A fixed-window counter per (scope, key); see kernel/ratelimit.py."""

    key = models.CharField(max_length=255, primary_key=True)
    window_start = models.BigIntegerField()
    hits = models.IntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.key}: {self.hits}"
