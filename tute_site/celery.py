"""The Celery app. Tasks run on workers with REDIS_URL; without it, in the server's background
lanes (tute_site/lanes.py), or eagerly where no lane is served (see settings).

Two queues, so that what players wait for is never behind an analysis: a task declared with
`lane="slow"` (a finished game's analysis) goes to `<default queue>.slow`, everything else
(awards, timers, the arenas' tick, the sweeps) to the default queue. Production runs a worker
for each (README, "Deployment"); the embedded default runs a lane for each.

Beat queues the timer sweep every second: its "Sending due task", "received" and "succeeded"
lines would bury every other line of `make run`. They are logged at DEBUG instead (see
`QuietTasks`); the sweep itself logs, at INFO, what it fired.
"""

import logging
import os

from celery import Celery
from celery.contrib.django.task import DjangoTask
from celery.signals import after_setup_logger

from tute_site import lanes

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")

SLOW_SUFFIX = ".slow"


class LaneTask(DjangoTask):
    """Every task of the site: queued on its lane's queue (`lane`, "prompt" unless declared
    "slow"); without a broker, handed to the server's background lanes where they are served
    instead of run inline."""

    lane = lanes.PROMPT

    def apply_async(self, args=None, kwargs=None, **options):
        if self.app.conf.task_always_eager and lanes.accepting():
            lanes.submit(lanes.Job(self.lane, self.name, list(args or ()), dict(kwargs or {})))
            return None
        return super().apply_async(args, kwargs, **options)


def route_by_lane(name, args, kwargs, options, task=None, **kw):
    """Celery's router: a slow task's queue is the default queue's, suffixed (read from the
    app's configuration when the task is sent: the settings' CELERY_QUEUE, which the load
    tool sets to a queue of its own)."""
    if task is not None and getattr(task, "lane", lanes.PROMPT) == lanes.SLOW:
        return {"queue": slow_queue()}
    return None


def slow_queue(default: str | None = None) -> str:
    """The slow lane's queue, beside `default` (the app's default queue)."""
    return f"{default or app.conf.task_default_queue}{SLOW_SUFFIX}"


app = Celery("tute_site", task_cls=LaneTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_routes = (route_by_lane,)
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
