"""Helpers of the arena tests: an arena of short habanero games, and its games played out."""

import random
import uuid
from datetime import timedelta

from django.utils import timezone

from bench.support.arena_client import short_arena
from games import timers
from games.arenas.models import Arena, ArenaGame, ArenaSocket
from games.models import Game, ServerProcess
from games.table import play
from games.table.record import game_state


def habanero_arena(**fields) -> Arena:
    """A running arena of one-deal habanero, started a minute ago, ten minutes long."""
    values = {
        "name": "Test arena",
        "move_time": 30,
        "closing": timedelta(minutes=1),
        "pairing_wait": timedelta(seconds=60),
        "status": Arena.Status.RUNNING,
        **fields,
    }
    return short_arena(seconds=600, starts_in=-60, **values)


def play_out(game: Game, users_by_id: dict, rng: random.Random) -> Game:
    """Random legal actions, each sent by its own player, until the game is over."""
    table_id = game.table_id
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        state = game_state(game=game)
        seats = {gs.seat: gs.user_id for gs in game.seats.all() if not gs.abandoned}
        if state.needs_deal:
            play.game_next_deal(table_id=table_id, user=users_by_id[next(iter(seats.values()))])
            continue
        legal = [
            (seat, actions) for seat, actions in state.legal_actions().items() if seat in seats
        ]
        if not legal:  # a robot plays the seat of who abandoned, when its timer is due
            timers.sweep(now=timezone.now() + timedelta(seconds=1))
            continue
        seat, actions = rng.choice(sorted(legal))
        play.game_act(
            table_id=table_id, user=users_by_id[seats[seat]], action=rng.choice(actions).to_dict()
        )


def running_games(arena: Arena) -> list[Game]:
    return [
        g.game
        for g in ArenaGame.objects.filter(arena=arena, game__status=Game.Status.PLAYING)
        .select_related("game")
        .order_by("pk")
    ]


def present(arena: Arena, *users) -> None:
    """Each of `users` has the arena's page open (an arena socket), as the pairing asks."""
    process, _created = ServerProcess.objects.get_or_create(
        id=uuid.UUID(int=arena.pk), defaults={"last_seen": timezone.now()}
    )
    for user in users:
        ArenaSocket.objects.create(
            channel_name=f"test-{arena.pk}-{user.pk}", arena=arena, user=user, process=process
        )


def joined(arena: Arena, users, *, watching=True) -> None:
    """Each of `users` joins the arena (from an address of their own) and, when `watching`,
    has its page open."""
    from games.arenas.services import arena_join

    for n, user in enumerate(users):
        arena_join(arena_id=arena.pk, user=user, ip_address=f"198.51.100.{n + 1}")
    if watching:
        present(arena, *users)


def finished_arena(users, *, seed: int = 3) -> Arena:
    """An arena of `users` (an even number) who each play one game, then the time is up and
    the tick ends it: ranks, podium and prizes."""
    from games.arenas.services import arena_pause, arena_tick

    by_id = {user.pk: user for user in users}
    arena = habanero_arena(entry=10)
    joined(arena, users)
    arena_tick()
    rng = random.Random(seed)
    for game in running_games(arena):
        play_out(game, by_id, rng)
    for user in users:
        arena_pause(arena_id=arena.pk, user=user)
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=11))
    for _tick in range(5):  # the last games scored, then the end
        if arena_tick()["finished"]:
            break
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    return arena
