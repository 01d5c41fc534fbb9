import django.contrib.postgres.fields
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_connectedapp_review_writes"),
        ("memories", "0016_search_generation_after_lock"),
    ]

    operations = [
        migrations.AddField(
            model_name="memoryproposal",
            name="kind",
            field=models.CharField(
                choices=[
                    ("edit", "Suggested edit"),
                    ("add", "Add"),
                    ("update", "Update"),
                    ("delete", "Delete"),
                ],
                db_default="edit",
                default="edit",
                max_length=16,
            ),
        ),
        migrations.AlterField(
            model_name="memoryproposal",
            name="memory",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="proposals",
                to="memories.memory",
            ),
        ),
        migrations.AddField(
            model_name="memoryproposal",
            name="app",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="accounts.connectedapp",
            ),
        ),
        migrations.AlterField(
            model_name="memoryproposal",
            name="proposed_text",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="memoryproposal",
            name="proposed_categories",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.CharField(max_length=64), blank=True, null=True, size=None
            ),
        ),
        migrations.AddField(
            model_name="memoryproposal",
            name="proposed_state",
            field=models.CharField(blank=True, db_default="", default="", max_length=16),
        ),
    ]
