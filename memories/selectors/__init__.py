"""Reads: every query an entry point makes, one module per subject. Each takes an explicit
Actor; another tenant's row is simply not there."""
