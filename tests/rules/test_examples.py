"""The worked examples are games the engine played, and they show what the pages say."""

import pytest

from games.rules.examples import all_examples, example

pytestmark = pytest.mark.django_db


def test_every_example_replays_without_error():
    examples = all_examples()
    assert set(examples) >= {
        "follow_beat",
        "trump_overtrump",
        "no_undertrump",
        "cante",
        "habanero_stock",
        "pocha_hand",
        "capote",
        "habanero_100",
        "habanero_101",
    }


def plays(key, number=0):
    return {p.name: p for p in example(key).tricks[number].plays}


def test_follow_and_beat_forces_the_only_higher_card_even_for_a_partner():
    p = plays("follow_beat")
    assert p["Bruno"].legal == ("3E",)
    assert p["Carla"].legal == ("11E", "7E", "4E")  # cannot beat the 3: any espada
    assert p["David"].legal == ("1E",)  # his partner is winning, he must beat anyway
    assert example("follow_beat").trick.winner_name == "David"


def test_trump_overtrump_and_the_trumped_trick_exception():
    p = plays("trump_overtrump")
    assert p["Carla"].legal == ("10O", "7O", "4O")  # any trump when none is down yet
    assert p["David"].legal == ("12O",)  # must overtrump the sota
    assert set(p["Ana"].legal) == {"1B", "3B", "10B", "6B", "2B"}  # trumped: any basto


def test_no_duty_to_under_trump():
    p = plays("no_undertrump")
    assert p["David"].card == "3C"
    assert p["Ana"].free  # only lower trumps: any card at all
    assert "10C" in p["Ana"].legal and "4C" in p["Ana"].legal


def test_cante_example_sings_forty_first_and_the_partner_sings_too():
    ex = example("cante")
    david, bruno = ex.cantes
    assert (david.name, david.suit, david.choices) == ("David", "C", ("C",))
    assert (bruno.name, bruno.suit) == ("Bruno", "O") and len(bruno.choices) == 2
    assert ex.points[1] == ex.trick.points + david.value + bruno.value


def test_habanero_stock_example_trump_lead_exchange_and_cante():
    ex = example("habanero_stock")
    first = plays("habanero_stock", 0)
    assert first["Ana"].legal == ("11E", "5E")  # a trump lead asks for any trump
    assert plays("habanero_stock", 1)["Ana"].free  # no trump led: anything
    assert ex.exchanges == (("Bruno", "7E", "10E"),)
    assert [c.suit for c in ex.cantes] == ["C"]


def test_capote_is_declared_and_made():
    ex = example("capote")
    assert ex.capote == {"seat": 0, "made": True}
    assert ex.capote_calls == (("Ana", True),)
    assert all(t.winner_name == "Ana" for t in ex.tricks[12:])
    assert len(ex.tricks) == 20


def test_pocha_hand_shows_every_way_to_score():
    ex = example("pocha_hand")
    first = plays("pocha_hand", 0)
    assert first["Carla"].legal == ("3C",)
    assert first["David"].legal == ("10B",)
    assert first["Ana"].legal == ("1B",)
    assert ex.bids == (2, 1, 1, 0)
    assert ex.tricks_won == (2, 1, 0, 0)
