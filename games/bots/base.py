"""The robot interface, the registry of robots, the helpers that let a robot act in a game, and
the one scale every robot values a finished deal on (`MARGIN_WEIGHT`, `POCHA_SCALE`).

A robot is anything with a ``name`` and a ``choose(view)`` method. It is given only the
:class:`~games.engine.SeatView` of its seat, which holds that seat's legal actions, and
returns one of them. It never receives the :class:`~games.engine.GameState`, so it cannot
see other hands or the stock.

>>> import random
>>> from games.engine import new_game
>>> state = new_game({"variant": "tute", "players": 4}, random.Random(1))
>>> bot = get_bot("random", rng=random.Random(2))
>>> seat = seat_to_act(state)
>>> action = bot_action(bot, state, seat)
>>> action in state.legal_actions_for(seat)
True
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from games.engine import Action, GameState, SeatView


@runtime_checkable
class Bot(Protocol):
    """A robot: it picks one of ``view.legal_actions`` from what its seat may see."""

    name: str

    def choose(self, view: SeatView) -> Action: ...


class IllegalBotChoice(AssertionError):
    """A robot returned an action that is not among its seat's legal actions: a robot bug."""


# What a finished deal is worth to a robot's side, one scale for the playouts (.strong) and the
# exact solvers (.solver, .engine_solver, the core's `value`), so that sampled and exact values
# compare: 1 for the deal won, 0 lost, 0.5 won by nobody, plus MARGIN_WEIGHT times the point
# margin over the deal's points (rulebook.DEAL_POINTS); in pocha, 0.5 plus the hand score's
# lead over the others' mean, POCHA_SCALE points for a deal won.
MARGIN_WEIGHT = 0.25  # a deal won by every point of the deal is worth 1.25 deals won by 0
POCHA_SCALE = 30.0

# name -> factory taking the injected rng (None: the robot picks a secure default).
_REGISTRY: dict[str, Callable[[Any], Bot]] = {}


def register_bot(name: str, factory: Callable[[Any], Bot]) -> None:
    """Make a robot available to :func:`get_bot` under ``name`` (later robots add themselves)."""
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    """The registered robot names, sorted."""
    return sorted(_REGISTRY)


def get_bot(name: str, rng: Any = None) -> Bot:
    """A new robot by name. ``rng`` is used by robots that draw at random.

    >>> get_bot("heuristic").name
    'heuristic'
    >>> get_bot("grandmaster")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "No robot named 'grandmaster'; known robots: easy, expert, hard, heuristic, ..."
    """
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise KeyError(
            f"No robot named {name!r}; known robots: {', '.join(bot_names())}."
        ) from None
    return factory(rng)


def default_rng() -> Any:
    """Randomness for robots in live play: the system's secure generator."""
    return secrets.SystemRandom()


def seat_to_act(state: GameState) -> int | None:
    """The seat a robot driver should ask next, or None when nobody can act.

    A seat whose only actions are in a cante moment (the trick winner's partner) goes
    before the seat on turn: leading the next card closes that moment for everyone.
    """
    turn = state.to_move
    for seat in sorted(state.moment):
        if seat != turn and state.legal_actions_for(seat):
            return seat
    return turn


def bot_action(bot: Bot, state: GameState, seat: int) -> Action:
    """Ask ``bot`` what ``seat`` does now, from that seat's view only.

    Raises :class:`IllegalBotChoice` when the robot answers with an action its seat may
    not take, so a faulty robot is caught before the engine sees the action.
    """
    view = state.view(seat)
    if not view.legal_actions:
        raise ValueError(f"Seat {seat} has nothing to do now; ask seat_to_act() who does.")
    action = bot.choose(view)
    if action not in view.legal_actions:
        raise IllegalBotChoice(
            f"Robot {bot.name!r} chose {action!r} for seat {seat}, which is not a legal action."
        )
    return action


def bot_play(bot: Bot, state: GameState, seat: int) -> Action:
    """Ask ``bot`` for ``seat``'s action and apply it to ``state``; return the action."""
    action = bot_action(bot, state, seat)
    state.apply(action)
    return action
