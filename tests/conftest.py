"""Shared fixtures: real services, a live daphne, a real Celery worker and a real browser.

The suite runs on whatever DATABASE_URL and REDIS_URL say. Tests marked `services` need the
real PostgreSQL and Redis: without them they are skipped, unless REQUIRE_SERVICES=1 (CI),
where a missing or unreachable service fails the whole run at once instead.
"""

import asyncio
import fcntl
import os
import socket
import subprocess
import tempfile
import time
import uuid
import warnings
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import pytest_asyncio

from bench.processes import (
    child_env,
    database_url,
    free_port,
    start_celery_beat,
    start_celery_worker,
    start_daphne,
    stop,
)

CHROMIUM = "/usr/bin/chromium"


def _reachable(url: str, default_port: int) -> str | None:
    """None when a TCP connection to the URL's host opens, else why not."""
    parts = urlsplit(url)
    try:
        with socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or default_port), 3
        ):
            return None
    except OSError as exc:
        return f"{parts.hostname}:{parts.port or default_port}: {exc}"


def services_problem() -> str | None:
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")):
        return "DATABASE_URL does not point at PostgreSQL"
    if not redis_url.startswith("redis://"):
        return "REDIS_URL is not set"
    return _reachable(database_url, 5432) or _reachable(redis_url, 6379)


def pytest_configure(config):
    # Keep each run's Redis keys and Celery queue apart from any other process on this
    # machine, and under pytest-xdist each worker's from the others': the servers a test
    # starts read CHANNEL_PREFIX from the environment, this process from its settings.
    run = os.environ.setdefault("TUTE_TEST_RUN", uuid.uuid4().hex[:8])
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"tute-test-{worker}-{run}"
    os.environ["CHANNEL_PREFIX"] = prefix
    from django.conf import settings

    if settings.configured and "prefix" in settings.CHANNEL_LAYERS["default"].get("CONFIG", {}):
        settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = prefix
    if os.environ.get("REQUIRE_SERVICES") == "1":
        problem = services_problem()
        if problem:
            raise pytest.UsageError(f"REQUIRE_SERVICES=1 but a service is missing: {problem}")


# pytest-xdist hands the tests out in the order collected (after the xdist_group("alone")
# tests, which go to one process first): the long ones first, so that none is left to start
# at the end with the other processes idle; and the robots' tests, which need no database,
# before the others, while the first process to need it migrates the test database.
RUN_FIRST = ("tests/bots/", "tests/e2e/", "tests/games/", "tests/load/", "tests/rankings/")


def _run_order(item) -> int:
    return next(
        (n for n, prefix in enumerate(RUN_FIRST) if item.nodeid.startswith(prefix)),
        len(RUN_FIRST),
    )


def pytest_collection_modifyitems(config, items):
    items.sort(key=_run_order)  # stable: each file keeps its own order
    for item in items:
        if item.get_closest_marker("asyncio") and hasattr(item, "fixturenames"):
            # Last set up, first torn down: before the test's loop closes and the tables empty.
            item.fixturenames.append("socket_closings_finished")
    problem = services_problem()
    if problem is None:
        return
    skip = pytest.mark.skip(reason=f"needs PostgreSQL and Redis: {problem}")
    for item in items:
        if "services" in item.keywords:
            item.add_marker(skip)


@pytest_asyncio.fixture
async def socket_closings_finished():
    """An async test ends once the notes of the sockets it closed are written: a note's push
    runs on the test's loop, and a thread left waiting for a closed loop hung the run."""
    yield
    from games.sockets.table import CLOSING_NOTE

    notes = [task for task in asyncio.all_tasks() if task.get_name() == CLOSING_NOTE]
    if notes:
        _done, pending = await asyncio.wait(notes, timeout=30)
        assert not pending, f"{len(pending)} closed sockets' notes still running after 30 s"


# Robots play at once in tests (settings.ROBOT_DELAY_SECONDS), in this process and in the
# daphne and Celery processes the fixtures start.
os.environ["ROBOT_DELAY_SECONDS"] = "0"
# A finished game's analysis, which a test's Celery worker may run, is kept short.
os.environ.setdefault("GAME_ANALYSIS_SECONDS", "1")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, django_db_blocker):
    """SQLite tests use a file, not memory, so that a live daphne can share the test database.
    Under pytest-xdist on PostgreSQL, each worker's test database is a copy of one migrated
    once for the run (`_migrated_template`)."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    # The test process itself runs without psycopg's pool: its threads (sync_to_async in the
    # tests) keep their connections, which a pool never gets back, and the test database could
    # not be dropped at the end. The daphne and Celery processes it starts pool as in production.
    db.get("OPTIONS", {}).pop("pool", None)
    if db["ENGINE"] == "django.db.backends.sqlite3":
        # One file per test process, so that two runs in the same tree never share it.
        name = f"tute-test-{os.getpid()}.sqlite3"
        db.setdefault("TEST", {})["NAME"] = str(Path(tempfile.gettempdir()) / name)
    elif os.environ.get("PYTEST_XDIST_WORKER"):
        with django_db_blocker.unblock():
            db.setdefault("TEST", {})["TEMPLATE"] = _migrated_template()


def _template_name() -> str:
    from django.conf import settings

    return f"test_{settings.DATABASES['default']['NAME']}_template_{os.environ['TUTE_TEST_RUN']}"


def _migrated_template() -> str:
    """The name of a database migrated once for this run, which the workers' test databases
    are copied from (`CREATE DATABASE ... TEMPLATE`): every migration ran once, not once a
    worker. The first worker makes it; the others wait on a lock."""
    from django.db import connection

    template = _template_name()
    with (Path(tempfile.gettempdir()) / f"{template}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with connection._nodb_cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template])
            exists = cursor.fetchone() is not None
        if not exists:
            test = connection.settings_dict["TEST"]
            name, test_name = connection.settings_dict["NAME"], test.get("NAME")
            test["NAME"] = template
            try:
                connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
            finally:
                connection.close()
                connection.settings_dict["NAME"], test["NAME"] = name, test_name
    return template


def pytest_sessionfinish(session):
    """Whatever is still kept is closed (`Kept`). pytest-xdist's controller drops the run's
    template database once the workers are done."""
    KEPT.close_all_but(set())
    if os.environ.get("PYTEST_XDIST_WORKER") or not session.config.pluginmanager.hasplugin(
        "dsession"
    ):
        return
    import psycopg
    from django.db import connection

    if connection.vendor != "postgresql" or "TUTE_TEST_RUN" not in os.environ:
        return
    db = connection.settings_dict
    with psycopg.connect(
        dbname="postgres",
        host=db.get("HOST") or "127.0.0.1",
        port=db.get("PORT") or 5432,
        user=db.get("USER") or None,
        password=db.get("PASSWORD") or None,
        autocommit=True,
    ) as maintenance:
        maintenance.execute(f'DROP DATABASE IF EXISTS "{_template_name()}"')


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, which it drops at the end: first stop the servers kept
    for the tests (`KEPT`) and let the backends of the daphne and Celery processes the tests
    stopped go (their pools' connections end with them, a moment later), so that the drop
    never finds the database in use."""
    from django.db import connection

    if connection.vendor == "postgresql":
        _flush_by_delete()
    yield
    KEPT.close_all_but(set())
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        others = (
            "from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()"
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            cursor.execute(f"select count(*) {others}")
            if cursor.fetchone()[0] == 0:
                break
            time.sleep(0.1)
        else:
            cursor.execute(f"select pid, application_name, query {others}")
            warnings.warn(f"sessions left on the test database: {cursor.fetchall()}", stacklevel=1)
            cursor.execute(f"select pg_terminate_backend(pid) {others}")
    connection.close()


# Kept through every flush: the rows Django's post_migrate writes again after one (content
# types, permissions), with the same ids, as a daphne kept between tests (`Kept`) caches
# content types by id (the admin's log entries point at them); and the Moderators group
# and its permissions, which a migration writes (no test makes a group of its own).
FLUSH_KEEPS = ("django_content_type", "auth_permission", "auth_group", "auth_group_permissions")
FLUSH_TRIES = 10


def _flush_by_delete() -> None:
    """After each transactional test pytest-django empties every table (Django's `flush`).
    On PostgreSQL that is one TRUNCATE of them all: about a second, as it makes new files for
    every table and index. The few rows a test leaves are deleted in a tenth of that, in one
    transaction whose foreign keys are checked at its commit (Django makes them DEFERRABLE
    INITIALLY DEFERRED). This test process only: the sequences go on (as with `flush`'s
    TRUNCATE without RESTART IDENTITY); `reset_sequences` keeps the TRUNCATE."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush
    if getattr(truncate, "deletes", False):
        return

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        deletes = [
            f"DELETE FROM {self.quote_name(table)};" for table in tables if table not in FLUSH_KEEPS
        ]
        return ["SET CONSTRAINTS ALL DEFERRED;", *deletes]

    execute = DatabaseOperations.execute_sql_flush

    def execute_sql_flush(self, sql_list):
        # A daphne kept between tests (`Kept`) may still be closing the last test's sockets:
        # its transaction and the flush's may deadlock, or it may write a row that points at
        # one the flush deleted. Either fails the whole flush, rolled back; it runs again.
        from django.db import IntegrityError, OperationalError

        for attempt in range(FLUSH_TRIES):
            try:
                return execute(self, sql_list)
            except (IntegrityError, OperationalError):
                if attempt == FLUSH_TRIES - 1:
                    raise
                time.sleep(0.1 * (attempt + 1))

    sql_flush.deletes = True
    DatabaseOperations.sql_flush = sql_flush
    DatabaseOperations.execute_sql_flush = execute_sql_flush


@pytest.fixture(scope="session", autouse=True)
def _collected_static(request):
    """The site runs with DEBUG off, as in production: `{% static %}` reads the manifest that
    `collectstatic` writes, and WhiteNoise serves the collected files. So collect them once,
    as `make run` does, unless the run holds only tests that need no Django."""
    no_django = ("tests/engine/", "tests/bots/")
    if all(item.nodeid.startswith(no_django) for item in request.session.items):
        return
    from django.conf import settings
    from django.core.management import call_command

    # Once a run: pytest-xdist's workers take turns on a lock, and the first collects. A
    # second collection would rewrite the manifest under the servers of the other workers.
    mark = (
        Path(tempfile.gettempdir())
        / f"tute-static-{zlib.crc32(str(settings.STATIC_ROOT).encode())}"
    )
    stamp = mark.with_suffix(".run")
    with mark.with_suffix(".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        run = os.environ["TUTE_TEST_RUN"]
        if not stamp.exists() or stamp.read_text() != run:
            call_command("collectstatic", interactive=False, verbosity=0)
            stamp.write_text(run)


def _uses_db(request) -> bool:
    uses_db = {"db", "transactional_db", "django_db_setup"} & set(request.fixturenames)
    return bool(uses_db or request.node.get_closest_marker("django_db"))


@pytest.fixture(autouse=True)
def _live_play_settings(settings, monkeypatch):
    """Robots play at once; this process runs no server loop (tests sweep timers
    themselves, with `games.timers.sweep`)."""
    from games import server

    settings.ROBOT_DELAY_SECONDS = 0
    monkeypatch.setattr(server, "ensure_running", lambda: None)


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language: a request or socket of an earlier
    test on the same worker may have left its reader's language active in this thread."""
    from django.utils import translation

    translation.deactivate()
    yield


@pytest.fixture(autouse=True)
def _fresh_cache(request, django_db_blocker):
    """Each database test starts with an empty cache. allauth counts failed logins in the
    (database) cache, which transactional tests leave behind: it must not refuse the logins of
    a later test."""
    if _uses_db(request):
        request.getfixturevalue("django_db_setup")
        from django.core.cache import cache

        with django_db_blocker.unblock():
            cache.clear()
    yield


# --- Kept from one test to the next: the daphne servers and Chromium ------------------------


class Kept:
    """What is slow to start (a daphne process, Chromium), kept from one test to the next
    while the tests that follow each other in this process ask for it, and closed before the
    first test that does not (`pytest_runtest_setup`), and at the end. pytest-xdist hands each
    process neighbouring tests one after the other, so the browser tests mostly follow each
    other. Each thing is kept under the name of the fixture that hands it out."""

    def __init__(self) -> None:
        self._open: dict[str, tuple[Any, Callable[[], None]]] = {}

    def get(self, name: str, start: Callable[[], tuple[Any, Callable[[], None]]], alive) -> Any:
        """The thing kept as `name`, started (`start()` gives it and its closer) when there is
        none or it is no longer `alive(thing)`."""
        if name in self._open and not alive(self._open[name][0]):
            self.close(name)
        if name not in self._open:
            self._open[name] = start()
        return self._open[name][0]

    def close(self, name: str) -> None:
        _thing, closer = self._open.pop(name)
        closer()

    def close_all_but(self, names: set[str]) -> None:
        for name in [name for name in self._open if name not in names]:
            self.close(name)


KEPT = Kept()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    # Before the test's fixtures: what it does not use is closed. Playwright's sync API keeps
    # an event loop running in this thread while it lives, which would break an asyncio test;
    # and a daphne left running could serve or sweep beside a test that expects none.
    KEPT.close_all_but(set(item.fixturenames))


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


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _start_chromium() -> tuple[Any, Callable[[], None]]:
    from playwright.sync_api import sync_playwright

    # Playwright's running loop makes Django think the ORM is called from async code; it is
    # not. Set while Playwright lives, as it is kept between tests (`Kept`).
    unsafe = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
    except BaseException:
        playwright.stop()
        raise

    def close() -> None:
        try:
            chromium.close()
        finally:
            playwright.stop()
            if unsafe is None:
                os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            else:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = unsafe

    return chromium, close


# Every page the tests open is a user's who asked for less motion: the table's cards do not
# slide in (static/css/table.css). No test looks at a card in flight, and software-drawn
# animations were a third of Chromium's CPU in a whole game on a phone.
CONTEXT_DEFAULTS = {"reduced_motion": "reduce"}


class Browser:
    """The kept Chromium, whose new contexts and pages take `CONTEXT_DEFAULTS` unless a
    test says otherwise; anything else is Playwright's `Browser` itself."""

    def __init__(self, chromium) -> None:
        self._chromium = chromium

    def new_context(self, **options):
        return self._chromium.new_context(**{**CONTEXT_DEFAULTS, **options})

    def new_page(self, **options):
        return self._chromium.new_page(**{**CONTEXT_DEFAULTS, **options})

    def __getattr__(self, name: str):
        return getattr(self._chromium, name)


@pytest.fixture
def browser():
    """Debian's Chromium driven by Playwright. Never a downloaded browser.

    One Chromium serves the browser tests that follow each other in this process (`Kept`);
    each test has browser contexts of its own (cookies, storage, cache), all closed after it.
    """
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: `make test` installs it with apt-get")
    chromium = KEPT.get("browser", _start_chromium, alive=lambda chromium: chromium.is_connected())
    yield Browser(chromium)
    for context in chromium.contexts:
        context.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    # A bound, not a measure: several test processes share the cores (pytest-xdist).
    page.set_default_timeout(20_000)
    yield page
    context.close()
