"""The awards of a finished game (RULES.md §12): chips from the pot, XP, exclusions, once."""

import pytest

from rankings.models import BoardRow, ChipAccount, ChipTransfer, GameResult, XpEvent
from rankings.selectors import chips_balance, ledger_mismatches, ledger_totals, xp_total
from rankings.services import (
    GameResultInvalid,
    SeatResult,
    game_result_award,
    game_result_exclude,
    game_result_submit,
)
from rankings.tasks import award_game, award_sweep
from tests.support.awards import finish_game
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db


def players(count, chips=1000):
    return [UserFactory(chips=chips) for _seat in range(count)]


def award(result):
    return game_result_award(game_id=result.game_id)


def bank() -> int:
    return ChipAccount.objects.get(kind=ChipAccount.Kind.BANK).balance


def xps(users):
    return [xp_total(user=user) for user in users]


def balances(users):
    return [chips_balance(user=user) for user in users]


def assert_books_balance():
    assert ledger_totals().accounted and ledger_mismatches() == []
    assert ledger_totals().pots == 0


def test_two_players_the_winner_takes_the_pot_less_a_quarter_and_20_xp():
    seated = players(2)
    award(finish_game(seated, winner_side=0))
    assert balances(seated) == [1000 - 100 + 150, 900]
    assert bank() == 50
    assert xps(seated) == [20, 5]
    assert_books_balance()


def test_three_players_winner_30_xp_and_225_of_300():
    seated = players(3)
    award(finish_game(seated, winner_side=2))
    assert balances(seated) == [900, 900, 900 + 225]
    assert bank() == 75
    assert xps(seated) == [5, 5, 30]


def test_four_players_alone_winner_40_xp():
    seated = players(4)
    award(finish_game(seated, winner_side=1, stake=10))
    assert balances(seated) == [990, 990 + 30, 990, 990]
    assert bank() == 10
    assert xps(seated) == [5, 40, 5, 5]


def test_pairs_split_the_xp_and_the_pot_and_the_odd_chip_goes_to_the_bank():
    seated = players(4)
    award(finish_game(seated, pairs=True, winner_side=1, stake=7))  # pot 28: bank 7, 21 → 10+10
    assert balances(seated) == [993, 993 + 10, 993, 993 + 10]
    assert bank() == 8
    assert xps(seated) == [5, 20, 5, 20]
    assert_books_balance()


@pytest.mark.parametrize("deals,winner_xp", [(2, 30), (3, 40), (5, 60)])
def test_each_deal_to_win_beyond_the_first_adds_10_for_each_winner(deals, winner_xp):
    seated = players(2)
    award(finish_game(seated, deals_to_win=deals, variant="habanero"))
    assert xps(seated) == [winner_xp, 5]
    pairs = players(4)
    award(finish_game(pairs, pairs=True, deals_to_win=deals))
    assert xps(pairs) == [winner_xp, 5, winner_xp, 5]  # 40 split in two, then +10 a deal


def test_who_abandoned_gets_the_losers_5_xp_and_no_share_even_if_their_side_won():
    seated = players(4)
    award(finish_game(seated, pairs=True, winner_side=0, abandoned={2}))
    # Pot 400: the bank keeps 100, the partner who stayed takes the other 300.
    assert balances(seated) == [900 + 300, 900, 900, 900]
    assert xps(seated) == [20, 5, 5, 5]
    (loser_event,) = XpEvent.objects.filter(user=seated[2])
    assert loser_event.reason == XpEvent.Reason.LOST
    assert_books_balance()


def test_a_winner_alone_who_abandoned_leaves_the_whole_pot_to_the_bank():
    seated = players(2)
    award(finish_game(seated, winner_side=0, abandoned={0}))
    assert balances(seated) == [900, 900]
    assert bank() == 200
    assert xps(seated) == [5, 5]
    assert_books_balance()


def test_robots_earn_nothing_and_stake_nothing():
    human = UserFactory(chips=1000)
    award(finish_game([human, None], winner_side=0))
    assert chips_balance(user=human) == 1000 - 100 + 75  # only their own stake was in the pot
    assert xp_total(user=human) == 20


def test_a_same_ip_table_still_pays_but_is_excluded_with_the_reason_and_off_the_boards():
    seated = players(3)
    result = finish_game(seated, ips={0: "203.0.113.9", 1: "203.0.113.9", 2: "198.51.100.7"})
    assert result.exclusion == GameResult.Exclusion.SAME_IP
    assert result.exclusion_note == f"203.0.113.9: players {seated[0].pk}, {seated[1].pk}"
    award(result)
    assert balances(seated) == [900 + 225, 900, 900]
    assert xps(seated) == [30, 5, 5]
    assert not BoardRow.objects.exists()


def test_a_counting_game_puts_its_players_on_every_board():
    a, b = seated = players(2)
    award(finish_game(seated, variant="pocha"))
    rows = BoardRow.objects.filter(user=a)
    assert {(row.period, row.variant) for row in rows} == {
        (period, variant) for period in ("all", "week", "month") for variant in ("", "pocha")
    }
    assert {(row.xp, row.games, row.wins, row.chips) for row in rows} == {(20, 1, 1, 50)}
    assert {(row.xp, row.games, row.wins, row.chips) for row in b.board_rows.all()} == {
        (5, 1, 0, -100)
    }


def test_practice_games_award_nothing():
    seated = players(2)
    result = finish_game(seated, competitive=False, stake=0)
    assert award(result).awarded_at is not None
    assert balances(seated) == [1000, 1000]
    assert xps(seated) == [0, 0]
    assert not BoardRow.objects.exists()


def test_awarding_twice_awards_once():
    seated = players(2)
    result = finish_game(seated)
    award(result)
    award(result)
    assert award_game(result.game_id) is True  # the task itself, a third time
    assert balances(seated) == [1050, 900]
    assert xps(seated) == [20, 5]
    assert ChipTransfer.objects.filter(reason="payout").count() == 1
    assert BoardRow.objects.get(user=seated[0], period="all", variant="").games == 1


def test_submitting_the_same_game_twice_records_it_once():
    seated = players(2)
    first = finish_game(seated, game_id=77, stake=0)
    again = finish_game(seated, game_id=77, stake=0)
    assert first.pk == again.pk and GameResult.objects.count() == 1


@pytest.mark.parametrize(
    "change",
    [
        {"players": 5},
        {"players": 2},  # 2 players in pairs, and 4 seats
        {"variant": "chess"},
        {"deals_to_win": 0},
        {"seats": "partners split"},
    ],
)
def test_a_result_that_is_no_game_is_refused_and_records_nothing(change):
    a, b, c, d = players(4)
    split = change.get("seats") == "partners split"
    seats = [
        SeatResult(0, a.pk, 0, True, False, None),
        SeatResult(1, b.pk, 1, False, False, None),
        SeatResult(2, c.pk, 0, not split, False, None),
        SeatResult(3, d.pk, 1, False, False, None),
    ]
    arguments = {
        "game_id": 5,
        "variant": "tute",
        "players": 4,
        "pairs": True,
        "deals_to_win": 1,
        "competitive": True,
        "stake": 0,
        "finished_at": a.date_joined,
        "seats": seats,
    }
    arguments.update({key: value for key, value in change.items() if key != "seats"})
    with pytest.raises(GameResultInvalid):
        game_result_submit(**arguments)
    assert not GameResult.objects.exists()


def test_a_moderator_excludes_a_game_by_hand_and_it_leaves_the_boards_but_stays_paid():
    seated = players(2)
    result = award(finish_game(seated))
    assert BoardRow.objects.filter(games__gt=0).count() == 12
    assert game_result_exclude(result=result, moderator=ModeratorFactory(), reason="Collusion")
    assert not game_result_exclude(result=result, moderator=ModeratorFactory(), reason="Again")
    result.refresh_from_db()
    assert (result.exclusion, result.exclusion_note) == ("moderator", "Collusion")
    assert BoardRow.objects.filter(games__gt=0).count() == 0
    assert balances(seated) == [1050, 900] and xps(seated) == [20, 5]
    assert GameResult.objects.filter(pk=result.pk).exists()


def test_the_sweep_awards_a_result_whose_task_was_never_queued():
    seated = players(2)
    # Submitted in a test transaction: its on-commit queueing never runs.
    result = finish_game(seated)
    assert award_sweep(older_than_seconds=0) == 1
    result.refresh_from_db()
    assert result.awarded_at is not None
    assert balances(seated) == [1050, 900]
    assert award_sweep(older_than_seconds=0) == 0


def test_a_game_ends_with_the_broker_down_and_the_sweep_pays_it_later(
    django_capture_on_commit_callbacks, monkeypatch, caplog
):
    from kombu.exceptions import OperationalError

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(award_game, "delay", broker_down)
    seated = players(2)
    with django_capture_on_commit_callbacks(execute=True):
        result = finish_game(seated)
    assert "the sweep will pay it" in caplog.text
    result.refresh_from_db()
    assert result.awarded_at is None
    assert award_sweep(older_than_seconds=0) == 1
    assert balances(seated) == [1050, 900]


def test_the_embedded_default_awards_on_commit_in_the_same_process(
    django_capture_on_commit_callbacks, settings
):
    from tute_site.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True  # as without REDIS_URL
    try:
        seated = players(2)
        with django_capture_on_commit_callbacks(execute=True):
            result = finish_game(seated)
    finally:
        app.conf.task_always_eager = eager
    result.refresh_from_db()
    assert result.awarded_at is not None
    assert balances(seated) == [1050, 900]


def test_celery_beat_runs_the_sweep_every_minute(settings):
    from tute_site.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["rankings-award-sweep"]
    assert entry == {"task": "rankings.award_sweep", "schedule": 60.0}
    assert {"rankings.award_sweep", "rankings.award_game"} <= set(app.tasks)
    assert app.tasks["rankings.award_game"].acks_late
    assert app.tasks["rankings.award_game"].reject_on_worker_lost


def test_a_tie_shares_the_pot_between_the_winning_sides_and_each_gets_the_winners_xp():
    # Pocha may end level: the record names several winning sides.
    seated = players(3)
    result = finish_game(seated, variant="pocha", winner_side=0)
    seats = [
        SeatResult(seat.seat, seat.user_id, seat.side, seat.seat in (0, 2), False, None)
        for seat in result.seats.all()
    ]
    tie = game_result_submit(
        game_id=result.game_id + 1,
        variant="pocha",
        players=3,
        pairs=False,
        deals_to_win=1,
        competitive=True,
        stake=0,
        finished_at=result.finished_at,
        seats=seats,
    )
    award(tie)
    award(result)
    assert xps(seated) == [30 + 30, 5 + 5, 5 + 30]
    assert balances(seated) == [900 + 225, 900, 900]
