"""Which rule options apply to a game, written once in the engine (`options_that_apply`,
`Rules.applies`), and a game's options stored at rest where they do not apply
(`Options.normalised`): the same game is played, card for card, and nothing stored says
more than the game plays (no "in pairs" at habanero)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.options import (
    PLAYERS_ALLOWED,
    RANGES,
    RULE_OPTIONS,
    STOCK_PLAY,
    VARIANTS,
    Options,
    options_that_apply,
)
from tests.support.engine import random_game

GAMES = [(variant, players) for variant, allowed in PLAYERS_ALLOWED.items() for players in allowed]


@st.composite
def any_options(draw) -> Options:
    """Any valid options, with every rule option set, whether it applies or not."""
    variant = draw(st.sampled_from(VARIANTS))
    return Options.from_dict(
        variant=variant,
        players=draw(st.sampled_from(PLAYERS_ALLOWED[variant])),
        pairs=draw(st.booleans()),
        allow_tute=draw(st.booleans()),
        rounds=draw(st.integers(*RANGES["rounds"])),
        points_to_win=draw(st.integers(*RANGES["points_to_win"])),
        stock_play=draw(st.sampled_from(STOCK_PLAY)),
    )


@settings(max_examples=40, deadline=None, database=None)
@given(options=any_options(), seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_options_at_rest_play_the_same_game_card_for_card(options, seed):
    at_rest = options.normalised()
    game = {"variant": options.variant, **options.to_dict()}
    same = {"variant": at_rest.variant, **at_rest.to_dict()}
    # Two deals are enough to see every rule at work; pocha's ladder is long.
    one = random_game(game, seed, max_deals=2).to_record()
    other = random_game(same, seed, max_deals=2).to_record()
    assert one["deals"] == other["deals"]
    for name in RULE_OPTIONS:
        if name in options_that_apply(options.variant, options.players):
            assert getattr(at_rest, name) == getattr(options, name), name
    assert at_rest.normalised() == at_rest
    assert at_rest.rules.pairs == options.rules.pairs
    assert at_rest.rules.deals_to_win == options.rules.deals_to_win


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_an_option_that_applies_changes_the_game_and_one_that_does_not_changes_nothing(
    variant, players
):
    """Each option's two settings give two different games exactly where it applies."""
    applies = options_that_apply(variant, players)
    base = Options.from_dict(variant=variant, players=players)
    other_values = {
        "pairs": not base.pairs,
        "allow_tute": not base.allow_tute,
        "rounds": base.rounds + 1,
        "points_to_win": base.points_to_win - 1,
        "stock_play": "strict",
    }
    for name, value in other_values.items():
        changed = Options.from_dict({**base.to_dict(), "variant": variant, name: value})
        differs = changed.normalised().rules != base.normalised().rules
        assert differs == (name in applies), (variant, players, name)
    # Who plays is a choice only where the variant is played by more than one number.
    assert ("players" in applies) == (len(PLAYERS_ALLOWED[variant]) > 1)


def test_a_habanero_at_rest_is_never_in_pairs_and_four_player_tute_keeps_its_pairs():
    habanero = Options.from_dict(variant="habanero", pairs=True).normalised()
    assert (habanero.pairs, habanero.rules.pairs, habanero.rules.applies) == (
        False,
        False,
        ("points_to_win", "allow_tute"),
    )
    tute = Options.from_dict(variant="tute", players=4, pairs=True).normalised()
    assert tute.pairs and tute.rules.pairs and tute.rules.sides == 2
    assert Options.from_dict(variant="tute", players=3, pairs=True).normalised().pairs is False
