"""Admin for operators: memory metadata (no text unless ADMIN_SHOW_MEMORY_TEXT), the access log.

The operator is a custodian, not the owner: by default the admin shows ids, lengths, the
non-sensitive default categories, timestamps and origin — never the text, conversation titles or
sensitive and user-made category names — and it can neither search nor filter by any of them
(every changelist filter is a yes/no question: `text__istartswith` would read a text a character
at a time). Single-user self-hosters can set ADMIN_SHOW_MEMORY_TEXT=true. Actions go through the
service layer, audited with the operator.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.postgres.fields import ArrayField
from django.db.models import BigIntegerField, Count, Exists, Max, OuterRef, QuerySet, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import Length
from django.http import HttpRequest

from accounts.admin import OperatorAdmin, operator_actor
from accounts.models import User
from activity.models import AccessEvent
from kernel.errors import DomainError
from memories.categories.vocabulary import DEFAULT_CATEGORIES
from memories.models import UNSHOWN_COLUMNS, Memory, MemoryState, MemoryTombstone, SearchModel
from memories.services import changing, deleting, maintenance


def _show_text() -> bool:
    return bool(getattr(settings, "ADMIN_SHOW_MEMORY_TEXT", False))


# Category names a custodian may see: the default vocabulary's non-sensitive ones. Sensitive
# defaults (health, religion, …) and a user's own categories say something about the text.
_PLAIN_CATEGORIES = frozenset(c.slug for c in DEFAULT_CATEGORIES if not c.sensitive)
# Provenance keys without content: where from, never the conversation's title.
_PLAIN_PROVENANCE = ("source", "conversation_id", "message_id", "message_created_at")


def custodian_categories(categories: list[str]) -> str:
    """The categories as a custodian sees them: plain names, and how many others are hidden."""
    if _show_text():
        return ", ".join(categories)
    plain = [c for c in categories if c in _PLAIN_CATEGORIES]
    hidden = len(categories) - len(plain)
    return ", ".join([*plain, *([f"{hidden} hidden"] if hidden else [])])


def _only_lookups(allowed: frozenset[str], lookup: str) -> bool:
    """Whether a changelist lookup stays on fields the list shows (the text hidden)."""
    field, _, rest = lookup.partition("__")
    if field == "owner":  # the user page's "memories of this user" link
        return rest in ("", "exact", "id", "id__exact", "pk", "pk__exact")
    return field in allowed


# The users' list counts their memories and shows their last activity, so it is registered
# here, above accounts (which owns the model) and the access log.
@admin.register(User)
class UserAdmin(OperatorAdmin):
    list_display = (
        "email",
        "name",
        "is_active",
        "is_staff",
        "memory_count",
        "last_activity",
        "mfa_enabled",
        "date_joined",
    )
    list_filter = ("is_active", "is_staff", "is_superuser")
    search_fields = ("email", "name")
    ordering = ("email",)
    fields = (
        "email",
        "name",
        "is_active",
        "is_staff",
        "is_superuser",
        "groups",
        "user_permissions",
        "date_joined",
        "last_login",
    )
    filter_horizontal = ("groups", "user_permissions")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        # The address a password reset goes to is the user's to change (account settings):
        # an operator who moved it to an inbox they read could sign in as the user.
        fixed = ("date_joined", "last_login")
        return fixed if obj is None else ("email", *fixed)

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        memories = (
            Memory.objects.filter(owner=OuterRef("pk"))
            .order_by()
            .values("owner")
            .annotate(n=Count("pk"))
            .values("n")
        )
        last_event = (
            AccessEvent.objects.filter(owner=OuterRef("pk"))
            .order_by()
            .values("owner")
            .annotate(at=Max("created_at"))
            .values("at")
        )
        qs = (
            super()
            .get_queryset(request)
            .annotate(_memory_count=Subquery(memories), _last_activity=Subquery(last_event))
        )
        if apps.is_installed("allauth.mfa"):
            from allauth.mfa.models import Authenticator

            qs = qs.annotate(_mfa=Exists(Authenticator.objects.filter(user=OuterRef("pk"))))
        return qs

    @admin.display(description="memories", ordering="_memory_count")
    def memory_count(self, obj: Any) -> int:
        return getattr(obj, "_memory_count", None) or 0

    @admin.display(description="last activity", ordering="_last_activity")
    def last_activity(self, obj: Any) -> Any:
        return getattr(obj, "_last_activity", None)

    @admin.display(description="MFA", boolean=True)
    def mfa_enabled(self, obj: Any) -> bool | None:
        # None (shown as unknown) when allauth's MFA app is not installed.
        return getattr(obj, "_mfa", None)


class ReadOnlyAdmin(OperatorAdmin):
    """Rows written only by the service layer: the admin looks, never edits."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


_META_FIELDS = (
    "id",
    "owner",
    "state",
    "text_length",
    "shown_categories",
    "categories_set_by_user",
    "is_private",
    "origin",
    "origin_app_name",
    "shown_provenance",
    "embedding_model",
    "superseded_by",
    "user_edited_at",
    "created_at",
    "updated_at",
)


# Memory columns a custodian may filter on: what the list shows anyway. Never the text, its hash
# (`text_key` answers a dictionary attack), its search vector, categories, provenance, metadata
# or any relation (`versions__text`, `superseded_by__text`, `owner__password`).
_MEMORY_LOOKUPS = frozenset(
    {
        "id",
        "state",
        "origin",
        "is_private",
        "origin_app_name",
        "embedding_model",
        "created_at",
        "updated_at",
        "user_edited_at",
        "categories_set_by_user",
    }
)


@admin.register(Memory)
class MemoryAdmin(ReadOnlyAdmin):
    list_filter = ("state", "origin", "is_private")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    actions = ("archive_memories", "activate_memories", "delete_memories")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Memory]:
        # Never load the embedding or the full-text vector; the length is computed in SQL.
        return (
            super()
            .get_queryset(request)
            .defer(*UNSHOWN_COLUMNS)
            .annotate(_text_length=Length("text"))
        )

    def get_list_display(self, request: HttpRequest) -> tuple[str, ...]:
        base = (
            "id",
            "owner",
            "state",
            "text_length",
            "shown_categories",
            "origin",
            "origin_app_name",
            "created_at",
            "updated_at",
        )
        return ("short_text", *base) if _show_text() else base

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if _show_text():
            return super().lookup_allowed(lookup, value, request)
        allowed = _only_lookups(_MEMORY_LOOKUPS, lookup)
        return allowed and super().lookup_allowed(lookup, value, request)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("text", *_META_FIELDS) if _show_text() else _META_FIELDS

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return self.get_fields(request, obj)

    def get_search_fields(self, request: HttpRequest) -> tuple[str, ...]:
        # Searching by text would reveal content through the hits.
        return ("=id", "owner__email", "text") if _show_text() else ("=id", "owner__email")

    @admin.display(description="length", ordering="_text_length")
    def text_length(self, obj: Memory) -> int:
        return getattr(obj, "_text_length", None) or len(obj.text)

    @admin.display(description="text")
    def short_text(self, obj: Memory) -> str:
        return obj.text if len(obj.text) <= 80 else obj.text[:79] + "…"

    @admin.display(description="categories")
    def shown_categories(self, obj: Memory) -> str:
        return custodian_categories(list(obj.categories))

    @admin.display(description="provenance")
    def shown_provenance(self, obj: Memory) -> Any:
        provenance = obj.provenance if isinstance(obj.provenance, dict) else {}
        if _show_text():
            return provenance
        return {k: provenance[k] for k in _PLAIN_PROVENANCE if k in provenance}

    def _per_owner(
        self,
        request: HttpRequest,
        queryset: QuerySet[Memory],
        apply: Callable[[Any, list[Any]], int],
        done: str,
    ) -> None:
        by_owner: dict[Any, list[Any]] = defaultdict(list)
        for memory in queryset.select_related("owner").only("id", "owner"):
            by_owner[memory.owner].append(memory.id)
        total = 0
        for owner, ids in by_owner.items():
            try:
                total += apply(operator_actor(request, owner), ids)
            except DomainError as exc:
                self.message_user(request, f"{owner}: {exc.message}", messages.WARNING)
        self.message_user(request, f"{done} {total} memories.", messages.SUCCESS)

    def _set_state(self, request: HttpRequest, queryset: QuerySet[Memory], state: str) -> None:
        self._per_owner(
            request,
            queryset,
            lambda actor, ids: changing.memory_set_state(actor=actor, memory_ids=ids, state=state),
            f"Set {state} on",
        )

    @admin.action(description="Archive selected memories")
    def archive_memories(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        self._set_state(request, queryset, MemoryState.ARCHIVED)

    @admin.action(description="Make selected memories active")
    def activate_memories(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        self._set_state(request, queryset, MemoryState.ACTIVE)

    @admin.action(description="Delete selected memories (to the owner's trash, restorable)")
    def delete_memories(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        """On the owner's request: each owner's memories go to their trash as one delete, shown
        to the owner with the operator's name until they restore or dismiss it."""
        self._per_owner(
            request,
            queryset,
            lambda actor, ids: len(deleting.memory_delete_many(actor=actor, memory_ids=ids)),
            "Moved to the owner's trash:",
        )


_EVENT_LOOKUPS = frozenset(
    {"id", "app", "app_name", "actor", "action", "memory_ids", "count", "created_at"}
)


@admin.register(AccessEvent)
class AccessEventAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "owner", "app_name", "actor", "action", "count")
    list_filter = ("action",)
    search_fields = ("owner__email", "app_name", "actor")
    list_select_related = ("owner",)
    date_hierarchy = "created_at"
    fields = (
        "created_at",
        "owner",
        "app",
        "app_name",
        "actor",
        "action",
        "memory_ids",
        "count",
        "shown_detail",
    )
    readonly_fields = fields

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        # `detail` names the categories a memory was moved between.
        allowed = _show_text() or _only_lookups(_EVENT_LOOKUPS, lookup)
        return allowed and super().lookup_allowed(lookup, value, request)

    @admin.display(description="detail")
    def shown_detail(self, obj: AccessEvent) -> Any:
        detail = dict(obj.detail) if isinstance(obj.detail, dict) else {}
        change = detail.get("categories")
        if isinstance(change, dict) and not _show_text():
            detail["categories"] = {
                k: custodian_categories(list(v)) if isinstance(v, list) else v
                for k, v in change.items()
            }
        return detail


@admin.register(MemoryTombstone)
class MemoryTombstoneAdmin(ReadOnlyAdmin):
    list_display = ("memory_id", "owner", "deleted_at", "deleted_by")
    search_fields = ("=memory_id", "owner__email")
    list_select_related = ("owner",)


_SEARCH_MODEL_LOOKUPS = frozenset({"model", "next_model", "chosen", "moving_since", "moved_at"})


@admin.register(SearchModel)
class SearchModelAdmin(ReadOnlyAdmin):
    """Which embedding model each user's memories are searched with, and how far a move to
    another one is (`manage.py reembed --status` sums it up): counts only."""

    list_display = (
        "owner",
        "model",
        "next_model",
        "chosen",
        "memory_count",
        "embedded",
        "moving_since",
        "moved_at",
    )
    list_filter = ("model", "next_model", "chosen")
    list_select_related = ("owner",)
    search_fields = ("owner__email",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[SearchModel]:
        # (memories, embedded with the next model), counted as `reembed --status` counts them.
        counts = maintenance.user_counts_sql("memories_searchmodel")
        return (
            super()
            .get_queryset(request)
            .annotate(
                _counts=RawSQL(  # noqa: S611 - only constants, no value
                    f"(SELECT ARRAY[n.memories, n.staged] FROM ({counts}) n)",  # noqa: S608
                    [],
                    output_field=ArrayField(BigIntegerField()),
                )
            )
        )

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        return _only_lookups(_SEARCH_MODEL_LOOKUPS, lookup)

    @admin.display(description="memories", ordering="_counts")  # by memories, then embedded
    def memory_count(self, obj: Any) -> int:
        return int(obj._counts[0])

    @admin.display(description="embedded with the next model")
    def embedded(self, obj: Any) -> str:
        if not obj.next_model:
            return "-"
        total, done = obj._counts
        return f"{done} of {total}"
