"""Habanero's 100 (RULES.md §8) met exactly, in seeded random games: the moments just before
and after a total of 100 or 101 points, with and without carried points, after a trick, after
a cante and at the deal's end. The engine's threshold tests and the search core's agreement
test (tests/bots/test_core_agrees.py) read the same moments.

An event is found by what it *is* (a trick or a cante that brings a player's carried plus
new points to exactly 100 or 101), never by what the engine decided; the tests then check
the decision. A seed is where the first such event comes in a game whose actions are drawn
uniformly among every legal action of every seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from games.engine import Action, GameState, new_game

HABANERO = {"variant": "habanero", "points_to_win": 5}


class Event(NamedTuple):
    before: GameState
    action: Action
    after: GameState
    seat: int  # the player whose total is the one looked at
    total: int  # carried points (if any) plus this deal's, after the action


def steps(seed: int, deals: int = 4) -> Iterator[tuple[GameState, Action, GameState]]:
    """Every action of a seeded random habanero game (its first ``deals`` deals)."""
    rng = random.Random(seed)
    state = new_game(HABANERO, rng)
    dealt = 1
    while not state.over:
        if state.needs_deal:
            if dealt >= deals:
                return
            state.deal_next(rng)
            dealt += 1
            continue
        before = state.clone()
        action = rng.choice([a for acts in state.legal_actions().values() for a in acts])
        state.apply(action)
        yield before, action, state.clone()


def totals(state: GameState) -> list[int]:
    carry = state.carry or [0, 0]
    return [carry[s] + state.points[s] for s in range(2)]


def _kind(before: GameState, action: Action, after: GameState) -> str | None:
    if after.capote_seat is not None or after.tute is not None:
        return None
    carried = "carry" if after.carry is not None else "no-carry"
    if action.kind == "sing":
        return f"{carried}-cante"
    if action.kind == "play" and len(after.tricks) > len(before.tricks):
        last = not any(after.hands)
        return f"{carried}-{'last-trick' if last else 'trick'}"
    return None


def first_event(
    seed: int, kind: str, total: int, where: Callable[[GameState], bool] | None = None
) -> Event:
    """The first action of ``kind`` (carry or no-carry; trick, last-trick or cante) in the
    game of ``seed`` after which a player's total is exactly ``total`` (and, with ``where``,
    from a position where ``where`` holds)."""
    for before, action, after in steps(seed):
        if _kind(before, action, after) != kind or (where is not None and not where(before)):
            continue
        for seat, points in enumerate(totals(after)):
            if points == total and (action.kind != "sing" or seat == action.seat):
                return Event(before, action, after, seat, total)
    raise AssertionError(f"no {kind} event reaching {total} in the game of seed {seed}")


# (kind, total, seed): found by searching seeds 0.. in order (see first_event).
EVENTS: list[tuple[str, int, int]] = [
    ("carry-trick", 100, 11),
    ("carry-trick", 101, 8),
    ("carry-cante", 100, 352),
    ("carry-cante", 101, 270),
    ("no-carry-last-trick", 100, 33),
    ("no-carry-last-trick", 101, 263),
]
# A first deal where a player passes 100 with tricks still to play (seed), and a mano de
# vuelta where capote is declared and a total passes 100 before the deal ends.
OVER_MID_FIRST_DEAL = 19
CAPOTE_IN_A_MANO_DE_VUELTA = 483


def event_id(event: tuple[Any, ...]) -> str:
    return f"{event[0]}-{event[1]}"
