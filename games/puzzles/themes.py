"""A puzzle's themes, read from the solver's lines, never typed by hand.

Two lines are compared: the solution (the puzzle's line, then best play on both sides to the
end of the deal) and the most tempting wrong answer (the next best first action, then best
play). A theme is what the right answer wins that the wrong one does not:

- ``cante``: the player sings more (las cuarenta or a 20) on the solution: the cante in time;
- ``last_trick``: the player takes the last trick and its 10 on the solution, not on the
  other line;
- ``capote``: a capote is declared on either line (habanero), or already stands;
- ``arrastre``: a card of the player's line forces the other seat to trump, holding other
  cards (forced trumping);
- ``keep_trump``: at one of the player's moves the right answer keeps a trump back where the
  next best spent one;
- ``carry``: a mano de vuelta's carried points (habanero): the deal's winner differs.

The rules page on puzzles explains each one (templates/rules/<lang>/puzzles.html).
"""

from __future__ import annotations

from games.engine import Action, GameState
from games.engine.cards import SUIT_OF

THEMES = ("cante", "last_trick", "capote", "arrastre", "keep_trump", "carry")


def _sung(state: GameState, seat: int) -> int:
    return sum(value for who, _suit, value in state.cantes if who == seat)


def _is_trump(action: Action, trump: int) -> bool:
    card = action.card
    return action.kind == "play" and card is not None and SUIT_OF[card.index] == trump


def _forces_trumping(start: GameState, seat: int, line: list[Action]) -> bool:
    """Whether, on ``line``, a card the player leads leaves the other seat nothing but trumps
    to play while it holds other cards."""
    state = start.clone()
    trump = state.trump
    for action in line:
        state.apply(action)
        if action.seat != seat or action.kind != "play" or len(state.trick) != 1:
            continue
        other = state.turn
        if other is None or other == seat:
            continue
        plays = [a for a in state.legal_actions_for(other) if a.kind == "play"]
        held = state.hands[other]
        if (
            plays
            and all(_is_trump(a, trump) for a in plays)
            and any(SUIT_OF[c] != trump for c in held)
        ):
            return True
    return False


def _end_of(start: GameState, line: list[Action]) -> GameState:
    state = start.clone()
    for action in line:
        state.apply(action)
    return state


def themes_of(
    *,
    start: GameState,
    seat: int,
    line: list[Action],
    solution_end: GameState,
    solution_rest: list[Action],
    second: Action,
    second_line: list[Action],
    steps: list[tuple[Action, Action]],
) -> list[str]:
    """The themes of a puzzle (see the module's docstring), in :data:`THEMES`' order."""
    other_end = _end_of(start, second_line)
    trump = start.trump
    found: set[str] = set()
    if _sung(solution_end, seat) > _sung(other_end, seat):
        found.add("cante")
    if solution_end.last_trick == seat and other_end.last_trick != seat:
        found.add("last_trick")
    if any(s.capote_seat is not None for s in (start, solution_end, other_end)):
        found.add("capote")
    if _forces_trumping(start, seat, line):
        found.add("arrastre")
    if any(not _is_trump(best, trump) and _is_trump(nxt, trump) for best, nxt in steps):
        found.add("keep_trump")
    if start.carry is not None and solution_end.deal_winner != other_end.deal_winner:
        found.add("carry")
    return [theme for theme in THEMES if theme in found]
