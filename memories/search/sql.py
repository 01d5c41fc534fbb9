"""What every search path shares in SQL: which rows search may return at all."""

# Active and not superseded, before the consent rule: the rows the in-memory index holds
# (`index._READ_SQL`), the PostgreSQL scan ranks (`scoring`) and the stats trigger counts without
# apps' echoes (migration 0009 keeps a frozen copy, as a migration must).
ELIGIBLE = "m.state = 'active' AND m.superseded_by_id IS NULL"
