from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_rotated_refresh_token"),
    ]

    operations = [
        migrations.AddField(
            model_name="connectedapp",
            name="review_writes",
            field=models.BooleanField(db_default=False, default=False),
        ),
    ]
