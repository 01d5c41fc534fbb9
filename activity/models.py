"""The access log: who (which app) did what to which memories, when. Content-free by design.

It sits beside `accounts` and `memories`, below the second: every service (the app services of
`accounts` included) records its change here in its own transaction, so this app imports
`accounts` and the shared `contextlayer` modules, never `memories`.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.utils.translation import pgettext_lazy

from kernel.tenancy import OwnedRow


class AccessEvent(OwnedRow):
    """One read or write: the owner, the app, the action and the memory ids, never text."""

    class Action(models.TextChoices):
        SEARCH = "search", pgettext_lazy("access log action", "Search")
        LIST = "list", pgettext_lazy("access log action", "List")
        READ = "read", pgettext_lazy("access log action", "Read")
        ADD = "add", pgettext_lazy("access log action", "Add")
        UPDATE = "update", pgettext_lazy("access log action", "Update")
        # into the owner's trash (memories/services/trash.py)
        DELETE = "delete", pgettext_lazy("access log action", "Delete")
        RESTORE = "restore", pgettext_lazy("access log action", "Restore")  # out of the trash
        # out of the trash for good: the rows are gone
        PURGE = "purge", pgettext_lazy("access log action", "Purge")
        STATE = "state", pgettext_lazy("access log action", "State")
        EXPORT = "export", pgettext_lazy("access log action", "Export")
        ERASE = "erase", pgettext_lazy("access log action", "Erase")
        IMPORT = "import", pgettext_lazy("access log action", "Import")
        REFUSED = "refused", pgettext_lazy("access log action", "Refused")
        # An app's write held for review, and the owner's answer (memories/services/app_review.py)
        PROPOSE = "propose", pgettext_lazy("access log action", "Propose")
        ACCEPT = "accept", pgettext_lazy("access log action", "Accept")
        DECLINE = "decline", pgettext_lazy("access log action", "Decline")

    # Which actions are reads and writes: the one definition for the activity page, the apps
    # page, a memory's readers and the erasure receipt.
    READS: ClassVar[tuple[str, ...]] = (
        Action.SEARCH,
        Action.LIST,
        Action.READ,
        Action.EXPORT,
    )  # texts were seen
    WRITES: ClassVar[tuple[str, ...]] = (  # the store changed
        Action.ADD,
        Action.UPDATE,
        Action.DELETE,
        Action.RESTORE,
        Action.PURGE,
        Action.STATE,
        Action.IMPORT,
        Action.ERASE,
    )
    AUTHORED: ClassVar[tuple[str, ...]] = (
        Action.ADD,
        Action.UPDATE,
    )  # the memory ids are texts the app wrote

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    app = models.ForeignKey(
        "accounts.ConnectedApp", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    app_name = models.CharField(max_length=120)
    actor = models.CharField(max_length=120, blank=True)
    action = models.CharField(max_length=16, choices=Action.choices)
    memory_ids = ArrayField(models.UUIDField(), default=list, blank=True)
    count = models.IntegerField(default=0)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        # Born in `memories` (0001); the table, its indexes and its constraints keep their names.
        db_table = "memories_accessevent"
        indexes: ClassVar = [
            models.Index(fields=["owner", "-created_at"], name="access_owner_recent"),
            models.Index(fields=["owner", "app", "-created_at"], name="access_owner_app"),
            GinIndex(fields=["memory_ids"], name="access_memory_ids_gin"),
        ]

    def __str__(self) -> str:
        return f"{self.app_name} {self.action} at {self.created_at:%Y-%m-%d %H:%M}"
