# An existing database has AccessEvent's content type under `memories`: rename it, so the admin's
# log entries and any permission granted on the access log follow the model instead of being left
# behind as a stale type (which `remove_stale_contenttypes` would delete, log entries with it).
# On a fresh database there is no row yet (content types are made after migrating): nothing to do.

from django.db import migrations


def _relabel(apps, schema_editor, old: str, new: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not content_type.objects.using(db).filter(app_label=new, model="accessevent").exists():
        content_type.objects.using(db).filter(app_label=old, model="accessevent").update(
            app_label=new
        )


def forwards(apps, schema_editor):
    _relabel(apps, schema_editor, "memories", "activity")


def backwards(apps, schema_editor):
    _relabel(apps, schema_editor, "activity", "memories")


class Migration(migrations.Migration):
    dependencies = [
        ("activity", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("memories", "0012_accessevent_moved_to_activity"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
