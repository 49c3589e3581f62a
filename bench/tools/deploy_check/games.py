"""The deploy check's games: played through nginx by players at addresses of their own (or
forged), and their books checked."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from bench.tools.deploy_check.proxy import (
    STAKE,
    socket_options,
)
from bench.tools.faults.play import Control, Player, TableSpec, Tally

# --- The games ------------------------------------------------------------------------------


def make_table(players: list[Any]) -> TableSpec:
    """A competitive one-deal habanero table at a stake, both seated."""
    from bench.support.client import session_cookie
    from games.table import seating

    options = {"variant": "habanero", "players": 2, "points_to_win": 1, "rounds": 1}
    table = seating.table_create(
        master=players[0], options={**options, "move_time": 30, "stake": STAKE}
    )
    seating.table_sit(table_id=table.pk, user=players[1])
    return TableSpec(table.pk, [session_cookie(user) for user in players], "habanero")


async def play_one_game(
    url: str,
    spec: TableSpec,
    addresses: list[str],
    *,
    forged: bool,
    kill: Any = None,
    timeout: float = 120,
) -> dict[str, Any]:
    """Both seats play one game through nginx; `kill()` is called once, after the game's
    fifth action. The clients' tally."""
    control, tally = Control(), Tally()
    players = [
        Player(
            [url],
            spec,
            session,
            master=seat == 0,
            rng=random.Random(seat),
            tally=tally,
            control=control,
            connect_options=socket_options(addresses[seat], forged),
        )
        for seat, session in enumerate(spec.sessions)
    ]
    # The others connect first, as players who sat down have their table open: the master
    # starts once every seat's socket has told the site its address.
    tasks = [asyncio.create_task(player.run()) for player in players[1:]]
    while tally.connects < len(players) - 1:
        await asyncio.sleep(0.05)
    tasks.append(asyncio.create_task(players[0].run()))
    killed = False
    started = time.monotonic()
    try:
        while True:
            latest = control.latest.get(spec.table_id)
            game = latest and latest["game"]
            if game:
                control.no_new_games.set()  # this game is the table's one
                if game["status"] != "playing":
                    break
            if kill is not None and not killed and game and latest["count"] >= 5:
                killed = True
                await asyncio.to_thread(kill)
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"table {spec.table_id}: the game did not end")
            await asyncio.sleep(0.1)
    finally:
        control.done.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"connects": tally.connects, "closed": tally.closed, "killed": killed}


def game_books(table_id: int) -> dict[str, Any]:
    """What the table's one finished game left: its result, boards and ratings."""
    from games.models import Game, GameSeat
    from rankings.models import BoardRow, ChipTransfer, GameResult, RatingChange, XpEvent

    game = Game.objects.get(table_id=table_id, status=Game.Status.FINISHED)
    deadline = time.monotonic() + 60
    while True:
        result = GameResult.objects.filter(game_id=game.pk).first()
        if result is not None and result.awarded_at is not None:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"game {game.pk} was never awarded")
        time.sleep(0.2)
    users = list(GameSeat.objects.filter(game=game).values_list("user_id", flat=True))
    return {
        "game": game.pk,
        "addresses": sorted(
            str(address)
            for address in GameSeat.objects.filter(game=game).values_list("ip_address", flat=True)
        ),
        "exclusion": result.exclusion,
        "payouts": ChipTransfer.objects.filter(game_id=game.pk, reason="payout").count(),
        "xp_events": XpEvent.objects.filter(game_id=game.pk).count(),
        "rating_changes": RatingChange.objects.filter(game_id=game.pk).count(),
        "on_boards": BoardRow.objects.filter(user_id__in=users, games__gt=0).count(),
    }
