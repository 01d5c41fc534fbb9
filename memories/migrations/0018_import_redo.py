# Hand-written (makemigrations needs the embedded database): an import can be redone.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('memories', '0017_app_proposals'),
    ]

    operations = [
        migrations.AddField(
            model_name='importrun',
            name='redo',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='importrun',
            name='trash_batch',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='memories.trashbatch'),
        ),
        migrations.AddField(
            model_name='importrun',
            name='memories_replaced',
            field=models.IntegerField(default=0),
        ),
    ]
