"""The fault tool's arena run: an arena of one-deal habanero played by protocol clients
(bench/support/arena_client.py) over real WebSockets on two daphne processes, a Celery worker, beat
and a Redis of its own, while each of them is killed (SIGKILL) and started again. Then the
books: the arena ended, every game of it was scored once and awarded once, each player's
score is the sum of their games', the pot was paid once and is empty, and the chips ledger
balances (bench/tools/faults/'s checks on the arena's tables besides).

    DATABASE_URL=postgres://... python -m bench.tools.arena_faults \
        --players 8 --seconds 90 --kills 4

It plays on a throwaway database of its own, as `python -m bench.tools.faults` does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import time
from pathlib import Path
from typing import Any

from bench.support.arena_client import ArenaPlayer, short_arena
from bench.tools.faults.books import check_books, wait_for_the_end
from bench.tools.faults.cluster import Cluster
from bench.tools.faults.play import FAULT_KINDS, do_faults, fault_plan, supervise
from bench.tools.faults.run import on_throwaway_database, report

ENTRY = 10


class ArenaCluster(Cluster):
    """The fault tool's processes, behind one trusted proxy: each client names its own
    address (a game between two players of one address would score nothing)."""

    def env(self) -> dict[str, str]:
        return {**super().env(), "TRUSTED_PROXY_COUNT": "1"}


def make_arena(players: int, seconds: float) -> tuple[int, list[tuple[str, str]]]:
    """An arena starting in 2 s and its players, each with chips for the entry: (its id,
    [(session cookie, username)])."""
    from bench.support.client import session_cookie
    from bench.support.players import new_player

    arena = short_arena(seconds=seconds, name="Faults arena", entry=ENTRY)
    clients = []
    for _n in range(players):
        user = new_player(chips=100)
        clients.append((session_cookie(user), user.username))
    return arena.pk, clients


async def play_arena_with_faults(
    cluster: Cluster,
    arena_id: int,
    clients: list[tuple[str, str]],
    *,
    seconds: float,
    kills: int,
    seed: int,
    kinds: tuple[str, ...],
    settle: float,
) -> dict[str, Any]:
    """The clients play the arena to its end while the faults happen (between 10% and 70%
    of its length). Returns what they and the faults measured."""
    rng = random.Random(seed)
    players = [
        ArenaPlayer(
            cluster.urls,
            arena_id,
            session=session,
            username=username,
            rng=random.Random(rng.random()),
            forwarded_for=f"198.51.100.{n + 1}",
        )
        for n, (session, username) in enumerate(clients)
    ]
    start = time.monotonic()
    faults: list[dict[str, Any]] = []

    plan = fault_plan(seconds, kills, rng, kinds)
    supervisor = asyncio.ensure_future(supervise(cluster))
    fault_task = asyncio.ensure_future(
        do_faults(cluster, plan, rng=rng, start=start, faults=faults)
    )
    try:
        finals = await asyncio.wait_for(
            asyncio.gather(*(p.run() for p in players)), seconds + settle
        )
    finally:
        fault_task.cancel()
        supervisor.cancel()
    return {
        "bench": "arena-faults",
        "faults": faults,
        "play_s": round(time.monotonic() - start, 1),
        "clients": len(players),
        "reconnects": sum(p.tally.reconnects for p in players),
        "acts_sent": sum(p.tally.acts for p in players),
        "frames": sum(p.tally.frames for p in players),
        "podiums_seen": len({json.dumps(f["podium"]) for f in finals}),
    }


def check_arena_books(arena_id: int) -> dict[str, Any]:
    """What the arena left in the database, counted."""
    from django.db.models import Count, Sum

    from games.arenas.models import Arena, ArenaGame, ArenaResult
    from games.arenas.models import ArenaPlayer as Joined
    from rankings.models import ChipAccount, ChipTransfer, TrophyAward

    arena = Arena.objects.get(pk=arena_id)
    games = ArenaGame.objects.filter(arena=arena)
    per_game = games.annotate(n=Count("results")).values_list("n", flat=True)
    sums = dict(
        ArenaResult.objects.filter(player__arena=arena)
        .values("player_id")
        .annotate(total=Sum("points"))
        .values_list("player_id", "total")
    )
    players = list(Joined.objects.filter(arena=arena))
    return {
        "arena_finished": arena.status == Arena.Status.FINISHED,
        "arena_games": games.count(),
        "unscored": games.filter(scored_at__isnull=True).count(),
        "games_not_scored_once": sum(1 for n in per_game if n != arena.players),
        "doubled_results": ArenaResult.objects.filter(player__arena=arena, doubled=True).count(),
        "scores_not_matching_games": sum(1 for p in players if p.score != sums.get(p.pk, 0)),
        "arena_pot_left": ChipAccount.objects.filter(arena_id=arena_id)
        .values_list("balance", flat=True)
        .first(),
        "arena_payouts": ChipTransfer.objects.filter(key=f"arena-payout:{arena_id}").count(),
        "arena_entries": ChipTransfer.objects.filter(
            key__startswith=f"arena-entry:{arena_id}:"
        ).count(),
        "podium_trophies": TrophyAward.objects.filter(
            user__arena_entries__arena=arena, trophy__startswith="arena"
        ).count(),
        "table_ids": list(games.values_list("table_id", flat=True)),
    }


def run_arena_with_cluster(
    database_url: str,
    workdir: Path,
    *,
    players: int,
    seconds: float,
    kills: int,
    seed: int,
    kinds: tuple[str, ...] = FAULT_KINDS,
    settle: float = 60.0,
) -> list[dict[str, Any]]:
    """The whole arena run on an existing (test) database: the report's lines."""
    from django.db import connections

    cluster = ArenaCluster(workdir, database_url)
    try:
        cluster.start()
        arena_id, clients = make_arena(players, seconds)
        connections.close_all()
        play = asyncio.run(
            play_arena_with_faults(
                cluster,
                arena_id,
                clients,
                seconds=seconds,
                kills=kills,
                seed=seed,
                kinds=kinds,
                settle=settle,
            )
        )
        arena_books = check_arena_books(arena_id)
        table_ids = arena_books.pop("table_ids")
        end = wait_for_the_end(table_ids, timeout=30, tick=cluster.supervise)
        books = check_books(table_ids)
    finally:
        cluster.stop()
        connections.close_all()
    lines = report(cluster, play, end, books)
    lines[0] = {k: v for k, v in play.items() if k != "faults"}
    lines.append({"bench": "arena-books", **arena_books})
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=90.0, help="the arena's length")
    parser.add_argument("--kills", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = on_throwaway_database(
        "arena_faults",
        lambda url, workdir: run_arena_with_cluster(
            url,
            workdir,
            players=args.players,
            seconds=min(args.seconds, 600),
            kills=args.kills,
            seed=args.seed,
        ),
    )
    for line in lines:
        print(json.dumps(line, default=str), flush=True)
    shutil.rmtree(lines[-1]["workdir"], ignore_errors=True)


if __name__ == "__main__":
    main()
