"""`locked_room` is the only way to change a table: a spectator's socket changes nothing and
takes no lock, to open or to close; a player of a running game comes in through the door,
and so does a player's new address; an arena's tables open and close through the wing, and
the guests' sweep and "Play now" write through it too, each change pushed and counted in
the table's version."""

import asyncio
import random
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games.arenas.pairing import arena_pair
from games.arenas.scoring import arena_game_score
from games.models import Table
from games.table import matchmaking, play, practice, seating
from tests.support.arenas import habanero_arena, joined, play_out, running_games
from tests.support.factories import UserFactory
from tests.support.live import WAIT, table_socket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


class HeldLock:
    """The table's row locked by another connection as the door locks it (another process's
    change in flight) until `release()`."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.held, self.done = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold)

    def _hold(self) -> None:
        try:
            with transaction.atomic():
                Table.objects.select_for_update(no_key=True).get(pk=self.table_id)
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    (self.pid,) = cursor.fetchone()
                self.held.set()
                self.done.wait(WAIT)
        finally:
            connection.close()

    def __enter__(self) -> "HeldLock":
        self.thread.start()
        assert self.held.wait(WAIT)
        return self

    def waiters(self) -> list[int]:
        """The database sessions blocked on this lock now (Postgres's own word)."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                [self.pid],
            )
            return [pid for (pid,) in cursor.fetchall()]

    def release(self) -> None:
        self.done.set()
        self.thread.join(WAIT)

    def __exit__(self, *exc) -> None:
        self.release()


def running_table() -> tuple[Table, list]:
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    table = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    return table, users


async def until_blocked(lock: HeldLock, player: asyncio.Future) -> list[int]:
    """The sessions waiting on `lock`, as soon as there is one; fails if the player's
    connect ends first (it went around the door) or nobody waits within WAIT."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not (waiters := await sync_to_async(lock.waiters)()):
        assert not player.done(), "the player connected without waiting for the door"
        assert loop.time() < deadline, "nobody waited on the table's lock"
        await asyncio.sleep(0.05)
    return waiters


@pytest.mark.asyncio
async def test_a_spectator_connects_while_the_table_is_locked_and_a_player_waits_for_the_door():
    table, users = await sync_to_async(running_table)()
    spectator = await sync_to_async(UserFactory)(chips=1000)
    with HeldLock(table.pk) as lock:
        # The spectator's whole connect (the socket noted, the lobby told, the state read)
        # needs no lock: it is answered while another change holds the table.
        socket, first = await asyncio.wait_for(table_socket(table.pk, spectator), 20)
        assert first["type"] == "state" and first["you"]["seat"] is None
        assert first["may"]["sit"] is False and first["may"]["chat"] is True
        # A player of the running game comes through the door: they wait for it.
        player = asyncio.ensure_future(table_socket(table.pk, users[1]))
        waiters = await until_blocked(lock, player)
        assert len(waiters) == 1 and not player.done()
        await sync_to_async(lock.release)()
        player_socket, player_first = await asyncio.wait_for(player, WAIT)
    assert player_first["you"]["seat"] == 1 and player_first["game"]["view"]["hand"]
    await socket.disconnect()
    await player_socket.disconnect()


def arena_table() -> tuple[Table, dict]:
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    arena = habanero_arena()
    joined(arena, users)
    (table_id,) = arena_pair(arena_id=arena.pk)
    return Table.objects.get(pk=table_id), {u.pk: u for u in users}


@pytest.mark.asyncio
async def test_an_arena_table_opens_and_closes_through_the_door_each_a_version_its_sockets_see():
    table, users = await sync_to_async(arena_table)()
    # Its start was pushed and counted like any other: the state says so.
    assert table.version >= 1 and table.status == Table.Status.PLAYING
    watcher = await sync_to_async(UserFactory)()
    socket, first = await table_socket(table.pk, watcher)
    assert first["version"] == table.version and first["game"]["status"] == "playing"
    (game,) = await sync_to_async(lambda: running_games(table.arena_game.arena))()
    await sync_to_async(play_out)(game, users, random.Random(5))
    await sync_to_async(arena_game_score)(game_id=game.pk)
    version, kinds = first["version"], []
    while "closed" not in kinds:
        frame = await socket.receive_json_from(timeout=WAIT)
        assert frame["version"] == version + 1  # every change seen, none skipped
        version = frame["version"]
        kinds.append(frame["event"]["kind"])
    assert frame["table"]["status"] == "closed"
    assert not any(frame["may"].values())
    closed = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert closed.status == Table.Status.CLOSED and closed.version == version
    await socket.disconnect()


# --- The side doors, closed ----------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_spectators_socket_closes_while_the_table_is_locked():
    table, _users = await sync_to_async(running_table)()
    spectator = await sync_to_async(UserFactory)()
    socket, _first = await table_socket(table.pk, spectator)
    with HeldLock(table.pk) as lock:
        # Its close needs no lock, as its connect did: it is done while another change
        # holds the table, and nobody waited on the lock for it.
        await socket.disconnect()
        gone = sync_to_async(
            lambda: not table.sockets.filter(user=spectator).exists(), thread_sensitive=False
        )
        while not await gone():
            assert not await sync_to_async(lock.waiters)(), "the close waited for the door"
            assert lock.thread.is_alive(), "the spectator's socket stayed noted"
            await asyncio.sleep(0.05)
        assert lock.thread.is_alive()  # gone while the other change still held the table


@pytest.mark.asyncio
def seated_table() -> tuple[Table, list]:
    """Two players seated at a competitive table, from two addresses, no game begun."""
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    table = seating.table_create(
        master=users[0], options={"variant": "habanero"}, ip_address="10.0.0.1"
    )
    seating.table_sit(table_id=table.pk, user=users[1], ip_address="10.0.0.2")
    return Table.objects.get(pk=table.pk), users


@pytest.mark.asyncio
async def test_a_players_new_address_is_written_through_the_door_and_pushed():
    table, users = await sync_to_async(seated_table)()
    first_socket, first = await table_socket(table.pk, users[0], client=("10.0.0.1", 5000))
    assert first["table"]["same_address"] is False
    # The second player connects from the first one's address: the version moves, and the
    # table's summary now says two seats share an address (and never which).
    with HeldLock(table.pk) as lock:
        second = asyncio.ensure_future(table_socket(table.pk, users[1], client=("10.0.0.1", 6000)))
        await until_blocked(lock, second)
    second_socket, _ = await asyncio.wait_for(second, WAIT)
    frame = await first_socket.receive_json_from(timeout=WAIT)
    assert frame["event"] == {"kind": "address", "by": users[1].username, "seat": 1}
    assert frame["version"] == first["version"] + 1
    assert frame["table"]["same_address"] is True
    assert "10.0.0.1" not in str(frame)
    # Coming again from the same address writes nothing and pushes nothing.
    await second_socket.disconnect()
    again, _ = await table_socket(table.pk, users[1], client=("10.0.0.1", 6001))
    assert await first_socket.receive_nothing(timeout=0.5)
    assert (await sync_to_async(Table.objects.get)(pk=table.pk)).version == frame["version"]
    await again.disconnect()
    await first_socket.disconnect()


def guest_at_practice() -> tuple[Table, object]:
    guest = UserFactory(is_guest=True, chips=0)
    table = seating.table_practice(master=guest, options={"variant": "habanero"})
    User.objects.filter(pk=guest.pk).update(date_joined=timezone.now() - timedelta(days=1))
    return table, guest


@pytest.mark.asyncio
async def test_the_guests_sweep_closes_an_open_table_through_the_door_before_deleting_it():
    table, _guest = await sync_to_async(guest_at_practice)()
    watcher = await sync_to_async(UserFactory)()
    socket, first = await table_socket(table.pk, watcher)
    assert await sync_to_async(practice.guests_sweep)() == 1
    # The table's sockets hear that it closed, one version on, before its rows are gone.
    frame = await socket.receive_json_from(timeout=WAIT)
    assert frame["event"]["kind"] == "closed" and frame["version"] == first["version"] + 1
    assert frame["table"]["status"] == "closed"
    assert not await sync_to_async(Table.objects.filter(pk=table.pk).exists)()
    await socket.disconnect()


def test_play_now_with_robots_later_is_a_change_pushed_with_its_version():
    player = UserFactory(chips=1000)
    table = matchmaking.play_now(user=player, variant="habanero", robots=True)
    # Opened as a "Play now" table at once (one push), then the robots' time (another).
    stored = Table.objects.get(pk=table.pk)
    assert stored.matchmaking and stored.robots_at is not None
    assert stored.version == 2
    # Pressing again without robots changes nothing, and pushes nothing.
    assert matchmaking.play_now(user=player, variant="habanero").pk == table.pk
    assert Table.objects.get(pk=table.pk).version == 2
