"""Live servers for the tests, a pytest plugin of the suite (tests/conftest.py): daphne
processes kept between tests, a real Celery worker and beat on a queue of the test's own."""

import os
import subprocess
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.support.processes import (
    child_env,
    database_url,
    free_port,
    start_celery_beat,
    start_celery_worker,
    start_daphne,
    stop,
)
from tests.support.kept import KEPT

# A kept daphne has this long to stop by itself (SIGTERM) before it is killed: with sockets
# still open it waits for their consumers to finish, often 5 to 10 seconds, and nothing waits
# for them.
DAPHNE_STOP_AFTER = 2


@dataclass
class Daphne:
    """A daphne process serving the site on the test database, kept between tests."""

    url: str
    log: Path
    process: subprocess.Popen


def kept_daphne(name: str, tmp_path_factory, django_db_blocker, **env: str) -> Daphne:
    """The daphne kept as `name`, started with `env` over this process's environment."""

    def start() -> tuple[Daphne, Callable[[], None]]:
        server_env = child_env(database_url(), **env)
        # Set while Playwright runs in this process (the `browser` fixture); a server never.
        server_env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        log_path = tmp_path_factory.mktemp(name) / "daphne.log"
        port = free_port()
        log = log_path.open("w")
        process = start_daphne(port, log, server_env)

        def close() -> None:
            stop(process, timeout=DAPHNE_STOP_AFTER)
            log.close()
            # Its last heartbeat may have come after the last test's tables were emptied.
            from games.models import ServerProcess

            with django_db_blocker.unblock():
                ServerProcess.objects.all().delete()

        return Daphne(f"http://127.0.0.1:{port}", log_path, process), close

    return KEPT.get(name, start, alive=lambda daphne: daphne.process.poll() is None)


@pytest.fixture
def daphne_server(transactional_db, tmp_path_factory, django_db_blocker):
    """A real daphne serving the site on a free port, on the test database. Yields its URL.
    The same process serves the tests that follow while they ask for one (`Kept`): each test
    still starts on emptied tables, and nothing of a test is kept in it but what any restart
    would find in the database."""
    yield kept_daphne("daphne_server", tmp_path_factory, django_db_blocker).url


@pytest.fixture
def proxied_daphne_server(transactional_db, tmp_path_factory, django_db_blocker):
    """`daphne_server` behind one trusted proxy: each browser context names its own address
    (X-Forwarded-For, `ADDRESSES`), so two players of one test machine are two addresses,
    as two homes are, and their game counts."""
    yield kept_daphne(
        "proxied_daphne_server", tmp_path_factory, django_db_blocker, TRUSTED_PROXY_COUNT="1"
    ).url


@pytest.fixture
def embedded_daphne_server(transactional_db, tmp_path_factory, django_db_blocker):
    """A real daphne as `make run` starts it without REDIS_URL: in-memory channel layer,
    eager tasks, the timer sweep in the server process. Yields its URL; kept as
    `daphne_server` is."""
    server = kept_daphne(
        "embedded_daphne_server", tmp_path_factory, django_db_blocker, REDIS_URL=""
    )
    yield server.url


@pytest.fixture
def quick_daphne(transactional_db, tmp_path_factory, django_db_blocker):
    """A daphne as `make run` starts it (no Redis, timers swept in the process), sweeping
    ten times a second: the robots' moves of a whole game do not wait a second each."""
    server = kept_daphne(
        "quick_daphne", tmp_path_factory, django_db_blocker, REDIS_URL="", TIMER_SWEEP_SECONDS="0.1"
    )
    yield server.url


class LogSince:
    """A server's log as written since this test began."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.start = path.stat().st_size

    def read_text(self) -> str:
        with self.path.open("rb") as log:
            log.seek(self.start)
            return log.read().decode(errors="replace")


@pytest.fixture
def daphne_server_log(daphne_server, tmp_path_factory, django_db_blocker) -> LogSince:
    """What the `daphne_server` fixture's daphne logs during this test."""
    return LogSince(kept_daphne("daphne_server", tmp_path_factory, django_db_blocker).log)


@pytest.fixture
def embedded_daphne_server_log(
    embedded_daphne_server, tmp_path_factory, django_db_blocker
) -> LogSince:
    """What the `embedded_daphne_server` fixture's daphne logs during this test."""
    server = kept_daphne(
        "embedded_daphne_server", tmp_path_factory, django_db_blocker, REDIS_URL=""
    )
    return LogSince(server.log)


@pytest.fixture
def celery_queue(transactional_db):
    """The Celery app, sending tasks to a queue of this test's own. Yields the queue's name."""
    if not os.environ.get("REDIS_URL"):
        pytest.fail("a real Celery worker needs REDIS_URL")
    from tute_site.celery import app

    queue = f"test-{uuid.uuid4().hex[:10]}"
    previous_queue = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        yield queue
    finally:
        app.conf.task_default_queue = previous_queue
        # The analyses a test's games queued wait on the slow queue, which no test worker
        # serves but the one a test starts: they go with the test.
        import redis

        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        slow = list(client.scan_iter(match=f"*{queue}.slow*"))
        if slow:
            client.delete(*slow)
        client.close()


@pytest.fixture
def celery_worker(celery_queue, tmp_path):
    """A real Celery worker process on the Redis broker, on its own queue and the test database."""
    from tute_site.celery import app

    process = start_celery_worker(celery_queue, tmp_path / "celery.log")
    try:
        yield app
    finally:
        stop(process, timeout=15)


@pytest.fixture
def celery_beat(celery_worker, tmp_path):
    """Celery beat, as `make run` starts it, queueing to the `celery_worker` fixture's queue
    (the timer sweep every second)."""
    queue = celery_worker.conf.task_default_queue
    process = start_celery_beat(queue, tmp_path, tmp_path / "beat.log")
    try:
        yield tmp_path / "beat.log"
    finally:
        stop(process, timeout=15)
