"""The dashboard's translations (locale/, CONTRIBUTING.md "Translations"), checked so that a
missing one shows: every string the code marks is in each catalog, translated and not fuzzy; each
compiled catalog (.mo, committed, so a fresh install shows Chinese without GNU gettext) says what
its .po says; and no template shows a person words that are not marked for translation.

The template rule: outside `{% translate %}`, `{% blocktranslate %}` and comments, no text node
and no `title`, `placeholder`, `aria-label` or `alt` attribute may hold a word (two or more
letters), except inside elements that show machine text (`code`, `kbd`, `pre`, `script`,
`style`) and the reviewed exceptions below (names and keys that are the same in every language).
"""

from __future__ import annotations

import contextlib
import gettext
import io
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from django.template.base import Lexer, TokenType

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
TEMPLATES = ROOT / "templates"
CATALOGS = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
# What makemessages needs to read every marked string: the project's packages and templates.
SOURCES = (
    "kernel",
    "accounts",
    "oauth",
    "doctor",
    "activity",
    "memories",
    "mcpbridge",
    "api",
    "web",
    "contextlayer",
    "templates",
)

# Words a template may show as they are, in every language: the product's and clients' names, and
# the names of keys on a keyboard. Reviewed: add one only for what no language translates.
SAME_IN_EVERY_LANGUAGE = {"Context Layer", "Ctrl", "Enter", "Esc"}
# Attributes a person reads (a tooltip, a hint in a box, what a screen reader says).
READ_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt"}
# Elements whose text is machine text: code, keys, scripts.
MACHINE_TEXT = {"code", "kbd", "pre", "script", "style"}
# Blocks whose content is an attribute of the base template's tag, not text.
ATTRIBUTE_BLOCKS = {"canonical_path", "main_class"}
WORD = re.compile(r"[^\W\d_]{2,}")


def _read(po: Path) -> Catalog:
    # A catalog fresh from makemessages has two empty plural forms where Chinese has one: babel
    # says so on stdout, and keeps one.
    with po.open("rb") as f, contextlib.redirect_stdout(io.StringIO()):
        return read_po(f)


def _ids(catalog: Catalog) -> set[str]:
    """Every msgid of a catalog, with its context."""
    return {str(key[0] if isinstance(key, tuple) else key) for key in _messages(catalog)}


def _messages(catalog: Catalog) -> dict[object, object]:
    """msgid (with its context) -> msgstr, as gettext keys them in a compiled catalog."""
    found: dict[object, object] = {}
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        key = f"{message.context}\x04{ids[0]}" if message.context else ids[0]
        if isinstance(message.id, tuple):
            for i, text in enumerate(message.string or ()):
                found[(key, i)] = text
        else:
            found[key] = message.string
    return found


def test_the_dashboard_has_a_simplified_chinese_catalog() -> None:
    assert LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po" in CATALOGS


@pytest.mark.parametrize("po", CATALOGS, ids=[p.parent.parent.name for p in CATALOGS])
def test_every_message_of_a_catalog_is_translated_and_none_is_fuzzy(po: Path) -> None:
    catalog = _read(po)
    assert catalog.plural_forms.startswith("nplurals="), "the header names the plural rule"
    untranslated, fuzzy = [], []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        short = message.pluralizable and len(strings) < catalog.num_plurals
        if not all(strings) or short:
            untranslated.append(message.id)
        if message.fuzzy:
            fuzzy.append(message.id)
    assert untranslated == [], f"{po}: translate these (CONTRIBUTING.md, Translations)"
    assert fuzzy == [], f"{po}: check these and remove their fuzzy mark"
    # The places (%(name)s, {n}) of every translation are those of its source.
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check()]
    assert problems == [], po


@pytest.mark.parametrize("po", CATALOGS, ids=[p.parent.parent.name for p in CATALOGS])
def test_each_compiled_catalog_says_what_its_source_says(po: Path) -> None:
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"compile it: uv run manage.py compilemessages (missing {mo})"
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)._catalog  # type: ignore[attr-defined]
    compiled = {k: v for k, v in compiled.items() if k != ""}
    assert compiled == _messages(_read(po)), f"{mo} is stale: run compilemessages again"


def test_the_catalogs_hold_every_string_the_code_marks_and_no_other(tmp_path: Path) -> None:
    """Extract the marked strings again (GNU gettext's xgettext, as makemessages does) from a
    copy of the code, and compare them with each catalog. Not marked slow (about 3 s): the fast
    loop is where a string marked without a translation must show."""
    if not shutil.which("xgettext"):
        pytest.fail("GNU gettext is needed to extract messages: apt-get install gettext")
    for name in SOURCES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "manage.py", tmp_path)
    (tmp_path / "tests").mkdir()
    for name in ("__init__.py", "settings.py", "settings_no_database.py"):
        shutil.copy(ROOT / "tests" / name, tmp_path / "tests")
    for po in CATALOGS:
        language = po.parent.parent.name
        subprocess.run(
            [
                *(sys.executable, "manage.py", "makemessages", "-l", language, "--no-location"),
                *("--settings", "tests.settings_no_database"),
            ],
            cwd=tmp_path,
            check=True,
            capture_output=True,
        )
        fresh = _ids(_read(tmp_path / po.relative_to(ROOT)))
        kept = _ids(_read(po))
        assert fresh - kept == set(), f"not in {po}: run makemessages (CONTRIBUTING.md)"
        assert kept - fresh == set(), f"no longer in the code, still in {po}: run makemessages"


class _TextFinder(HTMLParser):
    """The words of a template's skeleton a person would read unmarked."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside: list[str] = []
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in {"br", "input", "img", "meta", "link", "hr", "source", "wbr"}:
            self.inside.append(tag)
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self._check(value)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self._check(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.inside:
            while self.inside and self.inside.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not MACHINE_TEXT.intersection(self.inside):
            self._check(data)

    def _check(self, text: str) -> None:
        words = _unlisted(text)
        if WORD.search(words):
            self.found.append(words)


def _unlisted(text: str) -> str:
    text = " ".join(text.split())
    for name in SAME_IN_EVERY_LANGUAGE:
        text = text.replace(name, "")
    return text.strip()


def skeleton(source: str) -> str:
    """What the template writes as it is: every tag a space, every variable a 0, and nothing of
    `{% translate %}`, `{% blocktranslate %}…{% endblocktranslate %}`, comments and the blocks
    that hold an attribute. The spaces and 0s keep the HTML around them parseable."""
    out: list[str] = []
    skipping: list[str] = []  # the end tags of the blocks being left out
    for token in Lexer(source).tokenize():
        if token.token_type == TokenType.BLOCK:
            bits = token.contents.split()
            word = bits[0] if bits else ""
            if skipping and word == skipping[-1]:
                skipping.pop()
            elif word in ("blocktranslate", "blocktrans", "comment"):
                skipping.append("end" + word)
            elif word == "block" and len(bits) > 1 and bits[1] in ATTRIBUTE_BLOCKS:
                skipping.append("endblock")
            out.append(" ")
        elif skipping:
            continue
        elif token.token_type == TokenType.TEXT:
            out.append(token.contents)
        elif token.token_type == TokenType.VAR:
            out.append("0")
    return "".join(out)


def unmarked_words(source: str, *, html: bool = True) -> list[str]:
    text = skeleton(source)
    if not html:
        return [words for line in text.splitlines() if WORD.search(words := _unlisted(line))]
    finder = _TextFinder()
    finder.feed(text)
    finder.close()
    return finder.found


def test_the_template_rule_finds_unmarked_text_and_passes_marked_text() -> None:
    """The rule on made-up templates, so that it cannot pass by reading nothing."""
    assert unmarked_words("<button>Delete</button>") == ["Delete"]
    assert unmarked_words('<a title="Pause it" href="/">{{ x }}</a>') == ["Pause it"]
    assert unmarked_words('<input placeholder="e.g. kids">') == ["e.g. kids"]
    assert unmarked_words("<p>{{ n }} memories</p>") == ["0 memories"]
    assert unmarked_words('<summary{% if x %} class="on"{% endif %}>Your data</summary>') == [
        "Your data"
    ]
    assert unmarked_words("<p>Gelöscht: {{ n }}</p>") == ["Gelöscht: 0"]  # any script's letters
    marked = (
        '{% load i18n %}<button title="{% translate "Pause it" %}">{% translate "Delete" %}'
        "</button>{% blocktranslate count n=n %}{{ n }} memory{% plural %}{{ n }} memories"
        "{% endblocktranslate %}{% comment %}Not shown{% endcomment %}<code>uv run</code>"
        "<kbd>Esc</kbd> · Context Layer {{ m.text }} 3 · ( / )"
    )
    assert unmarked_words(marked) == []
    assert unmarked_words("{% load i18n %}Hello {{ name }}", html=False) == ["Hello 0"]


TEMPLATE_FILES = sorted(p for p in TEMPLATES.rglob("*") if p.suffix in (".html", ".txt"))


@pytest.mark.parametrize(
    "template", TEMPLATE_FILES, ids=[str(p.relative_to(TEMPLATES)) for p in TEMPLATE_FILES]
)
def test_no_template_shows_words_that_are_not_marked_for_translation(template: Path) -> None:
    words = unmarked_words(template.read_text(encoding="utf-8"), html=template.suffix == ".html")
    assert words == [], f"mark these for translation (CONTRIBUTING.md, Translations): {words}"
