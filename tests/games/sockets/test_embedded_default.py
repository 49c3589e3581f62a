"""The embedded default (`make run` with nothing set: SQLite, the in-memory layer) loses no
move when several tables play at once while tabs, spectators and the lobby come and go; and
without beat, the server's own loop runs beat's slower jobs."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from bench.tools.embedded import EVERY_KIND, run
from games import server
from games.table import guests


def test_concurrent_tables_on_sqlite_apply_every_move_exactly_once(tmp_path):
    # Two tables at once (2-player tute and habanero), with the players' second tabs,
    # spectators and a lobby socket opening and closing throughout. Before SQLite's
    # transactions began IMMEDIATE, hundreds of moves failed here with "database is locked".
    kinds = [EVERY_KIND[0], EVERY_KIND[4]]
    figures = run(kinds, tmp_path, seed=3, timeout=240)
    assert not figures["timed_out"] and figures["unanswered"] == []
    assert figures["server_closes"] == [], "the server closed sockets"
    assert figures["lost_or_extra"] == {}, "stored actions differ from those pushed"
    assert figures["finished"] == len(kinds)
    assert figures["applied"] >= 32  # at least a whole deal of each
    assert figures["tracebacks"] == 0, (tmp_path / "daphne.log").read_text()


@pytest.mark.django_db
def test_without_beat_the_server_loop_runs_the_slower_jobs_at_their_intervals():
    hours_ago = timezone.now() - timedelta(hours=guests.GUEST_IDLE_HOURS + 1)
    idle = User.objects.create(username="guest~0idle", is_guest=True, date_joined=hours_ago)
    due: dict[str, float] = {}
    ran = server.run_slow_jobs(due, now=1000.0)
    assert sorted(ran) == [
        "games.analysis_sweep",
        "games.guests_sweep",
        "puzzles.mining_sweep",
        "rankings.award_sweep",
        "rankings.ratings_window_roll",
    ]
    assert not User.objects.filter(pk=idle.pk).exists()
    # Each again only after its own interval: the award sweep every minute, the rest ten.
    assert server.run_slow_jobs(due, now=1059.0) == []
    assert server.run_slow_jobs(due, now=1060.0) == ["rankings.award_sweep"]
    assert sorted(server.run_slow_jobs(due, now=1600.0)) == sorted(ran)
