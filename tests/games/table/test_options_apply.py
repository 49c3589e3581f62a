"""What applies to a table's game is the engine's answer, read everywhere else: a table stores
only the options that change its game (a habanero table is never "in pairs"), the forms carry
that answer as data for their script, and the sentence about a table's options is rendered
once, by the server, in each language, and sent in the table's summary."""

import importlib
import json

import pytest
from django.apps import apps
from django.utils import translation

from games.engine.options import PLAYERS_ALLOWED, RULE_OPTIONS, Options, options_that_apply
from games.forms import TableOptionsForm
from games.models import Table
from games.options import TABLE_OPTIONS
from games.selectors import lobby_tables
from games.table import seating
from games.table.frames import table_summary
from games.table.options import table_options
from rankings.kinds import kind_label, table_kind
from tests.support.factories import UserFactory
from tests.support.html import find
from tests.support.tables import form_data

pytestmark = pytest.mark.django_db

GAMES = [(variant, players) for variant, allowed in PLAYERS_ALLOWED.items() for players in allowed]
EVERYTHING_ON = {"pairs": True, "allow_tute": True, "rounds": 3, "points_to_win": 2}


def stored_game(table: Table) -> Options:
    table.refresh_from_db()
    return Options.from_dict({**table.rule_options, "variant": table.variant})


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_a_new_table_stores_only_the_options_that_apply_to_its_game(variant, players):
    options = {"variant": variant, "players": players, "stock_play": "strict", **EVERYTHING_ON}
    table = seating.table_create(master=UserFactory(), options=options)
    game = stored_game(table)
    assert game == game.normalised()
    for name in options_that_apply(variant, players):
        assert getattr(game, name) == options[name], name
    assert table.pairs == (variant == "tute" and players == 4)


def test_the_lobby_form_with_every_box_ticked_opens_a_habanero_table_not_in_pairs(client):
    client.force_login(UserFactory(chips=1000))
    response = client.post("/tables/new/", form_data(variant="habanero", players="4", rounds="5"))
    assert response.status_code == 302
    table = Table.objects.get()
    assert (table.variant, table.players, table.pairs, table.rounds) == ("habanero", 2, False, 1)


def test_a_table_made_habanero_by_its_master_drops_its_pairs_and_tute_at_four_takes_them():
    master = UserFactory()
    table = seating.table_create(master=master, options={"variant": "tute", "players": 4})
    assert table.pairs
    seating.table_set_options(table_id=table.pk, user=master, options={"variant": "habanero"})
    table.refresh_from_db()
    assert (table.players, table.pairs) == (2, False)
    seating.table_set_options(
        table_id=table.pk, user=master, options={"variant": "tute", "players": 4, "pairs": True}
    )
    table.refresh_from_db()
    assert (table.players, table.pairs) == (4, True)


def test_tables_stored_before_are_brought_to_rest_by_the_migration():
    """The migration's facts, frozen as it was written, agree with the engine's today."""
    master = UserFactory()
    rows = [
        Table.objects.create(master=master, variant=variant, players=players, **EVERYTHING_ON)
        for variant, players in GAMES
    ]
    migration = importlib.import_module("games.migrations.0013_tables_store_only_what_applies")
    migration.normalise(apps, None)
    for table in rows:
        game = stored_game(table)
        assert game == game.normalised(), (table.variant, table.players)


def test_the_forms_carry_the_engines_answer_for_their_script(client):
    client.force_login(UserFactory())
    html = client.get("/tables/").content.decode()
    (form,) = find(html, "form", action="/tables/new/")
    facts = json.loads(form.attrs["data-option-facts"])
    (practice,) = find(html, "form", class_="practice-form")
    assert json.loads(practice.attrs["data-option-facts"]) == facts
    # For each game, the options that change nothing there: the engine's rule options that
    # do not apply; the table's other options always do.
    for variant, players in GAMES:
        idle = facts[variant]["idle"][str(players)]
        assert set(idle) == set(RULE_OPTIONS) - set(options_that_apply(variant, players))
        assert idle == [name for name in TABLE_OPTIONS if name in idle]  # in the form's order
        assert facts[variant]["players"] == list(PLAYERS_ALLOWED[variant])
    assert facts["habanero"]["default"] == 2 and facts["tute"]["default"] == 4
    assert "players" in facts["habanero"]["idle"]["2"] and "pairs" in facts["tute"]["idle"]["3"]
    assert "pairs" not in facts["tute"]["idle"]["4"]


# --- The sentence, once, in each language ----------------------------------------------------

SENTENCES = {
    "en": "2 players · Practice · No stake · 3 points to win · Automatic play · Private",
    "fr": "2 joueurs · Entraînement · Sans mise · 3 points à gagner · Jeu automatique · Privée",
    "es": "2 jugadores · Práctica · Sin apuesta · 3 puntos para ganar · Juego automático · Privada",
}


def habanero_table() -> Table:
    options = {
        "variant": "habanero",
        "points_to_win": 3,
        "competitive": False,
        "move_time": 0,
        "private": True,
        "pairs": True,
    }
    return seating.table_create(master=UserFactory(username="marta"), options=options)


def test_the_summary_carries_the_servers_sentence_in_each_language():
    table = habanero_table()
    summary = table_summary(table=table, seats=list(table.seats.all()))
    assert summary["options_text"] == SENTENCES
    assert summary["options"] == table_options(table)


def test_the_pages_show_the_summarys_sentence_in_their_language(client):
    table = habanero_table()
    for language in ("fr", "es"):
        client.cookies.load({"django_language": language})
        page = client.get(f"/tables/{table.pk}/").content.decode()
        (line,) = find(page, "p", id="table-options")
        assert line.text == SENTENCES[language]
    # A private table is in its master's lobby; the page speaks the master's language.
    table.master.language = "es"
    table.master.save(update_fields=["language"])
    client.force_login(table.master)
    lobby = client.get("/tables/").content.decode()
    (tile,) = find(lobby, "p", class_="tile-options")
    assert tile.text == SENTENCES["es"]
    (row,) = lobby_tables(user=table.master)
    assert row["options_text"] == SENTENCES


def test_the_help_says_what_no_time_per_move_means_in_each_language():
    field = TableOptionsForm().fields["move_time"]
    helps = {}
    for language in ("en", "fr", "es"):
        with translation.override(language):
            helps[language] = str(field.help_text)
    assert "At 0 the game plays itself" in helps["en"]
    assert "À 0, la partie se joue toute seule" in helps["fr"]
    assert "Con 0 la partida se juega sola" in helps["es"]


@pytest.mark.parametrize(
    ("game", "english", "spanish"),
    [
        (
            {"variant": "tute", "players": 4},
            "Tute, 4 players in pairs",
            "Tute, 4 jugadores por parejas",
        ),
        (
            {"variant": "tute", "players": 4, "pairs": False},
            "Tute, 4 players alone",
            "Tute de 4, cada uno por su cuenta",
        ),
        ({"variant": "pocha", "players": 3, "pairs": True}, "Pocha", "Pocha"),
        ({"variant": "habanero", "pairs": True}, "Habanero", "Habanero"),
    ],
)
def test_the_profile_groups_accuracy_by_the_ratings_kind_of_table(game, english, spanish):
    """One grouping of games by table: the accuracy's, the ratings'. What the engine plays
    decides it (a pairs switch at rest counts for nothing)."""
    rules = Options.from_dict(game).normalised().rules
    kind = table_kind(variant=rules.variant, players=rules.players, pairs=rules.pairs)
    with translation.override("en"):
        assert kind_label(kind) == english
    with translation.override("es"):
        assert kind_label(kind) == spanish
