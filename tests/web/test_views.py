"""Dashboard views through the Django test client: every page and action, as the owner."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone

from accounts.actors import Actor
from accounts.models import User
from activity.models import AccessEvent
from memories.models import Memory, MemoryState, MemoryVersion
from memories.selectors import memories as memory_reads
from memories.selectors import stats as stats_selectors
from memories.services import adding, changing
from tests.memories.fake_llm import Brain
from web.views import memory_list as memory_views

pytestmark = pytest.mark.django_db


def _text(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


def test_pages_require_sign_in(client: Client) -> None:
    for url in ["/", "/map/", "/activity/", "/connect/", "/stats/"]:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


def test_memories_page_lists_own_memories_newest_first(
    owner_client: Client, owner_dash: Actor, stranger_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="Older fact about tea")
    adding.memory_create(actor=owner_dash, text="Newer fact about coffee")
    adding.memory_create(actor=stranger_dash, text="Stranger's secret")
    html = _text(owner_client.get("/"))
    assert html.index("Newer fact about coffee") < html.index("Older fact about tea")
    assert "Stranger&#x27;s secret" not in html and "Stranger's secret" not in html


def test_memory_text_is_escaped_everywhere(owner_client: Client, owner_dash: Actor) -> None:
    hostile = "<img src=x onerror=alert(1)><script>alert(2)</script>"
    memory = adding.memory_create(actor=owner_dash, text=hostile).memory
    for url in ["/", f"/memories/{memory.id}/", f"/memories/{memory.id}/delete/"]:
        html = _text(owner_client.get(url))
        assert "<script>alert(2)" not in html and "<img src=x" not in html
        assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html


def test_every_page_sends_a_csp_without_inline_script(owner_client: Client) -> None:
    for url in ["/", "/map/", "/activity/", "/connect/"]:
        policy = owner_client.get(url)["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "style-src 'self'" in policy


def test_htmx_request_gets_the_results_fragment_only(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    adding.memory_create(actor=owner_dash, text="A fact for the fragment")
    html = _text(owner_client.get("/", headers=htmx))
    assert "A fact for the fragment" in html
    assert "<html" not in html and 'id="filters"' not in html


def test_search_uses_hybrid_search_and_finds_a_paraphrase(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    adding.memory_create(actor=owner_dash, text="My daughter Alice is allergic to peanuts")
    adding.memory_create(actor=owner_dash, text="I work as a data engineer at Acme Corp")
    adding.memory_create(actor=owner_dash, text="Flying to Lisbon in May")
    html = _text(owner_client.get("/", {"q": "which nuts must my kid avoid"}, headers=htmx))
    assert "Best matches for" in html
    assert "allergic to peanuts" in html
    # Memories about other things are left out, not listed below the match as "best matches".
    assert "Acme Corp" not in html and "Lisbon" not in html
    # Looking at your own memory is not an app reading it: no access event.
    assert not AccessEvent.objects.filter(action=AccessEvent.Action.SEARCH).exists()


def test_a_search_with_nothing_relevant_says_so(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    adding.memory_create(actor=owner_dash, text="My daughter Alice is allergic to peanuts")
    adding.memory_create(actor=owner_dash, text="I work as a data engineer at Acme Corp")
    html = _text(owner_client.get("/", {"q": "xyzzy qwerty nonsense"}, headers=htmx))
    assert "Nothing relevant" in html and "xyzzy qwerty nonsense" in html
    assert "Best matches for" not in html and "Acme Corp" not in html


def test_a_filtered_search_fills_its_page_when_enough_memories_match(
    app_actor: Callable[[User, str], Actor],
    owner: User,
    owner_client: Client,
    owner_dash: Actor,
    htmx: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(memory_views, "PAGE_SIZE", 3)
    claude = app_actor(owner, "Claude")
    for where in ("Alps", "Dolomites", "Pyrenees", "Tatras", "Rockies"):
        adding.memory_create(actor=owner_dash, text=f"I go hiking in the {where} every summer")
    for where in ("Andes", "Atlas", "Carpathians", "Urals"):
        adding.memory_create(actor=claude, text=f"Planned a hiking trip to the {where}")
    query = {"q": "hiking every summer"}
    best = _text(owner_client.get("/", query, headers=htmx))
    assert best.count("I go hiking in the") == 3 and "Planned a hiking trip" not in best
    # Claude's memories rank below the owner's: the filter narrows the search, so its page is
    # full, not the best three overall with the owner's taken out (an empty page).
    html = _text(owner_client.get("/", {**query, "app": "Claude"}, headers=htmx))
    assert html.count("Planned a hiking trip") == 3 and "I go hiking in the" not in html


def test_search_in_archived_memories_matches_words(owner_client: Client, owner_dash: Actor) -> None:
    kept = adding.memory_create(actor=owner_dash, text="Old address in Leeds").memory
    adding.memory_create(actor=owner_dash, text="Old phone number")
    changing.memory_set_state(actor=owner_dash, memory_ids=[kept.id], state="archived")
    html = _text(owner_client.get("/", {"q": "leeds", "state": "archived"}))
    assert "Old address in Leeds" in html and "Old phone number" not in html


def test_filters_by_app_category_state_date_and_uncategorised(
    app_actor: Callable[[User, str], Actor], owner: User, owner_client: Client, owner_dash: Actor
) -> None:
    claude = app_actor(owner, "Claude")
    adding.memory_create(actor=claude, text="Claude fact about work", categories=["work"])
    adding.memory_create(actor=owner_dash, text="Dashboard fact about food", categories=["food"])
    bare = adding.memory_create(actor=owner_dash, text="Fact without category").memory
    paused = adding.memory_create(actor=owner_dash, text="Paused fact").memory
    changing.memory_set_state(actor=owner_dash, memory_ids=[paused.id], state="paused")

    def shown(**params: str) -> set[str]:
        html = _text(owner_client.get("/", params))
        return {
            t
            for t in [
                "Claude fact about work",
                "Dashboard fact about food",
                "Fact without category",
                "Paused fact",
            ]
            if t in html
        }

    assert shown() == {
        "Claude fact about work",
        "Dashboard fact about food",
        "Fact without category",
    }
    assert shown(app="Claude") == {"Claude fact about work"}
    assert shown(category="food") == {"Dashboard fact about food"}
    assert shown(uncategorised="on") == {"Fact without category"}
    assert shown(state="paused") == {"Paused fact"}
    assert len(shown(state="all")) == 4
    assert shown(after="2000-01-01", before="2001-01-01") == set()
    today = bare.created_at.date().isoformat()
    assert len(shown(after=today, before=today)) == 3


def test_pagination_with_a_cursor(
    owner: User,
    owner_client: Client,
    owner_dash: Actor,
    htmx: dict[str, str],
    bulk_memories: Callable[[User, int], None],
) -> None:
    bulk_memories(owner, 60)
    first = _text(owner_client.get("/"))
    assert first.count('class="memory state-active"') == 50
    assert "Load more" in first
    page = memory_reads.memory_list(actor=owner_dash, limit=50, record=False)
    assert page.next_cursor is not None
    rest = _text(owner_client.get("/", {"cursor": page.next_cursor}, headers=htmx))
    assert rest.count('class="memory state-active"') == 10
    assert "Load more" not in rest


def test_add_memory_goes_through_remember(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    response = owner_client.post(
        "/memories/add/",
        {"text": "Prefers window seats", "categories": "travel, Prefs"},
        headers=htmx,
    )
    assert response.status_code == 200
    assert "Memory added." in _text(response) and "Prefers window seats" in _text(response)
    assert "memories-changed" in response["HX-Trigger"]
    memory = Memory.objects.get(text="Prefers window seats")
    assert memory.categories == ["travel", "prefs"] and memory.origin == "dashboard"
    again = owner_client.post("/memories/add/", {"text": "prefers WINDOW seats!"}, headers=htmx)
    assert "An identical memory already exists" in _text(again)
    assert Memory.objects.count() == 1


def test_an_add_the_model_finds_nothing_in_says_nothing_was_stored(
    owner_client: Client, owner: User, htmx: dict[str, str], fake_provider: Brain
) -> None:
    fake_provider.facts = {"Lisbon": ["Lives in Lisbon"]}
    response = owner_client.post(
        "/memories/add/", {"text": "Thanks, that was helpful!"}, headers=htmx
    )
    assert response.status_code == 200
    html = _text(response)
    assert "The model found no lasting fact in this text, so nothing was stored." in html
    assert "Memory added." not in html
    assert "Thanks, that was helpful!</textarea>" in html  # the text stays, to rephrase
    assert response["HX-Retarget"] == "#add-memory"
    without_htmx = owner_client.post("/memories/add/", {"text": "Thanks, that was helpful!"})
    assert without_htmx.status_code == 200  # the whole page, the form open, not an error
    page = _text(without_htmx)
    assert "found no lasting fact" in page and "Thanks, that was helpful!</textarea>" in page
    assert not Memory.objects.filter(owner=owner).exists()


def test_a_message_is_shown_once_in_the_messages_region_not_in_every_row(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    ids = [adding.memory_create(actor=owner_dash, text=f"Fact {n}").memory.id for n in "abc"]
    added = _text(owner_client.post("/memories/add/", {"text": "Fact d"}, headers=htmx))
    bulk = _text(
        owner_client.post("/memories/bulk/", {"action": "paused", "ids": ids[:2]}, headers=htmx)
    )
    for html, message in [(added, "Memory added."), (bulk, "2 memories now paused.")]:
        assert html.count(message) == 1
        region = html[html.index('id="messages"') :]
        assert message in region and '<li class="memory' not in region


def test_a_refused_add_keeps_the_text_and_says_why(
    owner_client: Client, htmx: dict[str, str]
) -> None:
    long_text = "x" * 12_000
    response = owner_client.post("/memories/add/", {"text": long_text}, headers=htmx)
    html = _text(response)
    assert response["HX-Retarget"] == "#add-memory" and response["HX-Reswap"] == "outerHTML"
    assert "Text is 12000 characters; the limit is 10000." in html
    assert f">{long_text}</textarea>" in html and 'id="add-memory"' in html
    plain = owner_client.post("/memories/add/", {"text": long_text, "categories": "travel"})
    assert plain.status_code == 400
    assert f">{long_text}</textarea>" in _text(plain) and 'value="travel"' in _text(plain)
    assert not Memory.objects.exists()


def test_a_refused_edit_on_the_detail_page_keeps_the_text(
    owner_client: Client, owner_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Short").memory
    response = owner_client.post(f"/memories/{memory.id}/edit/", {"text": "y" * 12_000})
    assert response.status_code == 400
    assert "the limit is 10000" in _text(response) and "y" * 12_000 in _text(response)
    memory.refresh_from_db()
    assert memory.text == "Short"


def test_add_memory_without_htmx_redirects_home(owner_client: Client) -> None:
    response = owner_client.post("/memories/add/", {"text": "Plain form post"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert Memory.objects.filter(text="Plain form post").exists()


def test_add_empty_memory_shows_an_error(owner_client: Client, htmx: dict[str, str]) -> None:
    response = owner_client.post("/memories/add/", {"text": "   "}, headers=htmx)
    assert "Write the memory first." in _text(response)
    assert not Memory.objects.exists()


def test_inline_edit_keeps_the_previous_text_as_a_version(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Lives in Leeds").memory
    form = _text(owner_client.get(f"/memories/{memory.id}/edit/", headers=htmx))
    assert "<textarea" in form and "Lives in Leeds" in form
    response = owner_client.post(
        f"/memories/{memory.id}/edit/", {"text": "Lives in York"}, headers=htmx
    )
    assert "Lives in York" in _text(response) and "Saved." in _text(response)
    memory.refresh_from_db()
    assert memory.text == "Lives in York" and memory.user_edited_at is not None
    assert [v.text for v in MemoryVersion.objects.filter(memory=memory)] == ["Lives in Leeds"]


def test_edit_to_an_existing_text_is_refused_with_a_message(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    adding.memory_create(actor=owner_dash, text="Fact one")
    other = adding.memory_create(actor=owner_dash, text="Fact two").memory
    response = owner_client.post(f"/memories/{other.id}/edit/", {"text": "fact ONE"}, headers=htmx)
    assert "Another active memory already has this text." in _text(response)
    other.refresh_from_db()
    assert other.text == "Fact two"


def test_state_changes_archive_pause_restore(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Changeable").memory
    for state, button in [("archived", "Restore"), ("paused", "Resume"), ("active", "Archive")]:
        response = owner_client.post(
            f"/memories/{memory.id}/state/", {"state": state}, headers=htmx
        )
        assert button in _text(response)
        memory.refresh_from_db()
        assert memory.state == state
    plain = owner_client.post(f"/memories/{memory.id}/state/", {"state": "paused", "next": "/"})
    assert plain.status_code == 302 and plain["Location"] == "/"


def test_categories_can_be_edited(owner_client: Client, owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Has a cat", categories=["pets"]).memory
    response = owner_client.post(f"/memories/{memory.id}/categories/", {"categories": "home, Cats"})
    assert response.status_code == 302
    memory.refresh_from_db()
    assert memory.categories == ["home", "cats"] and memory.categories_set_by_user


def test_detail_shows_history_diff_related_and_access_trail(
    app_actor: Callable[[User, str], Actor], owner: User, owner_client: Client, owner_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Prefers window seats").memory
    adding.memory_create(actor=owner_dash, text="Likes aisle seats on trains")
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Prefers aisle seats")
    memory_reads.memory_get(actor=app_actor(owner, "Cursor"), memory_id=memory.id)
    html = _text(owner_client.get(f"/memories/{memory.id}/"))
    assert "<del>window</del><ins>aisle</ins>" in html
    assert html.count("Restore this version") == 1  # not on the current text
    recorded = memory.provenance["recorded_at"]  # an ISO timestamp, shown as a person reads it
    assert f'<time datetime="{recorded}" data-local' in html and f">{recorded}<" not in html
    assert re.search(
        r"<dt>Recorded at</dt><dd><time [^>]+>\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC<", html
    )
    assert "Likes aisle seats on trains" in html  # related (nearest neighbour)
    assert "Cursor" in html and "action-read" in html  # access trail and "read by"


def test_restore_a_version(owner_client: Client, owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Version one").memory
    changing.memory_update(actor=owner_dash, memory_id=memory.id, text="Version two")
    version = MemoryVersion.objects.get(memory=memory)
    response = owner_client.post(f"/memories/{memory.id}/versions/{version.id}/restore/")
    assert response.status_code == 302
    memory.refresh_from_db()
    assert memory.text == "Version one"
    assert sorted(MemoryVersion.objects.filter(memory=memory).values_list("text", flat=True)) == [
        "Version one",
        "Version two",
    ]


def test_delete_confirmation_names_the_apps_that_read_it(
    app_actor: Callable[[User, str], Actor],
    owner: User,
    owner_client: Client,
    owner_dash: Actor,
    htmx: dict[str, str],
) -> None:
    memory = adding.memory_create(
        actor=owner_dash, text="Read by others", categories=["preferences"]
    ).memory
    memory_reads.memory_search(actor=app_actor(owner, "Claude Desktop"), query="read by others")
    confirm = _text(owner_client.get(f"/memories/{memory.id}/delete/", headers=htmx))
    assert "Delete this memory?" in confirm and "Claude Desktop" in confirm
    assert "restore it for 30 days" in confirm
    assert Memory.objects.get(pk=memory.id).state == "active"  # GET changed nothing
    response = owner_client.post(f"/memories/{memory.id}/delete/", headers=htmx)
    assert response["HX-Reswap"] == "delete"  # the row goes; the message says so, once
    assert _text(response).count("Deleted. Claude Desktop had read it.") == 1
    assert Memory.objects.get(pk=memory.id).state == "trashed"


def test_delete_without_htmx_confirms_on_a_page_then_redirects(
    owner_client: Client, owner_dash: Actor
) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Delete me plainly").memory
    page = _text(owner_client.get(f"/memories/{memory.id}/delete/"))
    assert "<html" in page and "It goes to the trash" in page
    response = owner_client.post(f"/memories/{memory.id}/delete/")
    assert response.status_code == 302 and Memory.objects.get(pk=memory.id).state == "trashed"


@pytest.mark.parametrize(
    ("action", "expected_state"), [("archived", "archived"), ("paused", "paused")]
)
def test_bulk_state_change(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str], action: str, expected_state: str
) -> None:
    a = adding.memory_create(actor=owner_dash, text="Bulk A").memory
    b = adding.memory_create(actor=owner_dash, text="Bulk B").memory
    c = adding.memory_create(actor=owner_dash, text="Bulk C").memory
    response = owner_client.post(
        "/memories/bulk/", {"action": action, "ids": [a.id, b.id]}, headers=htmx
    )
    html = _text(response)
    assert "2 memories now" in html
    assert "Bulk C" in html and "Bulk A" not in html  # they leave the default (active) view
    states = dict(Memory.objects.values_list("text", "state"))
    assert states == {"Bulk A": expected_state, "Bulk B": expected_state, "Bulk C": "active"}
    assert c.state == MemoryState.ACTIVE


def test_bulk_set_categories(owner_client: Client, owner_dash: Actor, htmx: dict[str, str]) -> None:
    a = adding.memory_create(actor=owner_dash, text="Cat A", categories=["x"]).memory
    b = adding.memory_create(actor=owner_dash, text="Cat B").memory
    owner_client.post(
        "/memories/bulk/",
        {"action": "categories", "ids": [a.id, b.id], "categories": "work, projects"},
        headers=htmx,
    )
    assert {tuple(m.categories) for m in Memory.objects.all()} == {("work", "projects")}


def test_bulk_delete_asks_first_then_deletes(
    owner_client: Client, owner_dash: Actor, htmx: dict[str, str]
) -> None:
    a = adding.memory_create(actor=owner_dash, text="Doomed A").memory
    b = adding.memory_create(actor=owner_dash, text="Doomed B").memory
    ask = owner_client.post(
        "/memories/bulk/", {"action": "delete", "ids": [a.id, b.id]}, headers=htmx
    )
    assert "Delete 2 memories?" in _text(ask) and "They go to the trash" in _text(ask)
    assert ask["HX-Retarget"] == "#bulk-confirm"
    assert Memory.objects.filter(state="active").count() == 2
    done = owner_client.post(
        "/memories/bulk/", {"action": "delete", "ids": [a.id, b.id], "confirm": "on"}, headers=htmx
    )
    assert "Deleted 2 memories." in _text(done) and ">Undo</button>" in _text(done)
    assert set(Memory.objects.values_list("state", flat=True)) == {"trashed"}


def test_bulk_without_selection_explains(owner_client: Client, htmx: dict[str, str]) -> None:
    response = owner_client.post("/memories/bulk/", {"action": "archived"}, headers=htmx)
    assert "Select at least one memory" in _text(response)


def test_stats_header_counts_states_apps_and_this_week(
    app_actor: Callable[[User, str], Actor], owner: User, owner_client: Client, owner_dash: Actor
) -> None:
    adding.memory_create(actor=owner_dash, text="Stat one")
    gone = adding.memory_create(actor=owner_dash, text="Stat two").memory
    adding.memory_create(actor=app_actor(owner, "Cursor"), text="Stat three")
    changing.memory_set_state(actor=owner_dash, memory_ids=[gone.id], state="archived")
    stats = stats_selectors.memory_stats(actor=owner_dash)
    assert stats.total == 3 and stats.added_this_week == 3
    assert stats.by_state == {"active": 2, "paused": 0, "archived": 1}
    assert dict(stats.by_app) == {"dashboard": 2, "Cursor": 1}
    html = _text(owner_client.get("/stats/"))
    assert "<strong>3</strong> memories" in html and "<strong>1</strong> archived" in html


def test_map_counts_categories_by_app_and_links_to_the_list(
    app_actor: Callable[[User, str], Actor], owner: User, owner_client: Client, owner_dash: Actor
) -> None:
    cursor = app_actor(owner, "Cursor")
    adding.memory_create(actor=cursor, text="Uses Rust", categories=["technology"])
    adding.memory_create(actor=cursor, text="Uses Vim", categories=["technology", "tools"])
    adding.memory_create(actor=owner_dash, text="Zxq qwv")  # no sign of any category
    html = _text(owner_client.get("/map/"))
    assert "<svg" in html
    assert 'href="/?app=Cursor&amp;category=technology"' in html
    assert "2 memories in technology from Cursor" in html
    assert 'href="/?app=dashboard&amp;uncategorised=on"' in html


def test_activity_page_filters_the_log_and_charts_reads_and_writes(
    app_actor: Callable[[User, str], Actor],
    owner: User,
    owner_client: Client,
    owner_dash: Actor,
    htmx: dict[str, str],
) -> None:
    claude = app_actor(owner, "Claude")
    memory = adding.memory_create(actor=claude, text="Something Claude saved").memory
    memory_reads.memory_get(actor=claude, memory_id=memory.id)
    html = _text(owner_client.get("/activity/"))
    assert 'class="bar read"' in html and 'class="bar write"' in html
    assert "Something Claude saved" in html  # what each app read recently
    only_reads = _text(owner_client.get("/activity/", {"action": "read"}, headers=htmx))
    assert "action-read" in only_reads and "action-add" not in only_reads
    other_app = _text(owner_client.get("/activity/", {"app": "nobody"}, headers=htmx))
    assert "No access events match." in other_app


def test_connect_page_shows_each_client_configuration(owner_client: Client, settings: Any) -> None:
    html = _text(owner_client.get("/connect/"))
    assert "http://testserver/mcp" in html
    assert "claude mcp add --transport http context-layer http://testserver/mcp" in html
    assert "&quot;manage.py&quot;,\n" in html and "owner@example.com" in html  # Claude Desktop
    # The stdio server opens this server's data folder, whatever environment the client has.
    home = f"&quot;CONTEXT_LAYER_HOME&quot;: &quot;{settings.HOME}&quot;"
    assert home in html and f"CONTEXT_LAYER_HOME={settings.HOME} uv run manage.py mcp" in html
    assert "&quot;type&quot;: &quot;http&quot;" in html  # VS Code
    assert 'href="/apps/"' in html and "custom instructions" in html.lower()


def test_get_requests_change_nothing(owner: User, owner_client: Client, owner_dash: Actor) -> None:
    memory = adding.memory_create(actor=owner_dash, text="Stable").memory
    before = (AccessEvent.objects.count(), Memory.objects.count(), MemoryVersion.objects.count())
    for url in [
        "/",
        "/?q=stable",
        f"/memories/{memory.id}/",
        f"/memories/{memory.id}/edit/",
        f"/memories/{memory.id}/delete/",
        f"/memories/{memory.id}/row/",
        "/map/",
        "/activity/",
        "/connect/",
        "/stats/",
    ]:
        assert owner_client.get(url).status_code in (200, 302), url
    after = (AccessEvent.objects.count(), Memory.objects.count(), MemoryVersion.objects.count())
    assert before == after


def test_sign_in_page_uses_the_dashboard_layout(client: Client) -> None:
    html = _text(client.get("/accounts/login/"))
    assert 'class="brand"' in html and "css/app.css" in html
    assert 'name="login"' in html and 'class="site-nav"' not in html


def test_empty_store_tells_a_new_user_what_to_do(owner_client: Client) -> None:
    html = _text(owner_client.get("/"))
    assert "Your memory is empty" in html
    assert 'href="/connect/"' in html and 'href="/import/"' in html


def test_activity_day_bars_fall_on_the_owners_own_day_when_the_browser_reports_its_zone(
    app_actor: Callable[[User, str], Actor], owner: User, owner_client: Client
) -> None:
    claude = app_actor(owner, "Claude")
    adding.memory_create(actor=claude, text="Saved late in the evening, Honolulu time")
    # At 03:00 UTC today it is 17:00 yesterday in Honolulu (UTC-10 all year).
    at = timezone.now().astimezone(UTC).replace(hour=3, minute=0, second=0, microsecond=0)
    AccessEvent.objects.filter(owner=owner, app_name="Claude").update(created_at=at)
    utc_day, honolulu = at.date(), at.astimezone(ZoneInfo("Pacific/Honolulu")).date()
    assert honolulu == utc_day - timedelta(days=1)
    label = "Claude: 1 write on {:%-d %b}"
    assert label.format(utc_day) in _text(owner_client.get("/activity/"))  # no zone yet: UTC
    owner_client.cookies["tz"] = "Pacific/Honolulu"
    assert label.format(honolulu) in _text(owner_client.get("/activity/"))
    owner_client.cookies["tz"] = "Mars/Olympus_Mons"  # not a zone: UTC, no error
    assert label.format(utc_day) in _text(owner_client.get("/activity/"))
