"""Per-user search snapshots (issue 29): a user's in-memory index as one value, read by a process
that does not hold it in one round trip (`memories/search/snapshot.py`).

The value is stored without compression (EXTERNAL): it is mostly float32 vectors, which pglz
hardly shrinks and would cost a decompression at every read. Like the memories' content columns
(migration 0006), it never enters the planner's statistics.

A snapshot holds vectors and lexeme keys of the user's memories, so it goes whenever one of them
is deleted for good (a purge from the trash, an erase, a raw DELETE): the trigger below removes
the user's snapshot in the deleting transaction. It first locks the user's statistics row, which
a snapshot write checks (FOR SHARE) to still be at the generation the snapshot was read at: a
write that read the memory before the delete either committed before that lock (and is deleted
here) or waits for the delete to commit and then finds a newer generation (and writes nothing).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

_FORWARD = """
ALTER TABLE memories_searchsnapshot ALTER COLUMN data SET STORAGE EXTERNAL;
ALTER TABLE memories_searchsnapshot ALTER COLUMN data SET STATISTICS 0;

CREATE FUNCTION memories_search_snapshot_drop() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM memories_searchstats s
    WHERE s.owner_id IN (SELECT DISTINCT o.owner_id FROM memories_old o)
    ORDER BY s.owner_id FOR UPDATE;
    DELETE FROM memories_searchsnapshot p
    WHERE p.owner_id IN (SELECT DISTINCT o.owner_id FROM memories_old o);
    RETURN NULL;
END $$;

CREATE FUNCTION memories_search_snapshot_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM memories_searchsnapshot;
    RETURN NULL;
END $$;

CREATE TRIGGER memories_search_snapshot_delete AFTER DELETE ON memories_memory
    REFERENCING OLD TABLE AS memories_old
    FOR EACH STATEMENT EXECUTE FUNCTION memories_search_snapshot_drop();
CREATE TRIGGER memories_search_snapshot_truncate AFTER TRUNCATE ON memories_memory
    FOR EACH STATEMENT EXECUTE FUNCTION memories_search_snapshot_truncate();
"""

_REVERSE = """
DROP TRIGGER memories_search_snapshot_truncate ON memories_memory;
DROP TRIGGER memories_search_snapshot_delete ON memories_memory;
DROP FUNCTION memories_search_snapshot_truncate();
DROP FUNCTION memories_search_snapshot_drop();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0019_memory_pinned_at"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="SearchSnapshot",
            fields=[
                (
                    "owner",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("generation", models.BigIntegerField()),
                ("written_at", models.DateTimeField()),
                ("memories", models.IntegerField()),
                ("data", models.BinaryField()),
            ],
            options={
                "abstract": False,
            },
        ),
        migrations.RunSQL(_FORWARD, _REVERSE),
    ]
