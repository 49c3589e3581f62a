"""A game played to its end through the services: the stored record replays to the stored
result, and the end hands the game to rankings in one call after commit."""

import random
from dataclasses import dataclass

import pytest

import rankings.services
from games import services
from games.models import Game, GameSeat, Table
from games.selectors import game_state
from tests.accounts.factories import UserFactory
from tests.engine.engine_helpers import replay

pytestmark = pytest.mark.django_db


def seated(options: dict, players: int) -> tuple[Table, list]:
    users = [UserFactory(chips=1000) for _ in range(players)]
    table = services.table_create(master=users[0], options=options)
    for n, user in enumerate(users[1:], start=1):
        services.table_sit(table_id=table.pk, user=user, ip_address=f"198.51.100.{n}")
    return table, users


def play_to_the_end(table: Table, users: list, seed: int) -> Game:
    """Random legal actions, each sent by its own player through game_act, and every next
    deal dealt through game_next_deal, until the game is over."""
    rng = random.Random(seed)
    game = services.game_start(table_id=table.pk, user=users[0])
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        state = game_state(game=game)
        if state.needs_deal:
            services.game_next_deal(table_id=table.pk, user=rng.choice(users))
            continue
        seat, actions = rng.choice(sorted(state.legal_actions().items()))
        action = rng.choice(actions).to_dict()
        services.game_act(table_id=table.pk, user=users[seat], action=action)


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"variant": "tute", "players": 4, "rounds": 2}, 4),
        ({"variant": "tute", "players": 3}, 3),
        ({"variant": "habanero", "points_to_win": 2}, 2),
        ({"variant": "pocha", "players": 2}, 2),
    ],
    ids=["tute-4-pairs", "tute-3", "habanero", "pocha-2"],
)
def test_a_finished_games_record_replays_to_its_stored_result(options, players, tmp_path):
    table, users = seated(options, players)
    game = play_to_the_end(table, users, seed=5)
    assert game.status == Game.Status.FINISHED and game.ended_at and game.finished_at
    status, replayed = replay(tmp_path, game.record)
    assert status == 0, replayed
    assert replayed["game"] == {"over": True, **game.result}
    winners = game.result["winner"]
    winners = winners if isinstance(winners, list) else [winners]
    state = game_state(game=game)
    for seat in game.seats.all():
        expected = (
            GameSeat.Outcome.WON if state.side_of[seat.seat] in winners else GameSeat.Outcome.LOST
        )
        assert seat.outcome == expected
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN and table.game == game
    # A new game with the same players.
    again = services.game_start(table_id=table.pk, user=users[0])
    assert again.pk != game.pk and again.status == Game.Status.PLAYING


@dataclass(frozen=True)
class SeatResult:
    """The shape rankings.services.SeatResult is being built with (in another branch)."""

    seat: int
    user_id: int | None
    side: int
    won: bool
    abandoned: bool
    ip_address: str | None


@pytest.fixture
def hand_offs(monkeypatch) -> list[dict]:
    """The calls games make to rankings.services.game_result_submit (built in another branch:
    until it is merged, this records what games passes to it)."""
    calls: list[dict] = []
    monkeypatch.setattr(rankings.services, "SeatResult", SeatResult, raising=False)
    monkeypatch.setattr(
        rankings.services, "game_result_submit", lambda **kw: calls.append(kw), raising=False
    )
    return calls


def test_the_game_end_hands_off_to_rankings_once_after_commit(
    hand_offs, django_capture_on_commit_callbacks
):
    calls = hand_offs
    table, users = seated({"variant": "tute", "players": 4, "stake": 50}, 4)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(table, users, seed=3)
    assert len(calls) == 1
    call = calls[0]
    winner = game.result["winner"]
    assert call == {
        "game_id": game.pk,
        "variant": "tute",
        "players": 4,
        "pairs": True,
        "deals_to_win": 1,
        "competitive": True,
        "stake": 50,
        "finished_at": game.finished_at,
        "seats": [
            SeatResult(
                seat=n,
                user_id=users[n].pk,
                side=n % 2,
                won=n % 2 == winner,
                abandoned=False,
                ip_address=None if n == 0 else f"198.51.100.{n}",
            )
            for n in range(4)
        ],
    }


def test_a_practice_game_is_handed_off_as_practice_with_no_stake(
    hand_offs, django_capture_on_commit_callbacks
):
    calls = hand_offs
    table, users = seated({"variant": "habanero", "competitive": False, "points_to_win": 1}, 2)
    with django_capture_on_commit_callbacks(execute=True):
        play_to_the_end(table, users, seed=1)
    assert [(c["competitive"], c["stake"], c["deals_to_win"]) for c in calls] == [(False, 0, 1)]
