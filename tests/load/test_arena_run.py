"""An arena played end to end over real sockets (issue #26): eight players, each a protocol
client (bench/support/arena_client.py) playing random legal moves, join an arena of one-deal
habanero on a real daphne, with a real Celery worker and beat pairing and scoring. The arena
is long enough for a slow machine; once every player has played the three games the test
needs and a streak has doubled a score, its end is brought forward (as staff may shorten
it): no new game, the last ones finish, the podium. Pairing, scoring with a streak, the
standings socket, the end and the podium are checked; then the ledger balances and every
game was scored once."""

import asyncio
import random
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from bench.support.arena_client import ArenaPlayer, short_arena
from bench.support.client import session_cookie
from bench.support.processes import child_env, database_url, free_port, start_daphne, stop
from games.arenas.models import Arena, ArenaGame, ArenaResult
from games.arenas.models import ArenaPlayer as Joined
from games.arenas.scoring import game_score
from games.models import Game, GameSeat
from rankings.models import ChipAccount, ChipTransfer, GameResult, TrophyAward
from rankings.selectors import ledger_mismatches, ledger_totals
from tests.support.factories import UserFactory

pytestmark = [
    pytest.mark.services,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]

ENTRY = 10
PLAYERS = 8
GAMES_EACH = 3
# Bounds, not measures: the arena ends early once it has what the test needs (`enough`).
ARENA_SECONDS = 150
CLOSING_SECONDS = 5


def enough(arena_id: int) -> bool:
    """Whether every player has played GAMES_EACH games and a streak doubled a score."""
    try:
        players = Joined.objects.filter(arena_id=arena_id)
        return (
            players.count() == PLAYERS
            and not players.filter(games__lt=GAMES_EACH).exists()
            and ArenaResult.objects.filter(
                arena_game__arena_id=arena_id, doubled=True, points=4
            ).exists()
        )
    finally:
        connection.close()


def close_now(arena_id: int) -> None:
    """Bring the arena's end forward: it closes now (no new game) and ends CLOSING_SECONDS
    later, once its last games are scored. Under the arena's lock, as a pairing takes it."""
    try:
        with transaction.atomic():
            arena = Arena.objects.select_for_update().get(pk=arena_id)
            closing = timedelta(seconds=CLOSING_SECONDS)
            arena.length = timezone.now() - arena.starts_at + closing
            arena.closing = closing
            arena.save(update_fields=["length", "closing"])
    finally:
        connection.close()


async def end_when_enough(arena_id: int) -> None:
    while not await asyncio.to_thread(enough, arena_id):
        await asyncio.sleep(1)
    await asyncio.to_thread(close_now, arena_id)


@pytest.fixture
def proxied_daphne(celery_queue, tmp_path):
    """A daphne behind one trusted proxy: each client names its own address, as eight
    players at eight homes do (a game between two players of one address scores nothing).
    Its tasks (awards, scores) go to the test's Celery worker."""
    port = free_port()
    with (tmp_path / "daphne.log").open("w") as log:
        env = child_env(database_url(), CELERY_QUEUE=celery_queue, TRUSTED_PROXY_COUNT="1")
        process = start_daphne(port, log, env)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop(process, timeout=5)


def test_eight_players_play_an_arena_to_its_podium_over_real_sockets(
    proxied_daphne, celery_worker, celery_beat
):
    users = [UserFactory(username=f"arena{n}", chips=100) for n in range(PLAYERS)]
    arena = short_arena(seconds=ARENA_SECONDS, starts_in=3, name="Evening habanero", entry=ENTRY)
    players = [
        ArenaPlayer(
            [proxied_daphne],
            arena.pk,
            session=session_cookie(user),
            username=user.username,
            rng=random.Random(n),
            forwarded_for=f"198.51.100.{n + 1}",
        )
        for n, user in enumerate(users)
    ]

    async def play():
        ending = asyncio.create_task(end_when_enough(arena.pk))
        try:
            return await asyncio.wait_for(asyncio.gather(*(p.run() for p in players)), 240)
        finally:
            ending.cancel()

    finals = asyncio.run(play())

    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    games = list(ArenaGame.objects.filter(arena=arena).select_related("game"))
    # Pairing: every player played, several games each, never twice at once, and never the
    # same opponent twice in a row while someone else was free.
    joined = {p.user.username: p for p in Joined.objects.filter(arena=arena).select_related("user")}
    assert set(joined) == {u.username for u in users}
    assert all(p.games >= GAMES_EACH for p in joined.values()), {
        u: p.games for u, p in joined.items()
    }
    assert all(len(set(p.tally.tables)) == len(p.tally.tables) for p in players)
    for game in games:
        assert game.game.status == Game.Status.FINISHED and not game.game.shared_ip
        assert game.game.started_at < arena.ends_at - arena.closing + timedelta(seconds=2)
    # Scoring: every game scored once, each result as the rule says, a streak among them.
    assert all(g.scored_at for g in games)
    results = ArenaResult.objects.filter(arena_game__arena=arena)
    assert results.count() == 2 * len(games)
    for player in joined.values():
        streak, total = 0, 0
        for result in results.filter(player=player).order_by("arena_game__created_at"):
            expected = game_score(won=result.won, streak=streak)
            assert (result.points, result.doubled) == (expected.points, expected.doubled)
            streak, total = expected.streak, total + expected.points
        assert player.score == total
    assert results.filter(doubled=True, points=4).exists()
    # Each game's award (XP, ratings) was given once, as at any competitive table.
    awarded = GameResult.objects.filter(game_id__in=[g.game_id for g in games])
    assert awarded.filter(awarded_at__isnull=False).count() == len(games)
    # The standings socket: each player saw the scores move up to the final ones.
    final = {user: p.score for user, p in joined.items()}
    for player in players:
        assert player.tally.scores_seen[-1] == final
        assert len({tuple(sorted(s.items())) for s in player.tally.scores_seen}) > 3
    # The end and the podium, the same for everyone, with its trophies and prizes.
    podium = [(place["user"], place["score"]) for place in finals[0]["podium"]]
    ranked = sorted(joined.values(), key=lambda p: p.rank)
    assert podium == [(p.user.username, p.score) for p in ranked[:3]]
    assert all(final_frame["podium"] == finals[0]["podium"] for final_frame in finals)
    trophies = set(
        TrophyAward.objects.filter(trophy__startswith="arena").values_list(
            "user__username", "trophy"
        )
    )
    assert trophies == {(podium[0][0], "arena_winner")} | {(u, "arena_podium") for u, _s in podium}
    # The books: the pot paid once, empty, and the ledger balances.
    assert ChipAccount.objects.get(arena_id=arena.pk).balance == 0
    assert ChipTransfer.objects.filter(key=f"arena-payout:{arena.pk}").count() == 1
    prizes = [place["prize"] for place in finals[0]["podium"]]
    assert sum(prizes) == PLAYERS * ENTRY - PLAYERS * ENTRY // 4
    assert ledger_totals().accounted and ledger_mismatches() == []
    assert GameSeat.objects.filter(game__arena_game__arena=arena).count() == 2 * len(games)
