"""The processes the tools and the tests start: daphne, Celery worker and beat, on free ports,
on the database this process uses. Shared by the load tool, the fault tool, the benchmarks
and the test suite's fixtures (tests/conftest.py).

Under pytest-xdist several test processes start servers at once: each takes its ports from
a range of its own (below the kernel's ephemeral ports), so that no two of them ever hand
out the same port between the check and a server's bind.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The checkout whose code the servers run (daphne, the Celery processes): this one, or
# another of the same schema named by TUTE_SERVER_ROOT, to time two versions of the server
# with the same client (docs/benchmarks.md).
SERVER_ROOT = Path(os.environ.get("TUTE_SERVER_ROOT") or ROOT)
DAPHNE_APP = "tute_site.asgi:application"

# pytest-xdist worker n takes its ports from PORTS_FROM + n * PORTS_EACH onwards. Two test
# runs side by side on one machine (two checkouts) each set a TUTE_PORTS_FROM of their own.
PORTS_FROM = int(os.environ.get("TUTE_PORTS_FROM", "20000"))
PORTS_EACH = 200
_port_turn = itertools.count(random.randrange(PORTS_EACH))


def _worker_number() -> int | None:
    """This process's pytest-xdist worker number (gw3: 3), None outside xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return int(worker.removeprefix("gw")) if worker.startswith("gw") else None


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    worker = _worker_number()
    if worker is None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    first = PORTS_FROM + worker * PORTS_EACH
    for _attempt in range(PORTS_EACH):
        port = first + next(_port_turn) % PORTS_EACH
        if _bindable(port):
            return port
    raise RuntimeError(f"no free port in {first}..{first + PORTS_EACH - 1}")


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    """Return once something listens on `port`; raise if `process` exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listened on port {port} within {timeout}s")


def stop(process: subprocess.Popen, timeout: float) -> None:
    """SIGTERM, then SIGKILL after `timeout` seconds."""
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def database_url() -> str:
    """A URL for the database this process's Django connection uses (the test database that
    pytest-django or a tool created), for other processes to share."""
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


def child_env(database_url: str, **extra: str) -> dict[str, str]:
    """This process's environment for a server on `database_url`, with `extra` on top."""
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONUNBUFFERED": "1", **extra}
    env.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
    if SERVER_ROOT != ROOT:
        # The sessions the tool signs must be the servers' too: this checkout's key.
        env.setdefault("SECRET_KEY_FILE", str(ROOT / ".secret_key"))
    return env


def start_daphne(
    port: int, log, env: dict, app: str = DAPHNE_APP, root: Path = SERVER_ROOT
) -> subprocess.Popen:
    """A daphne process serving `app` from `root`'s code on `port` with `env`, once it
    listens."""
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), app],
        cwd=root,
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
    env: dict,
    log_path: Path,
    app: str = DAPHNE_APP,
    *,
    stop_after: float = 10,
    root: Path = SERVER_ROOT,
) -> Iterator[str]:
    """A daphne process serving `app` on a free port with `env`. Yields its base URL. At the
    end it has `stop_after` seconds to stop by itself (SIGTERM) before it is killed."""
    port = free_port()
    with log_path.open("w") as log:
        process = start_daphne(port, log, env, app, root)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop(process, timeout=stop_after)


def start_celery(
    arguments: list[str], queue: str, log_path: Path, ready: str, **env: str
) -> subprocess.Popen:
    """A real Celery process (`celery -A tute_site ...`) on this process's database and
    `queue`, once its log says `ready`. `env` adds environment variables."""
    log = log_path.open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "tute_site", *arguments],
        cwd=SERVER_ROOT,
        env=child_env(database_url(), CELERY_QUEUE=queue, **env),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.close()
    deadline = time.monotonic() + 60
    while ready not in log_path.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            stop(process, timeout=5)
            raise RuntimeError(f"celery {arguments[0]} did not start:\n{log_path.read_text()}")
        time.sleep(0.1)
    return process


def start_celery_worker(queue: str, log_path: Path, **env: str) -> subprocess.Popen:
    """A real Celery worker process on `queue`, on this process's database, once it is
    ready."""
    worker = ["worker", "-P", "solo", "-Q", queue, "--without-gossip", "--without-mingle"]
    return start_celery(
        [*worker, "--without-heartbeat", "--loglevel=INFO"], queue, log_path, "ready.", **env
    )


def start_celery_beat(queue: str, workdir: Path, log_path: Path, **env: str) -> subprocess.Popen:
    """Celery beat, as `make run` starts it, queueing to `queue` (the timer sweep every
    second), once it starts."""
    beat = ["beat", "--schedule", str(workdir / "beat-schedule"), "--loglevel=INFO"]
    return start_celery(beat, queue, log_path, "beat: Starting", **env)
