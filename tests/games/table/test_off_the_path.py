"""Nothing waits behind a game's end: the slow work a finished game queues (its analysis
above all) never runs on the players' path.

- On the embedded default (`make run` as it comes: SQLite, no Redis), it runs in the
  server's background lanes (tute_site/lanes.py): while a game's analysis runs, the ended
  game's last push, a move at another table and a page are each served at once.
- With Redis and real workers, the analyses have a queue and a worker of their own: awards
  and timers are handled at once while ten analyses wait.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from bench.support.client import TableClient
from bench.support.processes import start_celery_worker, stop
from bench.tools.embedded import daphne, environment, prepare
from games.models import Game, GameAnalysis
from games.table import play, seating
from rankings.models import GameResult
from tests.support.analysis import finished_game
from tests.support.awards import finish_game
from tests.support.factories import UserFactory

# What a player waits for at most while the slow work runs. Before the lanes, the analysis
# ran inside the request that played the last card: that card's push came seconds late.
# On a machine so loaded that a move takes longer even with nothing slow running, the bound
# is twice the slowest move timed before the game's end (the machine's pace, not the
# analysis): either way, seconds of analysis on the path fail it.
AT_ONCE = 0.3
ANALYSIS_SECONDS = 5

ENDING = {"variant": "habanero", "players": 2, "points_to_win": 1}
GOING_ON = {"variant": "tute", "players": 2, "stock_play": "free"}


async def seated(base: str, table: dict) -> list[TableClient]:
    """Both players of a table, seated, the game started: a client for each seat."""
    clients = [
        await TableClient.open(base, table["id"], player["session"], open_timeout=30)
        for player in table["players"]
    ]
    for seat, client in enumerate(clients):
        if client.seat != seat:
            await client.send({"type": "sit", "seat": seat})
            while client.state["you"]["seat"] != seat:
                await client.receive(timeout=30)
    await clients[0].send({"type": "start"})
    for client in clients:
        while (client.state["game"] or {}).get("status") != "playing":
            await client.receive(timeout=30)
    return clients


async def same_version(clients: list[TableClient], version: int) -> None:
    for client in clients:
        while client.state["version"] < version:
            await client.receive(timeout=30)


async def timed_move(clients: list[TableClient]) -> tuple[float, dict]:
    """Whoever may act plays a legal action (dealing when a deal ended): the seconds until
    every seat has the frame it caused, and that frame's event."""
    while True:
        for client in clients:
            view = client.view
            if view["needs_deal"] or view["legal_actions"]:
                version = client.state["version"]
                sent = time.monotonic()
                if view["needs_deal"]:
                    await client.send({"type": "next_deal"})
                else:
                    await client.act(view["legal_actions"][0])
                events = []
                for other in clients:
                    while other.state["version"] <= version:
                        frame = await other.receive(timeout=30)
                        if frame["type"] in ("update", "state") and frame.get("event"):
                            events.append(frame["event"])
                return time.monotonic() - sent, events[0] if events else {}
        await clients[0].receive(timeout=30)


def fetch(url: str) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=30) as response:
        assert response.status == 200
        response.read()
    return time.monotonic() - started


def analysed(database: Path, game_id: int) -> bool:
    with sqlite3.connect(database) as db:
        found = db.execute("select 1 from games_gameanalysis where game_id = ?", [game_id])
        return found.fetchone() is not None


def game_id_of(database: Path, table_id: int) -> int:
    with sqlite3.connect(database) as db:
        return db.execute(
            "select id from games_game where table_id = ? order by id desc", [table_id]
        ).fetchone()[0]


@pytest.mark.xdist_group("alone")  # it times pushes: not beside the tests that kill processes
def test_on_the_embedded_default_a_games_analysis_holds_up_no_push_move_or_page(tmp_path):
    database = tmp_path / "db.sqlite3"
    env = environment(database, tmp_path / "secret")
    env.update(GAME_ANALYSIS_SECONDS=str(ANALYSIS_SECONDS), TIMER_SWEEP_SECONDS="0.2")
    ending, going_on = prepare(env, [ENDING, GOING_ON])

    async def run(base: str) -> dict:
        # Any page once, as a player's browser does: the server loop and its lanes start.
        await asyncio.to_thread(fetch, base + "/")
        enders = await seated(base, ending)
        others = await seated(base, going_on)
        before = [(await timed_move(others))[0] for _move in range(6)]
        # The habanero deal to its end: the last card's push reaches both seats at once.
        while True:
            took, event = await timed_move(enders)
            if event.get("kind") == "end":
                last_push = took
                break
            before.append(took)
        game_id = await asyncio.to_thread(game_id_of, database, ending["id"])
        ended = time.monotonic()
        # While the analysis runs: moves at the other table, and pages.
        moves = [(await timed_move(others))[0] for _move in range(6)]
        pages = [
            await asyncio.to_thread(fetch, f"{base}/games/{game_id}/record.json"),
            await asyncio.to_thread(fetch, f"{base}/"),
        ]
        checked = time.monotonic() - ended
        still_running = not await asyncio.to_thread(analysed, database, game_id)
        while not await asyncio.to_thread(analysed, database, game_id):
            assert time.monotonic() - ended < 90, "the analysis never came"
            await asyncio.sleep(0.2)
        for client in enders + others:
            await client.close()
        return {
            "before": max(before),
            "last_push": last_push,
            "moves": moves,
            "pages": pages,
            "checked": checked,
            "still_running": still_running,
            "analysed_after": time.monotonic() - ended,
        }

    with daphne(env, tmp_path / "daphne.log") as base:
        seen = asyncio.run(run(base))
    log = (tmp_path / "daphne.log").read_text()
    figures = json.dumps(seen)
    # The checks ran while the analysis did: it was stored only after them.
    assert seen["still_running"], figures
    assert seen["analysed_after"] > seen["checked"], figures
    bound = max(AT_ONCE, 2 * seen["before"])
    assert seen["last_push"] <= bound, figures
    assert max(seen["moves"]) <= bound, figures
    assert max(seen["pages"]) <= bound, figures
    assert "Traceback" not in log, log[-5000:]


def analysis_started(log: Path) -> bool:
    return log.exists() and "games.analyse_game" in log.read_text()


def award_seconds() -> float:
    """A competitive game ends: the seconds until its award is paid."""
    winner, loser = UserFactory(chips=1000), UserFactory(chips=1000)
    submitted = time.monotonic()
    result = finish_game([winner, loser], stake=100)
    while GameResult.objects.filter(pk=result.pk, awarded_at__isnull=True).exists():
        assert time.monotonic() - submitted < 60, "the award never came"
        time.sleep(0.02)
    return time.monotonic() - submitted


def timer_seconds() -> float:
    """A move timer runs out: the seconds until the sweep has fired it and the robot
    played for the player."""
    from games.tasks import sweep_timers

    master, guest = UserFactory(), UserFactory()
    table = seating.table_create(
        master=master, options={"variant": "tute", "players": 2, "move_time": 30}
    )
    seating.table_sit(table_id=table.pk, user=guest)
    game = play.game_start(table_id=table.pk, user=master)
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now())
    swept = time.monotonic()
    sweep_timers.delay()
    while Game.objects.filter(pk=game.pk, action_count=game.action_count).exists():
        assert time.monotonic() - swept < 60, "the timer never fired"
        time.sleep(0.02)
    return time.monotonic() - swept


@pytest.mark.services
@pytest.mark.celery_worker
@pytest.mark.xdist_group("alone")  # it times two workers: not beside the tests that kill them
def test_awards_and_timers_are_handled_at_once_while_ten_analyses_wait(celery_worker, tmp_path):
    from games.tasks import analyse_game
    from tute_site.celery import slow_queue

    # With nothing queued: what an award and a timer take on this machine now.
    alone = {"award": award_seconds(), "timer": timer_seconds()}
    queue = celery_worker.conf.task_default_queue
    slow_log = tmp_path / "slow.log"
    slow = start_celery_worker(
        slow_queue(queue), slow_log, GAME_ANALYSIS_SECONDS=str(ANALYSIS_SECONDS)
    )
    try:
        player = UserFactory()
        games = [finished_game(player) for _game in range(10)]
        for game in games:
            analyse_game.apply_async((game.pk,), priority=9)
        deadline = time.monotonic() + 120
        while not analysis_started(slow_log):
            assert time.monotonic() < deadline, slow_log.read_text()
            time.sleep(0.1)
        behind = {"award": award_seconds(), "timer": timer_seconds()}
        waiting = 10 - GameAnalysis.objects.filter(game__in=games).count()
    finally:
        stop(slow, timeout=15)
    figures = {"alone": alone, "with ten analyses": behind, "analyses_waiting": waiting}
    # The analyses were still queued behind one another, on their own worker.
    assert waiting >= 8, figures
    # Within a second; on a machine so loaded that they take longer with nothing queued,
    # within twice that (one analysis ahead of them would be seconds).
    for what in ("award", "timer"):
        assert behind[what] <= max(1.0, 2 * alone[what]), figures


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_lanes_job_hands_what_it_queues_to_the_other_lane(monkeypatch):
    # The analysis sweep runs in the prompt lane and finds a finished game whose analysis was
    # lost: the analysis it queues is handed back and runs in the slow lane.
    from datetime import timedelta

    from asgiref.sync import sync_to_async

    from bench.support.processes import database_url
    from tute_site import lanes

    # The lanes' processes: on this database, without Redis (the embedded default).
    monkeypatch.setenv("DATABASE_URL", database_url())
    monkeypatch.setenv("REDIS_URL", "")

    def lost() -> int:
        game = finished_game(UserFactory())
        ended = timezone.now() - timedelta(minutes=20)
        Game.objects.filter(pk=game.pk).update(finished_at=ended)
        return game.pk

    game_id = await sync_to_async(lost)()
    lanes.start(asyncio.get_running_loop())
    try:
        lanes.submit(lanes.Job(lanes.PROMPT, "games.analysis_sweep"))
        deadline = time.monotonic() + 90

        def analysed_yet() -> bool:
            try:
                return GameAnalysis.objects.filter(game_id=game_id).exists()
            finally:
                connection.close()  # a thread's own: it would outlive the test database

        while not await sync_to_async(analysed_yet)():
            assert time.monotonic() < deadline, "not analysed in 90 s"
            await asyncio.sleep(0.2)
    finally:
        lanes.stop()
