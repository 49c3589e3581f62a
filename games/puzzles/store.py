"""Mining finished games into stored puzzles: once per game, never a puzzle twice.

`puzzles_mine_game` runs on the slow lane after a game's analysis (games/tasks.py queues it),
or from the sweep and the `mine_puzzles` command. The search runs outside any transaction;
the game's `MinedGame` row and its puzzles are then written in one transaction. Run twice
(a task delivered twice, two workers), the second finds the row, or loses the race on its
unique game and on each puzzle's unique key, and stores nothing.
"""

from __future__ import annotations

import logging
import operator
import time
from datetime import datetime, timedelta
from functools import reduce

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet

from games.engine import InvalidRecord
from games.engine.options import PLAYERS_ALLOWED, VARIANTS, Options
from games.models import Game, GameSeat
from games.options import variant_players

from .mining import mine_record
from .models import MinedGame, Puzzle, PuzzleTheme

logger = logging.getLogger(__name__)

# The sweep looks this far back for a finished game still not mined, and leaves alone those
# that ended too recently (their analysis, then their mining, is still on its way).
SWEEP_WITHIN = timedelta(days=2)
SWEEP_AFTER = timedelta(minutes=10)
SWEEP_BATCH = 20
# The games mined, (variant, players): those whose rules have a stock, for once it is empty
# every card is known and the solver gives every action its value (games/puzzles/mining.py).
# The engine says which: 2-player tute and habanero.
MINED = tuple(
    (variant, players)
    for variant in VARIANTS
    for players in PLAYERS_ALLOWED[variant]
    if Options.from_dict({"variant": variant, "players": players}).rules.has_stock
)


def puzzles_mine_game(*, game_id: int) -> int | None:
    """Mine a finished game's record for puzzles and store them; how many it gave (0 for a
    game without any, or not of `MINED`), None for a game not finished. Locks nothing
    while it searches (seconds of CPU on the slow lane)."""
    if MinedGame.objects.filter(game_id=game_id).exists():
        return MinedGame.objects.get(game_id=game_id).puzzles
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return None
    started = time.process_time()
    found = []
    if (game.variant, game.players) in MINED and game.record.get("deals"):
        try:
            found = mine_record(game.record, source=f"g{game.pk}")
        except InvalidRecord:
            logger.warning("game %s: its record does not replay; not mined", game_id)
    seconds = time.process_time() - started
    try:
        with transaction.atomic():
            MinedGame.objects.create(game=game, puzzles=len(found), seconds=seconds)
            # A puzzle stored before (the game mined again after its row was deleted) stays
            # as it is, with its rating and tries.
            known = set(
                Puzzle.objects.filter(key__in=[d["key"] for d in found]).values_list(
                    "key", flat=True
                )
            )
            found = [data for data in found if data["key"] not in known]
            stored = Puzzle.objects.bulk_create(
                [
                    Puzzle(
                        key=data["key"],
                        game=game,
                        variant=data["variant"],
                        record=data["record"],
                        seat=data["seat"],
                        line=data["line"],
                        steps=data["steps"],
                        rest=data["rest"],
                        outcome=data["outcome"],
                        gap=data["gap"],
                        loss=data["loss"],
                    )
                    for data in found
                ]
            )
            PuzzleTheme.objects.bulk_create(
                PuzzleTheme(puzzle=puzzle, code=code)
                for puzzle, data in zip(stored, found, strict=True)
                for code in data["themes"]
            )
    except IntegrityError:
        # Mined at the same time elsewhere: that one stored them.
        return MinedGame.objects.get(game_id=game_id).puzzles
    return len(found)


def _of(variant: str, players: int) -> Q:
    """The games of `variant` at `players`, as `Game.players` reads them: options that do
    not say how many play mean the variant's default."""
    said = Q(options__players=players)
    if variant_players(variant) == players:
        said |= Q(options__players__isnull=True)
    return Q(variant=variant) & said


def unmined_games() -> QuerySet[Game]:
    """Finished games of `MINED` never mined."""
    return (
        Game.objects.filter(status=Game.Status.FINISHED)
        .filter(reduce(operator.or_, (_of(variant, players) for variant, players in MINED)))
        .filter(~Exists(MinedGame.objects.filter(game=OuterRef("pk"))))
    )


def games_unmined(*, now: datetime) -> list[int]:
    """Finished 2-player games of the last two days not yet mined, older than ten minutes:
    analysed ones whose mining task was lost, and guests' practice games, which are never
    analysed (the mining of the others waits for their analysis)."""
    analysed_or_guests = Q(analysis__isnull=False) | Q(
        Exists(GameSeat.objects.filter(game=OuterRef("pk"), user__is_guest=True))
    )
    return list(
        unmined_games()
        .filter(finished_at__gte=now - SWEEP_WITHIN, finished_at__lte=now - SWEEP_AFTER)
        .filter(analysed_or_guests)
        .order_by("finished_at")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
