"""The kernel took over contextlayer's table: a database migrated before the move keeps its rows."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from kernel.models import RateLimit

pytestmark = pytest.mark.django_db


def test_the_rate_limit_table_keeps_its_name_and_its_migration_row() -> None:
    assert apps.get_app_config("contextlayer").name == "kernel"
    assert RateLimit._meta.db_table == "contextlayer_ratelimit"
    assert ("contextlayer", "0001_initial") in MigrationRecorder(connection).applied_migrations()
    RateLimit.objects.create(key="probe", window_start=1, hits=2)
    with connection.cursor() as cursor:
        cursor.execute("SELECT hits FROM contextlayer_ratelimit WHERE key = 'probe'")
        assert cursor.fetchone() == (2,)


def test_the_composition_root_is_an_app_under_a_label_of_its_own() -> None:
    assert apps.get_app_config("composition_root").name == "contextlayer"
    assert list(apps.get_app_config("composition_root").get_models()) == []
