"""The fault tool (issue #15): real games over real WebSockets while a daphne process, the
Celery worker and Redis are killed (SIGKILL) and started again at random moments; then the
books are checked.

    python -m bench.faults [--tables N] [--seconds S] [--kills K] [--seed X]

It starts everything of its own, listening on 127.0.0.1 only: a Redis server on a free port
(no persistence, so a restarted Redis is empty, as after a crash without a disk), two daphne
processes, a Celery worker and Celery beat (the timer sweep every second, the award sweep),
on a throwaway PostgreSQL database made like the tests' (DATABASE_URL names the server). The
machine's own Redis is never touched.

`--tables` tables play short games (one deal): two-player habanero and four-player tute in
pairs at a stake, every seat a WebSocket client following docs/protocol.md, and practice
tables where one client plays with the server's robots. A client plays a random legal action
of its seat's view; when its socket closes it connects again (to either daphne), and when
nothing arrives for a while it sends `sync`, as a browser's tab would. A table's master
starts the next game when one ends. During the first `--seconds`, `--kills` faults happen at
random moments drawn from `--seed`, one after the other: each kills one process (a daphne,
the worker or Redis; each kind at least once when K >= 3), waits a moment and starts it
again; from K >= 4 one fault kills the worker and, while it is down, Redis (the tasks queued
meanwhile are lost). Then no new game starts; the clients finish their games (bounded),
leave, and the tool waits (bounded) for every award.

It reports, as JSON lines: the faults done; games played, finished and lost (still running
and not moving at the end); awards missing and double awards (a game paid, staked or given
XP twice, or counted twice on a leaderboard); the ledger's imbalance (what the players, the
pots and the bank hold against every chip ever granted) and cached balances that differ
from their entries; finished games whose record does not replay to their stored result; and
the tracebacks in the daphne and worker logs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.client import TableClient
from bench.processes import (
    child_env,
    database_url,
    free_port,
    start_celery_beat,
    start_celery_worker,
    start_daphne,
    stop,
    wait_for_port,
)

SILENCE = 2.0  # seconds without a frame before a client asks for the whole state
QUEUE = "faults"
DAPHNES = 2
REDIS_SERVER = "/usr/bin/redis-server"

# Settings of the processes under test: short enough for a CI-sized run (production keeps
# the defaults of tute_site/settings.py).
FAULT_ENV = {
    "ROBOT_DELAY_SECONDS": "0",
    # A task whose worker was killed goes back to the queue after 10 s, not an hour.
    "CELERY_VISIBILITY_TIMEOUT": "10",
    # The award sweep every 2 s, for results left without their award for 4 s.
    "RANKINGS_AWARD_SWEEP_SECONDS": "2",
    "RANKINGS_AWARD_SWEEP_AFTER_SECONDS": "4",
    # A killed daphne's sockets count as closed after 8 s.
    "SERVER_HEARTBEAT_SECONDS": "2",
    "SERVER_DEAD_SECONDS": "8",
}


# --- The processes --------------------------------------------------------------------------


class Cluster:
    """Redis, daphne processes, a Celery worker and Celery beat of this run, each of which
    can be killed and started again. Logs go to `workdir`, one file per start."""

    def __init__(self, workdir: Path, database_url: str, *, daphnes: int = DAPHNES) -> None:
        self.workdir = workdir
        self.database_url = database_url
        self.redis_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.ports = [free_port() for _ in range(daphnes)]
        self.redis: subprocess.Popen | None = None
        self.daphnes: list[subprocess.Popen | None] = [None] * daphnes
        self.worker: subprocess.Popen | None = None
        self.beat: subprocess.Popen | None = None
        self.starts: Counter[str] = Counter()
        self._logs: list[Any] = []
        # A fault holds it while it kills and restarts; the supervisor waits for it.
        self._busy = threading.Lock()
        self.unplanned_exits: Counter[str] = Counter()

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    def env(self) -> dict[str, str]:
        return child_env(
            self.database_url,
            REDIS_URL=self.redis_url,
            CELERY_QUEUE=QUEUE,
            CHANNEL_PREFIX="tute-faults",
            **FAULT_ENV,
        )

    def _log(self, name: str) -> Path:
        self.starts[name] += 1
        return self.workdir / f"{name}-{self.starts[name]}.log"

    def start_redis(self) -> None:
        log = self._log("redis").open("w")
        self._logs.append(log)
        self.redis = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        wait_for_port(self.redis_port, self.redis)

    def start_daphne(self, n: int) -> None:
        log = self._log(f"daphne{n}").open("w")
        self._logs.append(log)
        self.daphnes[n] = start_daphne(self.ports[n], log, self.env())

    def start_worker(self) -> None:
        extra = {k: v for k, v in self.env().items() if k in FAULT_ENV or k == "REDIS_URL"}
        self.worker = start_celery_worker(QUEUE, self._log("worker"), **extra)

    def start_beat(self) -> None:
        extra = {k: v for k, v in self.env().items() if k in FAULT_ENV or k == "REDIS_URL"}
        self.beat = start_celery_beat(QUEUE, self.workdir, self._log("beat"), **extra)

    def start(self) -> None:
        self.start_redis()
        for n in range(len(self.ports)):
            self.start_daphne(n)
        self.start_worker()
        self.start_beat()

    @staticmethod
    def _kill(process: subprocess.Popen | None) -> None:
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait(10)

    def kill(self, kind: str, *, down: float, rng: random.Random) -> str:
        with self._busy:
            return self._kill_and_restart(kind, down=down, rng=rng)

    def supervise(self) -> None:
        """Start again any process that exited by itself, as a production supervisor
        (systemd's Restart=always) would, and count it: a process that dies of a fault of
        another one is a finding."""
        if not self._busy.acquire(blocking=False):
            return  # a fault is under way
        try:
            if self.redis is not None and self.redis.poll() is not None:
                self.unplanned_exits["redis"] += 1
                self.start_redis()
            for n, process in enumerate(self.daphnes):
                if process is not None and process.poll() is not None:
                    self.unplanned_exits["daphne"] += 1
                    self.start_daphne(n)
            if self.worker is not None and self.worker.poll() is not None:
                self.unplanned_exits["worker"] += 1
                self.start_worker()
            if self.beat is not None and self.beat.poll() is not None:
                self.unplanned_exits["beat"] += 1
                self.start_beat()
        finally:
            self._busy.release()

    def _kill_and_restart(self, kind: str, *, down: float, rng: random.Random) -> str:
        """Kill one process of `kind` (daphne, worker, redis; worker+redis: both, Redis
        while the worker is down) with SIGKILL, wait `down` seconds, start it again and wait
        until it is ready. Returns which one."""
        if kind == "daphne":
            n = rng.randrange(len(self.ports))
            self._kill(self.daphnes[n])
            time.sleep(down)
            self.start_daphne(n)
            return f"daphne{n}"
        if kind == "worker":
            self._kill(self.worker)
            time.sleep(down)
            self.start_worker()
            return "worker"
        if kind == "redis":
            self._kill(self.redis)
            time.sleep(down)
            self.start_redis()
            return "redis"
        if kind == "worker+redis":
            # With the worker dead, the tasks of games that end (awards) and of due timers
            # wait in Redis; then Redis dies too and takes them with it.
            self._kill(self.worker)
            time.sleep(down + 2)
            self._kill(self.redis)
            time.sleep(0.5)
            self.start_redis()
            self.start_worker()
            return "worker, then redis"
        raise ValueError(kind)

    def stop(self) -> None:
        for process in [self.beat, self.worker, *self.daphnes]:
            if process is not None and process.poll() is None:
                stop(process, timeout=10)
        if self.redis is not None and self.redis.poll() is None:
            stop(self.redis, timeout=5)
        for log in self._logs:
            log.close()

    def tracebacks(self, name: str) -> tuple[list[str], list[str]]:
        """The tracebacks in the logs of `name` (daphne, worker), each as its file and its
        last line (the exception): (the application's, channels-redis's own background
        tasks'). The latter are the list layer's fire-and-forget cleaner of a message read
        just before Redis died ("Task exception was never retrieved"), and the pub/sub layer's
        receiving task telling that Redis went away before it tries again ("Unexpected
        exception in receive task"): nothing of ours, nothing lost."""
        ours, library = [], []
        for path in sorted(self.workdir.glob(f"{name}*.log")):
            lines = path.read_text(errors="replace").splitlines()
            for k, line in enumerate(lines):
                if not line.startswith("Traceback"):
                    continue
                if k >= 2 and "During handling of the above exception" in lines[k - 2]:
                    continue  # the same error, chained
                tail = next((x for x in lines[k + 1 :] if x and not x.startswith((" ", "\t"))), "")
                entry = f"{path.name}: {tail[:200]}"
                before = " ".join(lines[max(0, k - 2) : k])
                if ("never retrieved" in before and "channels_redis" in before) or (
                    lines[k - 1 if k else 0] == "Unexpected exception in receive task"
                ):
                    library.append(entry)
                else:
                    ours.append(entry)
        return ours, library


# --- The tables -----------------------------------------------------------------------------


@dataclass
class TableSpec:
    table_id: int
    sessions: list[str]  # the clients' session cookies; the first is the master's
    kind: str


STAKE = 10
KINDS = ("habanero", "tute4", "practice")


def make_fault_tables(count: int) -> list[TableSpec]:
    """`count` tables with one-deal games, cycling through: habanero for two at a stake, tute
    for four in pairs at a stake, and a practice tute table (one player and three robots)."""
    from bench.client import session_cookie
    from bench.players import new_player
    from games.table import seating

    short = {"rounds": 1, "points_to_win": 1, "move_time": 30}
    tables = []
    for n in range(count):
        kind = KINDS[n % len(KINDS)]
        if kind == "practice":
            user = new_player(chips=1000)
            table = seating.table_practice(
                master=user,
                options={"variant": "tute", "players": 4, "robot_level": "random", **short},
            )
            users = [user]
        else:
            options = (
                {"variant": "habanero", "players": 2}
                if kind == "habanero"
                else {"variant": "tute", "players": 4, "pairs": True}
            )
            users = [new_player(chips=1000) for _ in range(options["players"])]
            table = seating.table_create(
                master=users[0], options={**options, **short, "stake": STAKE}
            )
            for user in users[1:]:
                seating.table_sit(table_id=table.pk, user=user)
        tables.append(TableSpec(table.pk, [session_cookie(u) for u in users], kind))
    return tables


# --- The clients ----------------------------------------------------------------------------


@dataclass
class Tally:
    connects: int = 0
    failed_connects: int = 0
    closed: int = 0
    syncs: int = 0
    gaps: int = 0
    acts: int = 0
    starts: int = 0
    errors: Counter = field(default_factory=Counter)
    sync_times: list[float] = field(default_factory=list)


class Player:
    """One seat's client: plays random legal actions, reconnects, resynchronises."""

    def __init__(
        self,
        urls: list[str],
        spec: TableSpec,
        session: str,
        *,
        master: bool,
        rng: random.Random,
        tally: Tally,
        control: Control,
        connect_options: dict[str, Any] | None = None,
    ) -> None:
        self.urls = urls
        # How this client's sockets connect (bench.client.connect): TLS, its own address.
        self.connect_options = connect_options or {}
        self.spec = spec
        self.session = session
        self.master = master
        self.rng = rng
        self.tally = tally
        self.control = control
        self.state: dict[str, Any] | None = None

    async def run(self) -> None:
        from websockets.exceptions import WebSocketException

        while not self.control.done.is_set():
            base = self.rng.choice(self.urls)
            try:
                client = await TableClient.open(
                    base, self.spec.table_id, self.session, open_timeout=5, **self.connect_options
                )
            except (OSError, TimeoutError, WebSocketException):
                self.tally.failed_connects += 1
                await asyncio.sleep(self.rng.uniform(0.2, 0.6))
                continue
            self.tally.connects += 1
            try:
                await self._play(client)
            except (OSError, TimeoutError, WebSocketException):
                self.tally.closed += 1
                await asyncio.sleep(self.rng.uniform(0.1, 0.4))
            finally:
                await client.close()

    async def _play(self, client: TableClient) -> None:
        self.state = None
        self._gaps = 0  # the client's gaps already counted
        self._done_for: tuple | None = None  # what we last asked for, not to ask twice
        await self._handle(client, client.first)
        while not self.control.done.is_set():
            try:
                frame = await client.receive(timeout=SILENCE)
            except TimeoutError:
                # A push went missing (or nothing happened): ask for the whole state.
                self.tally.syncs += 1
                self.tally.sync_times.append(time.monotonic())
                self._done_for = None
                await client.sync()
                continue
            await self._handle(client, frame)

    async def _handle(self, client: TableClient, frame: dict[str, Any]) -> None:
        if frame["type"] == "error":
            self.tally.errors[frame["code"]] += 1
            if frame["code"] != "stale":  # a stale one is followed by a fresh state
                self._done_for = None
                await client.sync()
            return
        if frame["type"] not in ("state", "update"):
            return
        if client.gaps != self._gaps:
            self.tally.gaps += client.gaps - self._gaps
            self._gaps = client.gaps
        if client.state is self.state:
            return  # an old frame, or one after a missed push: the client asked for the state
        if frame["event"] is None:
            self._done_for = None
        self.state = frame = client.state
        self.control.seen(self.spec.table_id, frame)
        request = self._request(frame)
        if request is None:
            return
        key = (frame["table"]["game_id"], frame["count"], request["type"])
        if key == self._done_for:
            return
        self._done_for = key
        await asyncio.sleep(self.rng.uniform(0.01, 0.08))
        await client.send(request)
        if request["type"] == "act":
            self.tally.acts += 1
        elif request["type"] == "start":
            self.tally.starts += 1

    def _request(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        game = frame["game"]
        if game is None or game["status"] != "playing":
            ready = frame["table"]["free_seats"] == 0 and frame["table"]["status"] == "open"
            if self.master and ready and not self.control.no_new_games.is_set():
                return {"type": "start"}
            return None
        view = game["view"]
        if view is None:
            return None
        if view["needs_deal"]:
            return {"type": "next_deal"} if self.master else None
        if view["legal_actions"]:
            action = self.rng.choice(view["legal_actions"])
            return {"type": "act", "action": action, "count": frame["count"]}
        return None


class Control:
    """What the run tells the clients, and the latest state seen at each table."""

    def __init__(self) -> None:
        self.no_new_games = asyncio.Event()
        self.done = asyncio.Event()
        self.latest: dict[int, dict[str, Any]] = {}

    def seen(self, table_id: int, frame: dict[str, Any]) -> None:
        latest = self.latest.get(table_id)
        if latest is None or (frame["table"]["game_id"] or 0, frame["count"]) >= (
            latest["table"]["game_id"] or 0,
            latest["count"],
        ):
            self.latest[table_id] = frame

    def finished(self, table_ids: list[int]) -> bool:
        """Every table's latest known game is over."""
        for table_id in table_ids:
            frame = self.latest.get(table_id)
            if frame is None or (frame["game"] and frame["game"]["status"] == "playing"):
                return False
        return True


# The first three are each done once in a run of three faults or more (the test's run); the
# last, a worker then Redis killed while it is down (queued tasks lost), from four on.
FAULT_KINDS = ("daphne", "worker", "redis", "worker+redis")


def fault_plan(
    seconds: float, kills: int, rng: random.Random, kinds_allowed: tuple[str, ...] = FAULT_KINDS
) -> list[tuple[float, str]]:
    """(moment, kind) of each fault, moments in seconds from the start of play, sorted; each
    kind at least once when there are enough faults (in FAULT_KINDS's order)."""
    kinds = list(kinds_allowed[: max(0, kills)])
    kinds += [rng.choice(kinds_allowed) for _ in range(kills - len(kinds))]
    rng.shuffle(kinds)
    moments = sorted(rng.uniform(0.1 * seconds, 0.7 * seconds) for _ in kinds)
    return list(zip(moments, kinds, strict=True))


async def do_faults(
    cluster: Cluster,
    plan: list[tuple[float, str]],
    *,
    rng: random.Random,
    start: float,
    faults: list[dict[str, Any]],
) -> None:
    """Kill and restart each process of `plan` at its moment (seconds from `start`), noting
    each fault in `faults`."""
    for moment, kind in plan:
        await asyncio.sleep(max(0.0, start + moment - time.monotonic()))
        at = time.monotonic() - start
        down = rng.uniform(0.5, 2.0)
        which = await asyncio.to_thread(cluster.kill, kind, down=down, rng=rng)
        faults.append(
            {
                "kind": kind,
                "process": which,
                "at_s": round(at, 1),
                "back_after_s": round(time.monotonic() - start - at, 1),
            }
        )


async def supervise(cluster: Cluster) -> None:
    """Start again, every second, any process that died of another's fault."""
    while True:
        await asyncio.to_thread(cluster.supervise)
        await asyncio.sleep(1)


async def play_with_faults(
    cluster: Cluster,
    tables: list[TableSpec],
    *,
    seconds: float,
    kills: int,
    seed: int,
    settle: float,
    kinds: tuple[str, ...] = FAULT_KINDS,
) -> dict[str, Any]:
    """Play the tables for `seconds` while the faults happen, then let the games finish
    (at most `settle` seconds). Returns what the clients and the faults measured."""
    rng = random.Random(seed)
    control = Control()
    tally = Tally()
    players = [
        Player(
            cluster.urls,
            spec,
            session,
            master=k == 0,
            rng=random.Random(rng.random()),
            tally=tally,
            control=control,
        )
        for spec in tables
        for k, session in enumerate(spec.sessions)
    ]
    tasks = [asyncio.ensure_future(p.run()) for p in players]
    start = time.monotonic()
    faults: list[dict[str, Any]] = []

    plan = fault_plan(seconds, kills, rng, kinds)
    fault_task = asyncio.ensure_future(
        do_faults(cluster, plan, rng=rng, start=start, faults=faults)
    )
    supervisor = asyncio.ensure_future(supervise(cluster))
    try:
        await asyncio.sleep(seconds)
        await fault_task  # a fault still under way ends (its process is back) first
        play_seconds = time.monotonic() - start
        control.no_new_games.set()
        settle_until = time.monotonic() + settle
        while time.monotonic() < settle_until and not control.finished(
            [t.table_id for t in tables]
        ):
            await asyncio.sleep(0.5)
    finally:
        fault_task.cancel()
        control.done.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        supervisor.cancel()
    return {
        "faults": faults,
        "play_s": round(play_seconds, 1),
        "settle_s": round(time.monotonic() - start - play_seconds, 1),
        "clients": len(players),
        "connects": tally.connects,
        "failed_connects": tally.failed_connects,
        "sockets_closed_under_client": tally.closed,
        "syncs_after_silence": tally.syncs,
        "count_gaps": tally.gaps,
        "acts_sent": tally.acts,
        "starts_sent": tally.starts,
        "error_frames": dict(tally.errors),
        "silences_by_5s": dict(Counter(int((t - start) // 5 * 5) for t in tally.sync_times)),
    }


# --- The books ------------------------------------------------------------------------------


def _running(table_ids: list[int]) -> dict[int, int]:
    from games.models import Game

    return {
        g.pk: g.action_count
        for g in Game.objects.filter(table_id__in=table_ids, status=Game.Status.PLAYING)
    }


def wait_for_the_end(
    table_ids: list[int], *, timeout: float, tick: Any = lambda: None
) -> dict[str, Any]:
    """Wait (at most `timeout` s) until no game of these tables runs and every finished game
    is awarded, calling `tick` every half second. Games still running then, whose action
    count did not move in the last 3 s, are lost."""
    from games.models import Game
    from rankings.models import GameResult

    deadline = time.monotonic() + timeout
    while True:
        finished = Game.objects.filter(table_id__in=table_ids, status=Game.Status.FINISHED)
        ids = list(finished.values_list("pk", flat=True))
        unawarded = GameResult.objects.filter(game_id__in=ids, awarded_at__isnull=True).count()
        missing = len(ids) - GameResult.objects.filter(game_id__in=ids).count()
        running = _running(table_ids)
        if (not running and not unawarded and not missing) or time.monotonic() > deadline:
            break
        tick()
        time.sleep(0.5)
    moving = 0
    if running:
        time.sleep(3)
        later = _running(table_ids)
        moving = sum(1 for pk, count in running.items() if later.get(pk, count) != count)
    return {"running_at_end": len(running), "still_moving": moving, "lost": len(running) - moving}


def check_books(table_ids: list[int]) -> dict[str, Any]:
    """The checks of issue #15 on what the run left in the database."""
    from django.db.models import Count

    from games.engine import IllegalAction, from_record
    from games.models import Game
    from games.replays import game_replay
    from games.table.record import game_record
    from rankings.models import (
        BoardRow,
        ChipAccount,
        ChipTransfer,
        GameResult,
        GameResultSeat,
        XpEvent,
    )
    from rankings.selectors import ledger_mismatches, ledger_totals

    games = Game.objects.filter(table_id__in=table_ids)
    finished = list(games.filter(status=Game.Status.FINISHED))
    ids = [g.pk for g in finished]
    results = {r.game_id: r for r in GameResult.objects.filter(game_id__in=ids)}

    # Awards: each finished game has one result, awarded once.
    doubles = []
    for reason in (ChipTransfer.Reason.PAYOUT, ChipTransfer.Reason.REFUND):
        doubles += [
            f"game {row['game_id']}: {row['n']} {reason} transfers"
            for row in ChipTransfer.objects.filter(game_id__in=ids, reason=reason)
            .values("game_id")
            .annotate(n=Count("pk"))
            .filter(n__gt=1)
        ]
    doubles += [
        f"game {row['game_id']}: {row['n']} XP events for player {row['user_id']}"
        for row in XpEvent.objects.filter(game_id__in=ids)
        .values("game_id", "user_id")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
    ]
    doubles += [
        f"game {row['game_id']}: {row['n']} stakes for one seat"
        for row in ChipTransfer.objects.filter(game_id__in=ids, reason=ChipTransfer.Reason.STAKE)
        .values("game_id", "entries__source")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
    ]
    # Every game counted on the all-time board once: its games column against the results.
    counted = Counter(
        GameResultSeat.objects.filter(
            result__awarded_at__isnull=False,
            result__competitive=True,
            result__exclusion="",
            user__isnull=False,
        ).values_list("user_id", flat=True)
    )
    board = dict(
        BoardRow.objects.filter(period=BoardRow.Period.ALL, variant="").values_list(
            "user_id", "games"
        )
    )
    doubles += [
        f"player {user}: {board.get(user, 0)} games on the board, {n} awarded"
        for user, n in counted.items()
        if board.get(user, 0) != n
    ]
    competitive = [g for g in finished if g.competitive and g.stake]
    pots = dict(
        ChipAccount.objects.filter(
            kind=ChipAccount.Kind.POT, game_id__in=[g.pk for g in competitive]
        ).values_list("game_id", "balance")
    )
    unpaid_pots = [pk for pk, balance in pots.items() if balance and results[pk].awarded_at]

    # The ledger: what players, pots and bank hold equals every chip the grants account gave
    # (rankings' own totals, from the cached balances; the entries are checked below).
    totals = ledger_totals()
    held = totals.players + totals.pots + totals.bank

    # Replays: every finished game's record gives its stored result, through the engine and
    # through the replay page's code.
    not_replaying = []
    broken = []  # games whose stored record is no game at all: the first illegal action
    for game in games.filter(status=Game.Status.PLAYING):
        try:
            from_record(game_record(game=game))
        except IllegalAction as exc:
            broken.append(f"game {game.pk} action {exc.index} {exc.action}: {exc}")
            not_replaying.append(game.pk)
    for game in finished:
        try:
            outcome = from_record(game_record(game=game)).outcome()
        except IllegalAction as exc:
            broken.append(f"game {game.pk} action {exc.index} {exc.action}: {exc}")
            not_replaying.append(game.pk)
            continue
        replayed = game_replay(game=game)["result"]
        stored = game.result or {}
        if (
            not outcome.over
            or outcome.winner != stored.get("winner")
            or list(outcome.score) != stored.get("score")
            or replayed["winner"] != stored.get("winner")
            or replayed["score"] != stored.get("score")
        ):
            not_replaying.append(game.pk)
    by_kind = Counter(g.table.variant for g in finished)
    return {
        "games": games.count(),
        "finished": len(finished),
        "finished_by_variant": dict(by_kind),
        "cancelled": games.filter(status=Game.Status.CANCELLED).count(),
        "competitive_finished": len(competitive),
        "results": len(results),
        "missing_results": len(set(ids) - set(results)),
        "awarded": sum(1 for r in results.values() if r.awarded_at is not None),
        "unawarded": sum(1 for r in results.values() if r.awarded_at is None),
        # Awarded only after the sweep's age: the award task was lost (or late) and the
        # sweep paid it.
        "awarded_by_the_sweep": sum(
            1
            for r in results.values()
            if r.awarded_at is not None
            and (r.awarded_at - r.submitted_at).total_seconds()
            >= float(FAULT_ENV["RANKINGS_AWARD_SWEEP_AFTER_SECONDS"])
        ),
        "double_awards": len(doubles),
        "first_double_awards": doubles[:5],
        "unpaid_pots": len(unpaid_pots),
        "chips_granted": totals.granted,
        "chips_held": held,
        "held_by_players": totals.players,
        "in_pots": totals.pots,
        "bank": totals.bank,
        "ledger_imbalance": held - totals.granted,
        "balances_not_matching_entries": len(ledger_mismatches()),
        "records_not_replaying": len(not_replaying),
        "first_records_not_replaying": broken[:3],
    }


def report(cluster: Cluster, play: dict[str, Any], end: dict[str, Any], books: dict[str, Any]):
    kinds = Counter(f["kind"] for f in play["faults"])
    daphne, daphne_library = cluster.tracebacks("daphne")
    worker_ours, worker_library = cluster.tracebacks("worker")
    worker = worker_ours + worker_library
    return [
        {"bench": "faults", **{k: v for k, v in play.items() if k != "faults"}},
        {
            "bench": "faults-done",
            "kills": dict(kinds),
            "faults": play["faults"],
            # Processes that died of another's fault, started again by the tool's supervisor.
            "unplanned_exits": dict(cluster.unplanned_exits),
        },
        {
            "bench": "faults-books",
            **end,
            **books,
            "daphne_tracebacks": len(daphne),
            "first_daphne_tracebacks": daphne[:3],
            "daphne_channels_redis_task_errors": len(daphne_library),
            "worker_tracebacks": len(worker),
            "first_worker_tracebacks": worker[:3],
        },
    ]


def run_with_cluster(
    database_url: str,
    workdir: Path,
    *,
    tables: int,
    seconds: float,
    kills: int,
    seed: int,
    settle: float = 40.0,
    kinds: tuple[str, ...] = FAULT_KINDS,
) -> list[dict[str, Any]]:
    """The whole run on an existing (test) database: returns the report's lines. The
    caller's process must be able to write to that database (the tables are made here)."""
    from django.db import connections

    cluster = Cluster(workdir, database_url)
    try:
        cluster.start()
        specs = make_fault_tables(tables)
        connections.close_all()
        play = asyncio.run(
            play_with_faults(
                cluster, specs, seconds=seconds, kills=kills, seed=seed, settle=settle, kinds=kinds
            )
        )
        table_ids = [s.table_id for s in specs]
        end = wait_for_the_end(table_ids, timeout=30, tick=cluster.supervise)
        books = check_books(table_ids)
    finally:
        cluster.stop()
        connections.close_all()
    return report(cluster, play, end, books)


def on_throwaway_database(name: str, run: Any) -> list[dict[str, Any]]:
    """`run(database_url, workdir)` on a PostgreSQL database made for it (named after
    `name`) and dropped after it, with a work folder for the processes' logs; its report's
    lines, and the folder's in a last line."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    os.environ["ROBOT_DELAY_SECONDS"] = "0"
    import django

    django.setup()
    from django.conf import settings
    from django.db import connections
    from django.test.utils import setup_databases, teardown_databases

    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        raise SystemExit("the fault tool runs on PostgreSQL: set DATABASE_URL")
    if not Path(REDIS_SERVER).exists():
        raise SystemExit(f"the fault tool starts its own Redis: {REDIS_SERVER} is missing")
    workdir = Path(tempfile.mkdtemp(prefix=f"tute-{name}-"))
    db = settings.DATABASES["default"]
    db.setdefault("TEST", {})["NAME"] = f"{name}_{db['NAME']}_{os.getpid()}"
    old = setup_databases(verbosity=0, interactive=False)
    try:
        lines = run(database_url(), workdir)
    finally:
        connections.close_all()
        teardown_databases(old, verbosity=0)
    lines.append({"bench": "faults-logs", "workdir": str(workdir)})
    return lines


def fault_run(
    tables: int, seconds: float, kills: int, seed: int, kinds: tuple[str, ...] = FAULT_KINDS
) -> list[dict[str, Any]]:
    return on_throwaway_database(
        "faults",
        lambda url, workdir: run_with_cluster(
            url, workdir, tables=tables, seconds=seconds, kills=kills, seed=seed, kinds=kinds
        ),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--kills", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--kinds", default=",".join(FAULT_KINDS), help="what may be killed, comma-separated"
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs")
    args = parser.parse_args()
    kinds = tuple(k for k in args.kinds.split(",") if k)
    if not kinds or set(kinds) - set(FAULT_KINDS):
        parser.error(f"--kinds: some of {', '.join(FAULT_KINDS)}")
    lines = fault_run(args.tables, min(args.seconds, 600), args.kills, args.seed, kinds)
    for line in lines:
        print(json.dumps(line), flush=True)
    if not args.keep_logs:
        shutil.rmtree(lines[-1]["workdir"], ignore_errors=True)


if __name__ == "__main__":
    main()
