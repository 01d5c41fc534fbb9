"""No planner statistics on columns that hold memory content.

ANALYZE copies sampled values into pg_statistic (histogram bounds, most common values and
elements): memory text, its lexemes, conversation titles — copies an erase cannot reach. A
statistics target of 0 keeps ANALYZE off these columns; re-declaring each column's own type drops
the statistics already collected (PostgreSQL removes a column's pg_statistic rows on ALTER
COLUMN TYPE; the type is unchanged, so nothing is rewritten). No query filters or sorts by these
columns' values (owner, state and ids do that), so the planner loses nothing it uses.
"""

from django.db import migrations

CONTENT_COLUMNS = {
    "memories_memory": ("text", "text_key", "tsv", "embedding", "provenance", "metadata"),
    "memories_memoryversion": ("text", "reason"),
    "memories_memoryproposal": ("proposed_text", "reason"),
    "memories_importrun": ("filename", "errors", "estimate"),
    "memories_importedconversation": ("conversation_id", "message_ids"),
    "memories_usercategory": ("slug", "description"),
}


def _sql(target: int) -> str:
    statements = []
    for table, columns in CONTENT_COLUMNS.items():
        for column in columns:
            statements.append(
                f"ALTER TABLE {table} ALTER COLUMN {column} SET STATISTICS {target};"
            )
    if target == 0:
        names = ", ".join(f"('{t}', '{c}')" for t, cols in CONTENT_COLUMNS.items() for c in cols)
        statements.append(
            f"""
DO $$
DECLARE r record;
BEGIN
    FOR r IN
        SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) AS coltype
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = current_schema()::regnamespace
          AND (c.relname, a.attname) IN ({names})
    LOOP
        EXECUTE format('ALTER TABLE %I ALTER COLUMN %I TYPE %s', r.relname, r.attname, r.coltype);
    END LOOP;
END $$;"""
        )
    return "\n".join(statements)


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0007_memory_verbose_name_plural"),
    ]

    operations = [
        migrations.RunSQL(sql=_sql(0), reverse_sql=_sql(-1)),
    ]
