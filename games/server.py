"""What runs inside each daphne process besides its sockets: one asyncio loop, started by
the first socket that connects.

- Every `SERVER_HEARTBEAT_SECONDS` it notes that this process is alive (`ServerProcess`):
  the sweeper counts the sockets of a process that stopped beating as closed.
- In the embedded default (no REDIS_URL: no Celery worker, no beat) it runs the timer sweep
  (games/timers.py) about once a second. The sweep, robots' thinking included, runs in a
  worker thread, never on the event loop. It also serves the background lanes
  (tute_site/lanes.py): the tasks a game's end queues (award, analysis, arena score), the
  arenas' tick and beat's slower jobs run there, in processes of their own, never here.
- With a Redis channel layer it notices, about once a second, when that Redis was
  unreachable or lost its data (restarted empty): every socket of this process then joins
  its groups again and reads the whole state, since pushes were lost meanwhile (and the
  list layer's groups with Redis's data).

The sockets' database work runs on a pool of `DATABASE_THREADS` threads (`database`), not on
asgiref's one shared thread: each table's moves are serialised by the table's row lock, and
the tables no longer wait for one another.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import gc
import logging
import sqlite3
import threading
import time
import uuid
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import OperationalError, close_old_connections

from games import push, timers
from games.table import presence
from tute_site import lanes

logger = logging.getLogger(__name__)

PROCESS_ID = uuid.uuid4()
_loop_task: asyncio.Task | None = None
# This process's open sockets (consumers with a `rejoin()`), for when pushes were lost.
SOCKETS: weakref.WeakSet = weakref.WeakSet()
# The mark this process keeps in the channel layer's Redis lasts this long; refreshed each
# second, it is missing only when Redis lost its data.
LAYER_MARK_SECONDS = 300
_layer_marked = False
_layer_unreachable = False
_layer_client: tuple[asyncio.AbstractEventLoop, Any] | None = None
_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()
# Periodic tasks of other apps that beat runs every second with REDIS_URL; without it, this
# loop queues them on the background lanes after each timer sweep (games.arenas adds its
# tick). One still waiting is not queued twice.
EMBEDDED_SWEEPS: list[Any] = []
EMBEDDED_SWEEPS_SECONDS = 1.0


def _database_executor() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=settings.DATABASE_THREADS, thread_name_prefix="database"
            )
        return _executor


# A transaction that failed for one of these changed nothing and may simply run again.
RETRIES = 4
RETRY_PAUSE_SECONDS = 0.05


def transient(error: BaseException) -> bool:
    """Whether a database error means "try again": a lock SQLite could not get within its
    timeout, or PostgreSQL's serialization failure, deadlock or lock timeout. Each is raised
    by a statement, before any commit, so the transaction it broke was rolled back whole. A
    dropped connection is not: it may have dropped during the commit itself."""
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    if isinstance(cause, sqlite3.OperationalError):
        return "locked" in str(cause) or "busy" in str(cause)
    return type(cause).__name__ in {"SerializationFailure", "DeadlockDetected", "LockNotAvailable"}


def _connected(function):
    """`function`, its thread's database connection checked before and handed back to the
    pool (or closed) after, as Django does around a request; run again, a few times, when it
    failed for a reason that passes (`transient`)."""

    @functools.wraps(function)
    def run(*args, **kwargs):
        for attempt in range(RETRIES + 1):
            close_old_connections()
            try:
                return function(*args, **kwargs)
            except OperationalError as error:
                if attempt == RETRIES or not transient(error):
                    raise
                logger.warning("%s: %s; trying again", function.__name__, error)
            finally:
                close_old_connections()
            time.sleep(RETRY_PAUSE_SECONDS * 2**attempt)
        raise AssertionError("unreachable")

    return run


def _pushing(function):
    """`function`, returning (its result or its error, the pushes it sent): they are sent
    from the event loop afterwards, not by a hop back to it from the database thread."""

    @functools.wraps(function)
    def run(*args, **kwargs):
        with push.collected() as outbox:
            try:
                return function(*args, **kwargs), None, outbox
            except Exception as error:  # a change committed before it still pushes
                return None, error, outbox

    return run


def database(function):
    """`function` as an awaitable run on the sockets' database threads: Channels'
    `database_sync_to_async`, on several threads instead of one. What it pushes (after its
    commits) is sent from the event loop once it returns, before its result is.

    The executor is called directly, in a copy of the caller's context, not through
    asgiref's `sync_to_async`: nothing run here calls back into the event loop (its pushes
    are collected), which is all that machinery is for, and it cost every move a
    measurable share of the process's CPU."""
    run = _pushing(_connected(function))

    @functools.wraps(function)
    async def call(*args, **kwargs):
        context = contextvars.copy_context()
        result, error, outbox = await asyncio.get_running_loop().run_in_executor(
            _database_executor(), functools.partial(context.run, run, *args, **kwargs)
        )
        await push.send_async(outbox)
        if error is not None:
            raise error
        return result

    return call


def embedded() -> bool:
    """True when this process must sweep itself: tasks run eagerly, there is no beat."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER)


def in_thread(function, **kwargs):
    """Run `function(**kwargs)` in a worker thread with a database connection of its own,
    handed back afterwards; awaitable. Not on the sockets' database threads: a slow robot
    never holds them up."""
    return sync_to_async(_connected(function), thread_sensitive=False)(**kwargs)


async def layer_lost_data() -> bool:
    """Whether pushes may have been lost since the last call: the channel layer's Redis was
    unreachable (pushes sent meanwhile went nowhere), or it lost its data (restarted empty,
    or flushed: the list layer's groups are gone) and this process's mark in it with them.
    False the first time, with the in-memory layer, and while Redis is unreachable (the next
    call after Redis is back answers)."""
    global _layer_marked, _layer_unreachable
    client = _layer_redis()
    if client is None:
        return False
    key = f"{settings.CHANNEL_LAYERS['default']['CONFIG']['prefix']}:process:{PROCESS_ID}"
    try:
        previous = await client.set(key, "1", ex=LAYER_MARK_SECONDS, get=True)
    except push.LAYER_ERRORS as exc:
        logger.warning("channel layer unreachable: %r", exc)
        _layer_unreachable = _layer_marked
        return False
    lost = _layer_marked and (previous is None or _layer_unreachable)
    _layer_marked, _layer_unreachable = True, False
    return lost


def _layer_redis():
    """A Redis client on the channel layer's server, for this event loop (None: no Redis)."""
    global _layer_client
    layer = get_channel_layer()
    if hasattr(layer, "connection"):  # channels-redis's list layer
        return layer.connection(0)
    if not settings.REDIS_URL:
        return None
    loop = asyncio.get_running_loop()
    if _layer_client is None or _layer_client[0] is not loop:
        _layer_client = (loop, aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=5))
    return _layer_client[1]


# How often this process's set of groups in Redis is kept from expiring (tute_site/layers.py).
KEEP_ALIVE_SECONDS = 10.0
_kept_alive_at = 0.0
# The layer's groups are still to be announced again since Redis lost them.
_recovering = False


async def check_layer() -> None:
    """When pushes may have been lost, the layer announces this process's groups again
    (tute_site/layers.py `recover`; until it could, it publishes every push) and every socket
    reads the whole state. Now and then, the layer's note of those groups is kept alive."""
    global _kept_alive_at, _recovering
    layer = get_channel_layer()
    lost = await layer_lost_data()
    if (lost or _recovering) and hasattr(layer, "recover"):
        try:
            await layer.recover()
        except push.LAYER_ERRORS as exc:
            logger.warning("the channel layer's groups could not be announced again: %r", exc)
            _recovering = True
        else:
            lost, _recovering = lost or _recovering, False
    if lost:
        await rejoin_all()
    if hasattr(layer, "keep_alive") and time.monotonic() >= _kept_alive_at:
        _kept_alive_at = time.monotonic() + KEEP_ALIVE_SECONDS
        try:
            await layer.keep_alive()
        except push.LAYER_ERRORS as exc:  # Redis is away: `layer_lost_data` sees to it
            logger.warning("the channel layer's groups could not be kept alive: %r", exc)


async def rejoin_all() -> int:
    """Every socket of this process joins its groups again and gets the whole state."""
    sockets = list(SOCKETS)
    results = await asyncio.gather(*(s.rejoin() for s in sockets), return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    logger.warning(
        "pushes may have been lost: %d sockets joined again, %d failed",
        len(sockets) - len(failed),
        len(failed),
    )
    return len(sockets) - len(failed)


# A round of this loop slower than this is logged: robots and timers wait for it.
SLOW_ROUND_SECONDS = 5.0
# Beat's jobs of a minute or more apart (the award sweep, the rating window's roll, the
# guests' sweep) are run by this loop at the same intervals when there is no beat.
SLOW_JOB_SECONDS = 60.0


def slow_jobs() -> list[tuple[str, float]]:
    """(task name, seconds apart) of beat's jobs this loop runs without Redis."""
    return [
        (entry["task"], float(entry["schedule"]))
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
        if float(entry["schedule"]) >= SLOW_JOB_SECONDS
    ]


def due_slow_jobs(due_at: dict[str, float], now: float) -> list[tuple[str, float]]:
    """The slow jobs due at `now` (monotonic seconds; a job never run is due)."""
    return [(name, every) for name, every in slow_jobs() if now >= due_at.get(name, 0.0)]


def run_slow_jobs(due_at: dict[str, float], now: float) -> list[str]:
    """Queue each slow job that is due at `now` (on the background lanes once they are
    served, else run at once as an eager task); note when it is due next. The names of
    those queued."""
    due = due_slow_jobs(due_at, now)
    if not due:
        return []
    from celery import current_app

    # The apps' task modules, which a daphne process has not always imported (a worker
    # imports them as it starts).
    current_app.loader.import_default_modules()
    for name, every in due:
        due_at[name] = now + every
        task = current_app.tasks[name]
        try:
            if lanes.accepting():
                lanes.submit(lanes.Job(lanes.lane_of(task), name))
            else:
                task.apply(throw=True)
        except Exception:
            logger.exception("the server loop's %s failed; it runs again in %.0f s", name, every)
    return [name for name, _every in due]


async def _run() -> None:
    beat_at = sweeps_at = 0.0
    slow_due_at: dict[str, float] = {}
    while True:
        started = time.monotonic()
        try:
            if time.monotonic() >= beat_at:
                await in_thread(presence.server_process_beat, process_id=PROCESS_ID)
                beat_at = time.monotonic() + settings.SERVER_HEARTBEAT_SECONDS
            if embedded():
                await in_thread(timers.sweep, alive=PROCESS_ID)
                if time.monotonic() >= sweeps_at:  # once a second, as beat queues them
                    sweeps_at = time.monotonic() + EMBEDDED_SWEEPS_SECONDS
                    for task in EMBEDDED_SWEEPS:
                        task.apply_async()  # to a lane: nothing of it runs here
                run_slow_jobs(slow_due_at, time.monotonic())
        except Exception:
            logger.exception("the server loop failed; it goes on")
        try:
            await check_layer()
        except Exception:
            logger.exception("the channel layer check failed; it goes on")
        took = time.monotonic() - started
        if took > SLOW_ROUND_SECONDS:
            logger.warning("the server loop's round took %.1f s: timers and robots waited", took)
        await asyncio.sleep(settings.TIMER_SWEEP_SECONDS)


_frozen = False


def _freeze_startup_objects() -> None:
    """Once, as the process starts serving: what Django, the apps and their libraries made
    as they loaded (about 100,000 objects that live as long as the process) is left out of
    the cyclic garbage collector's full passes (`gc.freeze`). Each full pass stopped every
    socket of the process for about 100 ms under load, mostly to walk those objects again;
    it now walks what the sockets and games made since."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.collect()
        gc.freeze()


def ensure_running() -> None:
    """Start this process's loop if it is not running (call from the event loop)."""
    global _loop_task
    loop = asyncio.get_running_loop()
    if _loop_task is None or _loop_task.done() or _loop_task.get_loop() is not loop:
        _freeze_startup_objects()
        if embedded():
            lanes.start(loop)
        _loop_task = loop.create_task(_run())
        _loop_task.add_done_callback(_loop_ended)


def _loop_ended(task: asyncio.Task) -> None:
    """The loop never returns: say why it stopped (the next socket to connect restarts it)."""
    if task.cancelled():
        logger.info("the server loop was cancelled")
    elif task.exception() is not None:
        logger.error("the server loop stopped", exc_info=task.exception())
