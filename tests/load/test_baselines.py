"""The load tool's two floors, each under a few groups of four sockets: the bare `websockets`
fan-out (bench/support/fanout_ws.py) and the Channels echo, run from this checkout's code on
channels-redis's own pub/sub layer (bench/support/echo_asgi.py)."""

import asyncio

import pytest
from django.conf import settings

from bench.support.processes import child_env, running_daphne
from bench.tools.load.clients import run_echo
from bench.tools.load.run import running_fanout

pytestmark = pytest.mark.services


def test_the_bare_fan_out_sends_each_message_to_the_four_sockets_of_its_group(tmp_path):
    with running_fanout(tmp_path / "fanout.log") as (url, _pid):
        tally = asyncio.run(run_echo(url, 3, seconds=2, rate=5))
    assert tally.errors == []
    # Each timed message came back to all four sockets of its group.
    assert len(tally.times) >= 3 * 5


def test_the_channels_echo_sends_each_message_to_the_four_sockets_of_its_group(tmp_path):
    env = child_env("sqlite:///unused", REDIS_URL=settings.REDIS_URL)
    app = "bench.support.echo_asgi:application"
    with running_daphne(env, tmp_path / "echo.log", app=app) as url:
        tally = asyncio.run(run_echo(url, 2, seconds=2, rate=5))
    assert tally.errors == []
    assert len(tally.times) >= 2 * 5
