"""Issue 36: the model a person chose for their own memories (`SearchModel.chosen`; "" follows
the server's EMBEDDING_MODEL). A database default, so the raw inserts of a user's first row need
not name it."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0026_harm_check"),
    ]

    operations = [
        migrations.AddField(
            model_name="searchmodel",
            name="chosen",
            field=models.CharField(blank=True, db_default="", max_length=200),
        ),
    ]
