"""Erase: every row a user owns goes in one transaction, and a content-free receipt remains.

What it covers: every model with a foreign key to the user (found generically, so models added
later are included: memories and their versions and embeddings, tombstones, access events, import
runs and the import manifest, connected apps with their grants, and anything cascading from those
such as client tokens), the files of pending dashboard uploads, and, with `delete_account`, the
account itself (everything cascading from it: e-mail addresses, MFA, OAuth tokens) and its
sessions. Without `delete_account` the sign-in identity and the names of the local apps the
owner disconnected (`KEEP_WITH_ACCOUNT`) stay: an erase disconnects every app, and a client that
launches a local app's command again is refused until the owner allows it again.

The receipt (`ErasureReceipt`) has no foreign key to the user and holds no personal data: a keyed
hash of the user id, counts per kind, when, by which app, which apps had read the data (from the
access log, read before it goes), a digest of what was erased and a digest of the receipt.

Deleting rows is logical in PostgreSQL: the bytes stay in the table's pages, in its indexes (the
GIN index keeps every lexeme it ever saw) and in the WAL. Once the erase commits,
`erase_compact` rewrites the content tables (VACUUM FULL, which also rebuilds their indexes), so
the text leaves the table files; their statistics never held it (migration 0008). What remains,
and for how long, is in docs/guide/export-delete-erase.md ("What erase guarantees").
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.actors import Actor
from accounts.models import ConnectedApp, User
from accounts.services import stdio_disconnect
from activity.models import AccessEvent
from kernel.errors import NotFound
from kernel.gates import SCOPE_DELETE, require_owner
from memories.models import (
    Memory,
    MemoryAltVector,
    MemoryProposal,
    MemoryVersion,
    SearchSnapshot,
    SearchStats,
    StagedVector,
    UserCategory,
)
from memories.search import index as search_index
from memories.selectors.counting import memory_count_keys
from memories.transfer_models import ErasureReceipt, ImportedConversation, ImportRun

logger = logging.getLogger("contextlayer.erase")

# Kept while the account stays, deleted with it: the sign-in identity (removing it would lock
# the user out or silently drop their second factor), and the names of the local apps the owner
# disconnected, erase's own included (a client relaunching one is refused: `DisconnectedApp`).
KEEP_WITH_ACCOUNT = frozenset(
    {
        "account.emailaddress",
        "mfa.authenticator",
        "socialaccount.socialaccount",
        "admin.logentry",
        "accounts.disconnectedapp",
    }
)
# Deleted first so cascades run from the content down, and apps last.
_ORDER = {"memories.memory": 0, "accounts.connectedapp": 2}


# Tables whose rows hold what a person told their memory (text, lexemes, vectors, provenance,
# their own category names, imported file names and conversation ids; the search snapshot's
# vectors and lexeme keys; vectors of a model the user is moving to, and of the search's second
# arm), and the search statistics,
# whose salt reads those keys.
CONTENT_MODELS: tuple[type[models.Model], ...] = (
    Memory,
    MemoryVersion,
    MemoryProposal,
    UserCategory,
    ImportRun,
    ImportedConversation,
    SearchSnapshot,
    SearchStats,
    StagedVector,
    MemoryAltVector,
)

# What a person types to confirm an erasure (dashboard and API).
ERASE_PHRASE = "erase my memory"


def subject_hash(user_id: int) -> str:
    """A keyed hash of the user id: lets an operator match a receipt to a known id, reveals none."""
    return hmac.new(
        settings.SECRET_KEY.encode(), f"erasure-subject:{user_id}".encode(), hashlib.sha256
    ).hexdigest()


def owned_querysets(user: User) -> list[tuple[str, models.QuerySet[Any]]]:
    """Every table's rows that point at the user, by model label, in the order an erasure
    deletes them; found by the foreign keys, so a new table of the user's is erased too (and
    needs its words on the receipt, `KIND_LABELS`)."""
    found: list[tuple[str, models.QuerySet[Any]]] = []
    for model in apps.get_models():
        label = model._meta.label_lower
        if model is User or model is ErasureReceipt or label in KEEP_WITH_ACCOUNT:
            continue
        for f in model._meta.get_fields():
            if (
                getattr(f, "concrete", False)
                and (f.many_to_one or f.one_to_one)
                and f.related_model is User
            ):
                found.append((label, model._default_manager.filter(**{f.name: user})))
    found.sort(key=lambda pair: _ORDER.get(pair[0], 1))
    return found


def _readers(user: User) -> list[str]:
    names = (
        AccessEvent.objects.filter(
            owner=user,
            action__in=AccessEvent.READS,
        )
        .exclude(app__kind=ConnectedApp.Kind.BUILTIN)
        .values_list("app_name", flat=True)
        .distinct()
    )
    return sorted(set(names))


def _stdio_names(user: User) -> list[str]:
    return list(
        ConnectedApp.objects.filter(
            owner=user, kind=ConnectedApp.Kind.STDIO, revoked_at=None
        ).values_list("name", flat=True)
    )


def _content_digest(user: User) -> str:
    """sha256 over every erased memory's id and text hash: proves what went, reveals nothing."""
    digest = hashlib.sha256()
    for mid, key in Memory.objects.filter(owner=user).order_by("id").values_list("id", "text_key"):
        digest.update(f"{mid}:{key}\n".encode())
    return digest.hexdigest()


def _end_sessions(user: User) -> int:
    ended = 0
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            session.delete()
            ended += 1
    return ended


def _remove_files(paths: list[str]) -> None:
    for path in paths:
        Path(path).unlink(missing_ok=True)


def user_erase(*, actor: Actor, delete_account: bool = False) -> ErasureReceipt:
    """Remove everything of the actor's user in one transaction; return the receipt."""
    require_owner(actor, SCOPE_DELETE)
    user = actor.user
    erased_by = f"{actor.app.name}" + (f" ({actor.operator})" if actor.operator else "")
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        readers = _readers(user)
        content_digest = _content_digest(user)
        memory_split = memory_count_keys(user)
        uploads = [
            p
            for p in ImportRun.objects.filter(owner=user).values_list("upload_path", flat=True)
            if p
        ]
        # Every app is disconnected: OAuth and client tokens go with their rows; a local app,
        # whose command a client launches again by itself, keeps its name refused.
        stdio_disconnect(user, _stdio_names(user))
        counts: Counter[str] = Counter()
        for _label, queryset in owned_querysets(user):
            _, per_model = queryset.delete()
            counts.update({k.lower(): v for k, v in per_model.items() if v})
        # Split as the owner counts them (memories.selectors.counting).
        if counts.get("memories.memory"):
            for kind, n in memory_split.items():
                counts[kind] = n
            counts = +counts  # drops the zeros
        if delete_account:
            counts["sessions"] = _end_sessions(user)
            _, per_model = User.objects.filter(pk=user.pk).delete()
            counts.update({k.lower(): v for k, v in per_model.items() if v})
        erased_at = timezone.now()
        body: dict[str, Any] = {
            "subject": subject_hash(user.pk),
            "erased_at": erased_at.isoformat(),
            "erased_by": erased_by,
            "account_deleted": delete_account,
            "counts": dict(sorted(counts.items())),
            "apps_that_read": readers,
            "content_digest": content_digest,
        }
        receipt = ErasureReceipt.objects.create(
            subject=body["subject"],
            erased_at=erased_at,
            erased_by=erased_by,
            account_deleted=delete_account,
            counts=body["counts"],
            apps_that_read=readers,
            content_digest=content_digest,
            digest=hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest(),
        )
        transaction.on_commit(lambda: _remove_files(uploads))
        owner_id = user.pk
        transaction.on_commit(lambda: search_index.forget(owner_id))
        transaction.on_commit(lambda: erase_compact(account_deleted=delete_account))
    logger.info("erase", extra={"receipt": str(receipt.pk), "counts": receipt.counts})
    return receipt


# What each counted kind is, in words. Receipts store the model label of their day and are never
# rewritten, so a model that moved apps keeps its old label here too.
KIND_LABELS: dict[str, Any] = {
    "memories.memory": _("Memories"),
    "memories.memory.trash": _("Memories in the trash"),
    "memories.memory.other": _("Replaced copies of memories and apps' restatements of them"),
    "memories.memoryversion": _("Earlier versions of memories"),
    "memories.memorytombstone": _("Records of memories deleted before"),
    "memories.searchstats": _("Search index (word statistics)"),
    "memories.searchchange": _("Search index (recent updates)"),
    "memories.searchsnapshot": _("Search index (stored copy)"),
    "memories.searchmodel": _("Search index (which embedding model it uses)"),
    "memories.stagedvector": _("Search index (memories embedded with a new model, not yet in use)"),
    "memories.memoryaltvector": _(
        "Search index (memories not in English, for a second search arm)"
    ),
    "memories.trashbatch": _("Deletes whose memories were in the trash"),
    "activity.accessevent": _("Access log entries"),
    "memories.accessevent": _("Access log entries"),  # its label on receipts made before the move
    "memories.memoryproposal": _("Proposed changes awaiting review"),
    "memories.usercategory": _("Categories you made"),
    "memories.importrun": _("Imports"),
    "memories.importedconversation": _("Imported conversations (the import record)"),
    "accounts.connectedapp": _("Connected apps and their permissions"),
    "accounts.clienttoken": _("Client tokens"),
    "accounts.disconnectedapp": _("Names of local apps you disconnected"),
    "accounts.invitation": _("Invitations"),
    "accounts.user": _("Your account"),
    "account.emailaddress": _("Email addresses"),
    "mfa.authenticator": _("Second factors (authenticator apps, passkeys, recovery codes)"),
    "usersessions.usersession": _("Signed-in session records"),
    "sessions": _("Signed-in sessions"),
    "allauth_idp_oidc.token": _("OAuth tokens of connected apps"),
    "accounts.rotatedrefreshtoken": _("Used sign-in renewals of connected apps"),
    "allauth_idp_oidc.client": _("OAuth client registrations"),
    "admin.logentry": _("Admin log entries"),
}


def kind_label(kind: str) -> str:
    """A receipt's count key in words; a kind added later falls back to its model's name."""
    if kind in KIND_LABELS:
        return str(KIND_LABELS[kind])
    try:
        model = apps.get_model(kind)
    except (LookupError, ValueError):
        return kind
    return str(model._meta.verbose_name_plural).capitalize()


def receipt_lines(receipt: ErasureReceipt) -> list[tuple[str, int]]:
    """What was removed, in words, largest count first."""
    counts = receipt.counts if isinstance(receipt.counts, dict) else {}
    return sorted(((kind_label(k), int(n)) for k, n in counts.items()), key=lambda kv: -kv[1])


def receipts_of(user: User) -> list[ErasureReceipt]:
    """The receipts of this user's earlier erasures, newest first. A receipt has no foreign key
    to the user (it outlives the account); it is found by the keyed hash of the user id."""
    return list(ErasureReceipt.objects.filter(subject=subject_hash(user.pk)).order_by("-erased_at"))


def receipt_of(user: User, receipt_id: uuid.UUID) -> ErasureReceipt:
    """One of this user's receipts; anyone else's is NotFound, like a missing one."""
    receipt = ErasureReceipt.objects.filter(subject=subject_hash(user.pk), pk=receipt_id).first()
    if receipt is None:
        raise NotFound("receipt")
    return receipt


# How long the rewrite waits for its exclusive lock before the lock-free path runs instead.
REWRITE_LOCK_TIMEOUT = "30s"


def erase_compact(*, account_deleted: bool = False) -> str:
    """Make an erase physical as far as PostgreSQL allows; runs once the erase has committed
    (VACUUM cannot run inside a transaction). Returns what it did, for the log.

    ERASE_REWRITE_TABLES (default): VACUUM FULL of the content tables (and of the account tables
    when the account went) writes their live rows to new files and drops the old ones, indexes
    included. Otherwise, or when the exclusive lock is not granted within REWRITE_LOCK_TIMEOUT:
    VACUUM and a concurrent rebuild of their indexes — the lexemes go; a heap page may keep the
    bytes in its free space until a new row reuses it.
    """
    if connection.in_atomic_block:
        return "skipped: inside a transaction"  # nothing is committed yet (tests)
    models_ = [*CONTENT_MODELS]
    if account_deleted:
        models_ += [User, *(m for m in apps.get_models() if m._meta.label_lower in _SIGN_IN)]
    tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models_)
    done = "vacuumed"
    try:
        with connection.cursor() as cur:
            if settings.ERASE_REWRITE_TABLES:
                try:
                    cur.execute(f"SET lock_timeout = '{REWRITE_LOCK_TIMEOUT}'")
                    cur.execute(f"VACUUM (FULL, ANALYZE) {tables}")
                    done = "rewritten"
                except DatabaseError as exc:
                    logger.warning("erase rewrite not possible", extra={"error": str(exc)[:200]})
                finally:
                    cur.execute("RESET lock_timeout")
            if done != "rewritten":
                cur.execute(f"VACUUM (ANALYZE) {tables}")
                for model in models_:
                    table = connection.ops.quote_name(model._meta.db_table)
                    cur.execute(f"REINDEX TABLE CONCURRENTLY {table}")
    except DatabaseError as exc:  # the erase itself is committed; say that this part failed
        logger.error("erase compaction failed", extra={"error": str(exc)[:200]})
        return "failed"
    logger.info("erase compaction", extra={"done": done})
    return done


# Sign-in tables whose rows go with a deleted account (the e-mail address is personal data).
_SIGN_IN = frozenset({"account.emailaddress", "mfa.authenticator"})


def receipt_as_dict(receipt: ErasureReceipt) -> dict[str, Any]:
    return {
        "id": str(receipt.pk),
        "subject": receipt.subject,
        "erased_at": receipt.erased_at.isoformat(),
        "erased_by": receipt.erased_by,
        "account_deleted": receipt.account_deleted,
        "counts": receipt.counts,
        "apps_that_read": receipt.apps_that_read,
        "content_digest": receipt.content_digest,
        "digest": receipt.digest,
    }
