"""Commands run for one user: the user found by email once, domain errors as `CommandError`."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User


def test_a_command_for_an_unknown_email_says_so_and_changes_nothing(owner: User) -> None:
    with pytest.raises(CommandError, match=r"No user with the email 'nobody@example\.com'"):
        call_command("erase", user="nobody@example.com", yes=True)
    assert User.objects.filter(pk=owner.pk).exists()


def test_the_email_is_matched_without_regard_to_case_or_spaces(
    owner: User, capsys: pytest.CaptureFixture[str]
) -> None:
    call_command("client_token", "list", user=f"  {owner.email.upper()} ")
    assert "No tokens." in capsys.readouterr().err


def test_a_domain_error_in_a_command_is_a_command_error_with_its_message(owner: User) -> None:
    # Revoking a token that does not exist is NotFound in the service layer.
    with pytest.raises(CommandError, match=r"^No live client token with that id\.$"):
        call_command("client_token", "revoke", "clt_doesnotexist", user=owner.email)
