"""A seat that is fair while its player is away (RULES.md §11), on the real PostgreSQL.

In a competitive game the robot holding an away player's seat plays each of that seat's
turns only when its move time runs out, so the three minutes of grace run out before the
game can end: a player cannot win a game by closing the tab. A player who abandons loses,
and every part of the game's end says the same: its result, each seat's outcome, the XP,
the pot, the rating and the trophies.

The clock travels (time-machine): a move time or the grace period passes in no time, and
the sweeper (`games.timers.sweep`) fires what is due, as in production.
"""

from __future__ import annotations

import doctest
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from games import timers
from games.models import Game, GameSeat, Table
from games.table import forfeit, play, presence
from games.table.record import game_state
from rankings.models import RatingChange, TrophyAward, XpEvent
from rankings.selectors import chips_balance
from rankings.services import game_result_award
from tests.support.away import (
    MOVE_TIME,
    PROCESS,
    STAKE,
    away_for_the_whole_game,
    game_of,
    seated_and_connected,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_the_forfeit_rule_examples_run():
    result = doctest.testmod(forfeit)
    assert result.failed == 0 and result.attempted > 0


def outcomes(game: Game) -> dict[int, str]:
    return dict(GameSeat.objects.filter(game=game).values_list("seat", "outcome"))


def check_settled(game: Game, users: list, winners: set[int], *, pot_share: int) -> None:
    """Everything of the game's end names `winners` (seats) and nobody else, once the game
    is awarded (the award task's own work)."""
    game_result_award(game_id=game.pk)
    players = len(users)
    assert {s for s, o in outcomes(game).items() if o == GameSeat.Outcome.WON} == winners
    changes = {}
    for seat, user in enumerate(users):
        change = RatingChange.objects.get(game_id=game.pk, user=user)
        changes[seat] = change.value - change.value_before
    abandoned = GameSeat.objects.filter(game=game, abandoned=True).values_list("seat", flat=True)
    # The rating ranks the winners first and whoever abandoned last (a loser between them
    # may gain on the abandoner).
    losers = [change for seat, change in changes.items() if seat not in winners]
    assert min(changes[seat] for seat in winners) > max(losers), changes
    assert all(changes[seat] < 0 for seat in abandoned), changes
    for seat, user in enumerate(users):
        won = seat in winners
        xp = XpEvent.objects.get(game_id=game.pk, user=user)
        assert (xp.reason, xp.amount) == (("won", 10 * players) if won else ("lost", 5))
        assert chips_balance(user=user) == 1000 - STAKE + (pot_share if won else 0)
        first_win = TrophyAward.objects.filter(
            user=user, game_id=game.pk, trophy__startswith="first_win"
        )
        assert first_win.exists() == won


def test_a_player_away_for_a_whole_two_player_game_loses_by_abandonment():
    _table, users, game, waits, lasted = away_for_the_whole_game(
        {"variant": "tute", "players": 2}, 2, seed=11, away=0
    )
    # The robot played each of the away seat's turns only when its move time ran out.
    assert waits and all(MOVE_TIME - 1 <= wait <= MOVE_TIME for wait in waits), waits
    # So the grace period ran out before the game could end: they abandoned, and lost.
    assert lasted > settings.DISCONNECT_GRACE_SECONDS
    gone = GameSeat.objects.get(game=game, seat=0)
    assert gone.abandoned and gone.outcome == GameSeat.Outcome.LOST
    assert game.result["winner"] == 1
    # The pot less the bank's quarter goes to the other player, with the winner's XP.
    check_settled(game, users, {1}, pot_share=2 * STAKE * 3 // 4)
    # Every decision of the seat was the robot's, and the game says how many.
    decisions = sum(
        1 for deal in game.record["deals"] for a in deal["actions"] if a.get("seat") == 0
    )
    assert gone.robot_decisions == decisions > 0
    assert GameSeat.objects.get(game=game, seat=1).robot_decisions == 0


def test_an_abandoner_ahead_on_cards_still_loses_and_the_other_side_takes_it_all():
    # The cards of some seeded games favour the away seat's robot; find one.
    for seed in range(40):
        _table, users, game, _waits, _lasted = away_for_the_whole_game(
            {"variant": "tute", "players": 2}, 2, seed=seed, away=0
        )
        if game_state(game=game).outcome().winner == 0:  # the cards said seat 0
            break
    else:
        raise AssertionError("no seeded game left the abandoner ahead on cards")
    assert game.result == {**game.result, "winner": 1, "on_cards": 0}
    check_settled(game, users, {1}, pot_share=2 * STAKE * 3 // 4)


def test_at_three_players_the_best_of_the_others_wins_when_the_abandoner_led():
    for seed in range(40):
        _table, users, game, _waits, _lasted = away_for_the_whole_game(
            {"variant": "tute", "players": 3}, 3, seed=seed, away=0
        )
        if game_state(game=game).outcome().winner == 0:  # the cards said seat 0
            break
    else:
        raise AssertionError("no seeded game left the abandoner ahead on cards")
    state = game_state(game=game)
    points = state.deal_summaries()[-1]["points"]
    best = 1 if points[1] > points[2] else 2
    assert points[1] != points[2], points  # a tie would share the win; not this seed
    assert game.result["winner"] == best
    pot = 3 * STAKE
    check_settled(game, users, {best}, pot_share=pot - pot // 4)


def test_a_player_back_within_the_grace_time_finds_the_game_where_the_timer_left_it():
    with time_machine.travel(timezone.now(), tick=False) as clock:
        table, users = seated_and_connected({"variant": "habanero"}, 2)
        game = game_of(table)
        seat = game.deadline_seat
        assert game.deadline_kind == "move"
        # Ten seconds into their move time, the player on turn closes the tab.
        clock.shift(10)
        left = game.deadline_at
        presence.table_socket_close(channel_name=f"s{seat}")
        game = game_of(table)
        # Going away gains no time: the robot's turn ends when the move time would have.
        assert (game.deadline_kind, game.deadline_seat, game.deadline_at) == ("robot", seat, left)
        assert not timers.sweep(now=left - timedelta(seconds=1))["games"]
        count = game.action_count
        clock.move_to(left + timedelta(milliseconds=1))
        timers.sweep()
        game = game_of(table)
        assert game.action_count > count  # the robot played the seat's card
        # The opponent answers; the away seat's next turn waits a whole move time again.
        while game.deadline_seat != seat:
            state = game_state(game=game)
            other = game.deadline_seat
            action = state.view(other).legal_actions[0].to_dict()
            play.game_act(table_id=table.pk, user=users[other], action=action)
            game = game_of(table)
        assert game.deadline_kind == "robot"
        assert game.deadline_at - timezone.now() == timedelta(seconds=MOVE_TIME)
        # Back within the grace period, with 12 seconds of that turn gone.
        clock.shift(12)
        presence.table_socket_open(
            table=Table.objects.get(pk=table.pk),
            user=users[seat],
            channel_name=f"s{seat}-back",
            process_id=PROCESS,
            ip_address=None,
        )
        back = game_of(table)
        row = GameSeat.objects.get(game=back, seat=seat)
        assert row.away_since is None and not row.abandoned
        # The game is where the timer left it: the same position, the same countdown.
        assert back.action_count == game.action_count
        assert (back.deadline_kind, back.deadline_seat) == ("move", seat)
        assert back.deadline_at == game.deadline_at
        assert back.deadline_at - timezone.now() == timedelta(seconds=MOVE_TIME - 12)
        # What the robot did in their name, and how many decisions it made for them.
        assert len(row.while_away) == row.robot_decisions >= 1


def test_in_a_practice_game_the_robot_of_an_away_seat_plays_at_once():
    with time_machine.travel(timezone.now(), tick=False):
        table, _users = seated_and_connected(
            {"variant": "habanero", "competitive": False, "stake": 0}, 2
        )
        seat = game_of(table).deadline_seat
        presence.table_socket_close(channel_name=f"s{seat}")
        game = game_of(table)
        assert game.deadline_kind == "robot"
        assert game.deadline_at - timezone.now() <= timedelta(seconds=settings.ROBOT_DELAY_SECONDS)
