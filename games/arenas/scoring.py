"""An arena game's score, counted once when the game is over.

The rule (the rules page, /rules/tables/, writes it for players): a won game scores 2 and a
lost one 0; after two wins in a row a player is on a streak and each further win scores
double (4), until a game that is not a win. Partners who win in pairs each score. A player
who abandoned lost (RULES.md §11) and is paused. A cancelled game scores nobody and leaves
the streaks as they were; so does a game where two players shared an address, which counts
toward no leaderboard either.

`arena_game_score` is idempotent: it locks the arena game's row and does nothing for one
already scored; `ArenaResult` is unique per game and player besides.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games.arenas.frames import arena_push_on_commit
from games.arenas.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from games.models import Game, GameSeat
from games.table.seating import table_done

WIN_POINTS = 2
STREAK_FROM = 2  # wins in a row after which a win counts double


@dataclass(frozen=True)
class Score:
    points: int
    doubled: bool
    streak: int  # wins in a row after this game


def game_score(*, won: bool, streak: int) -> Score:
    """What a game scores a player who had won `streak` games in a row before it.

    >>> game_score(won=True, streak=0), game_score(won=True, streak=2)
    (Score(points=2, doubled=False, streak=1), Score(points=4, doubled=True, streak=3))
    >>> game_score(won=False, streak=5)
    Score(points=0, doubled=False, streak=0)
    """
    if not won:
        return Score(points=0, doubled=False, streak=0)
    doubled = streak >= STREAK_FROM
    return Score(points=WIN_POINTS * (2 if doubled else 1), doubled=doubled, streak=streak + 1)


@transaction.atomic
def arena_game_score(*, game_id: int) -> bool:
    """Count the arena game `game_id` once it is over: each player's points, games and
    streak, the players free again, the table closed. True when this call scored it.

    Locks the arena's row, then the arena game's, then the table's."""
    found = ArenaGame.objects.filter(game_id=game_id).values_list("arena_id", flat=True).first()
    if found is None:
        return False
    arena = Arena.objects.select_for_update().get(pk=found)
    arena_game = ArenaGame.objects.select_for_update().get(game_id=game_id)
    game = Game.objects.get(pk=game_id)
    if arena_game.scored_at is not None or game.status == Game.Status.PLAYING:
        return False
    now = timezone.now()
    seats = list(GameSeat.objects.filter(game=game, user__isnull=False))
    players = {
        p.user_id: p
        for p in ArenaPlayer.objects.select_for_update().filter(
            arena=arena, user_id__in=[s.user_id for s in seats]
        )
    }
    counts = game.status == Game.Status.FINISHED and not game.shared_ip
    results = []
    for seat in seats:
        player = players[seat.user_id]
        if counts:
            score = game_score(won=seat.outcome == GameSeat.Outcome.WON, streak=player.streak)
            player.score += score.points
            player.games += 1
            player.wins += seat.outcome == GameSeat.Outcome.WON
            player.streak = score.streak
            results.append(
                ArenaResult(
                    arena_game=arena_game,
                    player=player,
                    won=seat.outcome == GameSeat.Outcome.WON,
                    points=score.points,
                    doubled=score.doubled,
                )
            )
        player.playing = None
        player.free_since = now
        player.paused = player.paused or seat.abandoned
        player.last_opponents = [s.user_id for s in seats if s.user_id != seat.user_id]
    ArenaResult.objects.bulk_create(results)
    ArenaPlayer.objects.bulk_update(
        players.values(),
        ["score", "games", "wins", "streak", "playing", "free_since", "paused", "last_opponents"],
    )
    arena_game.scored_at = now
    arena_game.save(update_fields=["scored_at"])
    # An arena table plays one game: once it is over, the table closes.
    table_done(table_id=arena_game.table_id)
    arena_push_on_commit(arena.pk)
    return True


def game_arena_points(*, game_id: int) -> dict | None:
    """What the game `game_id` earned each of its players in its arena, for the game's
    summary: None when it is no arena game; else the arena (`name`, `url`), whether it is
    `scored` yet, and by user id the `points` it scored and whether they were `doubled`
    (a win on a streak). A scored game that counted for nobody (cancelled, or played from
    one address) has no points."""
    arena_game = ArenaGame.objects.select_related("arena").filter(game_id=game_id).first()
    if arena_game is None:
        return None
    results = ArenaResult.objects.filter(arena_game=arena_game).values_list(
        "player__user_id", "points", "doubled"
    )
    return {
        "name": arena_game.arena.name,
        "url": arena_game.arena.get_absolute_url(),
        "scored": arena_game.scored_at is not None,
        "points": {user: {"points": n, "doubled": d} for user, n, d in results},
    }


def arena_unscored_games(*, arena_id: int) -> list[int]:
    """Ids of the arena's games that are over but not scored yet (their score was lost
    with a worker, or is on its way)."""
    return list(
        ArenaGame.objects.filter(arena_id=arena_id, scored_at__isnull=True)
        .exclude(game__status=Game.Status.PLAYING)
        .values_list("game_id", flat=True)
    )
