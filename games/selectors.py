"""Reads about games. The engine state is rebuilt from the stored record, never stored."""

from django.db.models import Q, QuerySet

from accounts.models import User
from games.engine import GameState, from_record
from games.models import Game, GameSeat


def game_state(*, game: Game) -> GameState:
    """The engine state of a stored game, rebuilt from its record."""
    return from_record(game.record)


def game_outcome(*, game: Game) -> dict:
    """The result the record gives: {"over", "winner", "score"}, as the replay command says it."""
    outcome = game_state(game=game).outcome()
    return {"over": outcome.over, "winner": outcome.winner, "score": list(outcome.score)}


# --- A player's games, for their profile ------------------------------------------------


def players_with_profile() -> QuerySet[User]:
    """Everyone who has a public profile: the players. Staff accounts (moderators, the
    superuser) are not players: they have one only once they have sat at a game."""
    return User.objects.filter(Q(is_staff=False) | Q(pk__in=GameSeat.objects.values("user_id")))


def player_recent_games(*, user: User, limit: int = 20) -> QuerySet[GameSeat]:
    return (
        GameSeat.objects.filter(user=user)
        .select_related("game")
        .order_by("-game__created_at", "-game__pk")[:limit]
    )
