"""The search generation is taken after the user's statistics row is locked (issue 24 item 3).

The insert path of `memories_search_stats_change` (migration `search_stats`) took its generation
in the upsert's SELECT, before ON CONFLICT waited for the row: a write that waited behind another
one holding the row committed a generation below the one committed before it, and a process that
read the user's memories between the two commits never found the later write (its change log
entry was below the generation that process held). ON CONFLICT DO UPDATE evaluates its SET after
the row is locked, so the generation is taken there: each user's generations grow in the order
their writes commit. The UPDATE and DELETE paths already take theirs after the lock (PostgreSQL
evaluates an UPDATE's SET again once the row it waited for is committed).

The function is the one of migration `search_stats` with that one assignment changed."""

from importlib import import_module

from django.db import migrations

_TAKEN_BEFORE = "SET generation = excluded.generation,"
_TAKEN_AFTER = "SET generation = nextval('memories_search_generation'),"


def _function(source: str) -> str:
    """The `memories_search_stats_change` function of `source`, as a CREATE OR REPLACE."""
    start = source.index("CREATE FUNCTION memories_search_stats_change()")
    end = source.index("END $$;", start) + len("END $$;")
    return "CREATE OR REPLACE" + source[start:end].removeprefix("CREATE")


_BEFORE = _function(import_module("memories.migrations.0009_search_stats")._FORWARD)
assert _BEFORE.count(_TAKEN_BEFORE) == 1  # noqa: S101 - the statement this migration changes
_AFTER = _BEFORE.replace(_TAKEN_BEFORE, _TAKEN_AFTER)


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0015_memory_trash"),
    ]

    operations = [migrations.RunSQL(_AFTER, _BEFORE)]
