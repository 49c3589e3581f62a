"""Two daphne processes on one Redis serve the two players of one table, each player on a
different process, with real WebSocket clients; the game goes on to the end of a deal."""

import asyncio
import random

import pytest
from channels.db import database_sync_to_async as sync_to_async

from bench.support.client import TableClient
from bench.support.processes import child_env, database_url, running_daphne
from games.models import GameSeat
from games.table import seating
from tests.support.factories import UserFactory
from tests.support.live import WAIT, check_frame, record_of, session_cookie

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# A bound, not a measure (as `WAIT`): the first socket of a fresh daphne, under a full run's
# load, may take more than the client's 10 s to open and to get its first frame.
CONNECT_SECONDS = 60


async def reach_count(player: TableClient, count: int, seat: int) -> dict:
    """The player's state once it shows `count` actions: every frame until then is read
    (an update, a whole state after a gap or a rejoin), however late it comes."""
    try:
        async with asyncio.timeout(WAIT):
            while player.state is None or player.count < count:
                await player.receive_state()
    except TimeoutError:
        seen = player.count if player.state else None
        raise AssertionError(f"seat {seat} never saw action {count} (it saw {seen})") from None
    return player.state


def running_habanero() -> tuple[int, list[str]]:
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    table = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=users[1])
    return table.pk, [session_cookie(u) for u in users]


async def play_a_deal(urls: list[str], table_id: int, sessions: list[str]) -> int:
    """Player n connects to urls[n]; the master starts; random legal actions until the deal
    ends, every frame checked against the engine's view of the stored record."""
    players = [
        await TableClient.open(url, table_id, s, open_timeout=CONNECT_SECONDS)
        for url, s in zip(urls, sessions, strict=True)
    ]
    assert [p.state["you"]["seat"] for p in players] == [0, 1]
    await players[0].send({"type": "start"})
    for seat, player in enumerate(players):
        async with asyncio.timeout(WAIT):
            while player.state["game"] is None:
                await player.receive_state()
        assert player.state["event"]["kind"] == "start", (seat, player.state["event"])
    rng = random.Random(7)
    moves = 0
    while players[0].view["phase"] != "done":
        choices = [(p, a) for p in players for a in p.view["legal_actions"]]
        player, action = rng.choice(choices)
        count = player.count + 1
        await player.act(action)
        # Each seat's state once it has the move, however many frames that takes.
        states = [await reach_count(p, count, seat) for seat, p in enumerate(players)]
        record = await record_of(table_id)
        for seat, state in enumerate(states):
            check_frame(state, record, seat)
        moves += 1
    for player in players:
        await player.close()
    return moves


@pytest.mark.asyncio
async def test_two_daphne_processes_serve_one_table_to_the_end_of_a_deal(tmp_path):
    table_id, sessions = await sync_to_async(running_habanero)()
    env = child_env(await sync_to_async(database_url)())
    with (
        running_daphne(env, tmp_path / "daphne-1.log") as first,
        running_daphne(env, tmp_path / "daphne-2.log") as second,
    ):
        # The master is on process 1, the other player on process 2: every push between
        # them goes through Redis.
        moves = await play_a_deal([first, second], table_id, sessions)
    assert moves >= 16  # at least the eight tricks of a deal, two cards each
    # Each player's address as their socket came in is what the game recorded at its start.
    addresses = await sync_to_async(
        lambda: list(
            GameSeat.objects.filter(game__table_id=table_id).values_list("ip_address", flat=True)
        )
    )()
    assert addresses == ["127.0.0.1", "127.0.0.1"]
    for log in ("daphne-1.log", "daphne-2.log"):
        assert "Traceback" not in (tmp_path / log).read_text()


@pytest.mark.asyncio
async def test_one_process_on_the_in_memory_layer_serves_live_play(tmp_path):
    """What `make run` does with nothing set: one daphne, the in-memory channel layer."""
    table_id, sessions = await sync_to_async(running_habanero)()
    env = child_env(await sync_to_async(database_url)())
    env.pop("REDIS_URL", None)
    with running_daphne(env, tmp_path / "daphne.log") as site:
        moves = await play_a_deal([site, site], table_id, sessions)
    assert moves >= 16
    assert "Traceback" not in (tmp_path / "daphne.log").read_text()
