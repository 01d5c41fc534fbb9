"""The memory store. Every tenant table carries `owner` so it can be sharded by owner later."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from pgvector.django import VectorField

from kernel.tenancy import OwnedRow

# Django finds an app's models in its models module: the import, export and erasure rows
# (memories/transfer_models.py) are registered with the app by this import.
from memories import transfer_models  # noqa: F401
from memories.search.embeddings import DIMENSIONS

# 64 bits from PostgreSQL's strong random source (gen_random_uuid): a user's search key salt.
SALT_SQL = RawSQL("('x' || substr(md5(gen_random_uuid()::text), 1, 16))::bit(64)::bigint", [])


class MemoryState(models.TextChoices):
    ACTIVE = "active", _("Active")
    PAUSED = "paused", _("Paused")
    ARCHIVED = "archived", _("Archived")
    # Deleted, in the owner's trash until restored or purged (memories/services/trash.py). Outside
    # every rule that names 'active' (search, the apps' consent rule, the unique active text), and
    # left out of the owner's own apps by `visibility.visible_q`: only the Trash page shows it.
    TRASHED = "trashed", _("In the trash")


# The states an entry point may set or filter by (the trash is entered by a delete, left by a
# restore).
LIVE_STATES: tuple[str, ...] = (MemoryState.ACTIVE, MemoryState.PAUSED, MemoryState.ARCHIVED)
LIVE_STATE_CHOICES = [(s, label) for s, label in MemoryState.choices if s in LIVE_STATES]


class Origin(models.TextChoices):
    APP = "app", _("Connected app")
    IMPORT = "import", _("Import")
    DASHBOARD = "dashboard", _("Dashboard")
    API = "api", _("API")
    CLI = "cli", _("Command line")


# Columns no reader shows: parsing a 384-float vector from its text form costs more than the rest
# of the row (bench load profile), so list and search results leave both unloaded.
UNSHOWN_COLUMNS = ("embedding", "tsv")


class Memory(OwnedRow):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.TextField()
    # sha256 of the normalised text: duplicates are refused by a unique index, not by a race.
    text_key = models.CharField(max_length=64)
    # No ANN index on purpose: search scans one tenant's vectors exactly (see
    # memories/search/scoring.py).
    embedding = VectorField(dimensions=DIMENSIONS, null=True)
    embedding_model = models.CharField(max_length=200, blank=True)
    # Maintained by the service layer: the text's lexemes as its language's text-search
    # configuration finds them (memories/search/lexical.py).
    tsv = SearchVectorField(null=True)
    # What every app reads instead of `text`: the owner's own memory with its credentials
    # withheld (memories/services/harm.py); null when apps read `text` itself. The embedding and
    # `tsv` are computed from it, so an app's search never matches a credential.
    app_text = models.TextField(null=True, blank=True)  # noqa: DJ001 (null: the text itself)
    # Found by the check of an existing store (a credential, or an instruction to assistants),
    # waiting for the owner's decision: "credential" or "instruction"; no app sees it meanwhile.
    harm_hold = models.CharField(max_length=16, blank=True, default="", db_default="")
    # When the owner accepted it from Review or confirmed it after the check: the owner stands
    # behind it (each result tells apps whether the owner wrote or confirmed a memory).
    owner_confirmed_at = models.DateTimeField(null=True, blank=True)
    # The text's language (memories/language.py): a claimed code, "other" or "und"; set with
    # the text at every write.
    language = models.CharField(max_length=8, db_default="und")
    state = models.CharField(max_length=16, choices=MemoryState.choices, default=MemoryState.ACTIVE)
    categories = ArrayField(models.CharField(max_length=64), default=list, blank=True)
    categories_set_by_user = models.BooleanField(default=False)
    is_private = models.BooleanField(default=False)
    # ConnectedApp ids this memory is hidden from.
    hidden_from = ArrayField(models.BigIntegerField(), default=list, blank=True)
    # None: the grants alone decide which apps see it. A list: besides the app that wrote it, only
    # these apps may (if their grants let them): the apps that could see a sensitive category
    # deleted from it, so that no app connected later sees what the category kept from it
    # (memories/services/category_changes.py). Only the owner lifts it.
    seen_only_by = ArrayField(models.BigIntegerField(), null=True, blank=True)
    # Provenance is copied here, never only referenced, so it survives revoking the app.
    origin = models.CharField(max_length=16, choices=Origin.choices, default=Origin.APP)
    origin_app = models.ForeignKey(
        "accounts.ConnectedApp", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    origin_app_name = models.CharField(max_length=120, blank=True)
    provenance = models.JSONField(default=dict, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    user_edited_at = models.DateTimeField(null=True, blank=True)
    # The newer memory that replaced this one; deleting the newer one deletes the chain with it.
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="supersedes"
    )
    # An echo: an app's statement of a text the owner already holds in `echo_of`, a memory that
    # app may not see. It is not a second copy of that memory: the owner sees it only as "also
    # stated by" on `echo_of` (deleted with it), and only `echo_app` sees it, while `echo_of`
    # stays out of that app's sight (memories/visibility.py). Saying "already known" with the
    # hidden memory instead would tell the app that the memory exists.
    echo_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="echoes",
        db_index=False,  # a partial index below: only echoes are ever looked up by it
    )
    echo_app = models.ForeignKey(
        "accounts.ConnectedApp",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )
    # Who last changed the memory once written (text, categories, state, privacy, supersession):
    # "changed by Cursor on laptop, 2 min ago" on its row and page. The name is copied, like the
    # origin's, so it survives revoking the app.
    changed_by_app = models.ForeignKey(
        "accounts.ConnectedApp",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )
    changed_by_name = models.CharField(max_length=120, blank=True, default="", db_default="")
    changed_at = models.DateTimeField(null=True, blank=True)
    # The trash (memories/services/trash.py): the state the memory had before its delete, the delete
    # it went with, and for a row carried along (a superseded predecessor, an app's echo) the
    # memory whose delete took it, with which it comes back or is purged.
    # (db_default: rows written by hand-made SQL, benchmarks included, start outside the trash)
    trash_state = models.CharField(max_length=16, blank=True, default="", db_default="")
    trash_batch = models.ForeignKey(
        "TrashBatch",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="memories",
        db_index=False,  # partial index below
    )
    trashed_with = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="carried",
        db_index=False,  # partial index below
    )
    # Pinned by the owner (only the owner's own apps pin, marks.memory_set_pinned): the
    # profile an assistant loads first starts with the pinned memories it may see
    # (memories/selectors/profile.py). Null: not pinned.
    pinned_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(db_index=True)
    updated_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "memories"
        indexes: ClassVar = [
            models.Index(fields=["owner", "-created_at", "-id"], name="memory_owner_recent"),
            models.Index(fields=["owner", "state"], name="memory_owner_state"),
            # No plain GIN on `tsv`: one shared index made every user's search fetch every other
            # user's matches. Search matches through `memory_owner_lexemes` instead, a GIN index
            # of owner-prefixed lexeme keys (raw SQL, migration `search_owner_lexemes`; see
            # memories/search/scoring.py).
            GinIndex(fields=["categories"], name="memory_categories_gin"),
            models.Index(
                fields=["echo_of"], condition=models.Q(echo_of__isnull=False), name="memory_echo_of"
            ),
            models.Index(
                fields=["echo_app"],
                condition=models.Q(echo_app__isnull=False),
                name="memory_echo_app",
            ),
            models.Index(
                fields=["owner", "text_key"],
                condition=models.Q(echo_of__isnull=False),
                name="memory_echo_text",
            ),
            models.Index(
                fields=["trash_batch"],
                condition=models.Q(trash_batch__isnull=False),
                name="memory_trash_batch",
            ),
            models.Index(
                fields=["owner", "-pinned_at"],
                condition=models.Q(pinned_at__isnull=False),
                name="memory_pinned",
            ),
            models.Index(
                fields=["trashed_with"],
                condition=models.Q(trashed_with__isnull=False),
                name="memory_trashed_with",
            ),
        ]
        constraints: ClassVar = [
            # One active memory per text; echoes are statements about a memory, not copies.
            models.UniqueConstraint(
                fields=["owner", "text_key"],
                condition=models.Q(
                    state="active", superseded_by__isnull=True, echo_of__isnull=True
                ),
                name="memory_unique_active_text",
            )
        ]

    def __str__(self) -> str:
        return f"Memory {self.id}"


class SearchStats(OwnedRow):
    """Corpus statistics of a user's searchable memories (active, not superseded, not an app's
    echo: what the owner's own apps search), for BM25.

    Kept by database triggers on `memories_memory` (migration `search_stats`), in the same
    transaction as every write to it, whichever path makes the write (service layer, raw SQL,
    cascades). Every
    change to the user's memories also takes a new `generation` from one sequence: a
    per-process cache of the user's vectors is current exactly when its generation is the stored
    one (a sequence never hands out a value twice, even after a rollback).
    """

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    generation = models.BigIntegerField()
    documents = models.IntegerField()  # searchable memories
    length = models.BigIntegerField()  # sum of their tsvector lengths (distinct lexemes)
    # Every change after this generation is in SearchChange (older entries are pruned).
    changes_from = models.BigIntegerField(default=0)
    # The user's secret for the lexeme keys of their in-memory index, its snapshot and the
    # machine's files (`search_key_salt`, migration 0022): 64 random bits drawn when the row is
    # made, never in a file, so a dictionary of hashed words cannot read a file left behind; an
    # erase deletes the row, and with it the only way to read those keys.
    salt = models.BigIntegerField(db_default=SALT_SQL)

    def __str__(self) -> str:
        return f"Search statistics of user {self.owner_id}"


class SearchChange(OwnedRow):
    """Which memory a write changed, at which generation: written by the same triggers, so a
    process can bring its in-memory index up to date by reading only the changed memories.
    Content-free; kept about an hour (then `SearchStats.changes_from` moves on)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    generation = models.BigIntegerField()
    memory_id = models.UUIDField()
    created_at = models.DateTimeField()

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["owner", "generation"], name="search_change_owner_generation")
        ]

    def __str__(self) -> str:
        return f"Change of {self.memory_id} at {self.generation}"


class SearchSnapshot(OwnedRow):
    """A user's in-memory search index as one value (`memories/search/snapshot.py`), so a process
    that does not hold it reads it in one round trip instead of every memory row, then brings it
    up to date from the change log. A cache: rewritten by the search path, dropped by a trigger
    (migration `search_snapshot`) whenever one of the user's memories is deleted for good, so it
    never keeps a purged or erased memory's vector or lexeme keys."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    generation = models.BigIntegerField()  # the user's SearchStats.generation it was read at
    written_at = models.DateTimeField()
    memories = models.IntegerField()
    data = models.BinaryField()

    def __str__(self) -> str:
        return f"Search snapshot of user {self.owner_id} at {self.generation}"


class SearchModel(OwnedRow):
    """The embedding model a user's vectors are in, which their searches embed the query with,
    and the model they are moving to (`memories/search/moves.py`). A user is searched with one
    model at a time: the worker embeds every memory again with `next_model` beside the live
    vector (`StagedVector`), and once all are there one transaction switches the user
    (`memories/services/maintenance.py`). Content-free. No row: the user has no memories yet, and
    is on EMBEDDING_MODEL."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    model = models.CharField(max_length=200)
    # "" when not moving.
    next_model = models.CharField(max_length=200, blank=True, default="")
    # The model the owner chose for their memories (memories/services/search_model.py); "" follows
    # the server's EMBEDDING_MODEL, so an operator's change of it moves them too.
    chosen = models.CharField(max_length=200, blank=True, db_default="")
    moving_since = models.DateTimeField(null=True, blank=True)
    moved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "search model (a user's embedding model)"

    def __str__(self) -> str:
        return f"Search model of user {self.owner_id}"


class StagedVector(OwnedRow):
    """A memory's vector under the model its owner is moving to (`SearchModel.next_model`), kept
    beside the live one until the owner's switch, then moved into the memory row. Valid only for
    the text it was embedded from (`text_md5`): an edit that did not write a new one leaves it
    stale, and the worker embeds that memory again. Goes with its memory (a database cascade)."""

    # The foreign key is PostgreSQL's own, ON DELETE CASCADE (migration 0023), so a raw delete of
    # a memory takes it too.
    memory = models.OneToOneField(
        Memory, primary_key=True, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    model = models.CharField(max_length=200)
    embedding = VectorField(dimensions=DIMENSIONS)
    text_md5 = models.CharField(max_length=32)

    class Meta:
        indexes: ClassVar = [models.Index(fields=["owner"], name="staged_vector_owner")]

    def __str__(self) -> str:
        return f"Staged vector of {self.memory_id}"


class MemoryAltVector(OwnedRow):
    """A memory's vector under the search's second arm (`memories/search/second_arm.py`: Google's
    USE multilingual v3, 512 dimensions), kept for memories not in English whose owner searches
    with multilingual-e5; a search whose query is not in English re-ranks its answer with it.
    Of what apps read, as the memory's own vector; valid only for the model and the text it was
    written for (`model`, `text_md5`, as a staged vector's): a stale one counts as none. Goes
    with its memory (a database cascade)."""

    # PostgreSQL's own foreign key, ON DELETE CASCADE (migration 0029), as StagedVector's.
    memory = models.OneToOneField(
        Memory, primary_key=True, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    model = models.CharField(max_length=200)
    embedding = VectorField(dimensions=512)
    text_md5 = models.CharField(max_length=32)

    class Meta:
        indexes: ClassVar = [models.Index(fields=["owner"], name="alt_vector_owner")]

    def __str__(self) -> str:
        return f"Second-arm vector of {self.memory_id}"


class TrashBatch(OwnedRow):
    """One delete: which app deleted which memories, when. The Trash page restores a batch
    ("everything Claude deleted at 14:02"); a batch an app made is a notice on the dashboard
    until the owner has seen it; it is purged TRASH_DAYS after `created_at`. Content-free."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    app = models.ForeignKey(
        "accounts.ConnectedApp", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    app_name = models.CharField(max_length=120)
    deleted_by = models.CharField(max_length=120)  # the actor's label (an operator, say)
    memories_deleted = models.IntegerField()  # memories the delete named (not those carried)
    created_at = models.DateTimeField(default=timezone.now)
    seen_at = models.DateTimeField(null=True, blank=True)  # the owner acknowledged the notice

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["owner", "-created_at"], name="trashbatch_recent"),
            models.Index(fields=["created_at"], name="trashbatch_expiry"),
        ]

    def __str__(self) -> str:
        return f"Trash batch {self.id}"


class MemoryVersion(OwnedRow):
    """A prior text of a memory: who changed it, when and why."""

    class Kind(models.TextChoices):
        EDIT = "edit", _("Edited")
        SUPERSEDE = "supersede", _("Superseded")
        RESTORE = "restore", _("Restored")

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="versions")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.TextField()
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.EDIT)
    changed_by = models.CharField(max_length=120)
    reason = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes: ClassVar = [models.Index(fields=["owner", "memory", "-created_at"])]

    def __str__(self) -> str:
        return f"Version of {self.memory_id} ({self.kind})"


class MemoryTombstone(OwnedRow):
    """What remains of a deleted memory: no content, only enough to refuse bringing it back."""

    memory_id = models.UUIDField(primary_key=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    deleted_at = models.DateTimeField(auto_now_add=True)
    deleted_by = models.CharField(max_length=120)
    # sha256 of the source reference (e.g. conversation + message id) so an import skips it.
    source_ref_hash = models.CharField(max_length=64, blank=True, db_index=True)

    class Meta:
        indexes: ClassVar = [models.Index(fields=["owner", "source_ref_hash"])]

    def __str__(self) -> str:
        return f"Tombstone {self.memory_id}"


class UserCategory(OwnedRow):
    """A category of the user's own vocabulary, beside the defaults: added on the Categories page,
    or by the first memory filed under a new name (by the owner or an app). The classifier learns
    its description; one without a description it never assigns.

    A row named like a default category holds the owner's choice about that default (only
    `sensitive`): defaults are not renamed or deleted (memories/services/category_changes.py)."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    slug = models.CharField(max_length=64)
    description = models.CharField(max_length=300, blank=True)
    sensitive = models.BooleanField(default=False)
    # Who brought the name in (an app's name, or the owner's own app), shown on the Categories page.
    created_by = models.CharField(max_length=120, blank=True)
    # When the owner saw the notice of a new category (kept it shared, or marked it sensitive);
    # null: the notice still shows.
    reviewed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["owner", "slug"], name="user_category_unique_slug")
        ]

    def __str__(self) -> str:
        return self.slug


class MemoryProposal(OwnedRow):
    """A change the owner decides on before it is saved: a model's suggested edit of a memory
    the user edited by hand (EDIT), or an add, update or delete by an app whose writes the owner
    reviews (memories/services/app_review.py). Never applied unreviewed."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    class Kind(models.TextChoices):
        EDIT = "edit", _("Suggested edit")
        ADD = "add", _("Add")
        UPDATE = "update", _("Update")
        DELETE = "delete", _("Delete")

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    kind = models.CharField(
        max_length=16, choices=Kind.choices, default=Kind.EDIT, db_default=Kind.EDIT
    )
    # None for an add: the memory does not exist until the owner accepts it.
    memory = models.ForeignKey(
        Memory, null=True, blank=True, on_delete=models.CASCADE, related_name="proposals"
    )
    # The app whose write waits here (an app's proposal); kept if the app is revoked.
    app = models.ForeignKey(
        "accounts.ConnectedApp", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    proposed_text = models.TextField(blank=True)
    # For an app's add or update: the categories and state it asked for (None: unchanged).
    proposed_categories = ArrayField(models.CharField(max_length=64), null=True, blank=True)
    proposed_state = models.CharField(max_length=16, blank=True, default="", db_default="")
    reason = models.CharField(max_length=500, blank=True)
    proposed_by = models.CharField(max_length=120, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes: ClassVar = [models.Index(fields=["owner", "status", "-created_at"])]

    def __str__(self) -> str:
        return f"Proposal for {self.memory_id or 'a new memory'} ({self.kind}, {self.status})"
