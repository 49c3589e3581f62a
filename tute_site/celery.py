"""The Celery app. Tasks run eagerly without REDIS_URL, on a worker with it (see settings).

Beat queues the timer sweep every second: its "Sending due task", "received" and "succeeded"
lines would bury every other line of `make run`. They are logged at DEBUG instead (see
`QuietTasks`); the sweep itself logs, at INFO, what it fired.
"""

import logging
import os

from celery import Celery
from celery.signals import after_setup_logger

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")

app = Celery("tute_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Tasks that run every second or at every robot's move: their bookkeeping lines go to DEBUG.
QUIET_TASKS = frozenset({"games.sweep_timers", "games.fire_timer", "arenas.tick"})
# The loggers of Celery 5's beat ("Sending due task"), worker ("Task … received",
# "Discarding revoked task" for a sweep that expired in the queue) and tracer ("Task …
# succeeded in …").
QUIET_LOGGERS = (
    "celery.beat",
    "celery.worker.strategy",
    "celery.worker.request",
    "celery.app.trace",
)


class QuietTasks(logging.Filter):
    """Lower Celery's INFO lines about `QUIET_TASKS` to DEBUG: they are shown only when the
    logger is set to DEBUG. Failures and retries (WARNING and up) are left alone."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or self.task_name(record) not in QUIET_TASKS:
            return True
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)

    @staticmethod
    def task_name(record: logging.LogRecord) -> str | None:
        data = getattr(record, "data", None)  # the worker's and the tracer's context
        if isinstance(data, dict):
            return data.get("name")
        # Beat: ('Scheduler: Sending due task %s (%s)', entry.name, entry.task); the worker's
        # request: ('Discarding revoked task: %s[%s]', name, id) for an expired sweep.
        args = record.args if isinstance(record.args, tuple) else ()
        return next((arg for arg in args if isinstance(arg, str) and arg in QUIET_TASKS), None)


QUIET = QuietTasks()


def quiet_celery_logs(**_kwargs) -> None:
    for name in QUIET_LOGGERS:
        logging.getLogger(name).addFilter(QUIET)  # once: the same filter is never added twice


quiet_celery_logs()
# Again once Celery has set its logging up, in case that replaced the loggers' settings.
after_setup_logger.connect(quiet_celery_logs, weak=False)


@app.task(name="tute_site.ping")
def ping() -> str:
    """Answer "pong": proves that a worker is consuming from the broker."""
    return "pong"
