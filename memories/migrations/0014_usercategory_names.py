"""Every category name on a memory is in the user's vocabulary, in its one form.

- The user's own categories and the grants' lists are folded too (a name the old rule allowed,
  such as "kids-" or "a--b", is "kids" and "a-b" now); two rows that fold to one become one,
  sensitive if either was, and a name both ticked and unticked in a grant stays unticked.
- Labels stored before names were folded (kernel/category_names.py: NFKC, case, spaces and
  punctuation) are folded: an app's fullwidth "health" becomes "health", and so hidden from
  the apps not granted health, as it would have been under its plain name.
- Each label in use that is neither a default nor one of the user's own categories becomes one
  (`UserCategory`, without a description, so the classifier does not learn it), sensitive when
  its name means a sensitive category by the vocabulary's words (memories/categories/vocabulary.py:
  `sensitive_meaning`; "medical" → health). So the Categories page lists it, the owner can mark,
  rename, merge or delete it, and its notice ("apps can see it") shows until the owner saw it.
  Such a label was shared with every app not told otherwise; now a sensitive-looking one is not
  (only narrower: no memory becomes visible to an app that could not see it).
"""

from django.db import migrations, models

# A label already in its one form (ASCII slugs: nearly every label) is left alone.
_FOLDED = r"^[a-z0-9]+(-[a-z0-9]+)*$"


def _fold_vocabulary(apps, fold):
    UserCategory = apps.get_model("memories", "UserCategory")
    ConnectedApp = apps.get_model("accounts", "ConnectedApp")
    for row in UserCategory.objects.exclude(slug__regex=_FOLDED).order_by("pk"):
        name = fold(row.slug)[:64] or "unnamed"
        same = UserCategory.objects.filter(owner_id=row.owner_id, slug=name).first()
        if same is None:
            row.slug = name
            row.save(update_fields=["slug"])
        else:
            if row.sensitive and not same.sensitive:
                same.sensitive = True
                same.save(update_fields=["sensitive"])
            row.delete()
    for app in ConnectedApp.objects.all():
        hidden = [c for c in dict.fromkeys(fold(c)[:64] for c in app.hidden_categories) if c]
        ticked = [
            c for c in dict.fromkeys(fold(c)[:64] for c in app.categories) if c and c not in hidden
        ]
        if (ticked, hidden) != (list(app.categories), list(app.hidden_categories)):
            app.categories, app.hidden_categories = ticked, hidden
            app.save(update_fields=["categories", "hidden_categories"])


def forwards(apps, schema_editor):
    from kernel.category_names import fold
    from memories.categories.signals import sensitive_meaning
    from memories.categories.vocabulary import DEFAULT_SLUGS

    _fold_vocabulary(apps, fold)
    UserCategory = apps.get_model("memories", "UserCategory")
    connection = schema_editor.connection
    with connection.cursor() as cur:
        cur.execute(
            "SELECT id, owner_id, categories FROM memories_memory "
            "WHERE EXISTS (SELECT 1 FROM unnest(categories) c WHERE c !~ %s)",
            [_FOLDED],
        )
        for memory_id, owner_id, categories in cur.fetchall():
            folded = list(dict.fromkeys(f for f in (fold(c)[:64] for c in categories) if f))
            if folded != list(categories):
                with connection.cursor() as update:
                    update.execute(
                        "UPDATE memories_memory SET categories = %s::varchar[] "
                        "WHERE id = %s AND owner_id = %s",
                        [folded, memory_id, owner_id],
                    )
        cur.execute(
            "SELECT DISTINCT m.owner_id, c.slug "
            "FROM memories_memory m, unnest(m.categories) AS c(slug) "
            "WHERE NOT c.slug = ANY(%s) AND NOT EXISTS (SELECT 1 FROM memories_usercategory u "
            "WHERE u.owner_id = m.owner_id AND u.slug = c.slug)",
            [sorted(DEFAULT_SLUGS)],
        )
        found = cur.fetchall()
    UserCategory.objects.bulk_create(
        [
            UserCategory(
                owner_id=owner_id,
                slug=slug,
                description="",
                sensitive=sensitive_meaning(slug) is not None,
            )
            for owner_id, slug in found
        ],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_rotated_refresh_token"),
        ("memories", "0013_memory_changed_by"),
    ]

    operations = [
        migrations.AddField(
            model_name="usercategory",
            name="created_by",
            field=models.CharField(blank=True, max_length=120),
        ),
        migrations.AddField(
            model_name="usercategory",
            name="reviewed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="usercategory",
            name="description",
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
