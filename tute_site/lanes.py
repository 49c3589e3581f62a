"""The embedded default's background lanes: where the work that a game's end or a timer
queues runs when there is no Celery worker (no REDIS_URL, `make run` as it comes).

Celery runs tasks eagerly there, so a finished game's analysis (seconds of CPU) used to run
inside the request that played the last card: that card's push, and every other table's
moves, waited for it. Instead, once this process's server loop runs (games/server.py), a
task queued with `apply_async` or `delay` goes to one of two lanes, as production has two
queues and a worker for each (tute_site/celery.py):

- "prompt": awards, arena scores and ticks, beat's slower sweeps (nice 5);
- "slow": the analyses (nice 19).

Each lane is one child process, spawned with Django set up and a database connection of its
own, at a lower CPU priority, running one job at a time in the order queued; a job queued
again while it still waits runs once. Nothing of it runs on the sockets' database threads,
nor inside the request that queued it. A job's pushes (games/push.py) and the tasks it
queues are collected in the child and handed back to this process when it ends: the
in-memory channel layer and the lanes live here.

What waits in a lane is lost with the process, as an eager task cut off mid-way was: the
award sweep pays a game whose award was lost, the arena tick scores what is left unscored,
and the analysis sweep analyses a finished game without its analysis (all at beat's
intervals, run by the server loop).

Elsewhere (pytest, `manage.py` commands, and a daphne before its loop starts) eager tasks
run inline, as Celery runs them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ctypes
import json
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

PROMPT, SLOW = "prompt", "slow"
# A lane's CPU niceness: the sockets and the robots (nice 0) come first.
NICENESS = {PROMPT: 5, SLOW: 19}
# A job slower than this is logged with its time.
SLOW_JOB_SECONDS = 5.0

# Set in a lane's child process: what its job pushes and queues, handed back at its end.
IN_CHILD = False
_child_queued: list[tuple[str, str, list, dict]] = []


@dataclass
class Job:
    lane: str
    name: str
    args: list = field(default_factory=list)
    kwargs: dict = field(default_factory=dict)

    @property
    def key(self) -> str:
        return json.dumps([self.name, self.args, self.kwargs], sort_keys=True, default=str)


@dataclass
class Done:
    """What a job's child hands back: its pushes, the tasks it queued, its failure if any."""

    pushes: list = field(default_factory=list)
    queued: list = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0


class Lane:
    """One child process and the jobs waiting for it, served by a task on the loop."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.waiting: asyncio.Queue[Job] = asyncio.Queue()
        self.queued: set[str] = set()  # keys of the jobs waiting, not of the one running
        self.running: Job | None = None
        self.done = 0
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def put(self, job: Job) -> None:
        """On the loop: queue `job` unless the same job already waits."""
        if job.key in self.queued:
            return
        self.queued.add(job.key)
        self.waiting.put_nowait(job)

    def pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            _end_children_at_exit()
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=child_start,
                initargs=(NICENESS[self.name],),
            )
        return self._pool

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        try:  # its process starts now, not when the first game ends
            await loop.run_in_executor(self.pool(), child_ready)
        except Exception:
            logger.exception("lane %s: its process did not start; it is tried again", self.name)
            self.close()
        while True:
            job = await self.waiting.get()
            self.queued.discard(job.key)
            self.running = job
            try:
                done = await loop.run_in_executor(
                    self.pool(), child_run, job.name, job.args, job.kwargs
                )
            except BrokenProcessPool:
                logger.error(
                    "lane %s: its process died during %s; starting another", self.name, job.name
                )
                self.close()
                continue
            except Exception:
                logger.exception("lane %s: %s could not be run", self.name, job.name)
                continue
            finally:
                self.running = None
                self.done += 1
            if done.error:
                logger.error("lane %s: %s failed:\n%s", self.name, job.name, done.error)
            elif done.seconds > SLOW_JOB_SECONDS:
                logger.info("lane %s: %s took %.1f s", self.name, job.name, done.seconds)
            try:
                await self._hand_on(done)
            except Exception:  # a lost push or task must not stop the lane
                logger.exception("lane %s: what %s pushed or queued was lost", self.name, job.name)

    @staticmethod
    async def _hand_on(done: Done) -> None:
        """What the job queued goes to its lane, what it pushed to the sockets."""
        for lane, name, args, kwargs in done.queued:
            submit(Job(lane, name, args, kwargs))
        if done.pushes:
            from games import push

            await push.send_async(done.pushes)

    def close(self, *, wait: bool = False) -> None:
        """Let its process go; `wait`: until the pool's manager thread has ended."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None


_exit_hooked = False


def _end_children_at_exit() -> None:
    """As this process exits, its lanes' processes are killed first: the executor would
    otherwise wait for a running job, up to a minute of analysis, before daphne could stop.
    What they were doing is done again by the sweeps. (threading's exit hooks run before the
    executors' own, in reverse order of registration.)"""
    global _exit_hooked
    if not _exit_hooked:
        _exit_hooked = True
        threading._register_atexit(_kill_children)


def _kill_children() -> None:
    for child in multiprocessing.active_children():
        child.kill()
    # Each pool's manager thread sees its child die and closes its wake-up pipe. It must be
    # gone before the executors' own exit hook writes to that pipe (`_python_exit`), or the
    # two race and the exit prints "OSError: [Errno 9] Bad file descriptor".
    for lane in list(_lanes.values()):
        lane.close(wait=True)


_loop: asyncio.AbstractEventLoop | None = None
_lanes: dict[str, Lane] = {}
_tasks: list[asyncio.Task] = []
_lock = threading.Lock()


def start(loop: asyncio.AbstractEventLoop) -> None:
    """Serve the lanes on `loop` (this process's server loop; call from the loop). Tasks
    queued from then on go to the lanes."""
    global _loop
    with _lock:
        if _loop is loop and all(not task.done() for task in _tasks):
            return
        for lane in _lanes.values():
            lane.close()
        _lanes.clear()
        _lanes.update({name: Lane(name) for name in NICENESS})
        _tasks[:] = [loop.create_task(lane.serve()) for lane in _lanes.values()]
        _loop = loop


def accepting() -> bool:
    """Whether a task queued now goes to a lane instead of running inline: in a lane's own
    child (handed back to this process), or in a process whose lanes are served."""
    return IN_CHILD or (_loop is not None and _loop.is_running() and not _loop.is_closed())


def submit(job: Job) -> None:
    """Queue `job` on its lane, from any thread of this process (or hand it back, in a
    lane's child)."""
    if IN_CHILD:
        _child_queued.append((job.lane, job.name, job.args, job.kwargs))
        return
    loop = _loop
    if loop is None:
        raise RuntimeError("the lanes are not served in this process")
    loop.call_soon_threadsafe(lambda: _lanes[job.lane].put(job))


def stop() -> None:
    """Stop serving the lanes and end their processes."""
    global _loop
    with _lock:
        for task in _tasks:
            task.cancel()
        for lane in _lanes.values():
            lane.close()
        _tasks.clear()
        _lanes.clear()
        _loop = None


# --- In the child ---------------------------------------------------------------------------


def child_start(niceness: int) -> None:
    """A lane's process, as it starts: a lower priority, Django, the apps' tasks, and
    pushes collected instead of sent (the channel layer that reaches the sockets is the
    parent's)."""
    global IN_CHILD
    IN_CHILD = True
    _end_with_parent()
    import django

    django.setup()
    from celery import current_app

    from games import push

    push.RELAY = []
    current_app.loader.import_default_modules()
    # Lowered once set up: seconds of imports at nice 19 on a busy machine took minutes.
    os.nice(niceness)


def child_ready() -> bool:
    """Nothing: run once, it makes the pool start its process (and the setup above)."""
    return True


def _end_with_parent() -> None:
    """Linux: this process is killed when the daphne that started it dies, whatever killed
    it; it would otherwise finish its job and linger, holding a database connection."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        return
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:  # the parent was already gone
        os._exit(0)


PR_SET_PDEATHSIG = 1


def child_run(name: str, args: list, kwargs: dict) -> Done:
    """Run the task `name` here, as Celery runs an eager task; what it pushed and queued."""
    import traceback

    from celery import current_app
    from django.db import close_old_connections

    from games import push

    started = time.monotonic()
    done = Done()
    close_old_connections()
    try:
        current_app.tasks[name].apply(args=args, kwargs=kwargs, throw=True)
    except Exception:
        done.error = traceback.format_exc()
    finally:
        close_old_connections()
        done.pushes, push.RELAY[:] = list(push.RELAY or ()), []
        done.queued, _child_queued[:] = list(_child_queued), []
        done.seconds = time.monotonic() - started
    return done


def lane_of(task: Any) -> str:
    """The lane (and production's queue) of a task: its `lane` option, or prompt."""
    return getattr(task, "lane", PROMPT)
