"""Local reconciliation of a new text against the nearest stored memories, without an LLM.

Pure (no models, no database): `judge.judge` takes the new text, a stored text and their cosine
and says restate (merge), update (supersede), unsure (the owner's Review) or distinct (both stay),
reading the texts' words through `wording` (a restatement in other words or another language,
which the cosine alone cannot tell from a look-alike) and `lexicon`.
The write service (`memories/services/reconcile_local.py`) finds the neighbours and acts.
"""
