"""The search's second arm (issue 36): a memory's USE multilingual v3 vector, kept for memories not
in English of users searching with multilingual-e5 (memories/search/second_arm.py). It goes with
its memory whatever deletes it (a database cascade, as a staged vector's, migration 0023), and
like the other vectors it is stored inline and never enters the planner's statistics. Empty
until written: `manage.py reembed --second-arm` fills it for an existing store."""

import django.db.models.deletion
import pgvector.django.vector
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('memories', '0028_sensitive_head_once'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='MemoryAltVector',
            fields=[
                ('memory', models.OneToOneField(db_constraint=False, on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='+', serialize=False, to='memories.memory')),
                ('model', models.CharField(max_length=200)),
                ('embedding', pgvector.django.vector.VectorField(dimensions=512)),
                ('text_md5', models.CharField(max_length=32)),
                ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['owner'], name='alt_vector_owner')],
            },
        ),
    ]


_FORWARD = """
ALTER TABLE memories_memoryaltvector ADD CONSTRAINT memories_memoryaltvector_memory_cascade
    FOREIGN KEY (memory_id) REFERENCES memories_memory (id) ON DELETE CASCADE
    DEFERRABLE INITIALLY DEFERRED;
ALTER TABLE memories_memoryaltvector ALTER COLUMN embedding SET STORAGE MAIN;
ALTER TABLE memories_memoryaltvector ALTER COLUMN embedding SET STATISTICS 0;
ALTER TABLE memories_memoryaltvector ALTER COLUMN text_md5 SET STATISTICS 0;
"""

Migration.operations.append(migrations.RunSQL(_FORWARD, migrations.RunSQL.noop))
