# The access log moves here from memories (state only): the table `memories_accessevent`, created
# by memories 0001, keeps its name, its indexes and its rows. On a fresh database memories 0001
# creates it first; on an existing one nothing is touched.

import django.contrib.postgres.fields
import django.contrib.postgres.indexes
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0001_initial"),
        ("memories", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AccessEvent",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("app_name", models.CharField(max_length=120)),
                        ("actor", models.CharField(blank=True, max_length=120)),
                        (
                            "action",
                            models.CharField(
                                choices=[
                                    ("search", "Search"),
                                    ("list", "List"),
                                    ("read", "Read"),
                                    ("add", "Add"),
                                    ("update", "Update"),
                                    ("delete", "Delete"),
                                    ("state", "State"),
                                    ("export", "Export"),
                                    ("erase", "Erase"),
                                    ("import", "Import"),
                                    ("refused", "Refused"),
                                ],
                                max_length=16,
                            ),
                        ),
                        (
                            "memory_ids",
                            django.contrib.postgres.fields.ArrayField(
                                base_field=models.UUIDField(), blank=True, default=list, size=None
                            ),
                        ),
                        ("count", models.IntegerField(default=0)),
                        ("detail", models.JSONField(blank=True, default=dict)),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        (
                            "app",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="accounts.connectedapp",
                            ),
                        ),
                        (
                            "owner",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "memories_accessevent",
                        "indexes": [
                            models.Index(
                                fields=["owner", "-created_at"], name="access_owner_recent"
                            ),
                            models.Index(
                                fields=["owner", "app", "-created_at"], name="access_owner_app"
                            ),
                            django.contrib.postgres.indexes.GinIndex(
                                fields=["memory_ids"], name="access_memory_ids_gin"
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
