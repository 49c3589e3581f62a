"""What players read on the rules pages: the Pocha examples count tricks, and no code
identifier shows, only the names the table form gives the options, in each language."""

import re

import pytest

from games.engine.options import STOCK_PLAY
from games.options import OPTION, OPTIONS
from games.rules.examples import example
from games.rules.pages import PAGES
from tests.support.html import body_rows, find

pytestmark = pytest.mark.django_db

LANGUAGES = ("fr", "es", "en")
SLUGS = [page.slug for page in PAGES]
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")  # stock_play, allow_tute, points_to_win…


def url(slug: str, lang: str) -> str:
    path = "/rules/" if slug == "index" else f"/rules/{slug}/"
    return f"{path}?lang={lang}"


def visible_text(html: str) -> str:
    article = find(html, "article", class_="rules-prose")[0].text
    return article


@pytest.mark.parametrize(
    ("lang", "captions"),
    [
        (
            "en",
            [
                "Ana takes the trick: 1 trick so far.",
                "Ana takes the trick: 2 tricks so far.",
                "Bruno takes the trick: 1 trick so far.",
            ],
        ),
        (
            "fr",
            [
                "Ana remporte le pli : 1 pli jusqu’ici.",
                "Ana remporte le pli : 2 plis jusqu’ici.",
                "Bruno remporte le pli : 1 pli jusqu’ici.",
            ],
        ),
        (
            "es",
            [
                "Ana se lleva la baza: 1 baza hasta ahora.",
                "Ana se lleva la baza: 2 bazas hasta ahora.",
                "Bruno se lleva la baza: 1 baza hasta ahora.",
            ],
        ),
    ],
)
def test_pocha_examples_count_tricks_not_card_points(client, lang, captions):
    html = client.get(url("pocha", lang)).content.decode()
    shown = [f.text for f in find(html, "figure", class_="trick")]
    shown = [f.text for f in find(html, "figcaption")][1:]  # after the card ladder's
    assert shown == captions
    # The engine agrees: who took each trick, and how many each has at the end.
    hand = example("pocha_hand")
    assert [t.winner_name for t in hand.tricks] == ["Ana", "Ana", "Bruno"]
    assert list(hand.tricks_won) == [2, 1, 0, 0]
    assert not re.search(r"\b(points?|puntos?)\b", " ".join(shown))
    # The card ladder shows the order alone: no card points on the Pocha page at all.
    ladder = find(html, "figure", class_="card-ladder")[0].text
    assert not re.search(r"\d+ (points?|puntos?)\b", ladder)


def test_tute_examples_still_give_the_trick_its_points(client):
    html = client.get(url("tute", "en")).content.decode()
    assert any(re.search(r"worth \d+ points?\.$", f.text) for f in find(html, "figcaption"))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", SLUGS)
def test_no_code_identifier_reaches_a_player(client, slug, lang):
    html = client.get(url(slug, lang)).content.decode()
    assert not find(html, "code"), "options are named, not shown as code"
    text = visible_text(html)
    assert not IDENTIFIER.findall(text), IDENTIFIER.findall(text)


@pytest.mark.parametrize(
    ("lang", "labels"),
    [
        ("en", ["Play while the stock lasts", "Free play", "Trump on a trump lead", "All duties"]),
        (
            "fr",
            [
                "Jeu tant qu’il reste un talon",
                "Jeu libre",
                "Atout sur atout",
                "Toutes les obligations",
            ],
        ),
        (
            "es",
            [
                "Juego mientras queda mazo",
                "Juego libre",
                "Triunfo a triunfo",
                "Todas las obligaciones",
            ],
        ),
    ],
)
def test_the_stock_play_settings_are_named_as_on_the_table_form(client, lang, labels):
    html = client.get(url("tute", lang)).content.decode()
    named = [e.text for e in find(html, "em", class_="option")]
    assert set(labels) <= set(named)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_options_table_names_each_option_and_value(client, lang):
    html = client.get(url("tables", lang)).content.decode()
    rows = body_rows(html, "options-table")
    # Every option the rules explain, in the order of the table form, by its form's name.
    explained = [o for o in OPTIONS if o.meaning is not None]
    from django.utils import translation

    with translation.override(lang):
        assert [cells[0].text for cells in rows] == [str(o.label) for o in explained]
        stock = " ".join(c.text for c in rows[explained.index(OPTION["stock_play"])])
        assert all(str(OPTION["stock_play"].value_label(v)) in stock for v in STOCK_PLAY)
    for option, cells in zip(explained, rows, strict=True):
        text = "".join(cell.text for cell in cells)  # the row's text, as the page has it
        assert option.name not in text.split()
        assert not IDENTIFIER.findall(text), text


def test_every_stock_play_setting_has_a_label():
    assert set(OPTION["stock_play"].value_labels) == set(STOCK_PLAY)
