"""Issue 37: memories stored before credentials and instructions were recognised are checked
once, here, so none reaches an app before its owner decides (the Review page's "Check" section,
memories/services/harm_check.py; `manage.py harm_check` runs the same check again). The new text
column carries no planner statistics, like the other content columns (migration 0008)."""

from django.db import migrations

BATCH = 2000


def check_store(apps, schema_editor):
    from kernel.tenancy import cross_tenant
    from memories.harm.screen import hold_kind

    with cross_tenant("the store's one check after upgrade reads every memory"):
        _check(apps, hold_kind)


def _check(apps, hold_kind):
    Memory = apps.get_model("memories", "Memory")
    rows = (
        Memory.objects.exclude(state="trashed")
        .filter(owner_confirmed_at__isnull=True, echo_of__isnull=True)
        .values_list("pk", "owner_id", "text")
        .order_by("pk")
    )
    held: dict[str, list] = {"credential": [], "instruction": []}
    for pk, owner_id, text in rows.iterator(chunk_size=BATCH):
        kind = hold_kind(text)
        if kind:
            held[kind].append((owner_id, pk))
    for kind, found in held.items():
        for start in range(0, len(found), BATCH):
            for owner_id in {o for o, _ in found[start : start + BATCH]}:
                ids = [pk for o, pk in found[start : start + BATCH] if o == owner_id]
                Memory.objects.filter(owner_id=owner_id, pk__in=ids).update(harm_hold=kind)


class Migration(migrations.Migration):
    dependencies = [("memories", "0025_memory_harm")]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE memories_memory ALTER COLUMN app_text SET STATISTICS 0;",
            "ALTER TABLE memories_memory ALTER COLUMN app_text SET STATISTICS -1;",
        ),
        migrations.RunPython(check_store, migrations.RunPython.noop),
    ]
