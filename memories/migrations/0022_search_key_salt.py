"""Lexeme keys in a user's in-memory index, search snapshot and the machine's files are salted with
a secret of the user's (`SearchStats.salt`, 64 random bits), so a dictionary of hashed words cannot
read a file left behind (issue 39). `memories.search.sql.KEY_SALT` is the one SQL home of the
salt: every statement that makes a key for the index reads it (memories/search/index.py,
scoring.py).
Snapshots made with the old unsalted keys are dropped, and every user's generation moves on with
no change log before it, so no process brings an old index up to date: each is read again."""

import django.db.models.expressions
from django.db import migrations, models

_FORWARD = """
-- No planner statistics on the salts (ANALYZE would copy sampled values into pg_statistic).
ALTER TABLE memories_searchstats ALTER COLUMN salt SET STATISTICS 0;

DELETE FROM memories_searchsnapshot;
UPDATE memories_searchstats SET generation = nextval('memories_search_generation');
UPDATE memories_searchstats SET changes_from = generation;
"""

_REVERSE = """
DELETE FROM memories_searchsnapshot;
UPDATE memories_searchstats SET generation = nextval('memories_search_generation');
UPDATE memories_searchstats SET changes_from = generation;
"""


class Migration(migrations.Migration):

    dependencies = [
        ('memories', '0021_memory_seen_only_by'),
    ]

    operations = [
        migrations.AddField(
            model_name='searchstats',
            name='salt',
            field=models.BigIntegerField(db_default=django.db.models.expressions.RawSQL("('x' || substr(md5(gen_random_uuid()::text), 1, 16))::bit(64)::bigint", [])),
        ),
        migrations.RunSQL(_FORWARD, _REVERSE),
    ]
