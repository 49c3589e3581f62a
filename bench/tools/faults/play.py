"""The fault tool's tables and players: each seat a client of docs/protocol.md that plays on
through the faults, and the plan of the faults."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bench.support.client import TableClient
from bench.tools.faults.cluster import SILENCE, Cluster

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
    from bench.support.client import session_cookie
    from bench.support.players import new_player
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
        # How this client's sockets connect (bench.support.client.connect): TLS, its own address.
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
