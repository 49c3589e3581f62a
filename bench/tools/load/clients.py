"""The load tool's clients: 4-player tables of robots, each seat a WebSocket client of
docs/protocol.md, and the echo's groups under the same load; what they saw, tallied."""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

PLAYERS = 4
TIMEOUT = 10.0


@dataclass
class Tally:
    """What a run measured."""

    moves: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    errors: list[str] = field(default_factory=list)
    games_started: int = 0
    # Tables whose game ended before the deadline: they stopped there (no rematch).
    games_over: int = 0
    # Updates a client saw come after one it never got (a version gap): each asked for the
    # whole state again.
    gaps: int = 0
    started: float = field(default_factory=time.monotonic)
    elapsed: float = 0.0
    # The steady window: from once every table has made a move (every socket connected,
    # WARM_UP seconds at least) to the deadline.
    steady_from: float | None = None
    deadline: float | None = None
    moving: set[int] = field(default_factory=set)
    all_moving: asyncio.Event = field(default_factory=asyncio.Event)
    tables: int = 0
    # When each socket had its first state (monotonic): the connect storm's pace.
    connected: list[float] = field(default_factory=list)

    def record(self, sent: float, elapsed: float, table: int | None = None) -> None:
        self.moves.append((sent, elapsed))
        if table is not None and table not in self.moving:
            self.moving.add(table)
            if len(self.moving) == self.tables:
                self.all_moving.set()

    @property
    def times(self) -> list[float]:
        return [elapsed for _sent, elapsed in self.moves]

    def figures(self, name: str, tables: int) -> dict[str, Any]:
        steady_from = self.steady_from or self.started + WARM_UP
        deadline = self.deadline or self.started + self.elapsed
        steady = [elapsed for sent, elapsed in self.moves if steady_from <= sent < deadline]
        return {
            "bench": name,
            "tables": tables,
            "moves": len(self.moves),
            "moves_per_s": round(len(self.moves) / self.elapsed, 1) if self.elapsed else 0,
            "median_ms": _ms(statistics.median(self.times or [0.0])),
            "p99_ms": _ms(_p99(self.times)),
            # Once every socket is connected and every table moving (the first seconds, when
            # the sockets connect all at once, are in `p99_ms`).
            "steady_from_s": round(steady_from - self.started, 1),
            "moves_per_s_steady": round(len(steady) / max(deadline - steady_from, 1e-9), 1),
            "median_steady_ms": _ms(statistics.median([t for t in steady] or [0.0])),
            "p99_after_warm_up_ms": _ms(_p99(steady)),
            "errors": len(self.errors),
            "first_errors": self.errors[:5],
            "updates_missed": self.gaps,
            "games_over": self.games_over,
            **self.storm(),
        }

    def storm(self) -> dict[str, Any]:
        """The sockets that connected, how long until the last had its first state, and
        how many that makes a second."""
        if not self.connected:
            return {}
        took = max(self.connected) - self.started
        return {
            "sockets": len(self.connected),
            "sockets_connected_s": round(took, 2),
            "sockets_per_s": round(len(self.connected) / max(took, 1e-9), 1),
        }


WARM_UP = 5.0


def _p99(times: list[float]) -> float:
    ordered = sorted(times) or [0.0]
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def robot_choice(robot: Any, view: dict[str, Any]) -> dict[str, Any]:
    """The robot's pick among the frame's legal actions (the random robot reads only those)."""
    from games.engine import Action

    legal = [Action.from_dict(a, view["players"]) for a in view["legal_actions"]]
    return robot.choose(SimpleNamespace(legal_actions=legal)).to_dict()


async def play_table(
    base_urls: list[str],
    table_id: int,
    sessions: list[str],
    tally: Tally,
    *,
    deadline: float,
    rate: float,
    max_moves: int | None,
    seed: int,
    opened: list,
    route: str = "table",
) -> None:
    """Four robots play one table until the deadline (or `max_moves`), about `rate` moves a
    second, timing each move to the state received by every seat. Its sockets are put in
    `opened`, and closed by the caller once every table stopped: a socket closing makes its
    seat away, and that work must not weigh on the moves of tables still timed."""
    from bench.support.client import TableClient
    from games.bots import get_bot

    rng = random.Random(seed)
    robot = get_bot("random", rng=rng)
    clients: list[TableClient] = []
    waiting = "the first states"
    try:
        for n, s in enumerate(sessions):
            # As the shipped nginx routes them (deploy/nginx/tute.conf): every socket of a
            # table to one process, chosen by the table; or each seat to another process.
            process = table_id if route == "table" else table_id + n
            clients.append(await TableClient.open(base_urls[process % len(base_urls)], table_id, s))
            tally.connected.append(time.monotonic())
            opened.append(clients[-1])
        # Each seat's socket opening from a new address is pushed to the seats already
        # there (docs/protocol.md, `address`): read those frames before timing anything, so
        # that each frame read after a message is the table's answer to it.
        waiting = "the seats' addresses"
        await asyncio.wait_for(_settled(clients), TIMEOUT)
        moves = 0
        # Spread the tables' moves over the second instead of all at once.
        await asyncio.sleep(rng.random() / rate)
        next_at = time.monotonic()
        while time.monotonic() < deadline and (max_moves is None or moves < max_moves):
            game = clients[0].state["game"]
            view = game["view"] if game else None
            if view is not None and view["game_over"]:
                # The game ended early (a tute sung wins it at once): the next game would be
                # a rematch that every seat must accept. The table stops here; its moves
                # were timed.
                tally.games_over += 1
                return
            if view is None:
                message, sender = {"type": "start"}, clients[0]
                tally.games_started += 1
            elif view["needs_deal"]:
                message, sender = {"type": "next_deal"}, clients[0]
            else:
                movers = [c for c in clients if c.view["legal_actions"]]
                if not movers:
                    tally.errors.append(f"table {table_id}: nobody may act at {view['phase']}")
                    return
                sender = rng.choice(movers)
                action = robot_choice(robot, sender.view)
                message = {"type": "act", "action": action, "count": sender.state["count"]}
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            start = time.perf_counter()
            await sender.send(message)
            # A refusal goes to the sender alone; a change to every seat.
            waiting = f"the answer to {message}"
            answer = await asyncio.wait_for(sender.receive(), TIMEOUT)
            if answer["type"] not in ("state", "update"):
                tally.errors.append(f"table {table_id}: {message} -> {answer}")
                if answer.get("code") == "stale":
                    await asyncio.wait_for(sender.receive_state(), TIMEOUT)
                next_at += 1 / rate
                continue
            others = [c for c in clients if c is not sender]
            waiting = f"the other seats' frames after {message}"
            await asyncio.wait_for(asyncio.gather(*(c.receive() for c in others)), TIMEOUT)
            elapsed = time.perf_counter() - start
            if message["type"] == "act":
                tally.record(time.monotonic() - elapsed, elapsed, table=table_id)
                moves += 1
            next_at += 1 / rate
    except TimeoutError:
        counts = [c.state["count"] if c.state else None for c in clients]
        tally.errors.append(
            f"table {table_id}: no frame in {TIMEOUT} s waiting for {waiting}"
            f" (the seats' last counts: {counts})"
        )
    except (OSError, KeyError) as exc:
        tally.errors.append(f"table {table_id}: {type(exc).__name__} {exc}")
    except Exception as exc:  # a closed socket or a bad frame: counted, the others go on
        tally.errors.append(f"table {table_id}: {type(exc).__name__} {exc}")


async def _settled(clients: list) -> None:
    """Read each client's frames until it has the table's latest version among them."""
    latest = max(c.state["version"] for c in clients)
    for client in clients:
        while client.state["version"] < latest:
            await client.receive()


async def echo_group(
    base_url: str, group: int, tally: Tally, *, deadline: float, rate: float, seed: int
) -> None:
    """The baseline: four sockets in one echo group; one sends, all four receive it."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    url = base_url.replace("http://", "ws://") + f"/ws/echo/g{group}/"
    sockets = []
    try:
        sockets = [
            await connect(url, origin=base_url, proxy=None, compression=None)
            for _ in range(PLAYERS)
        ]
        await asyncio.sleep(rng.random() / rate)
        next_at = time.monotonic()
        payload = json.dumps({"type": "act", "action": {"seat": 1, "play": "12O"}, "count": 3})
        while time.monotonic() < deadline:
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            start = time.perf_counter()
            await rng.choice(sockets).send(payload)
            await asyncio.wait_for(asyncio.gather(*(s.recv() for s in sockets)), TIMEOUT)
            tally.record(time.monotonic(), time.perf_counter() - start)
            next_at += 1 / rate
    except Exception as exc:
        tally.errors.append(f"echo {group}: {type(exc).__name__} {exc}")
    finally:
        for s in sockets:
            await s.close()


async def run_tables(
    base_urls: list[str],
    tables: list[tuple[int, list[str]]],
    *,
    seconds: float,
    rate: float = 1.0,
    max_moves: int | None = None,
    mark=None,
    route: str = "table",
) -> Tally:
    """Play the tables until `seconds` have passed. `mark(name)` is called once the warm-up
    is over, every table moving ("steady"), and at the deadline ("end")."""
    tally = Tally(tables=len(tables))
    start = time.monotonic()
    tally.deadline = start + seconds
    opened: list = []

    async def steady() -> None:
        await tally.all_moving.wait()
        await asyncio.sleep(max(0.0, start + WARM_UP - time.monotonic()))
        tally.steady_from = time.monotonic()
        if mark is not None:
            mark("steady")

    watch = asyncio.ensure_future(steady())
    if mark is not None:
        asyncio.get_running_loop().call_at(start + seconds, mark, "end")
    try:
        await asyncio.gather(
            *(
                play_table(
                    base_urls,
                    table_id,
                    sessions,
                    tally,
                    deadline=start + seconds,
                    rate=rate,
                    max_moves=max_moves,
                    seed=n,
                    opened=opened,
                    route=route,
                )
                for n, (table_id, sessions) in enumerate(tables)
            )
        )
        tally.elapsed = time.monotonic() - start
        tally.gaps = sum(client.gaps for client in opened)
    finally:
        watch.cancel()
        await asyncio.gather(*(client.close() for client in opened), return_exceptions=True)
    return tally


async def run_echo(base_url: str, groups: int, *, seconds: float, rate: float) -> Tally:
    tally = Tally()
    start = time.monotonic()
    await asyncio.gather(
        *(
            echo_group(base_url, n, tally, deadline=start + seconds, rate=rate, seed=n)
            for n in range(groups)
        )
    )
    tally.elapsed = time.monotonic() - start
    return tally
