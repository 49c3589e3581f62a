"""A tiny run of the load tool (bench/tools/load/) in the suite: two 4-player tables of
robots over real WebSockets to a real daphne, a few moves each; `make bench` runs it big."""

import pytest
from channels.db import database_sync_to_async as sync_to_async

from bench.tools.load.clients import run_tables
from bench.tools.load.run import make_tables
from tests.support.live import record_of

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.asyncio
async def test_two_tables_of_robots_play_over_real_sockets(daphne_server):
    tables = await sync_to_async(make_tables)(2)
    tally = await run_tables([daphne_server], tables, seconds=30, rate=20, max_moves=6)
    assert tally.errors == []
    assert len(tally.times) == 12 and all(0 < t < 10 for t in tally.times)
    figures = tally.figures("load", 2)
    assert figures["moves"] == 12 and figures["errors"] == 0
    assert 0 < figures["median_ms"] <= figures["p99_ms"]
    # The connect storm's figures: every seat's socket, once it had its first state.
    assert figures["sockets"] == 8 and figures["sockets_per_s"] > 0
    # Every move the robots sent is in its table's stored record, once.
    for table_id, _sessions in tables:
        record = await record_of(table_id)
        assert sum(len(d["actions"]) for d in record["deals"]) == 6
    assert tally.games_started == 2
