"""Which embedding model each user's vectors are in, and the vectors of the model they move to
(issue 36: moving a store to another model without losing search; memories/search/moves.py).

Every user who has memories gets the model most of their memories were embedded with: that is
what their searches keep embedding the query with until the worker has embedded every one of
their memories with EMBEDDING_MODEL and switched them. A staged vector goes with its memory
whatever deletes it (a database cascade, not only Django's), and like the memories' own vectors
it is stored inline and never enters the planner's statistics (migrations 0008, 0011).
"""

import django.db.models.deletion
import pgvector.django.vector
from django.conf import settings
from django.db import migrations, models


_FORWARD = """
ALTER TABLE memories_stagedvector ADD CONSTRAINT memories_stagedvector_memory_cascade
    FOREIGN KEY (memory_id) REFERENCES memories_memory (id) ON DELETE CASCADE
    DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE memories_stagedvector ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE memories_stagedvector ALTER COLUMN embedding SET STATISTICS 0;
ALTER TABLE memories_stagedvector ALTER COLUMN text_md5 SET STATISTICS 0;
"""
# Every user with memories: the model most of them were embedded with.
USERS = """
INSERT INTO memories_searchmodel (owner_id, model, next_model)
SELECT m.owner_id, mode() WITHIN GROUP (ORDER BY m.embedding_model), ''
FROM memories_memory m
WHERE m.embedding IS NOT NULL AND m.embedding_model <> ''
GROUP BY m.owner_id;
"""


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_connectedapp_review_writes'),
        ('memories', '0022_search_key_salt'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='SearchModel',
            fields=[
                ('owner', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='+', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('model', models.CharField(max_length=200)),
                ('next_model', models.CharField(blank=True, default='', max_length=200)),
                ('moving_since', models.DateTimeField(blank=True, null=True)),
                ('moved_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'verbose_name': "search model (a user's embedding model)",
            },
        ),
        migrations.CreateModel(
            name='StagedVector',
            fields=[
                ('memory', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='+', serialize=False, db_constraint=False, to='memories.memory')),
                ('model', models.CharField(max_length=200)),
                ('embedding', pgvector.django.vector.VectorField(dimensions=384)),
                ('text_md5', models.CharField(max_length=32)),
                ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['owner'], name='staged_vector_owner')],
            },
        ),
    ]


Migration.operations.append(migrations.RunSQL(_FORWARD + USERS, migrations.RunSQL.noop))
