"""The hand-reading bench (bench/benchmarks/hand_reading.py) measures what it says: the
cards its reader says a seat could play are the engine's, the true deal of players who play
by the model's rule explains every card (weight 1), and weighing the worlds brings the
guess of the hidden hands nearer the truth when the model is right.
"""

from __future__ import annotations

import random

import pytest

from bench.benchmarks.hand_reading import Reader, RulePlayer, measure
from games.bots.sampler import WorldSampler
from games.bots.strong import smart_card
from games.engine import GameState, new_game
from tests.support.bots import CONFIGS, seats_to_act

MISS = 0.5
# Pocha's rule reads the bids, which the reader does not: its weights are for the others.
READ_CONFIGS = [c for c in CONFIGS if c["variant"] != "pocha"]


def _ids(config: dict) -> str:
    return "-".join(str(v) for v in config.values())


def _games(config: dict, seed: int, steps: int = 400):
    """Walk a game of rule players; yield (state, seat, hands before each card, legal cards
    of each card) at every decision, the last two as lists in the order cards were played."""
    rng = random.Random(seed)
    state = new_game(config, rng)
    player = RulePlayer()
    before: list[list[int]] = []
    allowed: list[list[int]] = []
    deal = state.deal_index
    for seat in seats_to_act(state, rng, steps):
        if state.deal_index != deal:
            deal, before, allowed = state.deal_index, [], []
        yield state, seat, before, allowed
        action = player.choose(state.view(seat))
        if action.kind == "play":
            before.append(state.hands[seat])
            allowed.append(
                sorted(a.value.index for a in state.legal_actions_for(seat) if a.kind == "play")
            )
        state.apply(action)


def _others(before: list[list[int]], state: GameState, seat: int) -> list[int]:
    """Indices of the cards played by seats other than ``seat`` this deal, in order."""
    view = state.view(seat)
    seats = [s for t in (*view.tricks, view.trick) for s, _ in t]
    assert len(seats) == len(before)
    return [i for i, s in enumerate(seats) if s != seat]


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_the_cards_a_seat_could_play_are_the_engines(config: dict) -> None:
    """Both ends: for every past card of the other seats, the reader lists as playable
    exactly the cards the engine offered then, from the hand the seat held."""
    checked = 0
    for state, seat, before, allowed in _games(config, seed=11):
        view = state.view(seat)
        if not view.legal_actions or view.legal_actions[0].kind != "play":
            continue
        reader = Reader(view, smart_card)
        others = _others(before, state, seat)
        assert len(reader.moments) == len(others)
        for moment, i in zip(reader.moments, others, strict=True):
            assert reader._allowed(sorted(before[i]), moment) == allowed[i]
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("config", READ_CONFIGS, ids=_ids)
def test_the_true_deal_of_rule_players_keeps_its_whole_weight(config: dict) -> None:
    """Every card the rule players chose is the rule's on the true hands: weight 1, while
    the worlds the sampler deals from the same view weigh less on the whole."""
    rng = random.Random(7)
    whole = 0
    sampled: list[float] = []
    for state, seat, before, _allowed in _games(config, seed=23):
        view = state.view(seat)
        if not view.legal_actions or view.legal_actions[0].kind != "play" or not view.tricks:
            continue
        reader = Reader(view, smart_card)
        past = [before[i] for i in _others(before, state, seat)]
        assert reader.weight(state, past, MISS) == 1.0
        if not state.rules.has_stock:
            # Without a stock the hands before each card are read off the world itself.
            assert reader.weight(state, None, MISS) == 1.0
        whole += 1
        if whole % 5 == 0:
            sampler = WorldSampler(view, past=True)
            for _ in range(5):
                world = sampler.sample(rng)
                sampled.append(reader.weight(world, sampler.past_hands, MISS))
    assert whole > 20
    assert 0.0 < sum(sampled) / len(sampled) < 0.8
    # The robots' sampler keeps no past hands: their search does not pay for the bench.
    robots = WorldSampler(view)
    robots.sample(rng)
    assert robots.past_hands is None


@pytest.mark.parametrize("variant", ["habanero", "pairs"])
def test_reading_rule_players_puts_their_cards_nearer_where_they_are(variant: str) -> None:
    """When the model is exact, the weighed worlds guess the hidden hands better than the
    worlds taken alike (a lower Brier score), and every world keeps some weight."""
    row = measure(variant, "rule", games=4, seed=1)
    assert row["decisions"] >= 5
    assert row["better_than_alike"]["0.3"] > 0.02
    assert 0 < row["ess"]["0.3"] < 200
