"""A readable log with REDIS_URL: Celery's lines about the timer sweep, which beat queues every
second, are at DEBUG; the sweep says at INFO what it fired, and nothing when nothing was due."""

import doctest
import logging
from datetime import timedelta

import pytest
from celery import beat
from celery.app import trace
from celery.worker import request, strategy
from django.utils import timezone

import tute_site.celery  # noqa: F401 - sets the filter up, as the worker and beat do
from games import tasks
from games.models import Game, TimerClaim
from games.table.seating import table_practice
from games.tasks import sweep_timers
from tests.support.factories import UserFactory


def context(name: str) -> dict:
    return {"id": "1b2c", "name": name, "args": "()", "kwargs": "{}", "eta": None}


def celerys_lines(name: str) -> None:
    """The lines Celery writes about task `name`, by its own loggers and functions."""
    beat.info("Scheduler: Sending due task %s (%s)", "games-sweep-timers", name)
    strategy.logger.info(trace.LOG_RECEIVED, context(name), extra={"data": context(name)})
    success = {**context(name), "return_value": "{}", "runtime": 0.01}
    trace.info(trace.LOG_SUCCESS, success)
    # A sweep that waited past its 2 s expiry (a busy or restarting worker).
    request.logger.info("Discarding revoked task: %s[%s]", name, "1b2c")


def test_celerys_lines_about_the_sweep_are_not_at_info(caplog):
    with caplog.at_level(logging.INFO):
        celerys_lines("games.sweep_timers")
        celerys_lines("games.fire_timer")
    assert caplog.records == []


def test_they_are_still_there_at_debug(caplog):
    with caplog.at_level(logging.DEBUG):
        celerys_lines("games.sweep_timers")
    assert [r.levelname for r in caplog.records] == ["DEBUG"] * 4
    assert "Sending due task" in caplog.records[0].getMessage()


def test_other_tasks_keep_their_info_lines(caplog):
    with caplog.at_level(logging.INFO):
        celerys_lines("rankings.award_game")
    assert [r.levelname for r in caplog.records] == ["INFO"] * 4
    assert "rankings.award_game" in caplog.records[2].getMessage()
    assert "succeeded" in caplog.records[2].getMessage()


@pytest.mark.django_db
def test_the_sweep_logs_what_it_fired_and_nothing_when_nothing_was_due(caplog):
    with caplog.at_level(logging.INFO, logger="games.tasks"):
        sweep_timers()
    assert [r for r in caplog.records if r.name == "games.tasks"] == []
    table = table_practice(master=UserFactory(), options={"variant": "habanero"})
    Game.objects.filter(pk=table.game_id).update(deadline_at=timezone.now() - timedelta(seconds=1))
    with caplog.at_level(logging.INFO, logger="games.tasks"):
        sweep_timers()
    lines = [r.getMessage() for r in caplog.records if r.name == "games.tasks"]
    assert lines == ["timer sweep: 1 move timers fired"]
    # It was claimed (and fired, inline or by a worker).
    assert TimerClaim.objects.filter(game_id=table.game_id).exists()


def test_the_sweep_reports_examples_hold():
    result = doctest.testmod(tasks)
    assert result.attempted > 0 and result.failed == 0
