"""The books at the end of a fault run: every game finished, awarded once, the ledger balanced."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from bench.tools.faults.cluster import FAULT_ENV

# --- The books ------------------------------------------------------------------------------


def _running(table_ids: list[int]) -> dict[int, int]:
    from games.models import Game

    return {
        g.pk: g.action_count
        for g in Game.objects.filter(table_id__in=table_ids, status=Game.Status.PLAYING)
    }


def wait_for_the_end(
    table_ids: list[int], *, timeout: float, tick: Any = lambda: None
) -> dict[str, Any]:
    """Wait (at most `timeout` s) until no game of these tables runs and every finished game
    is awarded, calling `tick` every half second. Games still running then, whose action
    count did not move in the last 3 s, are lost."""
    from games.models import Game
    from rankings.models import GameResult

    deadline = time.monotonic() + timeout
    while True:
        finished = Game.objects.filter(table_id__in=table_ids, status=Game.Status.FINISHED)
        ids = list(finished.values_list("pk", flat=True))
        unawarded = GameResult.objects.filter(game_id__in=ids, awarded_at__isnull=True).count()
        missing = len(ids) - GameResult.objects.filter(game_id__in=ids).count()
        running = _running(table_ids)
        if (not running and not unawarded and not missing) or time.monotonic() > deadline:
            break
        tick()
        time.sleep(0.5)
    moving = 0
    if running:
        time.sleep(3)
        later = _running(table_ids)
        moving = sum(1 for pk, count in running.items() if later.get(pk, count) != count)
    return {"running_at_end": len(running), "still_moving": moving, "lost": len(running) - moving}


def check_books(table_ids: list[int]) -> dict[str, Any]:
    """The checks of issue #15 on what the run left in the database."""
    from django.db.models import Count

    from games.engine import IllegalAction, from_record
    from games.models import Game
    from games.replays import game_replay
    from games.table.record import game_record
    from rankings.models import (
        BoardRow,
        ChipAccount,
        ChipTransfer,
        GameResult,
        GameResultSeat,
        XpEvent,
    )
    from rankings.selectors import ledger_mismatches, ledger_totals

    games = Game.objects.filter(table_id__in=table_ids)
    finished = list(games.filter(status=Game.Status.FINISHED))
    ids = [g.pk for g in finished]
    results = {r.game_id: r for r in GameResult.objects.filter(game_id__in=ids)}

    # Awards: each finished game has one result, awarded once.
    doubles = []
    for reason in (ChipTransfer.Reason.PAYOUT, ChipTransfer.Reason.REFUND):
        doubles += [
            f"game {row['game_id']}: {row['n']} {reason} transfers"
            for row in ChipTransfer.objects.filter(game_id__in=ids, reason=reason)
            .values("game_id")
            .annotate(n=Count("pk"))
            .filter(n__gt=1)
        ]
    doubles += [
        f"game {row['game_id']}: {row['n']} XP events for player {row['user_id']}"
        for row in XpEvent.objects.filter(game_id__in=ids)
        .values("game_id", "user_id")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
    ]
    doubles += [
        f"game {row['game_id']}: {row['n']} stakes for one seat"
        for row in ChipTransfer.objects.filter(game_id__in=ids, reason=ChipTransfer.Reason.STAKE)
        .values("game_id", "entries__source")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
    ]
    # Every game counted on the all-time board once: its games column against the results.
    counted = Counter(
        GameResultSeat.objects.filter(
            result__awarded_at__isnull=False,
            result__competitive=True,
            result__exclusion="",
            user__isnull=False,
        ).values_list("user_id", flat=True)
    )
    board = dict(
        BoardRow.objects.filter(period=BoardRow.Period.ALL, variant="").values_list(
            "user_id", "games"
        )
    )
    doubles += [
        f"player {user}: {board.get(user, 0)} games on the board, {n} awarded"
        for user, n in counted.items()
        if board.get(user, 0) != n
    ]
    competitive = [g for g in finished if g.competitive and g.stake]
    pots = dict(
        ChipAccount.objects.filter(
            kind=ChipAccount.Kind.POT, game_id__in=[g.pk for g in competitive]
        ).values_list("game_id", "balance")
    )
    unpaid_pots = [pk for pk, balance in pots.items() if balance and results[pk].awarded_at]

    # The ledger: what players, pots and bank hold equals every chip the grants account gave
    # (rankings' own totals, from the cached balances; the entries are checked below).
    totals = ledger_totals()
    held = totals.players + totals.pots + totals.bank

    # Replays: every finished game's record gives its stored result, through the engine and
    # through the replay page's code.
    not_replaying = []
    broken = []  # games whose stored record is no game at all: the first illegal action
    for game in games.filter(status=Game.Status.PLAYING):
        try:
            from_record(game_record(game=game))
        except IllegalAction as exc:
            broken.append(f"game {game.pk} action {exc.index} {exc.action}: {exc}")
            not_replaying.append(game.pk)
    for game in finished:
        try:
            outcome = from_record(game_record(game=game)).outcome()
        except IllegalAction as exc:
            broken.append(f"game {game.pk} action {exc.index} {exc.action}: {exc}")
            not_replaying.append(game.pk)
            continue
        replayed = game_replay(game=game)["result"]
        stored = game.result or {}
        if (
            not outcome.over
            or outcome.winner != stored.get("winner")
            or list(outcome.score) != stored.get("score")
            or replayed["winner"] != stored.get("winner")
            or replayed["score"] != stored.get("score")
        ):
            not_replaying.append(game.pk)
    by_kind = Counter(g.table.variant for g in finished)
    return {
        "games": games.count(),
        "finished": len(finished),
        "finished_by_variant": dict(by_kind),
        "cancelled": games.filter(status=Game.Status.CANCELLED).count(),
        "competitive_finished": len(competitive),
        "results": len(results),
        "missing_results": len(set(ids) - set(results)),
        "awarded": sum(1 for r in results.values() if r.awarded_at is not None),
        "unawarded": sum(1 for r in results.values() if r.awarded_at is None),
        # Awarded only after the sweep's age: the award task was lost (or late) and the
        # sweep paid it.
        "awarded_by_the_sweep": sum(
            1
            for r in results.values()
            if r.awarded_at is not None
            and (r.awarded_at - r.submitted_at).total_seconds()
            >= float(FAULT_ENV["RANKINGS_AWARD_SWEEP_AFTER_SECONDS"])
        ),
        "double_awards": len(doubles),
        "first_double_awards": doubles[:5],
        "unpaid_pots": len(unpaid_pots),
        "chips_granted": totals.granted,
        "chips_held": held,
        "held_by_players": totals.players,
        "in_pots": totals.pots,
        "bank": totals.bank,
        "ledger_imbalance": held - totals.granted,
        "balances_not_matching_entries": len(ledger_mismatches()),
        "records_not_replaying": len(not_replaying),
        "first_records_not_replaying": broken[:3],
    }
