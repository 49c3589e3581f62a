"""Fill a PostgreSQL database with synthetic players and awarded games, for `make bench`.

    DATABASE_URL=postgres://…/tute_bench python manage.py migrate
    DATABASE_URL=postgres://…/tute_bench python -m bench.tools.rankings_data

A tool of the benchmarks, not of the site: it lives in bench/, not in the rankings app.

100,000 players and 1,000,000 awarded games by default, finished over the last 35 days,
written by bulk `INSERT … SELECT` in the database itself: results, seats, XP events, a grant
per player and the leaderboard rows the award task would have kept. About 1% of the games
are same-IP exclusions. Never in the test suite; run it once on a database of its own.

The ratings are synthetic too (no openskill here: a million games would take it a while):
per player and kind of table, a mu and sigma that follow their wins, losses and games, the
gain of the last days from those days' games, and the boards' counts. `--ratings-only` adds
just those, and the leaderboards' counts, to a database made before they existed.
"""

import argparse
import os
import sys
import time
from datetime import timedelta
from typing import TextIO

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tute_site.settings")
django.setup()

from django.db import connection, transaction  # noqa: E402  (after django.setup)
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from rankings.models import (  # noqa: E402
    BoardCount,
    BoardRow,
    ChipAccount,
    ChipTransfer,
    GameResult,
    GameResultSeat,
    LedgerEntry,
    Rating,
    RatingKind,
    XpEvent,
)
from rankings.rating_math import PROVISIONAL_GAMES, PROVISIONAL_SIGMA  # noqa: E402
from rankings.ratings import WINDOW_DAYS  # noqa: E402
from rankings.services import ALL_TIME  # noqa: E402

PREFIX = "bench"


def table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


class BenchDataError(Exception):
    pass


class Command:
    """The synthetic data, written step by step; each step's rows and time go to `stdout`."""

    def __init__(self, stdout: TextIO = sys.stdout) -> None:
        self.stdout = stdout

    def step(self, label: str, sql: str, params: list | None = None) -> None:
        """Run one statement; every `%` in `sql` is doubled (it is always formatted)."""
        start = time.monotonic()
        with connection.cursor() as cursor:
            cursor.execute(sql, params or [])
            count = cursor.rowcount
        self.stdout.write(f"{label}: {count} rows in {time.monotonic() - start:.1f}s")

    def handle(self, *, players: int, games: int, days: int, ratings_only: bool = False) -> None:
        if connection.vendor != "postgresql":
            raise BenchDataError("the benchmark data is for PostgreSQL")
        if ratings_only:
            with transaction.atomic():
                self._counts_and_ratings()
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
            self.stdout.write("done")
            return
        if User.objects.filter(username__startswith=f"{PREFIX}_").exists():
            raise BenchDataError("this database already holds benchmark players")
        users, results, seats = table(User), table(GameResult), table(GameResultSeat)
        with transaction.atomic():
            self.step(
                "players",
                f"""INSERT INTO {users} (password, is_superuser, first_name, last_name, email,
                    is_staff, is_active, date_joined, username, language, ban_reason,
                    mute_reason)
                SELECT '!', false, '', '', '', false, true, now() - interval '60 days',
                    '{PREFIX}_' || n, 'en', '', ''
                FROM generate_series(1, %s) AS n""",
                [players],
            )
            self._chips()
            first_game = (
                GameResult.objects.order_by("-game_id").values_list("game_id", flat=True).first()
                or 0
            ) + 1
            self.step(
                "games",
                f"""INSERT INTO {results} (game_id, variant, players, pairs, deals_to_win,
                    competitive, stake, finished_at, submitted_at, awarded_at, exclusion,
                    exclusion_note)
                SELECT %s + n, v.variant, v.players, v.players = 4 AND n %% 2 = 0,
                    1 + n %% 3, true, 10 * (1 + n %% 10), t.at, t.at, t.at,
                    CASE WHEN n %% 100 = 0 THEN 'same_ip' ELSE '' END,
                    CASE WHEN n %% 100 = 0 THEN '192.0.2.1: synthetic' ELSE '' END
                FROM generate_series(1, %s) AS n,
                LATERAL (SELECT now() - (random() + 0 * n) * make_interval(days => %s) AS at) AS t,
                LATERAL (SELECT (ARRAY['tute', 'tute', 'habanero', 'pocha'])[1 + n %% 4] AS variant,
                    CASE WHEN n %% 4 = 2 THEN 2 ELSE 2 + n %% 3 END AS players) AS v""",
                [first_game - 1, games, days],
            )
            self.step(
                "seats",
                f"""INSERT INTO {seats} (result_id, seat, user_id, side, won, abandoned,
                    staked, xp, chips)
                SELECT r.id, s.seat, u.id, s.side, s.side = r.game_id %% s.sides, false,
                    r.stake,
                    CASE WHEN s.side = r.game_id %% s.sides
                        THEN 10 * r.players / CASE WHEN r.pairs THEN 2 ELSE 1 END
                            + 10 * (r.deals_to_win - 1)
                        ELSE 5 END,
                    CASE WHEN s.side = r.game_id %% s.sides
                        THEN (r.stake * r.players * 3 / 4) / CASE WHEN r.pairs THEN 2 ELSE 1 END
                        ELSE 0 END
                FROM {results} AS r
                CROSS JOIN LATERAL (
                    SELECT g AS seat, CASE WHEN r.pairs THEN g %% 2 ELSE g END AS side,
                        CASE WHEN r.pairs THEN 2 ELSE r.players END AS sides
                    FROM generate_series(0, r.players - 1) AS g) AS s
                CROSS JOIN LATERAL (
                    SELECT (SELECT min(id) FROM {users} WHERE username LIKE '{PREFIX}\\_%%')
                        + ((r.game_id * 7919 + s.seat * 104729) %% %s) AS id) AS u
                WHERE r.game_id >= %s""",
                [players, first_game],
            )
            self.step(
                "XP events",
                f"""INSERT INTO {table(XpEvent)} (user_id, game_id, reason, amount, key, created_at)
                SELECT s.user_id, r.game_id, CASE WHEN s.won THEN 'won' ELSE 'lost' END, s.xp,
                    'bench:' || s.id, r.finished_at
                FROM {seats} AS s JOIN {results} AS r ON r.id = s.result_id
                WHERE r.game_id >= %s""",
                [first_game],
            )
            self._boards(first_game)
            self._counts_and_ratings()
        with connection.cursor() as cursor:
            # Statistics for the planner, and the visibility map for index-only scans
            # (VACUUM cannot run inside a transaction, as in a test).
            cursor.execute("ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE")
        self.stdout.write("done")

    def _chips(self) -> None:
        accounts, transfers, entries = table(ChipAccount), table(ChipTransfer), table(LedgerEntry)
        self.step(
            "grants account",
            f"""INSERT INTO {accounts} (kind, balance) SELECT 'grants', 0
            WHERE NOT EXISTS (SELECT 1 FROM {accounts} WHERE kind = 'grants')""",
        )
        self.step(
            "player accounts",
            f"""INSERT INTO {accounts} (kind, user_id, balance)
            SELECT 'player', u.id, 100 + (u.id * 7919) %% 20000 FROM {table(User)} AS u
            WHERE u.username LIKE '{PREFIX}\\_%%'""",
        )
        self.step(
            "grant transfers",
            f"""INSERT INTO {transfers} (key, reason, memo, created_at)
            SELECT '{PREFIX}:' || a.id, 'grant', 'benchmark', now() FROM {accounts} AS a
            JOIN {table(User)} AS u ON u.id = a.user_id WHERE u.username LIKE '{PREFIX}\\_%%'""",
        )
        self.step(
            "grant entries",
            f"""INSERT INTO {entries} (transfer_id, source_id, destination_id, amount)
            SELECT t.id, (SELECT id FROM {accounts} WHERE kind = 'grants'), a.id, a.balance
            FROM {transfers} AS t JOIN {accounts} AS a ON t.key = '{PREFIX}:' || a.id""",
        )
        self.step(
            "grants balance",
            f"""UPDATE {accounts} SET balance = -(SELECT COALESCE(sum(balance), 0)
                FROM {accounts} WHERE kind <> 'grants') WHERE kind = 'grants'""",
        )

    def _boards(self, first_game: int) -> None:
        periods = [
            ("all", f"DATE '{ALL_TIME.isoformat()}'"),
            ("week", "date_trunc('week', r.finished_at AT TIME ZONE 'UTC')::date"),
            ("month", "date_trunc('month', r.finished_at AT TIME ZONE 'UTC')::date"),
        ]
        for period, start in periods:
            for variant in ("''", "r.variant"):
                self.step(
                    f"leaderboard rows {period} {variant}",
                    f"""INSERT INTO {table(BoardRow)} (period, start, variant, user_id, xp, games,
                        wins, chips)
                    SELECT '{period}', {start}, {variant}, s.user_id, sum(s.xp), count(*),
                        count(*) FILTER (WHERE s.won AND NOT s.abandoned),
                        sum(s.chips) - sum(s.staked)
                    FROM {table(GameResultSeat)} AS s JOIN {table(GameResult)} AS r
                        ON r.id = s.result_id
                    WHERE r.game_id >= %s AND r.exclusion = '' AND s.user_id IS NOT NULL
                    GROUP BY 1, 2, 3, 4
                    ON CONFLICT (period, start, variant, user_id) DO UPDATE SET
                        xp = {table(BoardRow)}.xp + EXCLUDED.xp,
                        games = {table(BoardRow)}.games + EXCLUDED.games,
                        wins = {table(BoardRow)}.wins + EXCLUDED.wins,
                        chips = {table(BoardRow)}.chips + EXCLUDED.chips""",
                    [first_game],
                )

    def _counts_and_ratings(self) -> None:
        rows, counts = table(BoardRow), table(BoardCount)
        self.step("leaderboard counts", f"DELETE FROM {counts}")
        self.step(
            "leaderboard counts",
            f"""INSERT INTO {counts} (period, start, variant, players)
            SELECT period, start, variant, count(*) FROM {rows}
            WHERE games > 0 AND active GROUP BY 1, 2, 3""",
        )
        self.step(
            "ranked accounts",
            f"""UPDATE {table(ChipAccount)} AS a SET ranked = true FROM {rows} AS b
            WHERE a.user_id = b.user_id AND a.kind = 'player' AND b.period = 'all'
                AND b.variant = '' AND b.games > 0 AND b.active""",
        )
        ratings, kinds = table(Rating), table(RatingKind)
        window = timezone.now().date() - timedelta(days=WINDOW_DAYS - 1)
        kind = """CASE WHEN r.variant <> 'tute' THEN r.variant
            ELSE 'tute' || r.players || CASE WHEN r.pairs THEN 'pairs' ELSE '' END END"""
        self.step(
            "ratings",
            f"""INSERT INTO {ratings} (user_id, kind, mu, sigma, games, value, provisional,
                window_gain, window_games, active)
            SELECT user_id, kind, mu, sigma, games,
                round(1000 + 30 * (mu - 3 * sigma)), games < %s OR sigma > %s,
                window_gain, window_games, true
            FROM (
                SELECT s.user_id, {kind} AS kind, count(*) AS games,
                    25 + 0.5 * (count(*) FILTER (WHERE s.won) - count(*) FILTER (WHERE NOT s.won))
                        + (s.user_id %% 13) AS mu,
                    greatest(1.5, 8.333 / sqrt(1 + count(*) / 3.0)) AS sigma,
                    (count(*) FILTER (WHERE s.won AND r.finished_at >= %s)) * 12
                        - (count(*) FILTER (WHERE NOT s.won AND r.finished_at >= %s)) * 9
                        AS window_gain,
                    count(*) FILTER (WHERE r.finished_at >= %s) AS window_games
                FROM {table(GameResultSeat)} AS s JOIN {table(GameResult)} AS r
                    ON r.id = s.result_id
                WHERE r.exclusion = '' AND r.competitive AND s.user_id IS NOT NULL
                GROUP BY 1, 2) AS p
            ON CONFLICT (user_id, kind) DO NOTHING""",
            [PROVISIONAL_GAMES, PROVISIONAL_SIGMA, window, window, window],
        )
        self.step(
            "rating boards",
            f"""INSERT INTO {kinds} (kind, players, window_players, window_start)
            SELECT kind, count(*) FILTER (WHERE NOT provisional AND active),
                count(*) FILTER (WHERE NOT provisional AND active AND window_games > 0), %s
            FROM {ratings} GROUP BY kind
            ON CONFLICT (kind) DO UPDATE SET players = EXCLUDED.players,
                window_players = EXCLUDED.window_players, window_start = EXCLUDED.window_start""",
            [window],
        )


def make_bench_rankings(*, stdout: TextIO = sys.stdout, **sizes) -> None:
    """Write the synthetic players and games (`players`, `games`, `days`, `ratings_only`)."""
    Command(stdout).handle(**sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--days", type=int, default=35)
    parser.add_argument("--ratings-only", action="store_true")
    args = parser.parse_args()
    make_bench_rankings(
        players=args.players, games=args.games, days=args.days, ratings_only=args.ratings_only
    )


if __name__ == "__main__":
    main()
