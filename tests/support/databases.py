"""The test databases, a pytest plugin of the suite (tests/conftest.py): one migrated
PostgreSQL template per run, copied for each xdist worker; tables emptied between
transactional tests; the static files collected once."""

import fcntl
import os
import tempfile
import time
import warnings
import zlib
from pathlib import Path

import pytest

from tests.support.kept import KEPT


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
