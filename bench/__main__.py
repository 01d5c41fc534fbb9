"""`python -m bench <name>`: each benchmark prints readable lines, then one JSON object last."""

from __future__ import annotations

import argparse
import sys

from bench import (
    add,
    backfill,
    categories,
    categories_languages,
    coherence,
    embed,
    embedding_candidates,
    extract,
    faults,
    harm,
    hosted,
    inprocess,
    language,
    language_candidates,
    lexical_languages,
    load,
    locomo,
    locomo_candidates,
    locomo_sweep,
    mcp,
    move,
    multilingual,
    profile,
    reconcile,
    reconcile_fit,
    reconcile_head,
    reconcile_signal,
    search,
    sensitive_head,
    sensitive_model,
    shortqueries,
    startup,
    stdio,
    use_arm,
)
from bench.environment import setup_django
from contextlayer.process import SERVE, set_threads


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["categories"]:  # no database: the labelled set is classified in memory
        sys.exit(categories.main(argv[1:]))
    if argv[:1] == ["reconcile"]:  # no database: the pairs are judged in memory
        sys.exit(reconcile.main(argv[1:]))
    if argv[:1] == ["reconcile-fit"]:  # nor here: the dev pairs are embedded in memory
        sys.exit(reconcile_fit.main(argv[1:]))
    if argv[:1] == ["reconcile-head"]:  # nor here: a head on the dev pairs' vectors
        sys.exit(reconcile_head.main(argv[1:]))
    if argv[:1] == ["reconcile-signal"]:  # nor here: candidate signals on the dev pairs
        sys.exit(reconcile_signal.main(argv[1:]))
    if argv[:1] == ["extract"]:  # no database either: messages are extracted in memory
        sys.exit(extract.main(argv[1:]))
    if argv[:1] == ["harm"]:  # pure rules over a labelled file
        sys.exit(harm.main(argv[1:]))
    if argv[:1] == ["sensitive-head"]:  # no database: heads trained and read in memory
        sys.exit(sensitive_head.main(argv[1:]))
    if argv[:1] == ["sensitive-model"]:  # no database: texts are labelled in memory
        sys.exit(sensitive_model.main(argv[1:]))
    if argv[:1] == ["language"]:  # nor here: texts are identified in memory
        sys.exit(language.main(argv[1:]))
    if argv[:1] == ["language-candidates"]:
        sys.exit(language_candidates.main(argv[1:]))
    if argv[:1] == ["embedding-candidates"]:  # models compared in memory, no database
        sys.exit(embedding_candidates.main(argv[1:]))
    if argv[:1] == ["use-arm-costs"]:  # one model loaded and timed, no database
        sys.exit(use_arm.main(argv[1:]))
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    sub = parser.add_subparsers(dest="name", required=True)
    for module in (
        add,
        embed,
        search,
        shortqueries,
        lexical_languages,
        categories_languages,
        multilingual,
        locomo,
        locomo_sweep,
        locomo_candidates,
        backfill,
        mcp,
        inprocess,
        load,
        hosted,
        startup,
        stdio,
        faults,
        coherence,
        profile,
        move,
        use_arm,
    ):
        module.register(sub)
    sub.add_parser("categories", help="Local category classifier: precision/recall, macro-F1.")
    sub.add_parser("extract", help="Local extractor: message/fact precision and recall, speed.")
    sub.add_parser("harm", help="Credentials and instructions: recall, false positives, speed.")
    sub.add_parser(
        "sensitive-model", help="Sensitive-label model: cross-validation on dev, training, speed."
    )
    sub.add_parser(
        "sensitive-head", help="A learned head on each model's vectors as sensitive detector."
    )
    sub.add_parser("language", help="Language identification: accuracy on short texts, speed.")
    sub.add_parser("language-candidates", help="The language identifiers compared (uv run --with).")
    sub.add_parser(
        "embedding-candidates", help="Embedding models compared by cosine alone (uv run --with)."
    )
    sub.add_parser("use-arm-costs", help="USE's and e5's load, memory and speed (uv run --with).")
    sub.add_parser("reconcile", help="Local reconciliation on labelled pairs: merges, supersedes.")
    sub.add_parser("reconcile-fit", help="Local reconciliation's pair scorer, fitted on dev pairs.")
    sub.add_parser("reconcile-head", help="A head learned on both models' vectors, dev pairs.")
    sub.add_parser(
        "reconcile-signal", help="Candidate paraphrase signals on dev pairs (uv run --with)."
    )
    args = parser.parse_args(argv)
    if not getattr(args, "standalone", False):  # startup measures servers it starts itself
        set_threads(getattr(args, "layout", SERVE))  # before Django reads EMBEDDING_THREADS
        setup_django(args.database_url, getattr(args, "home", None))
    args.run(args)


if __name__ == "__main__":
    main()
