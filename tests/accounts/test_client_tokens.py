"""Client tokens: shown once, stored hashed, scoped, revocable one at a time."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from accounts.actors import actor_for, owner_actor
from accounts.client_tokens import (
    client_token_create,
    client_token_list,
    client_token_revoke,
    parse_scopes,
)
from accounts.credentials import resolve_bearer
from accounts.models import ClientToken, ConnectedApp, User
from activity.models import AccessEvent
from kernel.errors import Conflict, InvalidInput, NotFound, OwnerOnly
from memories.selectors.grants import known_categories

RESOURCE = "http://127.0.0.1:8000/mcp"


def test_a_token_is_stored_as_a_hash_and_resolves_to_its_own_app(owner: User) -> None:
    issued = client_token_create(
        actor=owner_actor(owner),
        known=known_categories(owner),
        name="Cursor on laptop",
        scopes=["read"],
    )
    assert issued.secret.startswith("clt_") and len(issued.secret) > 40
    row = ClientToken.objects.get()
    assert row.token_hash == hashlib.sha256(issued.secret.encode()).hexdigest()
    assert issued.secret not in str(list(ClientToken.objects.values()))
    assert issued.secret.startswith(row.prefix)

    credential = resolve_bearer(issued.secret, resource=RESOURCE)
    assert credential is not None
    assert credential.user == owner
    assert credential.app.kind == ConnectedApp.Kind.TOKEN
    assert credential.app.name == "Cursor on laptop"
    assert credential.scopes == {"memories:read"}
    assert credential.actor().scopes == {"memories:read"}
    row.refresh_from_db()
    assert row.last_used_at is not None


def test_short_scope_names_are_accepted_and_unknown_ones_refused() -> None:
    assert parse_scopes("read,write") == ["memories:read", "memories:write"]
    assert parse_scopes("memories:delete read") == ["memories:read", "memories:delete"]
    with pytest.raises(InvalidInput):
        parse_scopes("admin")
    with pytest.raises(InvalidInput):
        parse_scopes("")


def test_unknown_revoked_and_expired_tokens_do_not_resolve(owner: User) -> None:
    assert resolve_bearer("clt_doesnotexist", resource=RESOURCE) is None
    assert resolve_bearer("not even a client token", resource=RESOURCE) is None
    revoked = client_token_create(
        actor=owner_actor(owner), known=known_categories(owner), name="old laptop"
    )
    client_token_revoke(actor=owner_actor(owner), token=revoked.token.prefix)
    assert resolve_bearer(revoked.secret, resource=RESOURCE) is None
    assert ConnectedApp.objects.get(pk=revoked.token.app_id).revoked_at is not None

    expiring = client_token_create(
        actor=owner_actor(owner),
        known=known_categories(owner),
        name="short lived",
        expires_at=timezone.now() + timedelta(hours=1),
    )
    ClientToken.objects.filter(pk=expiring.token.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert resolve_bearer(expiring.secret, resource=RESOURCE) is None


def test_a_name_is_taken_until_its_token_is_revoked(owner: User) -> None:
    first = client_token_create(
        actor=owner_actor(owner), known=known_categories(owner), name="VS Code"
    )
    with pytest.raises(Conflict):
        client_token_create(actor=owner_actor(owner), known=known_categories(owner), name="VS Code")
    client_token_revoke(actor=owner_actor(owner), token=first.token.pk)
    second = client_token_create(
        actor=owner_actor(owner), known=known_categories(owner), name="VS Code"
    )
    assert [t.pk for t in client_token_list(user=owner)] == [second.token.pk]


def test_nobody_revokes_another_users_token(owner: User, stranger: User) -> None:
    issued = client_token_create(
        actor=owner_actor(owner), known=known_categories(owner), name="mine"
    )
    with pytest.raises(NotFound):
        client_token_revoke(actor=owner_actor(stranger), token=issued.token.pk)
    with pytest.raises(NotFound):
        client_token_revoke(actor=owner_actor(stranger), token=issued.token.prefix)
    assert resolve_bearer(issued.secret, resource=RESOURCE) is not None


def test_the_command_prints_the_secret_alone_then_lists_and_revokes(owner: User) -> None:
    out, err = StringIO(), StringIO()
    call_command(
        "client_token", "create", "--user", owner.email, "--name", "Claude Code",
        "--scopes", "read,write,delete", stdout=out, stderr=err,
    )  # fmt: skip
    secret = out.getvalue().strip()
    assert secret.startswith("clt_") and "\n" not in secret
    assert "shown only now" in err.getvalue()
    credential = resolve_bearer(secret, resource=RESOURCE)
    assert credential is not None and len(credential.scopes) == 3

    listing = StringIO()
    call_command("client_token", "list", "--user", owner.email, stdout=listing)
    assert "Claude Code" in listing.getvalue() and secret not in listing.getvalue()

    prefix = ClientToken.objects.get().prefix
    call_command("client_token", "revoke", "--user", owner.email, prefix, stdout=StringIO())
    assert resolve_bearer(secret, resource=RESOURCE) is None
    with pytest.raises(CommandError, match="No user"):
        call_command("client_token", "list", "--user", "ghost@example.com")


def test_revoking_a_token_revokes_its_app_and_is_in_the_access_log(owner: User) -> None:
    issued = client_token_create(
        actor=owner_actor(owner), known=known_categories(owner), name="Cursor on laptop"
    )
    cli = owner_actor(owner, ConnectedApp.CLI, operator="manage.py client_token")
    client_token_revoke(actor=cli, token=issued.token.prefix)
    app = ConnectedApp.objects.get(pk=issued.token.app_id)
    assert app.revoked_at is not None and app.paused
    event = AccessEvent.objects.get(owner=owner, detail__revoked=True)
    assert event.app_name == "cli" and event.actor == "manage.py client_token"
    assert event.detail == {"app_id": app.pk, "app": "Cursor on laptop", "revoked": True}


def test_an_app_cannot_revoke_a_token_not_even_its_own(owner: User) -> None:
    issued = client_token_create(
        actor=owner_actor(owner), known=known_categories(owner), name="Cursor"
    )
    itself = actor_for(owner, issued.token.app)
    with pytest.raises(OwnerOnly):
        client_token_revoke(actor=itself, token=issued.token.pk)
    assert resolve_bearer(issued.secret, resource=RESOURCE) is not None


def test_creating_a_token_is_in_the_access_log_with_the_app_that_made_it(owner: User) -> None:
    cli = owner_actor(owner, ConnectedApp.CLI, operator="manage.py client_token")
    issued = client_token_create(
        actor=cli, known=known_categories(owner), name="Cursor on laptop", scopes=["read"]
    )
    event = AccessEvent.objects.get(owner=owner)
    assert event.action == AccessEvent.Action.STATE
    assert event.app_name == "cli" and event.actor == "manage.py client_token"
    assert event.detail == {
        "app_id": issued.token.app_id,
        "app": "Cursor on laptop",
        "created": "client token",
        "scopes": ["memories:read"],
    }


def test_an_app_cannot_mint_a_token_and_a_refused_one_leaves_nothing(owner: User) -> None:
    issued = client_token_create(
        actor=owner_actor(owner), known=known_categories(owner), name="Cursor"
    )
    itself = actor_for(owner, issued.token.app)
    with pytest.raises(OwnerOnly):
        client_token_create(actor=itself, known=known_categories(owner), name="Cursor's own")
    before = AccessEvent.objects.filter(owner=owner).count()
    with pytest.raises(Conflict):
        client_token_create(actor=owner_actor(owner), known=known_categories(owner), name="Cursor")
    assert AccessEvent.objects.filter(owner=owner).count() == before == 1
    assert list(ConnectedApp.objects.filter(owner=owner, kind=ConnectedApp.Kind.TOKEN)) == [
        issued.token.app
    ]


def test_the_token_list_says_when_each_token_expires(owner: User) -> None:
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command(
        "client_token",
        "create",
        "--user",
        owner.email,
        "--name",
        "A",
        stdout=out,
        stderr=io.StringIO(),
    )
    call_command(
        "client_token",
        "create",
        "--user",
        owner.email,
        "--name",
        "B",
        "--no-expiry",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    listed = io.StringIO()
    call_command("client_token", "list", "--user", owner.email, stdout=listed)
    lines = {line.split("\t")[2]: line for line in listed.getvalue().splitlines()}
    assert "\texpires 20" in lines["A"] and "never expires" in lines["B"]
