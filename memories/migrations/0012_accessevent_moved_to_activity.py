# AccessEvent now belongs to the `activity` app (its 0001 takes it over in the migration state).
# State only: the table `memories_accessevent` stays, with its rows, under the new owner.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("activity", "0001_initial"),
        ("memories", "0011_embedding_storage_main"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AccessEvent")],
            database_operations=[],
        ),
    ]
