"""The languages other than English the local extractor reads (extraction/local_foreign.py), one
module per language family: each language's self-statement, request, temporary, hypothetical and
role-play patterns, built with the helpers of `language`."""
