"""What every search path shares in SQL: which rows search may return at all."""

# Active and not superseded, before the consent rule: the rows the in-memory index holds
# (`index._READ_SQL`), the PostgreSQL scan ranks (`scoring`) and the stats trigger counts without
# apps' echoes (migration 0009 keeps a frozen copy, as a migration must).
ELIGIBLE = "m.state = 'active' AND m.superseded_by_id IS NULL"

# The user's secret salt of lexeme keys (`SearchStats.salt`), as a scalar subquery PostgreSQL
# runs once per statement: every key of the in-memory index, its snapshot, the machine's files
# and a search's query is `hashtextextended(lexeme, KEY_SALT)`, so the paths agree and a file
# read without the database cannot be matched against a dictionary. Needs `%(owner)s`.
KEY_SALT = "coalesce((SELECT k.salt FROM memories_searchstats k WHERE k.owner_id = %(owner)s), 0)"
