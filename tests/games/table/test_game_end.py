"""A game played to its end through the services: the stored record replays to the stored
result, and the end hands the game to rankings in the transaction that finishes it."""

import random

import pytest
from django.db import transaction

from games.engine import from_record
from games.models import Game, GameSeat, Table
from games.table import play, rematch
from games.table.record import game_record, game_state, record_move
from games.table.refusals import TableError
from rankings.models import GameResult, GameResultSeat
from tests.support.engine import replay
from tests.support.play import play_to_the_end, seated_table

pytestmark = pytest.mark.django_db


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
    table, users = seated_table(options, players)
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
    # One way to play again: the rematch. The master may not start one alone.
    with pytest.raises(TableError, match="rematch"):
        play.game_start(table_id=table.pk, user=users[0])
    rematch.rematch_offer(table_id=table.pk, user=users[0])
    for user in users[1:]:
        rematch.rematch_answer(table_id=table.pk, user=user, accept=True)
    again = Table.objects.get(pk=table.pk).game
    assert again.pk != game.pk and again.status == Game.Status.PLAYING


def handed_off(game: Game) -> tuple[GameResult, list[tuple]]:
    result = GameResult.objects.get(game_id=game.pk)
    seats = [
        (s.seat, s.user_id, s.side, s.won, s.abandoned, s.ip_address)
        for s in GameResultSeat.objects.filter(result=result).order_by("seat")
    ]
    return result, seats


def test_the_game_end_hands_the_result_to_rankings_in_the_same_transaction():
    table, users = seated_table({"variant": "tute", "players": 4, "stake": 50}, 4)
    game = play_to_the_end(table, users, seed=3)
    assert GameResult.objects.filter(game_id=game.pk).count() == 1
    result, seats = handed_off(game)
    winner = game.result["winner"]
    assert (result.variant, result.players, result.pairs, result.deals_to_win) == (
        "tute",
        4,
        True,
        1,
    )
    assert (result.competitive, result.stake, result.finished_at) == (
        True,
        50,
        game.finished_at,
    )
    assert seats == [
        (n, users[n].pk, n % 2, n % 2 == winner, False, f"10.0.0.{n + 1}") for n in range(4)
    ]


def test_a_practice_game_is_handed_off_as_practice_with_no_stake():
    table, users = seated_table(
        {"variant": "habanero", "competitive": False, "points_to_win": 1}, 2
    )
    game = play_to_the_end(table, users, seed=1)
    result, _seats = handed_off(game)
    assert (result.competitive, result.stake, result.deals_to_win) == (False, 0, 1)


def test_a_rolled_back_end_leaves_no_result():
    table, users = seated_table({"variant": "habanero", "points_to_win": 1}, 2)
    rng = random.Random(2)
    game = play.game_start(table_id=table.pk, user=users[0])
    while True:
        game.refresh_from_db()
        state = game_state(game=game)
        seat, actions = rng.choice(sorted(state.legal_actions().items()))
        action = rng.choice(actions)
        after = state.clone()
        after.apply(action)
        if after.over:
            break
        if after.needs_deal:
            play.game_act(table_id=table.pk, user=users[seat], action=action.to_dict())
            play.game_next_deal(table_id=table.pk, user=users[0])
            continue
        play.game_act(table_id=table.pk, user=users[seat], action=action.to_dict())
    with pytest.raises(RuntimeError), transaction.atomic():
        play.game_act(table_id=table.pk, user=users[seat], action=action.to_dict())
        assert GameResult.objects.filter(game_id=game.pk).exists()
        raise RuntimeError("the transaction fails after the last move")
    assert not GameResult.objects.filter(game_id=game.pk).exists()
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_action_leaves_no_trace_in_the_kept_states():
    table, users = seated_table({"variant": "habanero"}, 2)
    game = play.game_start(table_id=table.pk, user=users[0])
    state = game_state(game=game)
    seat = state.turn
    first, second = state.legal_actions_for(seat)[:2]
    with pytest.raises(RuntimeError), transaction.atomic():
        play.game_act(table_id=table.pk, user=users[seat], action=first.to_dict())
        raise RuntimeError("the transaction fails after the move")
    # Another process plays the other card and stores it, as a move is stored.
    game.refresh_from_db()
    game.action_count += 1
    record_move(game=game, action=second, fields=["action_count"])
    rebuilt = from_record(game_record(game=game))
    for n in (0, 1, None):
        assert game_state(game=game).view(n) == rebuilt.view(n)
