"""In Chromium: the admin signs in through allauth with the second factor, and minting a token or
erasing asks who is there first, then carries the request out (issue 14, items 2 and 14)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret

from accounts.actors import Actor
from accounts.models import ClientToken, User
from memories.models import Memory
from memories.services.adding import memory_create
from memories.transfer_models import ErasureReceipt
from tests.accounts.totp_clock import TotpClock
from tests.e2e.steps import sign_in
from tests.personas import OWNER_PASSWORD

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]


def test_the_admin_signs_in_through_allauth_and_its_second_factor(
    page: Any, totp_clock: TotpClock
) -> None:
    """The code is the one the pinned clock shows (tests/conftest.py): a machine slow enough to
    cross a 30-second boundary between reading and typing it failed this journey before."""
    operator = User.objects.create_superuser("admin@example.com", OWNER_PASSWORD)
    secret = generate_totp_secret()
    TOTP.activate(operator, secret)
    page.goto("/admin/")
    page.wait_for_url(re.compile(r"/accounts/login/"))  # not Django's own admin form
    page.fill("#id_login", operator.email)
    page.fill("#id_password", OWNER_PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/2fa/authenticate/"))
    page.fill("input[name=code]", totp_clock.code(secret))
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/admin/$"))
    assert "Memories" in page.content() and "Memorys" not in page.content()


def test_a_new_token_asks_for_the_password_then_shows_the_token(
    page: Any,
    owner: User,
) -> None:
    sign_in(page)
    page.goto("/apps/")
    page.fill("#id_name", "Cursor on laptop")
    page.check("input[name=scopes][value='memories:read']")
    page.click("form[action='/apps/tokens'] button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
    assert not ClientToken.objects.filter(owner=owner).exists()
    page.fill("#id_password", OWNER_PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_selector("#new-token")
    assert re.search(r"clt_\S+", page.inner_text("#new-token"))
    assert ClientToken.objects.filter(owner=owner, name="Cursor on laptop").count() == 1


def test_erase_asks_for_the_password_then_erases(
    page: Any,
    owner: User,
    owner_dash: Actor,
) -> None:
    memory_create(actor=owner_dash, text="Owner likes figs")
    sign_in(page)
    page.goto("/erase/")
    page.fill("input[name=confirm]", "erase my memory")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
    assert Memory.objects.filter(owner=owner).exists()
    page.fill("#id_password", OWNER_PASSWORD)
    with page.expect_navigation():  # allauth carries out the suspended erase and answers it
        page.click("main form button[type=submit]")
    receipt = ErasureReceipt.objects.get()
    assert str(receipt.pk) in page.content()
    assert not Memory.objects.filter(owner=owner).exists()
