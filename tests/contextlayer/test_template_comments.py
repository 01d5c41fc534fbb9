"""Django's `{# … #}` comments end on their own line: one spread over two lines is shown to the
person as text (the consent page showed one above its Allow button)."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_template_spreads_a_short_comment_over_several_lines() -> None:
    unclosed = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if line.count("{#") > line.count("#}")
    ]
    assert unclosed == [], "use {% comment %} … {% endcomment %} for these"
