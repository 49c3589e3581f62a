"""Arenas through their services: joining, pairing, scoring with a streak, the end, the
podium paid once from the pot, its trophies, and the arena's socket."""

import random
import threading
from datetime import datetime, timedelta

import pytest
from django.db import close_old_connections
from django.utils import timezone

from games.arenas import services
from games.arenas.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from games.arenas.pairing import Waiting, arena_pair, tables_from
from games.arenas.scoring import arena_game_score, game_score
from games.models import Game, GameSeat, Table, TableSeat
from games.table.refusals import TableError
from rankings.models import ChipAccount, ChipTransfer, TrophyAward
from rankings.selectors import chips_balance, ledger_mismatches, ledger_totals
from tests.support.arenas import habanero_arena, joined, play_out, present, running_games
from tests.support.factories import UserFactory

T0 = datetime(2026, 1, 1, 20, 0)
MINUTE = timedelta(minutes=1)


def waiting(user_id, score, *, last=(), ip=None, since=T0):
    return Waiting(user_id, score, 1000, since, frozenset(last), ip)


def ids(tables):
    return [[w.user_id for w in table] for table in tables]


def test_pairing_seats_close_scores_together():
    players = [waiting(1, 10), waiting(2, 0), waiting(3, 8), waiting(4, 2)]
    assert ids(tables_from(players, size=2, now=T0, wait=MINUTE)) == [[1, 3], [4, 2]]


def test_pairing_avoids_the_last_opponent_while_another_is_free():
    players = [waiting(1, 10, last=[3]), waiting(3, 8, last=[1]), waiting(4, 2), waiting(2, 0)]
    assert ids(tables_from(players, size=2, now=T0, wait=MINUTE)) == [[1, 4], [3, 2]]


def test_two_last_opponents_alone_wait_then_meet_again():
    players = [waiting(1, 2, last=[2]), waiting(2, 0, last=[1])]
    assert tables_from(players, size=2, now=T0 + timedelta(seconds=30), wait=MINUTE) == []
    assert ids(tables_from(players, size=2, now=T0 + MINUTE, wait=MINUTE)) == [[1, 2]]


def test_players_from_one_address_are_kept_apart_while_others_are_free():
    players = [
        waiting(1, 4, ip="192.0.2.1"),
        waiting(2, 4, ip="192.0.2.1"),
        waiting(3, 0, ip="192.0.2.3"),
        waiting(4, 0, ip="192.0.2.4"),
    ]
    assert ids(tables_from(players, size=2, now=T0, wait=MINUTE)) == [[1, 3], [2, 4]]


def test_a_win_scores_two_and_double_after_two_wins_in_a_row():
    streak, points = 0, []
    for won in (True, True, True, True, False, True):
        score = game_score(won=won, streak=streak)
        streak = score.streak
        points.append(score.points)
    assert points == [2, 2, 4, 4, 0, 2]


@pytest.mark.django_db
def test_an_arena_pairs_scores_with_a_streak_ends_and_pays_its_podium_once():
    users = [UserFactory(chips=1000) for _ in range(4)]
    by_id = {u.pk: u for u in users}
    arena = habanero_arena(entry=100, status=Arena.Status.SCHEDULED)
    joined(arena, users)
    assert [chips_balance(user=u) for u in users] == [900] * 4
    rng = random.Random(26)
    assert services.arena_tick() == {"started": 1, "scored": 0, "tables": 2, "finished": 0}
    for round_ in range(5):
        games = running_games(arena)
        assert len(games) == 2
        playing = TableSeat.objects.filter(table__status=Table.Status.PLAYING)
        assert sorted(playing.values_list("user_id", flat=True)) == sorted(by_id)
        for game in games:
            assert game.competitive and not game.shared_ip
            play_out(game, by_id, rng)
        if round_ == 4:  # everybody stops after five games
            for user in users:
                services.arena_pause(arena_id=arena.pk, user=user)
        counts = services.arena_tick()
        assert (counts["scored"], counts["tables"]) == (2, 0 if round_ == 4 else 2)
    # Each player's points follow the rule game after game: 2 a win, 4 on a streak.
    for player in ArenaPlayer.objects.filter(arena=arena):
        streak, total = 0, 0
        for result in ArenaResult.objects.filter(player=player).order_by("pk"):
            expected = game_score(won=result.won, streak=streak)
            assert (result.points, result.doubled) == (expected.points, expected.doubled)
            streak, total = expected.streak, total + expected.points
        assert (player.score, player.games, player.streak) == (total, 5, streak)
    assert ArenaResult.objects.filter(arena_game__arena=arena).count() == 20
    # Scoring again changes nothing.
    assert not any(arena_game_score(game_id=g.game_id) for g in arena.games.all())
    assert Table.objects.filter(arena_game__arena=arena).exclude(status="closed").count() == 0
    # The time is up: the podium is paid from the pot, less the bank's 25%.
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=11))
    assert services.arena_tick()["finished"] == 1
    assert services.arena_tick()["finished"] == 0
    arena.refresh_from_db()
    ranked = list(ArenaPlayer.objects.filter(arena=arena).order_by("rank"))
    assert arena.status == Arena.Status.FINISHED and [p.rank for p in ranked] == [1, 2, 3, 4]
    assert [p.score for p in ranked] == sorted((p.score for p in ranked), reverse=True)
    prizes = [chips_balance(user=p.user) - 900 for p in ranked]
    assert prizes == [150, 90, 60, 0]
    assert ChipAccount.objects.get(arena_id=arena.pk).balance == 0
    assert ChipTransfer.objects.filter(key=f"arena-payout:{arena.pk}").count() == 1
    assert ledger_totals().accounted and ledger_mismatches() == []
    trophies = set(TrophyAward.objects.values_list("user_id", "trophy"))
    assert (ranked[0].user_id, "arena_winner") in trophies
    assert {(p.user_id, "arena_podium") for p in ranked[:3]} <= trophies
    assert not {t for t in trophies if t[0] == ranked[3].user_id and t[1].startswith("arena")}


@pytest.mark.django_db
def test_joining_is_refused_without_the_entry_outside_the_band_or_once_closing():
    poor, rated, late = UserFactory(chips=10), UserFactory(chips=1000), UserFactory(chips=1000)
    arena = habanero_arena(entry=50)
    with pytest.raises(TableError, match="50 chips"):
        services.arena_join(arena_id=arena.pk, user=poor)
    banded = habanero_arena(rating_min=1200)
    with pytest.raises(TableError, match="1200"):
        services.arena_join(arena_id=banded.pk, user=rated)
    closing = habanero_arena(starts_at=timezone.now() - timedelta(minutes=9, seconds=30))
    with pytest.raises(TableError):
        services.arena_join(arena_id=closing.pk, user=late)
    assert not ArenaPlayer.objects.exists() and chips_balance(user=poor) == 10


@pytest.mark.django_db
def test_a_paused_player_is_not_seated_until_they_join_again():
    users = [UserFactory() for _ in range(3)]
    arena = habanero_arena()
    joined(arena, users)
    services.arena_pause(arena_id=arena.pk, user=users[0])
    services.arena_pause(arena_id=arena.pk, user=users[1])
    assert services.arena_tick()["tables"] == 0
    services.arena_join(arena_id=arena.pk, user=users[0])
    assert services.arena_tick()["tables"] == 1
    seated = set(GameSeat.objects.values_list("user_id", flat=True))
    assert seated == {users[0].pk, users[2].pk}


@pytest.mark.django_db
def test_an_abandoner_loses_scores_nothing_and_is_paused():
    from games.table.presence import game_leave

    users = [UserFactory() for _ in range(2)]
    arena = habanero_arena()
    joined(arena, users)
    services.arena_tick()
    (game,) = running_games(arena)
    game_leave(table_id=game.table_id, user=users[0])
    play_out(game, {u.pk: u for u in users}, random.Random(1))
    services.arena_tick()
    leaver, other = (ArenaPlayer.objects.get(user=u) for u in users)
    assert (leaver.score, leaver.paused) == (0, True)
    won = GameSeat.objects.get(game=game, user=users[1]).outcome == GameSeat.Outcome.WON
    assert (other.score, other.wins, other.games, other.paused) == (2 * won, won, 1, False)


@pytest.mark.django_db(transaction=True)
def test_two_pairings_at_once_never_seat_a_player_twice():
    users = [UserFactory() for _ in range(6)]
    arena = habanero_arena()
    joined(arena, users)
    made, barrier = [], threading.Barrier(3)

    def pair():
        barrier.wait()
        try:
            made.extend(arena_pair(arena_id=arena.pk))
        finally:
            close_old_connections()

    threads = [threading.Thread(target=pair) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 3 == ArenaGame.objects.count()
    seats = list(GameSeat.objects.values_list("user_id", flat=True))
    assert sorted(seats) == sorted(u.pk for u in users)
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == 3


@pytest.mark.django_db
def test_a_daily_arena_makes_the_next_one_once_when_it_ends():
    arena = habanero_arena(
        recurrence=Arena.Recurrence.DAILY,
        starts_at=timezone.now() - timedelta(minutes=11),
        rating_max=1800,
    )
    assert services.arena_tick()["finished"] == 1
    arena.refresh_from_db()
    following = arena.next_arena
    assert following.starts_at == arena.starts_at + timedelta(days=1)
    assert (following.status, following.rating_max, following.length) == (
        Arena.Status.SCHEDULED,
        1800,
        arena.length,
    )
    assert services.arena_finish(arena_id=arena.pk) is False
    assert Arena.objects.count() == 2


@pytest.mark.django_db
def test_the_pages_work_without_javascript(client):
    user = UserFactory(username="dora", chips=100)
    arena = habanero_arena(name="Sunday arena", entry=20)
    assert "Sunday arena" in client.get("/arenas/").content.decode()
    page = client.get(arena.get_absolute_url()).content.decode()
    assert "Log in to join" in page and "Nobody has joined yet." in page
    client.force_login(user)
    response = client.post(f"/arenas/{arena.pk}/join/")
    assert response.status_code == 302 and chips_balance(user=user) == 80
    page = client.get(arena.get_absolute_url()).content.decode()
    assert 'data-user="dora"' in page and "Waiting for a table" in page
    client.post(f"/arenas/{arena.pk}/pause/")
    assert "Play again" in client.get(arena.get_absolute_url()).content.decode()
    assert client.post("/arenas/999999/join/").status_code == 404


ARENA_FORM = {
    "name": "Friday pairs",
    "starts_at_0": "2026-12-04",
    "starts_at_1": "20:00:00",
    "length": "01:00:00",
    "recurrence": "weekly",
    "variant": "tute",
    "players": "4",
    "pairs": "on",
    "rounds": "1",
    "points_to_win": "4",
    "allow_tute": "on",
    "stock_play": "free",
    "move_time": "30",
    "entry": "50",
    "rating_min": "",
    "rating_max": "",
    "closing": "00:03:00",
    "pairing_wait": "00:01:00",
    "players_joined-TOTAL_FORMS": "0",
    "players_joined-INITIAL_FORMS": "0",
}


@pytest.mark.django_db
def test_a_moderator_plans_an_arena_in_the_admin_and_bad_options_are_refused(client):
    from accounts.moderators import moderators_group_sync
    from tests.support.factories import ModeratorFactory

    moderator = ModeratorFactory(username="mod")
    moderators_group_sync()
    client.force_login(moderator)
    refused = client.post("/admin/arenas/arena/add/", {**ARENA_FORM, "variant": "habanero"})
    assert refused.status_code == 200 and not Arena.objects.exists()
    assert "This variant is played by" in refused.content.decode()
    response = client.post("/admin/arenas/arena/add/", ARENA_FORM)
    assert response.status_code == 302, response.content.decode()[:3000]
    arena = Arena.objects.get()
    assert (arena.players, arena.pairs, arena.entry, arena.created_by) == (4, True, 50, moderator)
    assert arena.status == Arena.Status.SCHEDULED and arena.length == timedelta(hours=1)


@pytest.mark.django_db
def test_only_players_on_the_arena_page_are_seated():
    users = [UserFactory() for _ in range(3)]
    arena = habanero_arena()
    joined(arena, users, watching=False)
    present(arena, users[0])
    assert services.arena_tick()["tables"] == 0
    present(arena, users[2])
    assert services.arena_tick()["tables"] == 1
    assert set(GameSeat.objects.values_list("user_id", flat=True)) == {users[0].pk, users[2].pk}
