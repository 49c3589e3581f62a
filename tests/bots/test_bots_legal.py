"""Every robot plays only legal actions, in every variant, player count and option."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import IllegalBotChoice, bot_action, bot_names, get_bot, seat_to_act
from games.engine import CARDS, Action, new_game
from tests.support.bots import CONFIGS


def _ids(config: dict) -> str:
    return "-".join(str(v) for v in config.values())


def _bots(names: list[str], n: int, rng: random.Random) -> list:
    return [get_bot(names[s % len(names)], rng=random.Random(rng.random())) for s in range(n)]


def play_checked(state, bots: list, rng: random.Random, deals: int) -> int:
    """Play on with one robot per seat, asking each robot with its seat's view only and
    checking each answer against the engine's legal list before applying it; stop when the
    game ends or ``deals`` deals are done. Returns the number of decisions checked."""
    decisions = 0
    while not state.over:
        if state.needs_deal:
            deals -= 1
            if deals <= 0:
                break
            state.deal_next(rng)
            continue
        seat = seat_to_act(state)
        action = bots[seat].choose(state.view(seat))
        legal = state.legal_actions_for(seat)
        assert action in legal, f"{bots[seat].name} chose {action} for seat {seat}: {legal}"
        state.apply(action)
        decisions += 1
    return decisions


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
@pytest.mark.parametrize("names", [["heuristic"], ["heuristic", "random"], ["random"]])
def test_robots_play_only_legal_actions(config: dict, names: list[str]) -> None:
    rng = random.Random(f"{config}{names}")
    for _ in range(3):
        state = new_game(config, rng)
        decisions = play_checked(state, _bots(names, state.n, rng), rng, deals=6)
        # The game ended (a tute may end it in a few moves), or a whole deal at least was
        # played, every decision checked.
        assert decisions > 0
        assert state.over or state.deal_index >= 1


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), config=st.sampled_from(CONFIGS))
def test_heuristic_is_legal_in_any_game(seed: int, config: dict) -> None:
    rng = random.Random(seed)
    state = new_game(config, rng)
    assert play_checked(state, _bots(["heuristic", "random"], state.n, rng), rng, deals=3) > 0


def test_a_robot_returning_an_illegal_action_is_caught() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, view):
            missing = next(c for c in CARDS if c not in view.hand)
            return Action.play(view.seat, missing)

    state = new_game({"variant": "tute", "players": 4}, random.Random(1))
    with pytest.raises(IllegalBotChoice, match="cheat"):
        bot_action(Cheat(), state, state.turn)


def test_registry_knows_both_baseline_robots() -> None:
    assert {"random", "heuristic"} <= set(bot_names())
    assert get_bot("heuristic").name == "heuristic"
    with pytest.raises(KeyError, match="No robot named"):
        get_bot("nobody")


def test_a_robot_is_not_asked_to_act_for_a_seat_with_nothing_to_do() -> None:
    state = new_game({"variant": "tute", "players": 4}, random.Random(2))
    idle = next(s for s in range(4) if s != seat_to_act(state))
    with pytest.raises(ValueError, match="nothing to do"):
        bot_action(get_bot("heuristic"), state, idle)
