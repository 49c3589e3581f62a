"""Shared fixtures: real services, a live daphne, a real Celery worker and a real browser.

The suite runs on whatever DATABASE_URL and REDIS_URL say. Tests marked `services` need the
real PostgreSQL and Redis: without them they are skipped, unless REQUIRE_SERVICES=1 (CI),
where a missing or unreachable service fails the whole run at once instead.
"""

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
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
    # Keep each run's Redis keys and Celery queue apart from any other process on this machine.
    os.environ.setdefault("CHANNEL_PREFIX", f"tute-test-{uuid.uuid4().hex[:8]}")
    if os.environ.get("REQUIRE_SERVICES") == "1":
        problem = services_problem()
        if problem:
            raise pytest.UsageError(f"REQUIRE_SERVICES=1 but a service is missing: {problem}")


def pytest_collection_modifyitems(config, items):
    problem = services_problem()
    if problem is None:
        return
    skip = pytest.mark.skip(reason=f"needs PostgreSQL and Redis: {problem}")
    for item in items:
        if "services" in item.keywords:
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url_for_tests() -> str:
    """A URL for the test database that pytest-django created, for other processes to share."""
    from django.db import connection

    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = settings.get("USER") or ""
    password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    host = settings.get("HOST") or "127.0.0.1"
    port = settings.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings['NAME']}"


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listened on port {port} within {timeout}s")


def stop(process: subprocess.Popen, timeout: float) -> None:
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()


# Robots play at once in tests (settings.ROBOT_DELAY_SECONDS), in this process and in the
# daphne and Celery processes the fixtures start.
os.environ["ROBOT_DELAY_SECONDS"] = "0"
# A finished game's analysis, which a test's Celery worker may run, is kept short.
os.environ.setdefault("GAME_ANALYSIS_SECONDS", "1")


def _child_env(database_url: str, **extra: str) -> dict:
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONUNBUFFERED": "1", **extra}
    env.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    return env


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """SQLite tests use a file, not memory, so that a live daphne can share the test database."""
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


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, which it drops at the end: first let the backends of
    the daphne and Celery processes the tests stopped go (their pools' connections end with
    them, a moment later), so that the drop never finds the database in use."""
    yield
    from django.db import connection

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


@pytest.fixture(scope="session", autouse=True)
def _collected_static(request):
    """The site runs with DEBUG off, as in production: `{% static %}` reads the manifest that
    `collectstatic` writes, and WhiteNoise serves the collected files. So collect them once,
    as `make run` does, unless the run holds only tests that need no Django."""
    no_django = ("tests/engine/", "tests/bots/")
    if all(item.nodeid.startswith(no_django) for item in request.session.items):
        return
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)


def _uses_db(request) -> bool:
    uses_db = {"db", "transactional_db", "django_db_setup"} & set(request.fixturenames)
    return bool(uses_db or request.node.get_closest_marker("django_db"))


@pytest.fixture(autouse=True)
def _fast_password_hashing(request):
    """Signups and logins hash passwords, and the default hasher is slow on purpose.

    Not with a live daphne: that process knows only the default hashers, so a password
    hashed here with a fast one could not log in there.
    """
    servers = {"daphne_server", "embedded_daphne_server"}
    if _uses_db(request) and not servers & set(request.fixturenames):
        request.getfixturevalue("settings").PASSWORD_HASHERS = [
            "django.contrib.auth.hashers.MD5PasswordHasher",
            "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        ]
    yield


@pytest.fixture(autouse=True)
def _live_play_settings(settings):
    """Robots play at once; this process runs no server loop (tests sweep timers
    themselves, with `games.timers.sweep`)."""
    settings.ROBOT_DELAY_SECONDS = 0
    settings.SERVER_LOOP = False


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


def start_daphne(
    port: int, log, env: dict, app: str = "tute_site.asgi:application"
) -> subprocess.Popen:
    """A daphne process serving `app` on `port` with `env`, once it listens."""
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for_port(port, process)
    except RuntimeError:
        stop(process, timeout=10)
        raise
    return process


@contextlib.contextmanager
def running_daphne(
    env: dict, log_path: Path, app: str = "tute_site.asgi:application"
) -> Iterator[str]:
    """A daphne process serving `app` on a free port with `env`. Yields its base URL."""
    port = free_port()
    with log_path.open("w") as log:
        process = start_daphne(port, log, env, app)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop(process, timeout=10)


@pytest.fixture
def daphne_server(transactional_db, tmp_path):
    """A real daphne serving the site on a free port, on the test database. Yields its URL."""
    with running_daphne(_child_env(database_url_for_tests()), tmp_path / "daphne.log") as url:
        yield url


@pytest.fixture
def embedded_daphne_server(transactional_db, tmp_path):
    """A real daphne as `make run` starts it without REDIS_URL: in-memory channel layer,
    eager tasks, the timer sweep in the server process. Yields its URL."""
    env = _child_env(database_url_for_tests(), REDIS_URL="")
    with running_daphne(env, tmp_path / "daphne.log") as url:
        yield url


def start_celery(
    arguments: list[str], queue: str, log_path: Path, ready: str, **env: str
) -> subprocess.Popen:
    """A real Celery process (`celery -A tute_site ...`) on the test database and `queue`,
    once its log says `ready`. `env` adds environment variables (e.g. test-only settings)."""
    log = log_path.open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tute_site", *arguments],
        cwd=ROOT,
        env=_child_env(database_url_for_tests(), CELERY_QUEUE=queue, **env),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    deadline = time.monotonic() + 60
    while ready not in log_path.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process, timeout=5)
            raise RuntimeError(f"celery {arguments[0]} did not start:\n{log_path.read_text()}")
        time.sleep(0.2)
    return process


def start_celery_worker(queue: str, log_path: Path, **env: str) -> subprocess.Popen:
    """Start a real Celery worker process on `queue`, on the test database; wait until it is
    ready."""
    worker = ["worker", "-P", "solo", "-Q", queue, "--without-gossip", "--without-mingle"]
    return start_celery(
        [*worker, "--without-heartbeat", "--loglevel=INFO"], queue, log_path, "ready.", **env
    )


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
    beat = ["beat", "--schedule", str(tmp_path / "beat-schedule"), "--loglevel=INFO"]
    process = start_celery(
        beat, celery_worker.conf.task_default_queue, tmp_path / "beat.log", "beat: Starting"
    )
    try:
        yield tmp_path / "beat.log"
    finally:
        stop(process, timeout=15)


@pytest.fixture
def browser(monkeypatch):
    """Debian's Chromium driven by Playwright. Never a downloaded browser.

    Function-scoped: Playwright's sync API keeps an event loop running in this thread while it
    lives, which would break the asyncio tests that run after it in the same process.
    """
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: `make test` installs it with apt-get")
    # That running loop makes Django think the ORM is called from async code; it is not.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
