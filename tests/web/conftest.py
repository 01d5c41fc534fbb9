"""Fixtures of the dashboard's tests: another user's browser."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.personas import signed_in


@pytest.fixture
def stranger_client(stranger: User) -> Client:
    return signed_in(stranger)
