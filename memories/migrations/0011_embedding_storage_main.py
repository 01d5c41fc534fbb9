from django.db import migrations

# Vectors inline with their row (MAIN: not compressed, moved out of line only as a last resort)
# instead of EXTENDED, where a 1,541-byte vector in a ~2 kB row was moved to the TOAST table and
# every read of it cost several extra buffer lookups (issue 16: 49,603 buffers to scan 10,000
# rows). Rows written before this keep their out-of-line vectors until they are rewritten.


class Migration(migrations.Migration):
    dependencies = [("memories", "0010_search_owner_lexemes")]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE memories_memory ALTER COLUMN embedding SET STORAGE MAIN",
            "ALTER TABLE memories_memory ALTER COLUMN embedding SET STORAGE EXTENDED",
        )
    ]
