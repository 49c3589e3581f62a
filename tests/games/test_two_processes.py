"""Two daphne processes on one Redis serve the two players of one table, each player on a
different process, with real WebSocket clients; the game goes on to the end of a deal."""

import random

import pytest
from channels.db import database_sync_to_async as sync_to_async

from games import services
from tests.accounts.factories import UserFactory
from tests.conftest import _child_env, database_url_for_tests
from tests.games.live import check_frame, record_of, session_cookie
from tests.games.wsclient import TableClient, daphne

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def running_habanero() -> tuple[int, list[str]]:
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    table = services.table_create(master=users[0], options={"variant": "habanero"})
    services.table_sit(table_id=table.pk, user=users[1])
    return table.pk, [session_cookie(u) for u in users]


@pytest.mark.asyncio
async def test_two_daphne_processes_serve_one_table_to_the_end_of_a_deal(tmp_path):
    table_id, sessions = await sync_to_async(running_habanero)()
    env = _child_env(await sync_to_async(database_url_for_tests)())
    with (
        daphne(env, tmp_path / "daphne-1.log") as first,
        daphne(env, tmp_path / "daphne-2.log") as second,
    ):
        players = [
            await TableClient.open(first, table_id, sessions[0]),
            await TableClient.open(second, table_id, sessions[1]),
        ]
        assert [p.state["you"]["seat"] for p in players] == [0, 1]
        # The master starts on process 1; process 2's player hears it through Redis.
        await players[0].send({"type": "start"})
        for player in players:
            assert (await player.receive_state())["event"]["kind"] == "start"
        rng = random.Random(7)
        moves = 0
        while players[0].view["phase"] != "done":
            choices = [(p, a) for p in players for a in p.view["legal_actions"]]
            player, action = rng.choice(choices)
            await player.act(action)
            frames = [await p.receive_state() for p in players]
            record = await record_of(table_id)
            for seat, frame in enumerate(frames):
                check_frame(frame, record, seat)
            moves += 1
        assert moves >= 16  # at least the eight tricks of a deal
        for player in players:
            await player.close()
    assert (tmp_path / "daphne-2.log").read_text().count("Traceback") == 0
