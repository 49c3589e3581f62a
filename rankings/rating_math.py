"""The rating math, apart from its storage (rankings/ratings.py): openskill's Plackett-Luce
model, a player's state (mu, sigma, games), one game rated from the states before it, each
side's chance to win, and the number players see. No database here: a rebuild of every rating
from the stored results runs the same functions.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from openskill.models import PlackettLuce


class RatedSeat(Protocol):
    """What the math reads of a seat of a rated game (a GameResultSeat)."""

    seat: int
    side: int
    user_id: int
    won: bool
    abandoned: bool


# Plackett-Luce, openskill's default: it rates teams and free-for-all from a ranking alone
# (all a tute result gives: who won, who lost, who abandoned) and is its fastest model.
MODEL = PlackettLuce()

PROVISIONAL_GAMES = 10
# Above this sigma (it starts at 25/3 ≈ 8.33) the rating is still a guess.
PROVISIONAL_SIGMA = 7.5


def shown_value(mu: float, sigma: float) -> int:
    """The number players see: the ordinal mu - 3 sigma, scaled so a new player shows 1000.

    >>> shown_value(25.0, 25.0 / 3)
    1000
    >>> shown_value(30.0, 3.0)
    1630
    """
    return round(1000 + 30 * (mu - 3 * sigma))


def is_provisional(*, games: int, sigma: float) -> bool:
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA


@dataclass(frozen=True)
class State:
    """A player's rating at one moment: what the next game is rated from."""

    mu: float
    sigma: float
    games: int

    @property
    def value(self) -> int:
        return shown_value(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return is_provisional(games=self.games, sigma=self.sigma)


NEW = State(mu=MODEL.mu, sigma=MODEL.sigma, games=0)


def _teams(seats: Sequence[RatedSeat]) -> list[tuple[list[int], int]]:
    """The game as openskill sees it: teams of user ids, in seat order, and their rank (1
    won, 2 lost). An abandoner is rated as the loser, in a team of their own ranked last, so
    a partner who stayed keeps their side's result."""
    teams: dict[tuple[int, bool], list[int]] = {}
    for seat in sorted(seats, key=lambda seat: seat.seat):
        teams.setdefault((seat.side, seat.abandoned), []).append(seat.user_id)
    won = {seat.side for seat in seats if seat.won}
    return [
        (users, 3 if abandoned else (1 if side in won else 2))
        for (side, abandoned), users in teams.items()
    ]


def rate_game(seats: Sequence[RatedSeat], before: dict[int, State]) -> dict[int, State]:
    """Each player's state after the game, from their state before it (the one rule)."""
    teams = _teams(seats)
    rated = MODEL.rate(
        [
            [MODEL.rating(mu=before[u].mu, sigma=before[u].sigma) for u in users]
            for users, _ in teams
        ],
        ranks=[rank for _, rank in teams],
    )
    return {
        user_id: State(mu=new.mu, sigma=new.sigma, games=before[user_id].games + 1)
        for (users, _), team in zip(teams, rated, strict=True)
        for user_id, new in zip(users, team, strict=True)
    }


def win_chances(sides: Sequence[Sequence[State]]) -> list[float]:
    """Each side's chance to win, from its players' ratings (openskill's prediction)."""
    return MODEL.predict_win(
        [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    )
