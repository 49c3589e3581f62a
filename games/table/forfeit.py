"""Who wins a game that a player abandoned (RULES.md §11): the abandoner loses, whatever the
cards say.

The engine knows only the cards; abandonment is the table's. A finished game's winner is
settled here once, and everything downstream reads that one winner: the game's result, each
seat's outcome, the rating, the XP, the pot, the trophies and the arena's points.

- With two sides (a 2-player game, or pairs), a side with an abandoner loses and the other
  side wins: it takes the pot less the bank's share, and the winner's XP.
- At 3 or 4 players alone, the best of those who did not abandon wins, by the game's own
  result: the game's score (deals or points won), then, where deals are won, the points of
  the last deal; players still equal share the win, as a pocha tie does.
- When every side has an abandoner, nobody wins.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from games.engine import GameState

Winner = int | list[int] | None


def settled_winner(
    *,
    winner: Winner,
    sides: int,
    score: Sequence[int],
    last_points: Sequence[int | None] | None,
    forfeited: Collection[int],
) -> Winner:
    """The winning side (or sides, tied) of a finished game whose sides in `forfeited` hold
    a player who abandoned; `winner` is the cards' winner, `score` the game's score by side,
    `last_points` the last deal's points by side (None where no deal is won on points).

    >>> settled_winner(winner=0, sides=2, score=[1, 0], last_points=[80, 50], forfeited={0})
    1
    >>> settled_winner(winner=1, sides=3, score=[0, 1, 0], last_points=[40, 70, 20],
    ...                forfeited={1})
    0
    >>> settled_winner(winner=[0, 2], sides=3, score=[90, 40, 90], last_points=None,
    ...                forfeited={2})
    0
    >>> settled_winner(winner=0, sides=2, score=[1, 0], last_points=None, forfeited={0, 1})
    """
    if not forfeited:
        return winner
    others = [side for side in range(sides) if side not in forfeited]
    if not others:
        return None

    def rank(side: int) -> tuple[int, int]:
        points = last_points[side] if last_points is not None else None
        return (score[side], points or 0)

    top = max(rank(side) for side in others)
    best = [side for side in others if rank(side) == top]
    return best[0] if len(best) == 1 else best


def game_winner(state: GameState, abandoned: Collection[int]) -> Winner:
    """The winner of the finished game `state`, the seats in `abandoned` having abandoned."""
    rules = state.rules
    outcome = state.outcome()
    summaries = state.deal_summaries()
    last_points = summaries[-1]["points"] if summaries and not rules.bids else None
    return settled_winner(
        winner=outcome.winner,
        sides=rules.sides,
        score=outcome.score,
        last_points=last_points,
        forfeited={state.side_of[seat] for seat in abandoned},
    )
