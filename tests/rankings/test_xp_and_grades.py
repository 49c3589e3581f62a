import itertools

import pytest

from rankings.grades import GRADES, grade_for_xp, next_grade
from rankings.models import XpEvent
from rankings.selectors import player_standing, xp_history, xp_total
from rankings.services import xp_award
from rankings.xp import xp_for_game
from tests.support.factories import UserFactory
from tests.support.game_factories import GameFactory


@pytest.mark.parametrize(
    "players,pairs,deals,won,xp",
    [
        (2, False, 1, True, 20),
        (3, False, 1, True, 30),
        (4, False, 1, True, 40),
        (4, True, 1, True, 20),  # the 40 split between the two winners
        (2, False, 2, True, 30),  # +10 for the second deal to win
        (2, False, 4, True, 50),  # habanero to 4 points
        (4, True, 3, True, 40),  # 20 each, +20 for two extra deals
        (2, False, 1, False, 5),
        (4, True, 5, False, 5),
    ],
)
def test_xp_for_a_game_follows_the_rules(players, pairs, deals, won, xp):
    assert xp_for_game(players=players, pairs=pairs, deals_to_win=deals, won=won) == xp


@pytest.mark.parametrize(
    "players,pairs,deals", [(1, False, 1), (5, False, 1), (2, True, 1), (3, True, 1), (2, False, 0)]
)
def test_xp_for_an_impossible_game_is_an_error(players, pairs, deals):
    with pytest.raises(ValueError):
        xp_for_game(players=players, pairs=pairs, deals_to_win=deals, won=True)


def test_grades_rise_with_xp_at_their_thresholds():
    assert [grade.code for grade in GRADES] == [
        "novice",
        "apprentice",
        "player",
        "expert",
        "master",
        "grand_master",
    ]
    thresholds = [grade.min_xp for grade in GRADES]
    assert thresholds == sorted(thresholds) and thresholds[0] == 0
    for lower, higher in itertools.pairwise(GRADES):
        assert grade_for_xp(higher.min_xp - 1) == lower
        assert grade_for_xp(higher.min_xp) == higher
        assert next_grade(lower) == higher
    assert grade_for_xp(10**9) == GRADES[-1] and next_grade(GRADES[-1]) is None


@pytest.mark.django_db
def test_an_xp_award_is_recorded_once_per_key_with_its_game_and_reason():
    player, game = UserFactory(), GameFactory()
    first = xp_award(
        user=player, amount=40, reason=XpEvent.Reason.WON, key=f"xp:{game.pk}:1", game_id=game.pk
    )
    again = xp_award(
        user=player, amount=40, reason=XpEvent.Reason.WON, key=f"xp:{game.pk}:1", game_id=game.pk
    )
    assert again.pk == first.pk
    xp_award(
        user=player, amount=70, reason=XpEvent.Reason.WON, key="xp:other", game_id=GameFactory().pk
    )
    assert xp_total(user=player) == 110
    assert [total for _when, total in xp_history(user=player)] == [40, 110]
    standing = player_standing(user=player)
    assert (standing.grade.code, standing.next_grade.code, standing.xp_to_next) == (
        "apprentice",
        "player",
        390,
    )
