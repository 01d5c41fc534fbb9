"""The operator cannot read a hidden memory through the admin's filters, search or change page
(issue 14, item 4): the attack is a script that asks the changelist yes/no questions about one
memory ("1 memory" / "0 memories") and recovers its text a character at a time."""

from __future__ import annotations

import hashlib
import string
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings as SettingsWrapper

from accounts.actors import Actor
from accounts.models import User
from memories.models import Memory, MemoryState
from memories.services.adding import memory_create
from memories.text import text_key
from tests.personas import signed_in

SECRET = "My bank PIN is 4321 and I fear spiders"
TITLE = "Divorce lawyer, second meeting"
ALPHABET = string.ascii_lowercase + string.digits + " "
CHANGELIST = "admin:memories_memory_changelist"

Oracle = Callable[[str], bool]


@pytest.fixture
def operator_browser(db: None) -> Client:
    browser = signed_in(User.objects.create_superuser("admin@example.com", "operator password"))
    return browser


@pytest.fixture
def imported(owner_dash: Actor) -> Memory:
    return memory_create(
        actor=owner_dash,
        text=SECRET,
        categories=["health", "finance", "food"],
        provenance={
            "source": "chatgpt",
            "conversation_id": "c-77",
            "conversation_title": TITLE,
            "message_id": "m-1",
        },
    ).memory


def _oracle(browser: Client, memory: Memory, lookup: str) -> Oracle:
    """Does the changelist, narrowed to this memory's id, count it under `lookup=guess`?"""

    def ask(guess: str) -> bool:
        response = browser.get(reverse(CHANGELIST), {"id": str(memory.pk), lookup: guess})
        if response.status_code != 200:
            return False  # refused: the answer carries nothing
        return bool(response.context["cl"].result_count)

    return ask


def _recover(ask: Oracle, *, longest: int, to_guess: Callable[[str], str] = str) -> str:
    """The attack: extend the known prefix by whichever character the oracle says yes to."""
    known = ""
    while len(known) < longest:
        hits = [c for c in ALPHABET if ask(to_guess(known + c))]
        if len(hits) != 1:
            break
        known += hits[0]
    return known


@pytest.mark.parametrize(
    ("lookup", "to_guess"),
    [
        ("text__istartswith", str),
        ("text__startswith", str),
        ("text__regex", lambda prefix: "(?i)^" + prefix),
        ("text__iregex", lambda prefix: "^" + prefix),
        ("text__icontains", lambda prefix: prefix),
    ],
)
def test_the_prefix_oracle_recovers_nothing_while_the_text_is_hidden(
    operator_browser: Client, imported: Memory, lookup: str, to_guess: Callable[[str], str]
) -> None:
    ask = _oracle(operator_browser, imported, lookup)
    assert _recover(ask, longest=6, to_guess=to_guess) == ""


@pytest.mark.slow
def test_the_same_script_reads_the_text_when_the_operator_may_see_it(
    operator_browser: Client, imported: Memory, settings: SettingsWrapper
) -> None:
    """The script is a real attack: where text is shown (a single-user server) it works."""
    settings.ADMIN_SHOW_MEMORY_TEXT = True
    ask = _oracle(operator_browser, imported, "text__istartswith")
    assert _recover(ask, longest=6) == SECRET[:6].lower()


@pytest.mark.parametrize(
    ("lookup", "right", "wrong"),
    [
        ("tsv", "spiders", "snakes"),
        ("text_key", text_key(SECRET), hashlib.sha256(b"my bank pin is 1234").hexdigest()),
        ("text__exact", SECRET, "My bank PIN is 1234"),
        ("text__search", "spiders", "snakes"),
        ("provenance__conversation_title__icontains", "divorce", "wedding"),
        ("provenance__icontains", "divorce", "wedding"),
        ("metadata__icontains", "", "x"),
        ("categories__contains", "{health}", "{religion}"),
        ("categories__icontains", "health", "religion"),
        ("hidden_from__len", "0", "1"),
        ("owner__password__startswith", "md5", "pbkdf2"),
        ("versions__text__icontains", "spiders", "snakes"),
    ],
)
def test_no_filter_on_hidden_content_answers_differently_for_a_right_and_a_wrong_guess(
    operator_browser: Client, imported: Memory, lookup: str, right: str, wrong: str
) -> None:
    ask = _oracle(operator_browser, imported, lookup)
    assert ask(right) is False and ask(wrong) is False


def test_searching_the_changelist_finds_nothing_by_text_title_or_category(
    operator_browser: Client, imported: Memory
) -> None:
    for q in ("spiders", "4321", "Divorce", "health"):
        response = operator_browser.get(reverse(CHANGELIST), {"q": q})
        assert response.status_code == 200 and response.context["cl"].result_count == 0


def test_the_filters_an_operator_needs_still_work(
    operator_browser: Client, imported: Memory, owner: User
) -> None:
    year = imported.created_at.year
    for params in (
        {"id": str(imported.pk)},
        {"q": str(imported.pk)},
        {"q": owner.email},
        {"owner__id__exact": str(owner.pk)},
        {"state__exact": MemoryState.ACTIVE},
        {"origin__exact": imported.origin},
        {"is_private__exact": "1"},  # its PIN keeps the owner's memory private (issue 37)
        {"created_at__year": str(year)},
    ):
        response = operator_browser.get(reverse(CHANGELIST), params)
        assert response.status_code == 200, params
        assert [m.pk for m in response.context["cl"].result_list] == [imported.pk], params


def test_the_change_page_shows_no_conversation_title_and_no_sensitive_category(
    operator_browser: Client, imported: Memory
) -> None:
    page = operator_browser.get(
        reverse("admin:memories_memory_change", args=[imported.pk])
    ).content.decode()
    assert str(imported.pk) in page and "chatgpt" in page and "food" in page
    for hidden in (SECRET, "spiders", TITLE, "Divorce", "health", "finance"):
        assert hidden not in page, hidden
    listing = operator_browser.get(reverse(CHANGELIST)).content.decode()
    for hidden in (TITLE, "health", "finance"):
        assert hidden not in listing, hidden


def test_the_change_page_shows_title_and_categories_when_the_text_is_shown(
    operator_browser: Client, imported: Memory, settings: SettingsWrapper
) -> None:
    settings.ADMIN_SHOW_MEMORY_TEXT = True
    page = operator_browser.get(
        reverse("admin:memories_memory_change", args=[imported.pk])
    ).content.decode()
    assert SECRET in page and TITLE in page and "health" in page


def test_the_admin_index_names_memories_in_english(operator_browser: Client) -> None:
    page = operator_browser.get(reverse("admin:index")).content.decode()
    assert "Memories" in page and "Memorys" not in page


@pytest.mark.parametrize(
    ("changelist", "lookup"),
    [
        ("admin:accounts_user_changelist", "memory__text__istartswith"),
        ("admin:accounts_connectedapp_changelist", "owner__memory__text__istartswith"),
        ("admin:activity_accessevent_changelist", "detail__icontains"),
        ("admin:memories_memorytombstone_changelist", "owner__memory__text__istartswith"),
    ],
)
def test_other_admin_lists_do_not_filter_through_to_memory_content(
    operator_browser: Client, imported: Memory, changelist: str, lookup: str
) -> None:
    for guess in ("my", "zz"):
        assert operator_browser.get(reverse(changelist), {lookup: guess}).status_code == 400


def test_the_admin_shows_no_second_factor_secret_and_no_session_key(
    operator_browser: Client, owner: User
) -> None:
    """A user's TOTP secret or session key in the admin would let the operator become them."""
    from allauth.mfa.totp.internal.auth import TOTP
    from allauth.usersessions.models import UserSession

    secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    authenticator = TOTP.activate(owner, secret).instance
    session = UserSession.objects.create(
        user=owner, ip="192.0.2.7", session_key="k" * 32, user_agent="Firefox"
    )
    pages = [
        reverse("admin:mfa_authenticator_changelist"),
        reverse("admin:mfa_authenticator_change", args=[authenticator.pk]),
        reverse("admin:usersessions_usersession_changelist"),
        reverse("admin:usersessions_usersession_change", args=[session.pk]),
    ]
    for url in pages:
        response = operator_browser.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        assert secret not in page and "k" * 32 not in page, url
    changelist = reverse("admin:mfa_authenticator_changelist")
    assert operator_browser.get(changelist, {"data__icontains": "JBSW"}).status_code == 400
    sessions = reverse("admin:usersessions_usersession_changelist")
    assert operator_browser.get(sessions, {"session_key__startswith": "k"}).status_code == 400
