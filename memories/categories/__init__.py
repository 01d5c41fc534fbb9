"""The category vocabulary and the words that make a memory sensitive-looking.

`vocabulary` holds the default categories (descriptions, prototype examples, the words that in a
category's name mean a sensitive one); `signals` the rules that read a sensitive category's signal
words, from the English ones on each category, `signals_by_language` and `lexicons` (data
tables); `ordinary` the everyday look-alikes, settings and phrases in which a signal word says
nothing sensitive. The classifier (memories/classify.py) reads them all; the category services
(memories/services/categories.py) read the vocabulary and `signals.sensitive_meaning`.
"""
