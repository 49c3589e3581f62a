"""The site's own cards: an SVG per card of the Spanish deck, named in the reader's language."""

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.utils import translation

from games.engine.cards import CARD_TEXT
from tests.support.html import find


def render(source: str, lang: str = "en") -> str:
    with translation.override(lang):
        return Template("{% load cards %}" + source).render(Context())


@pytest.mark.parametrize("code", CARD_TEXT)
def test_every_card_is_an_accessible_svg(code):
    html = render(f'{{% card "{code}" %}}')
    (svg,) = find(html, "svg")
    assert svg.attrs["role"] == "img"
    assert svg.attrs["data-card"] == code
    assert svg.attrs["viewbox"] == "0 0 64 96"
    (title,) = find(html, "title")
    assert title.text == svg.attrs["aria-label"]
    # The rank is printed in two corners; figures also show their initial.
    assert [t.text for t in find(html, "text")].count(code[:-1]) == 2


@pytest.mark.parametrize(
    ("code", "lang", "name"),
    [
        ("12O", "es", "Rey de oros"),
        ("12O", "en", "King of oros"),
        ("12O", "fr", "Roi d’oros"),
        ("1E", "fr", "As d’espadas"),
        ("10B", "es", "Sota de bastos"),
        ("11C", "en", "Knight of copas"),
        ("7C", "fr", "Sept de copas"),
    ],
)
def test_cards_are_named_in_the_current_language_with_spanish_suits(code, lang, name):
    assert find(render(f'{{% card "{code}" %}}', lang), "svg")[0].attrs["aria-label"] == name
    assert render(f'{{% card_name "{code}" %}}', lang) == name


def test_figures_show_their_initial():
    letters = {
        code: [t.text for t in find(render(f'{{% card "{code}" %}}'), "text")]
        for code in ("10O", "11O", "12O")
    }
    assert "S" in letters["10O"] and "C" in letters["11O"] and "R" in letters["12O"]


def test_sizes_and_bad_cards():
    assert 'class="card card-sm"' in render('{% card "3C" "sm" %}')
    with pytest.raises(TemplateSyntaxError):
        render('{% card "3C" "huge" %}')
    with pytest.raises(ValueError):
        render('{% card "9O" %}')
