"""`memory_remember`, the one "remember this" path of every entry point, and the application of a
model's decisions. It sits above the service layer (it orchestrates `memory_create`,
`memory_supersede` and `proposal_create`), so `services.py` never imports it back.

LLM modes extract facts, reconcile them and apply all in one transaction. The model is called
before the transaction opens, so no lock is held while it thinks and reads are never blocked;
when it fails, the raw text is stored and marked for later."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_noop

from accounts.actors import Actor
from accounts.models import ConnectedApp
from kernel.errors import Conflict, NotFound, UserEdited
from kernel.gates import SCOPE_WRITE, require
from memories.extraction.facts import extract_facts
from memories.extraction.llm import LLMUnavailable
from memories.provenance import excerpt
from memories.services import harm
from memories.services.adding import WriteResult, clean_categories, memory_create
from memories.services.app_review import PENDING_NOTE, pending_note
from memories.services.changing import memory_supersede, readback_note
from memories.services.proposals import proposal_create
from memories.services.reconcile import SKIP, SUPERSEDE, Decision, decide, gather
from memories.text import clean_text

# "Nothing worth remembering" is an answer, not an error: every entry point says this sentence.
NOTHING_TO_REMEMBER = gettext_noop(
    "The model found no lasting fact in this text, so nothing was stored."
)


@dataclass(frozen=True)
class RememberResult:
    """What an "add" from an entry point did: the memories written or matched, and how."""

    results: list[WriteResult]
    extraction: str  # "none": stored as given; LLM modes say what they did
    note: str = ""  # a sentence for the caller, e.g. "already known" or "LLM unavailable"
    # Per result in LLM modes: added / skipped / superseded / proposed / stored_raw; held: waits
    # for the owner's review of this app's changes (memories/services/app_review.py).
    actions: list[str] = field(default_factory=list)


def memory_remember(
    *,
    actor: Actor,
    text: str,
    categories: Iterable[str] | None = None,
    provenance: dict[str, Any] | None = None,
) -> RememberResult:
    """The one path of "remember this" from every entry point (MCP add_memory, API, dashboard).

    EXTRACTION_MODE=none: the text is stored as given (classified locally when no category is
    given); an identical active memory is returned instead of a second row. LLM modes: the model
    extracts short facts and each is reconciled (add / skip / supersede) against the user's most
    similar memories; if the model fails, the raw text is stored and marked for later extraction.
    """
    if settings.EXTRACTION_MODE != "none":
        return _remember_with_llm(
            actor=actor, text=text, categories=categories, provenance=provenance
        )
    result = memory_create(actor=actor, text=text, categories=categories, provenance=provenance)
    if result.dropped:
        return RememberResult(results=[], extraction="none", note=result.note, actions=["withheld"])
    if result.pending is not None:
        return RememberResult(
            results=[result],
            extraction="none",
            note=result.note or pending_note([result.pending]),
            actions=["held"],
        )
    note = (
        ""
        if result.created
        else gettext_noop("An identical memory already exists; it was returned.")
    )
    note = " ".join(filter(None, [result.note, note, readback_note(actor, [result.memory])]))
    action = "added" if result.created else "skipped"
    return RememberResult(results=[result], extraction="none", note=note, actions=[action])


def _remember_with_llm(
    *,
    actor: Actor,
    text: str,
    categories: Iterable[str] | None = None,
    provenance: dict[str, Any] | None = None,
) -> RememberResult:
    require(actor, SCOPE_WRITE)
    text = clean_text(text)
    cats = clean_categories(categories)
    mode = settings.EXTRACTION_MODE
    # A credential never reaches the model: an app's is removed first; the owner's text that
    # holds one is stored as written (private) without extraction. An instruction waits for
    # the owner as written (memories/services/harm.py).
    screened = harm.screen_write(actor, text)
    if not screened.stored:
        return RememberResult(results=[], extraction=mode, note=screened.note, actions=["withheld"])
    imported = actor.app.kind == ConnectedApp.Kind.IMPORT
    if screened.instruction or (screened.app_text is not None and not imported):
        result = memory_create(
            actor=actor, text=screened.text, categories=cats, provenance=provenance
        )
        action = "held" if result.pending else "added" if result.created else "skipped"
        return RememberResult(results=[result], extraction=mode, note=result.note, actions=[action])
    # An imported conversation is extracted from its text with the credentials withheld.
    text = screened.app_text or screened.text
    screened = dataclasses.replace(screened, note="") if imported else screened
    try:
        facts = extract_facts(text)
        if not facts:
            return RememberResult(
                results=[],
                extraction=mode,
                note=NOTHING_TO_REMEMBER,
            )
        decisions = decide(gather(actor, facts))
    except LLMUnavailable as exc:
        result = memory_create(
            actor=actor,
            text=text,
            categories=cats,
            provenance=provenance,
            metadata={"needs_extraction": True, "extraction_error": str(exc)[:300]},
            reconcile=False,
        )
        return RememberResult(
            results=[result],
            extraction="deferred",
            note=f"{exc} The text was stored as given and marked for extraction later.",
            actions=["stored_raw"],
        )
    applied = apply_decisions(actor, decisions, cats, provenance or {}, source=text)
    if screened.note:
        return dataclasses.replace(applied, note=f"{screened.note} {applied.note}".strip())
    return applied


def apply_decisions(
    actor: Actor,
    decisions: list[Decision],
    cats: list[str],
    provenance: dict[str, Any],
    *,
    source: str = "",
) -> RememberResult:
    """Apply every decision in one transaction (the caller may already hold one).

    `source` is the text the facts were extracted from: each fact keeps an excerpt of it around
    where it was said (owner-only, memories/provenance.py), unless the provenance has one."""
    mode = settings.EXTRACTION_MODE
    results: list[WriteResult] = []
    actions: list[str] = []
    rejected: list[str] = []
    metadata = {"extracted_by": mode}
    with transaction.atomic():
        for d in decisions:
            if d.rejected:
                rejected.append(d.rejected)
            said = provenance
            if source and "excerpt" not in provenance:
                said = {**provenance, "excerpt": excerpt(source, d.case.text)}
            applied = _apply(actor, d, cats, said, metadata)
            results.append(applied.result)
            actions.append(applied.action)
    note = " ".join(
        filter(None, [_note(actions, rejected), readback_note(actor, [r.memory for r in results])])
    )
    return RememberResult(results=results, extraction=mode, note=note, actions=actions)


@dataclass(frozen=True)
class _Applied:
    """What one decision did: its result and the word the writer is told (`_note`)."""

    result: WriteResult
    action: str  # skipped, superseded, proposed, held or added


def _apply(
    actor: Actor,
    d: Decision,
    cats: list[str],
    said: dict[str, Any],
    metadata: dict[str, Any],
) -> _Applied:
    """One decision: a repeat is answered with its memory, a change supersedes it (or waits for
    the owner), anything else is added."""
    if d.action == SKIP and d.target is not None:
        return _Applied(WriteResult(memory=d.target, created=False), "skipped")
    if d.action == SUPERSEDE and d.target is not None:
        superseded = _supersede(actor, d, cats, said, metadata)
        if superseded is not None:
            return superseded
    result = memory_create(
        actor=actor,
        text=d.case.text,
        categories=cats,
        provenance=said,
        metadata=metadata,
        reconcile=False,
    )
    return _Applied(result, "held" if result.pending else "added" if result.created else "skipped")


def _supersede(
    actor: Actor,
    d: Decision,
    cats: list[str],
    said: dict[str, Any],
    metadata: dict[str, Any],
) -> _Applied | None:
    """A changed fact replaces its memory, or is proposed to the owner; None when the memory
    was superseded meanwhile (or by an earlier fact): the fact is then kept as new."""
    assert d.target is not None
    try:
        result = memory_supersede(
            actor=actor,
            memory_id=d.target.id,
            text=d.case.text,
            reason=d.reason or "The model found this fact changed.",
            categories=cats,
            provenance=said,
            metadata=metadata,
        )
    except (UserEdited, NotFound):
        # Edited by hand, or beyond what the writer may change (an import is shown the owner's
        # memories, private ones too, but changes only what it may see,
        # memories/visibility.py): the owner decides.
        proposal_create(actor=actor, memory=d.target, proposed_text=d.case.text, reason=d.reason)
        return _Applied(WriteResult(memory=d.target, created=False), "proposed")
    except Conflict:
        return None
    return _Applied(result, "held" if result.pending else "superseded")


def _note(actions: list[str], rejected: list[str]) -> str:
    counts = {a: actions.count(a) for a in ("added", "skipped", "superseded", "proposed", "held")}
    parts = [f"{n} {a}" for a, n in counts.items() if n]
    note = f"{len(actions)} fact(s): {', '.join(parts)}."
    if counts["proposed"]:
        note += (
            " A memory you edited by hand or made private was left alone; the change awaits"
            " your review."
        )
    if counts["held"]:
        note += f" {PENDING_NOTE}"
    if rejected:
        note += f" Rejected model decisions (stored as new instead): {'; '.join(rejected)}."
    return note
