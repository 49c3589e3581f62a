"""The fault tool's processes: two daphne, Celery and a Redis of their own, started, killed
and started again."""

from __future__ import annotations

import random
import signal
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.support.processes import (
    child_env,
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
