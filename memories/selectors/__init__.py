"""Reads: every query an entry point makes, one module per subject. Each takes an explicit
Actor; another tenant's row is simply not there. An app's reads of memories (get, list, search,
profile) also record their access event, the one row a selector writes (`activity.services`),
and say so in their docstrings."""
