from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0018_import_redo"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="memory",
            name="pinned_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="memory",
            index=models.Index(
                condition=models.Q(pinned_at__isnull=False),
                fields=["owner", "-pinned_at"],
                name="memory_pinned",
            ),
        ),
    ]
