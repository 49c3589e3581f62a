"""What the live-play tests share: seated tables, games played to their end by random
legal moves, and a table socket's pushes read and refused."""

import random
from datetime import timedelta

from channels.db import database_sync_to_async as sync_to_async
from django.utils import timezone

from accounts.models import User
from games.engine import new_game
from games.models import Game, Table
from games.table import play, robots, seating
from games.table.frames import socket_state
from games.table.play import game_act, game_next_deal
from games.table.record import game_state
from tests.support.factories import UserFactory
from tests.support.live import WAIT, table_socket


def first_state(table_id: int, user: User | None) -> dict:
    """The whole state a table socket of `user` gets as it connects, as the consumer reads it
    (games/sockets/table.py: `socket_state`, a spectator's `may` narrowed)."""
    frame, _facts = socket_state(table_id=table_id, user=user)
    return frame


def finish(table_id: int, user: User) -> None:
    """Play the table's game to its end: each player seat its first legal action, the robots
    on their timers, `user` dealing the next deal."""
    while True:
        game = Table.objects.get(pk=table_id).game
        if game.status != Game.Status.PLAYING:
            return
        state = game_state(game=game)
        if state.needs_deal:
            game_next_deal(table_id=table_id, user=user)
            continue
        seat = next(n for n in range(state.rules.players) if state.view(n).legal_actions)
        game_seat = game.seats.get(seat=seat)
        if game_seat.user is None:
            later = timezone.now() + timedelta(minutes=5)
            robots.game_timer_fire(game_id=game.pk, count=game.action_count, now=later)
            continue
        action = state.view(seat).legal_actions[0]
        game_act(table_id=table_id, user=game_seat.user, action=action.to_dict())


async def next_push(socket) -> dict:
    """The next update pushed to `socket` by a change."""
    while True:
        frame = await socket.receive_json_from(timeout=WAIT)
        if frame["type"] == "update":
            return frame


async def current(socket) -> dict:
    await socket.send_json_to({"type": "sync"})
    while True:
        frame = await socket.receive_json_from(timeout=WAIT)
        if frame["type"] == "state" and frame["event"] is None:
            return frame


async def move(sockets) -> list[dict]:
    """A seat that may act sends its first legal action, from a fresh state (or deals the
    next deal, when one ended). Returns the push each socket got for it."""
    for socket in sockets:
        mine = await current(socket)
        view = mine["game"]["view"]
        if view["legal_actions"]:
            action = view["legal_actions"][0]
            await socket.send_json_to({"type": "act", "action": action, "count": mine["count"]})
            break
    else:
        assert view["needs_deal"], view
        await sockets[0].send_json_to({"type": "next_deal"})
    return [await next_push(socket) for socket in sockets]


def running_table(**options) -> tuple[int, list]:
    users = [UserFactory(chips=1000), UserFactory(chips=1000, language="es")]
    table = seating.table_create(master=users[0], options={"variant": "habanero", **options})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    return table.pk, users


async def refused(socket, message, code: str) -> dict:
    """Send `message` (an object, or raw text) and return the error frame it gets."""
    if isinstance(message, str):
        await socket.send_to(text_data=message)
    else:
        await socket.send_json_to(message)
    frame = await socket.receive_json_from(timeout=WAIT)
    assert frame["type"] == "error", frame
    assert frame["code"] == code, frame
    assert frame["message"]
    return frame


async def setup(**options):
    table_id, users = await sync_to_async(running_table)(**options)
    sockets, views = [], []
    for user in users:
        socket, first = await table_socket(table_id, user)
        sockets.append(socket)
        views.append(first["game"]["view"])
    turn = views[0]["turn"]
    return table_id, users, sockets, views, turn


async def close(*sockets):
    for socket in sockets:
        await socket.disconnect()


def seated_table(options: dict, players: int) -> tuple[Table, list]:
    """A table of `options` with `players` new players seated, each at an address of their own."""
    users = [UserFactory(chips=1000) for _ in range(players)]
    table = seating.table_create(master=users[0], options=options, ip_address="10.0.0.1")
    for n, user in enumerate(users[1:], start=1):
        seating.table_sit(table_id=table.pk, user=user, seat=n, ip_address=f"10.0.0.{n + 1}")
    return table, users


def play_to_the_end(table: Table, users: list, seed: int) -> Game:
    """Random legal actions, each sent by its own player through game_act, and every next
    deal dealt through game_next_deal, until the game is over."""
    rng = random.Random(seed)
    game = play.game_start(table_id=table.pk, user=users[0])
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        state = game_state(game=game)
        if state.needs_deal:
            play.game_next_deal(table_id=table.pk, user=rng.choice(users))
            continue
        seat, actions = rng.choice(sorted(state.legal_actions().items()))
        action = rng.choice(actions).to_dict()
        play.game_act(table_id=table.pk, user=users[seat], action=action)


def play_random_game(options: dict, seed: int):
    rng = random.Random(seed)
    state = new_game(options, rng)
    while not state.over:
        if state.needs_deal:
            state.deal_next(rng)
            continue
        actions = [a for acts in state.legal_actions().values() for a in acts]
        state.apply(rng.choice(actions))
    return state


def two_players() -> tuple[User, User]:
    """Two new players with chips to stake."""
    return UserFactory(chips=1000), UserFactory(chips=1000)
