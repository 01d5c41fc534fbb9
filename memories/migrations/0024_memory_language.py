"""Each memory's language, and its lexemes as that language's configuration finds them (issue 36).

`memory_tsvector(config, prefix, body)` builds a tsvector whose lexemes carry the configuration's
prefix (memories/search/lexical.py says why); every existing memory gets its language and its
`tsv` again, with text without spaces segmented, by the rules of memories/search/lexical.py as
they are when it runs (the rows must be what the code writes). The UPDATE fires the search
statistics trigger (each user's length follows); then, as migration `search_key_salt` does, the
snapshots built from the old lexemes are dropped and every user's generation moves on with no
change log before it, so each process reads its index again rather than apply a log naming every
memory. Back: English lexemes for every memory, as before."""

from django.db import migrations, models

# A tsvector of `body` under `config`, each lexeme prefixed with `prefix` (none: to_tsvector's
# own). Written as tsvector input: each lexeme quoted (a quote doubled, a backslash escaped)
# with its positions. A lexeme the prefix makes longer than a tsvector takes (2,046 bytes) is
# left out, as to_tsvector leaves out a longer word, rather than fail the write.
_FUNCTION = r"""
CREATE FUNCTION memory_tsvector(config regconfig, prefix text, body text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT CASE WHEN prefix = '' THEN to_tsvector(config, body) ELSE coalesce((
    SELECT string_agg(
        '''' || replace(replace(prefix || u.lexeme, '\', '\\'), '''', '''''') || ''''
        || coalesce(':' || array_to_string(u.positions, ','), ''),
        ' ')
    FROM unnest(to_tsvector(config, body)) AS u
    WHERE octet_length(prefix || u.lexeme) <= 2046
)::tsvector, ''::tsvector) END
$$;
"""
_DROP_FUNCTION = "DROP FUNCTION memory_tsvector(regconfig, text, text);"

_BATCH = 2000
_UPDATE = """
UPDATE memories_memory m
SET language = v.lang, tsv = memory_tsvector(v.cfg::regconfig, v.prefix, v.body)
FROM unnest(%s::uuid[], %s::text[], %s::text[], %s::text[], %s::text[])
     AS v(id, lang, cfg, prefix, body)
WHERE m.id = v.id
"""

# Every index, snapshot and change log was of the old lexemes: each process reads its users again.
_READ_AGAIN = """
DELETE FROM memories_searchsnapshot;
UPDATE memories_searchstats SET generation = nextval('memories_search_generation');
UPDATE memories_searchstats SET changes_from = generation;
DELETE FROM memories_searchchange;
"""


def _analyse_all(apps, schema_editor):
    from memories.search import lexical

    last = None
    with schema_editor.connection.cursor() as cur:
        while True:
            cur.execute(
                "SELECT id, text FROM memories_memory WHERE %s::uuid IS NULL OR id > %s::uuid "
                "ORDER BY id LIMIT %s",
                [last, last, _BATCH],
            )
            rows = cur.fetchall()
            if not rows:
                break
            analysed = [lexical.for_memory(text) for _, text in rows]
            cur.execute(
                _UPDATE,
                [
                    [memory_id for memory_id, _ in rows],
                    [a.language for a in analysed],
                    [a.config for a in analysed],
                    [a.prefix for a in analysed],
                    [a.body for a in analysed],
                ],
            )
            last = rows[-1][0]
        cur.execute(_READ_AGAIN)


def _english_again(apps, schema_editor):
    with schema_editor.connection.cursor() as cur:
        cur.execute("UPDATE memories_memory SET tsv = to_tsvector('english', text)")
        cur.execute(_READ_AGAIN)


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0023_search_models"),
    ]

    operations = [
        migrations.AddField(
            model_name="memory",
            name="language",
            field=models.CharField(db_default="und", max_length=8),
        ),
        migrations.RunSQL(_FUNCTION, _DROP_FUNCTION),
        migrations.RunPython(_analyse_all, _english_again),
    ]
