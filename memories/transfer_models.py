"""The import, export and erasure rows of the memories app: one import run of an export file,
the manifest of conversations it brought in (so a re-run adds only what is new), and the receipt
an erasure leaves. Registered with the app through memories/models.py, which imports this module;
the tables are the app's own (memories_importrun, memories_importedconversation,
memories_erasurereceipt)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import ClassVar

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kernel.tenancy import OwnedRow


class ImportRun(OwnedRow):
    """One import of an export file: what was asked, how far it got, what failed and why."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to start")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    source = models.CharField(max_length=32)
    extractor = models.CharField(max_length=16)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    filename = models.CharField(max_length=255, blank=True)
    # A server-chosen path (never a name from the upload) of a dashboard upload awaiting its task.
    upload_path = models.CharField(max_length=500, blank=True)
    limit = models.IntegerField(null=True, blank=True)
    estimate = models.JSONField(default=dict, blank=True)
    conversations_total = models.IntegerField(default=0)
    conversations_done = models.IntegerField(default=0)
    conversations_imported = models.IntegerField(default=0)
    conversations_skipped = models.IntegerField(default=0)
    conversations_failed = models.IntegerField(default=0)
    memories_created = models.IntegerField(default=0)
    memories_existing = models.IntegerField(default=0)
    messages_skipped_deleted = models.IntegerField(default=0)
    # The local extractor: user messages it read, and how many of them yielded a memory (new,
    # or said again and counted on an earlier one).
    messages_examined = models.IntegerField(default=0)
    messages_kept = models.IntegerField(default=0)
    errors = models.JSONField(default=list, blank=True)
    # A redo (memories/services/import_redo.py): the archive's earlier memories nobody edited go to
    # one trash batch, conversation by conversation, and every message is read again.
    redo = models.BooleanField(default=False)
    trash_batch = models.ForeignKey(
        "memories.TrashBatch", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    memories_replaced = models.IntegerField(default=0)
    started_by = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Written with every progress save: a running import whose worker died (SIGKILL, a crash, a
    # redeploy) stops beating, is shown as interrupted, and can be resumed.
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes: ClassVar = [models.Index(fields=["owner", "-created_at"], name="importrun_recent")]

    def __str__(self) -> str:
        return f"Import {self.id} ({self.source}, {self.status})"

    @property
    def interrupted(self) -> bool:
        """Running on paper, but no progress for IMPORT_STALE_SECONDS: its worker is gone."""
        if self.status != self.Status.RUNNING:
            return False
        last = self.heartbeat_at or self.started_at or self.created_at
        return last < timezone.now() - timedelta(seconds=settings.IMPORT_STALE_SECONDS)


class ImportedConversation(OwnedRow):
    """The manifest: one row per ingested conversation, so a re-run adds only what is new."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    source = models.CharField(max_length=32)
    conversation_id = models.CharField(max_length=255)
    content_hash = models.CharField(max_length=64)
    # Source message ids already turned into memories (or deliberately skipped).
    message_ids = ArrayField(models.CharField(max_length=255), default=list, blank=True)
    run = models.ForeignKey(ImportRun, null=True, blank=True, on_delete=models.SET_NULL)
    imported_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["owner", "source", "conversation_id"], name="imported_conversation_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.source}:{self.conversation_id}"


class ErasureReceipt(models.Model):
    """Proof that a user's data was erased. Deliberately no foreign key to the user and no
    personal data: a keyed hash of the user id, counts, times, app names and digests."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    subject = models.CharField(max_length=64, db_index=True)
    erased_at = models.DateTimeField()
    erased_by = models.CharField(max_length=120)
    account_deleted = models.BooleanField(default=False)
    counts = models.JSONField(default=dict)
    apps_that_read = models.JSONField(default=list)
    content_digest = models.CharField(max_length=64)
    digest = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"Erasure {self.id} at {self.erased_at:%Y-%m-%d %H:%M}"
