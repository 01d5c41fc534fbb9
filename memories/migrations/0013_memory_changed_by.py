"""Who last changed a memory. Memories changed before this column existed take the author and
time of their latest text change (a version row: edit, restore or supersede), so an app's earlier
rewrite is not shown as the owner's own."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0006_rotated_refresh_token'),
        ('memories', '0012_accessevent_moved_to_activity'),
    ]

    operations = [
        migrations.AddField(
            model_name='memory',
            name='changed_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='memory',
            name='changed_by_app',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='accounts.connectedapp'),
        ),
        migrations.AddField(
            model_name='memory',
            name='changed_by_name',
            field=models.CharField(blank=True, db_default='', default='', max_length=120),
        ),
        migrations.RunSQL(
            """
            UPDATE memories_memory m
            SET changed_by_name = left(v.changed_by, 120), changed_at = v.created_at
            FROM (
                SELECT DISTINCT ON (memory_id) memory_id, owner_id, changed_by, created_at
                FROM memories_memoryversion
                ORDER BY memory_id, created_at DESC, id DESC
            ) v
            WHERE v.memory_id = m.id AND v.owner_id = m.owner_id
            """,
            migrations.RunSQL.noop,
        ),
    ]
