"""The table options are declared once (games/options.py): the lobby's form offers
exactly those options with their names and defaults, a new table starts with those defaults,
a value out of range is refused next to its option, and no other code lists the options."""

import pytest
from django.utils import translation

from games.bots import LEVELS, bot_names
from games.engine.options import PLAYERS_ALLOWED, VARIANTS, Options
from games.forms import TableOptionsForm
from games.models import Table
from games.options import (
    DEFAULT_OPTIONS,
    OPTIONS,
    TABLE_OPTIONS,
    Kind,
    TableOption,
    option_value_label,
)
from games.table import seating
from games.table.options import clean_table_options, option_applies, table_options
from games.table.refusals import TableError
from tests.support.factories import UserFactory
from tests.support.html import find, parse
from tests.support.tables import ENGLISH_LABELS, form_data


def out_of_range(option: TableOption) -> list[object]:
    """Values a player could send that the option does not take."""
    if option.kind is Kind.SWITCH:
        return ["yes", 1, None]
    if option.kind is Kind.NUMBER:
        return [option.minimum - 1, option.maximum + 1, "3", True, 2.0]
    return ["nonsense", "", 3, ["tute"]]


def refused(data: dict) -> TableError:
    with pytest.raises(TableError) as error:
        clean_table_options(data=data, current=DEFAULT_OPTIONS)
    return error.value


# --- The form the player fills -------------------------------------------------------------


@pytest.mark.django_db
def test_the_lobby_form_offers_exactly_the_declared_options_with_their_names(client):
    client.force_login(UserFactory())
    html = client.get("/tables/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    (form,) = find(html, "form", action="/tables/new/")
    assert "options-form" in form.attrs["class"]
    # The page offers practice and "Play now" first: the table form's fields come after.
    html = html[html.index('action="/tables/new/"') :]
    assert field_labels(html) == ENGLISH_LABELS
    assert list(field_labels(html)) == list(TABLE_OPTIONS)


def field_labels(html: str) -> dict[str, str]:
    """Each field of a form (`_form_field.html`) by name, with the text of its label."""
    labels: dict[str, str] = {}
    name = None
    for element in parse(html):
        if element.tag == "div" and "data-field" in element.attrs:
            name = element.attrs["data-field"]
        elif element.tag == "label" and name is not None:
            labels[name], name = element.text, None
    return labels


def test_the_form_starts_at_the_declared_defaults_and_offers_the_declared_values():
    form = TableOptionsForm()
    assert list(form.fields) == list(TABLE_OPTIONS)
    with translation.override("en"):
        for option in OPTIONS:
            field = form.fields[option.name]
            assert str(field.label) == ENGLISH_LABELS[option.name] == str(option.label)
            assert field.initial == option.default
            # The robots' level offers the levels a player understands (below).
            if option.kind is Kind.CHOICE and option.name != "robot_level":
                assert [code for code, _label in field.choices] == list(option.codes())
                assert [str(label) for _code, label in field.choices] == [
                    str(option_value_label(option.name, code)) for code in option.codes()
                ]
        assert list(form.fields["players"].choices) == [(2, "2"), (3, "3"), (4, "4")]
        assert dict(form.fields["stock_play"].choices) == {
            "free": "Free play",
            "follow_trump": "Trump on a trump lead",
            "strict": "All duties",
        }
    # The robots are offered as the levels a player understands, easiest first; any name
    # of the registry, read when the form is built, is still accepted.
    assert [code for code, _label in form.fields["robot_level"].choices] == list(LEVELS)
    assert all(form.fields["robot_level"].valid_value(name) for name in bot_names())


def test_the_form_keeps_its_help_texts():
    form = TableOptionsForm()
    with translation.override("en"):
        helps = {name: str(field.help_text) for name, field in form.fields.items()}
    assert helps["players"] == "Habanero is for two; tute and pocha for two to four."
    # What 0 means, in a player's words: nobody is timed, a robot plays every turn.
    assert helps["move_time"] == (
        "Seconds to play each turn. At 0 the game plays itself: a robot plays every "
        "player's turn for them about a second after it comes."
    )
    assert helps["competitive"] == "Off: a practice table, nothing won or lost."
    assert helps["stake"] == "Each player puts it in the pot; competitive tables only."
    # Where an option applies shows under its field, as the labels once said in brackets.
    assert helps["rounds"] == "Deals to win a game of Tute."
    assert helps["stock_play"] == "How strictly to answer while the stock lasts (two-player Tute)."


def test_the_form_posted_at_its_defaults_gives_the_declared_options():
    form = TableOptionsForm(form_data())
    assert form.is_valid(), form.errors
    assert form.cleaned_data == dict(DEFAULT_OPTIONS)
    # A page that leaves the robots out gets the default robot.
    form = TableOptionsForm(form_data(robot_level=None))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["robot_level"] == DEFAULT_OPTIONS["robot_level"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("variant", "brisca"),
        ("players", "5"),
        ("players", "1"),
        ("rounds", "0"),
        ("rounds", "6"),
        ("points_to_win", "6"),
        ("move_time", "-1"),
        ("move_time", "301"),
        ("stake", "-5"),
        ("stake", "1000001"),
        ("stock_play", "loose"),
        ("robot_level", "grandmaster"),
    ],
)
def test_the_form_refuses_a_value_out_of_range_next_to_its_field(name, value):
    form = TableOptionsForm(form_data(**{name: value}))
    assert not form.is_valid()
    assert list(form.errors) == [name]


@pytest.mark.django_db
def test_the_lobby_page_shows_a_refused_option_next_to_it(client):
    client.force_login(UserFactory(chips=1000))
    with translation.override("en"):
        html = client.post("/tables/new/", form_data(move_time="301")).content.decode()
    shown = [ul.text for ul in find(html, "ul", data_errors_for="move_time") if ul.text]
    assert shown == ["Ensure this value is less than or equal to 300."]
    assert not Table.objects.exists()


# --- The service's check ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "value"),
    [(option, value) for option in OPTIONS for value in out_of_range(option)],
    ids=lambda item: item.name if isinstance(item, TableOption) else repr(item),
)
def test_every_option_out_of_range_is_refused_naming_it(option, value):
    error = refused({option.name: value})
    assert (error.code, error.field) == ("invalid", option.name)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"variant": "bridge"}, "variant", "Choose tute, habanero or pocha."),
        ({"players": 5}, "players", "This variant is played by 2, 3, 4 players."),
        ({"variant": "habanero", "players": 4}, "players", "This variant is played by 2 players."),
        ({"pairs": "yes"}, "pairs", "Choose yes or no."),
        ({"guests": 0}, "guests", "Choose yes or no."),
        ({"rounds": 6}, "rounds", "Choose a number from 1 to 5."),
        ({"points_to_win": 0}, "points_to_win", "Choose a number from 1 to 5."),
        ({"move_time": 301}, "move_time", "Choose a number of seconds from 0 to 300."),
        ({"stake": -5}, "stake", "A stake is a number of chips from 0 to 1000000."),
        (
            {"competitive": False, "stake": 10},
            "stake",
            "Only a competitive table plays for a stake.",
        ),
        ({"stock_play": "loose"}, "stock_play", "Choose free, follow_trump or strict."),
        ({"colour": "red"}, "colour", "There is no such option."),
    ],
)
def test_a_refusal_says_what_it_always_said(data, field, message):
    error = refused(data)
    assert error.field == field
    with translation.override("en"):
        assert str(error.message) == message


def test_the_robot_refusal_names_the_robots_of_the_registry():
    error = refused({"robot_level": "grandmaster"})
    with translation.override("en"):
        assert str(error.message) == f"Choose a robot among: {', '.join(bot_names())}."


def test_a_refusal_reads_in_the_language_of_the_reader():
    error = refused({"move_time": 999})
    with translation.override("es"):
        spanish = str(error.message)
    with translation.override("en"):
        english = str(error.message)
    assert english == "Choose a number of seconds from 0 to 300."
    assert spanish != english and "300" in spanish


def test_options_that_are_not_an_object_are_malformed():
    with pytest.raises(TableError) as error:
        clean_table_options(data=["variant"], current=DEFAULT_OPTIONS)
    assert error.value.code == "malformed"


def test_every_declared_option_at_every_value_in_range_is_accepted():
    for option in OPTIONS:
        if option.kind is Kind.SWITCH:
            values = [True, False]
        elif option.kind is Kind.NUMBER:
            values = sorted({option.minimum, option.default, option.maximum})
        else:
            values = list(option.codes())
        for value in values:
            # At a game where it changes something: elsewhere it is stored at rest (below).
            data = {**a_game_where_it_applies(option.name), option.name: value}
            if option.name == "stake" and value:
                data["competitive"] = True
            if option.name == "players":
                data["variant"] = next(v for v in VARIANTS if value in PLAYERS_ALLOWED[v])
            assert clean_table_options(data=data, current=DEFAULT_OPTIONS)[option.name] == value


def a_game_where_it_applies(name: str) -> dict:
    """The first variant and number of players at which the option `name` changes the game."""
    return next(
        {"variant": variant, "players": players}
        for variant, allowed in PLAYERS_ALLOWED.items()
        for players in allowed
        if option_applies(name, variant=variant, players=players)
    )


# --- A new table, and a variant changed ------------------------------------------------------


@pytest.mark.django_db
def test_a_new_table_starts_with_the_declared_defaults():
    table = seating.table_create(master=UserFactory(), options={})
    table.refresh_from_db()
    assert table_options(table) == dict(DEFAULT_OPTIONS)
    assert {name: getattr(Table(), name) for name in TABLE_OPTIONS} == dict(DEFAULT_OPTIONS)
    # The rule options are the engine's default game.
    assert Options.from_dict(table.rule_options) == Options()


@pytest.mark.django_db
def test_changing_the_variant_resets_the_players_it_does_not_allow():
    master = UserFactory()
    table = seating.table_create(master=master, options={"variant": "pocha", "players": 3})

    def change(**options) -> int:
        seating.table_set_options(table_id=table.pk, user=master, options=options)
        table.refresh_from_db()
        return table.players

    assert change(variant="habanero") == 2  # habanero is for two
    assert change(variant="tute") == 2  # two may play tute: kept
    assert change(players=4) == 4
    assert change(variant="pocha") == 4  # four may play pocha: kept
    assert change(variant="habanero") == 2
    with pytest.raises(TableError) as error:
        seating.table_set_options(
            table_id=table.pk, user=master, options={"variant": "tute", "players": 5}
        )
    assert error.value.field == "players"


def test_a_variant_played_by_its_default_number_takes_the_engines_number():
    for variant in VARIANTS:
        out = clean_table_options(data={"variant": variant}, current={**DEFAULT_OPTIONS})
        assert out["players"] in PLAYERS_ALLOWED[variant]
        if DEFAULT_OPTIONS["players"] not in PLAYERS_ALLOWED[variant]:
            assert out["players"] == Options.from_dict({"variant": variant}).players
