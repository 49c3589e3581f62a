"""For each kind of refusal, a real position (or data) that the engine refuses with it.

``POSITIONS[kind]()`` plays the position and returns what the engine raised. The engine
tests check each one's kind and values; the site's tests translate each one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.engine import Action, GameState, IllegalAction, MalformedAction, Refusal, new_game
from tests.support.engine import leader_wins_trick, play, play_all, position, random_game

Refused = IllegalAction | MalformedAction
POSITIONS: dict[Refusal, Callable[[], Refused]] = {}

FOUR = {"players": 4, "pairs": False}
PAIRS = {"players": 4, "pairs": True}
TWO = {"players": 2}
POCHA2 = {"variant": "pocha", "players": 2}
# Seat 0 holds every trump (bastos) but the face-up 1B and wins every trick (seat 1 deals).
LONG_HAND = {0: "7B 1O 3O 12O 11O 10O 7O 6O"}
LONG_STOCK = "3B 1C 12B 3C 11B 12C 10B 11C 6B 10C 5B 7C 4B 6C 2B 5C"


def produces(kind: Refusal) -> Callable[[Callable[[], Any]], Callable[[], Refused]]:
    """Register a position for ``kind``; it returns a state and an action, or raw data."""

    def register(build: Callable[[], Any]) -> Callable[[], Refused]:
        def refused() -> Refused:
            built = build()
            try:
                if isinstance(built, tuple):
                    state, action = built
                    state.apply(action)
                else:
                    Action.from_dict(built, 4)
            except (IllegalAction, MalformedAction) as exc:
                return exc
            raise AssertionError(f"the position for {kind} was accepted")

        POSITIONS[kind] = refused
        return refused

    return register


def four(given: dict[int, str], closed: dict[int, str] | None = None, options=FOUR) -> GameState:
    """Four players, seat 3 deals (seat 0 leads), copas trump (the dealer's 6C)."""
    return position(options, 3, {3: "6C", **given}, "6C", closed=closed)


def won_first_trick(given: dict[int, str], options=PAIRS, closed: str = "OC") -> GameState:
    """Seat 0 leads the 1O and wins the first trick; ``given`` adds cards to the seats."""
    hands = {0: "1O", 1: "4O", 2: "5O", 3: "2O 6C"}
    for seat, more in given.items():
        hands[seat] = f"{hands[seat]} {more}"
    state = position(options, 3, hands, "6C", closed={0: closed})
    play_all(state, "0:1O 1:4O 2:5O 3:2O")
    return state


def long_position(variant: str = "tute", tricks: int = 0, keep: str = "7B") -> GameState:
    state = position(
        {"variant": variant, "players": 2}, 1, LONG_HAND, "1B", closed={1: "B"}, stock=LONG_STOCK
    )
    for _ in range(tricks):
        leader_wins_trick(state, keep=keep)
    return state


def at_the_capote() -> GameState:
    """Habanero after the 12th trick's draws: seat 0 won them all and decides first."""
    state = long_position("habanero", 12)
    assert state.phase == "capote" and state.capote_turn == 0
    return state


def pocha() -> GameState:
    """Two-player pocha, one card each: seat 1 bids first, seat 0 deals."""
    return position(POCHA2, 0, {0: "3O", 1: "1O"}, "4C")


def short(stock_play: str) -> GameState:
    options = {"players": 2, "stock_play": stock_play}
    return position(options, 1, {0: "12O 12B", 1: "1O 1B 2B"}, "5B", closed={1: "OB"})


# --- Whose turn, which moment


@produces(Refusal.GAME_OVER)
def _():
    state = random_game(FOUR, 1)
    assert state.over
    return state, Action.sing(0, "O")


@produces(Refusal.DEAL_OVER)
def _():
    state = random_game({**FOUR, "rounds": 3, "allow_tute": False}, 1, max_deals=1)
    assert state.needs_deal
    return state, Action.play(0, "1O")


@produces(Refusal.NO_SUCH_SEAT)
def _():
    return new_game(FOUR, random.Random(1)), Action.sing(7, "O")


@produces(Refusal.NO_SUCH_ACTION)
def _():
    return new_game(FOUR, random.Random(1)), Action(0, "teleport", None)


@produces(Refusal.BIDS_FIRST)
def _():
    return pocha(), Action.play(1, "1O")


@produces(Refusal.CAPOTE_FIRST)
def _():
    state = at_the_capote()
    return state, Action(0, "play", state.hand(0)[0])


@produces(Refusal.NOT_YOUR_TURN)
def _():
    state = four({0: "12O"})
    return state, Action.play(1, state.hand(1)[0])


# --- Playing a card (§5)


@produces(Refusal.PLAY_NEEDS_CARD)
def _():
    return four({0: "12O"}), Action(0, "play", "12O")


@produces(Refusal.NOT_HELD)
def _():
    return four({0: "12O", 1: "1O"}), Action.play(0, "1O")


@produces(Refusal.ANSWER_TRUMP_LEAD)
def _():
    state = short("follow_trump")
    play(state, 0, "12B")
    return state, Action.play(1, "1O")


@produces(Refusal.FOLLOW_SUIT)
def _():
    state = four({0: "1O", 1: "5O 4O 5E"}, {1: "O"})
    play(state, 0, "1O")
    return state, Action.play(1, "5E")


@produces(Refusal.BEAT_LED)
def _():
    state = four({0: "12O", 1: "1O 4O"}, {1: "O"})
    play(state, 0, "12O")
    return state, Action.play(1, "4O")


@produces(Refusal.OVERTRUMP)
def _():
    state = four({0: "12O", 1: "4C", 2: "3C 2C"}, {1: "O", 2: "OC"})
    play_all(state, "0:12O 1:4C")
    return state, Action.play(2, "2C")


@produces(Refusal.TRUMP)
def _():
    state = four({0: "12O", 1: "4C 2C 1E"}, {1: "OC"})
    play(state, 0, "12O")
    return state, Action.play(1, "1E")


# --- Exchanging the trump card (§6)


@produces(Refusal.EXCHANGE_NEEDS_STOCK)
def _():
    return four({0: "7C"}), Action.exchange(0, "7C")


@produces(Refusal.EXCHANGE_NEEDS_CARD)
def _():
    return long_position(tricks=1), Action(0, "exchange", "7B")


@produces(Refusal.EXCHANGE_MOMENT)
def _():
    return long_position(), Action.exchange(0, "7B")


@produces(Refusal.EXCHANGED_ALREADY)
def _():
    state = long_position(tricks=8, keep="7B 2B 1B")
    state.apply(Action.exchange(0, "7B"))
    return state, Action.exchange(0, "2B")


@produces(Refusal.EXCHANGE_STOCK_LOW)
def _():
    return long_position(tricks=12), Action.exchange(0, "7B")


@produces(Refusal.NOTHING_FOR_A_TWO)
def _():
    state = position(TWO, 1, {0: "1O 7B"}, "2B", closed={1: "O"})
    leader_wins_trick(state, keep="7B")
    return state, Action.exchange(0, "7B")


@produces(Refusal.WRONG_EXCHANGE)
def _():
    state = position(TWO, 1, {0: "1O 2B"}, "5B", closed={1: "O"})
    leader_wins_trick(state, keep="2B")
    return state, Action.exchange(0, "7B")


# --- Cantes and tute (§7)


@produces(Refusal.NO_CANTES)
def _():
    return pocha(), Action.sing(1, "O")


@produces(Refusal.CANTE_SUIT)
def _():
    return won_first_trick({0: "12E 11E"}), Action(0, "sing", "X")


@produces(Refusal.SUNG_ALREADY)
def _():
    state = won_first_trick({0: "3O 12C 11C 12E 11E", 1: "7O", 2: "6O", 3: "10O"})
    state.apply(Action.sing(0, "C"))
    play_all(state, "0:3O 1:7O 2:6O 3:10O")
    return state, Action.sing(0, "C")


@produces(Refusal.NO_PAIR)
def _():
    return won_first_trick({0: "12E"}, closed="OCE"), Action.sing(0, "E")


@produces(Refusal.FORTY_FIRST)
def _():
    return won_first_trick({0: "3O 12C 11C 12E 11E"}), Action.sing(0, "E")


@produces(Refusal.ONE_CANTE_PER_TRICK)
def _():
    state = won_first_trick({0: "12E 11E 12B 11B"})
    state.apply(Action.sing(0, "E"))
    return state, Action.sing(0, "B")


@produces(Refusal.SING_WITH_STOCK)
def _():
    return long_position(tricks=12, keep="7B 12O 11O"), Action.sing(0, "O")


@produces(Refusal.NO_MOMENT)
def _():
    return four({0: "12E 11E"}, options=PAIRS), Action.sing(0, "E")


@produces(Refusal.NO_TUTE)
def _():
    return pocha(), Action.tute(1, "12")


@produces(Refusal.TUTE_RANK)
def _():
    return won_first_trick({0: "12O 12C 12E 12B"}), Action(0, "tute", "13")


@produces(Refusal.TUTE_OFF)
def _():
    state = won_first_trick({0: "12O 12C 12E 12B"}, options={**PAIRS, "allow_tute": False})
    return state, Action.tute(0, "12")


@produces(Refusal.TUTE_AFTER_CANTE)
def _():
    state = won_first_trick({0: "12O 12C 12E 12B 11E"})
    state.apply(Action.sing(0, "E"))
    return state, Action.tute(0, "12")


@produces(Refusal.CAPOTE_DECIDES)
def _():
    state = at_the_capote()
    state.apply(Action.capote(0, True))
    return state, Action.tute(0, "12")


@produces(Refusal.TUTE_NOT_HELD)
def _():
    return won_first_trick({0: "12O 12C 12E"}), Action.tute(0, "12")


# --- Capote (§8)


@produces(Refusal.NO_CAPOTE)
def _():
    return pocha(), Action.capote(1, True)


@produces(Refusal.CAPOTE_VALUE)
def _():
    return at_the_capote(), Action(0, "capote", "yes")


@produces(Refusal.CAPOTE_MOMENT)
def _():
    return long_position("habanero"), Action.capote(0, True)


@produces(Refusal.NOT_YOUR_CAPOTE)
def _():
    return at_the_capote(), Action.capote(1, True)


# --- Bids (§9)


@produces(Refusal.NO_BIDS)
def _():
    return four({0: "12O"}), Action.bid(0, 1)


@produces(Refusal.BIDDING_OVER)
def _():
    state = pocha()
    state.apply(Action.bid(1, 1))
    state.apply(Action.bid(0, 0))
    return state, Action.bid(1, 0)


@produces(Refusal.NOT_YOUR_BID)
def _():
    return pocha(), Action.bid(0, 1)


@produces(Refusal.BID_RANGE)
def _():
    return pocha(), Action.bid(1, 2)


# --- Data that is not an action (NOTATION.md)

for _kind, _data in (
    (Refusal.NOT_AN_OBJECT, ["seat", 0]),
    (Refusal.SEAT_NOT_INTEGER, {"seat": "0", "play": "1O"}),
    (Refusal.SEAT_OUT_OF_RANGE, {"seat": 4, "play": "1O"}),
    (Refusal.ONE_KEY, {"seat": 0, "play": "1O", "sing": "O"}),
    (Refusal.NEEDS_CARD, {"seat": 0, "play": "13X"}),
    (Refusal.SING_NEEDS_SUIT, {"seat": 0, "sing": "oros"}),
    (Refusal.TUTE_NEEDS_RANK, {"seat": 0, "tute": 12}),
    (Refusal.CAPOTE_NEEDS_BOOL, {"seat": 0, "capote": 1}),
    (Refusal.BID_NEEDS_INT, {"seat": 0, "bid": "2"}),
):
    produces(_kind)(lambda data=_data: data)
