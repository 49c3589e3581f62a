"""The embedded default (`make run` with nothing set: SQLite, the in-memory layer) loses no
move when several tables play at once while tabs, spectators and the lobby come and go."""

from bench.embedded import EVERY_KIND, run


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
