"""A competitive game with a player away (RULES.md §11), played through the services while
the clock travels (time-machine): each move time and the grace period pass in no time, and
the sweeper (`games.timers.sweep`) fires what is due, as in production."""

from __future__ import annotations

import random
import secrets
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import timers
from games.models import Game, ServerProcess, Table
from games.table import play, presence
from games.table.record import game_state
from tests.support.play import seated_table

PROCESS = "00000000-0000-4000-8000-0000000000a1"
MOVE_TIME = 30
STAKE = 100


def seated_and_connected(options: dict, players: int) -> tuple[Table, list]:
    """A competitive table of `options`, its game started, each player with a socket open."""
    table, users = seated_table({"move_time": MOVE_TIME, "stake": STAKE, **options}, players)
    play.game_start(table_id=table.pk, user=users[0])
    for seat, user in enumerate(users):
        presence.table_socket_open(
            table=Table.objects.get(pk=table.pk),
            user=user,
            channel_name=f"s{seat}",
            process_id=PROCESS,
            ip_address=None,
        )
    # The clock travels: the process holding the sockets must not be taken for dead.
    ServerProcess.objects.filter(pk=PROCESS).update(last_seen=timezone.now() + timedelta(days=1))
    return table, users


def game_of(table: Table) -> Game:
    return Table.objects.select_related("game").get(pk=table.pk).game


def play_on(table: Table, users: list, clock, *, present: set[int]) -> tuple[Game, list[float]]:
    """Play the table's game to its end: the `present` seats act at once (their first legal
    action), everything else when the sweeper fires it. Returns the game and how long the
    robot of an away (not abandoned) seat waited before each of its moves, in seconds."""
    waits = []
    for _ in range(3000):
        game = game_of(table)
        if game.status != Game.Status.PLAYING:
            return game, waits
        state = game_state(game=game)
        acting = [seat for seat in present if state.view(seat).legal_actions]
        if acting and not state.needs_deal:
            seat = acting[0]
            action = state.view(seat).legal_actions[0].to_dict()
            play.game_act(table_id=table.pk, user=users[seat], action=action)
            continue
        seat_row = (
            game.seats.get(seat=game.deadline_seat) if game.deadline_seat is not None else None
        )
        if seat_row is not None and seat_row.away_since is not None and not seat_row.abandoned:
            waits.append((game.deadline_at - timezone.now()).total_seconds())
        # The next thing due: a timer, or the grace period of an away player.
        due = [game.deadline_at] + [
            gs.abandon_at for gs in game.seats.all() if gs.abandon_at is not None
        ]
        clock.move_to(min(d for d in due if d is not None) + timedelta(milliseconds=1))
        timers.sweep()
    raise AssertionError("the game never ended")


def away_for_the_whole_game(options: dict, players: int, seed: int, away: int):
    """A seeded competitive game in which the player at seat `away` closes their tab at the
    first card and never comes back; the others play on."""
    rng = random.Random(seed)
    with (
        pytest.MonkeyPatch.context() as patch,
        time_machine.travel(timezone.now(), tick=False) as clock,
    ):
        # A seeded shuffle and seeded robots: the same game for the same seed.
        patch.setattr(secrets, "SystemRandom", lambda: rng)
        table, users = seated_and_connected(options, players)
        gone_at = timezone.now()
        presence.table_socket_close(channel_name=f"s{away}")
        present = set(range(players)) - {away}
        game, waits = play_on(table, users, clock, present=present)
        ended_at = timezone.now()
    return table, users, game, waits, (ended_at - gone_at).total_seconds()
