"""One consent model: a grant records what was ticked and what was unticked.

Before, `all_categories` chose between two readings of `categories` ("all but the sensitive ones
not named" or "only the named ones"), and unticking a non-sensitive category under the first was
silently ignored. Now `categories` holds the ticked ones, `hidden_categories` the unticked ones,
`sees_uncategorised` whether memories without a category are shared.

Existing grants keep what they showed: an "all" grant hides nothing more; an "only these" grant
hides every other category the user had (the 19 defaults and their own) and uncategorised
memories. A category created later is hidden from it only if sensitive (the new rule).
"""

import django.contrib.postgres.fields
from django.db import migrations, models

# The default vocabulary as of this migration (memories/categories/vocabulary.py), frozen here.
DEFAULT_SLUGS = (
    "personal preferences work projects relationships food travel technology education hobbies "
    "home schedule goals health finance religion politics sexuality legal"
).split()


def forwards(apps, schema_editor):
    ConnectedApp = apps.get_model("accounts", "ConnectedApp")
    UserCategory = apps.get_model("memories", "UserCategory")
    for app in ConnectedApp.objects.filter(all_categories=False):
        own = UserCategory.objects.filter(owner_id=app.owner_id).values_list("slug", flat=True)
        known = set(DEFAULT_SLUGS) | set(own)
        app.hidden_categories = sorted(known - set(app.categories))
        app.sees_uncategorised = False
        app.save(update_fields=["hidden_categories", "sees_uncategorised"])


def backwards(apps, schema_editor):
    ConnectedApp = apps.get_model("accounts", "ConnectedApp")
    for app in ConnectedApp.objects.exclude(hidden_categories=[]):
        app.all_categories = False
        app.save(update_fields=["all_categories"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_invitation"),
        ("memories", "0004_importrun_heartbeat"),
    ]

    operations = [
        migrations.AddField(
            model_name="connectedapp",
            name="hidden_categories",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.CharField(max_length=64), blank=True, default=list, size=None
            ),
        ),
        migrations.AddField(
            model_name="connectedapp",
            name="sees_uncategorised",
            field=models.BooleanField(default=True),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="connectedapp", name="all_categories"),
    ]
