"""Shared fixtures: real services, a live daphne, a real Celery worker and a real browser.

The suite runs on whatever DATABASE_URL and REDIS_URL say. Tests marked `services` need the
real PostgreSQL and Redis: without them they are skipped, unless REQUIRE_SERVICES=1 (CI),
where a missing or unreachable service fails the whole run at once instead.
"""

import asyncio
import os
import socket
import uuid
from urllib.parse import urlsplit

import pytest
import pytest_asyncio

# The suite's plugins: its databases, what is kept between tests, its servers and its browser.
pytest_plugins = [
    "tests.support.kept",
    "tests.support.databases",
    "tests.support.servers",
    "tests.support.chromium",
    "tests.support.pushes",
]


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


# pytest-xdist hands the tests out in the order collected, a group as one unit where its
# first test stands. The "alone" group first: its tests, which kill processes or time
# pushes, run one after the other on one process (about five minutes), so it must start at
# once. Then the long ones, so that none is left to start at the end with the other
# processes idle; and the robots' tests, which need no database, before the others, while
# the first process to need it migrates the test database.
RUN_FIRST = ("tests/bots/", "tests/e2e/", "tests/games/", "tests/load/", "tests/rankings/")


def _run_order(item) -> int:
    if item.get_closest_marker("xdist_group"):
        return -1
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


def pytest_collection_finish(session):
    """In an xdist worker with `--dist loadgroup`, each test of an xdist_group must carry its
    group in its id: that is how xdist keeps the "alone" tests on one process. pytest 9.2
    ignores the id xdist writes (pytest-xdist issue #1386): the run stops here rather than
    run the process-killing tests beside the ones they would break."""
    if not session.config.getoption("loadgroup", default=False):
        return
    lost = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid.rpartition("]")[2]
    ]
    if lost:
        raise pytest.UsageError(
            f"pytest-xdist did not group {len(lost)} tests ({lost[0]}, …): see requirements-dev.txt"
        )


@pytest_asyncio.fixture
async def socket_closings_finished():
    """An async test ends once the notes of the sockets it closed are written: a note's push
    runs on the test's loop, and a thread left waiting for a closed loop hung the run."""
    yield
    from games.sockets.table import CLOSING

    loop = asyncio.get_running_loop()
    notes = [task for task in CLOSING if task.get_loop() is loop]
    if notes:
        _done, pending = await asyncio.wait(notes, timeout=30)
        assert not pending, f"{len(pending)} closed sockets' notes still running after 30 s"


# Robots play at once in tests (settings.ROBOT_DELAY_SECONDS), in this process and in the
# daphne and Celery processes the fixtures start.
os.environ["ROBOT_DELAY_SECONDS"] = "0"
# A finished game's analysis, which a test's Celery worker may run, is kept short.
os.environ.setdefault("GAME_ANALYSIS_SECONDS", "1")


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
