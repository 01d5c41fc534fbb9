"""Writes: every change to the memory store, one module per subject. Each takes an explicit
Actor, checks consent and records its access event in the same transaction."""
