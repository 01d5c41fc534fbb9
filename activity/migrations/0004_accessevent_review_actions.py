from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("activity", "0003_accessevent_restore_purge"),
    ]

    operations = [
        migrations.AlterField(
            model_name="accessevent",
            name="action",
            field=models.CharField(
                choices=[
                    ("search", "Search"),
                    ("list", "List"),
                    ("read", "Read"),
                    ("add", "Add"),
                    ("update", "Update"),
                    ("delete", "Delete"),
                    ("restore", "Restore"),
                    ("purge", "Purge"),
                    ("state", "State"),
                    ("export", "Export"),
                    ("erase", "Erase"),
                    ("import", "Import"),
                    ("refused", "Refused"),
                    ("propose", "Propose"),
                    ("accept", "Accept"),
                    ("decline", "Decline"),
                ],
                max_length=16,
            ),
        ),
    ]
