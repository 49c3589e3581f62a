"""The Celery app. Tasks run eagerly without REDIS_URL, on a worker with it (see settings)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")

app = Celery("tute_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="tute_site.ping")
def ping() -> str:
    """Answer "pong": proves that a worker is consuming from the broker."""
    return "pong"
