"""Cancelling a running game by agreement (games/table/cancel.py): one player proposes,
every other player must accept within the minute; one refusal, or the minute running out,
and the game goes on. A cancelled game gives every stake back and counts for nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import CancelProposal, Game, GameSeat
from games.table import cancel, play, seating
from games.table.refusals import TableError
from rankings.models import GameResult
from rankings.selectors import chips_balance
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

STAKE = 50


def a_game(players: int = 2):
    users = [UserFactory(chips=1000) for _ in range(players)]
    options = {"variant": "tute", "players": players, "competitive": True, "stake": STAKE}
    table = seating.table_create(master=users[0], options=options)
    for user in users[1:]:
        seating.table_sit(table_id=table.pk, user=user)
    game = play.game_start(table_id=table.pk, user=users[0])
    return table, game, users


def refused(pushed, code: str, service, **kwargs) -> None:
    before = list(CancelProposal.objects.values_list("pk", "status", "accepted"))
    with pytest.raises(TableError) as error:
        pushed.of(service, **kwargs)
    assert error.value.code == code and str(error.value.message)
    assert list(CancelProposal.objects.values_list("pk", "status", "accepted")) == before
    assert pushed == []


def test_every_player_accepting_cancels_the_game_and_gives_the_stakes_back(pushed):
    table, game, users = a_game(players=3)
    assert [chips_balance(user=u) for u in users] == [1000 - STAKE] * 3
    pushed.of(cancel.game_cancel_propose, table_id=table.pk, user=users[1])
    assert pushed.kinds(seat=0) == ["cancel_proposed"]
    pushed.of(cancel.game_cancel_answer, table_id=table.pk, user=users[0], accept=True)
    assert pushed.kinds(seat=2) == ["cancel_accepted"]
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    pushed.of(cancel.game_cancel_answer, table_id=table.pk, user=users[2], accept=True)
    assert pushed.kinds(seat=1) == ["cancelled"]
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert set(GameSeat.objects.filter(game=game).values_list("outcome", flat=True)) == {
        GameSeat.Outcome.VOID
    }
    assert [chips_balance(user=u) for u in users] == [1000] * 3
    assert not GameResult.objects.filter(game_id=game.pk).exists()


def test_one_refusal_ends_the_proposal_and_the_game_goes_on(pushed):
    table, game, users = a_game()
    pushed.of(cancel.game_cancel_propose, table_id=table.pk, user=users[0])
    pushed.of(cancel.game_cancel_answer, table_id=table.pk, user=users[1], accept=False)
    assert pushed.kinds(seat=0) == ["cancel_refused"]
    assert CancelProposal.objects.get().status == CancelProposal.Status.REFUSED
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    # Nothing is left to answer, and a new proposal may be made.
    refused(
        pushed, "invalid", cancel.game_cancel_answer, table_id=table.pk, user=users[0], accept=True
    )
    pushed.of(cancel.game_cancel_propose, table_id=table.pk, user=users[1])
    assert CancelProposal.objects.filter(status=CancelProposal.Status.OPEN).count() == 1


def test_a_second_proposal_or_a_second_yes_is_refused(pushed):
    table, _game, users = a_game(players=3)
    pushed.of(cancel.game_cancel_propose, table_id=table.pk, user=users[0])
    refused(pushed, "invalid", cancel.game_cancel_propose, table_id=table.pk, user=users[1])
    refused(
        pushed, "invalid", cancel.game_cancel_answer, table_id=table.pk, user=users[0], accept=True
    )


def test_only_the_games_players_vote(pushed):
    table, _game, users = a_game()
    outsider = UserFactory(chips=1000)
    refused(pushed, "not_seated", cancel.game_cancel_propose, table_id=table.pk, user=outsider)
    pushed.of(cancel.game_cancel_propose, table_id=table.pk, user=users[0])
    refused(
        pushed,
        "not_seated",
        cancel.game_cancel_answer,
        table_id=table.pk,
        user=outsider,
        accept=True,
    )


def test_a_proposal_nobody_answered_in_time_expires_and_the_game_goes_on(pushed):
    table, game, users = a_game()
    proposal = pushed.of(cancel.game_cancel_propose, table_id=table.pk, user=users[0])
    early = proposal.expires_at - timedelta(seconds=1)
    assert not pushed.of(cancel.game_cancel_expire, proposal_id=proposal.pk, now=early)
    assert pushed == []
    assert pushed.of(cancel.game_cancel_expire, proposal_id=proposal.pk, now=proposal.expires_at)
    assert pushed.kinds(seat=1) == ["cancel_expired"]
    assert CancelProposal.objects.get().status == CancelProposal.Status.EXPIRED
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    # Expired twice (a duplicated sweep): nothing more happens.
    assert not pushed.of(cancel.game_cancel_expire, proposal_id=proposal.pk, now=timezone.now())
    assert pushed == []


def test_no_game_no_proposal(pushed):
    users = [UserFactory(), UserFactory()]
    table = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=users[1])
    refused(pushed, "no_game", cancel.game_cancel_propose, table_id=table.pk, user=users[0])
