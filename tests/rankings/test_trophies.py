"""Trophies: each rule earns its trophy once, in a counting competitive game only."""

import pytest

from rankings.models import BoardRow, Rating, TrophyAward
from rankings.rating_math import shown_value
from rankings.services import game_result_award, game_result_include
from rankings.svg import trophy_icon_svg
from rankings.trophies import TROPHIES
from tests.support.awards import finish_game
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

TABLES = {
    "tute2": ("tute", 2, False),
    "tute3": ("tute", 3, False),
    "tute4": ("tute", 4, False),
    "tute4pairs": ("tute", 4, True),
    "habanero": ("habanero", 2, False),
    "pocha": ("pocha", 3, False),
}


def player():
    return UserFactory(chips=10_000)


def won_game(hero, kind="tute2", **options):
    variant, count, pairs = TABLES[kind]
    result = finish_game(
        [hero, *(player() for _ in range(count - 1))],
        variant=variant,
        pairs=pairs,
        winner_side=0,
        stake=0,
        **options,
    )
    game_result_award(game_id=result.game_id)
    return result


def to_the_brink(trophy, hero) -> tuple[str, dict]:
    """Bring `hero` one won game short of `trophy`: the kind of table of that game, and what
    else it needs (a feat of the hero's seat)."""
    if trophy.code.startswith("first_win_"):
        return trophy.code.removeprefix("first_win_"), {}
    if trophy.code in ("cuarenta", "tute", "capote"):
        return "tute2", {"feats": {0: (trophy.code,)}}
    if trophy.code.startswith("games_"):
        won_game(hero)
        BoardRow.objects.filter(user=hero, period="all", variant="").update(
            games=int(trophy.code.removeprefix("games_")) - 1
        )
    elif trophy.code == "streak_5":
        for _win in range(4):
            won_game(hero)
    elif trophy.code == "rating_1500":
        won_game(hero)
        Rating.objects.filter(user=hero, kind="tute2").update(
            mu=40.0, sigma=3.0, games=30, value=shown_value(40.0, 3.0), provisional=False
        )
    return "tute2", {}


def earned(hero, trophy):
    return list(TrophyAward.objects.filter(user=hero, trophy=trophy.code))


@pytest.mark.parametrize("trophy", TROPHIES, ids=lambda trophy: trophy.code)
def test_each_trophy_is_earned_once_in_a_counting_competitive_game_only(trophy):
    hero = player()
    kind, needs = to_the_brink(trophy, hero)
    assert earned(hero, trophy) == []
    won_game(hero, kind, competitive=False, **needs)  # practice
    won_game(hero, kind, ips={0: "192.0.2.5", 1: "192.0.2.5"}, **needs)  # same address
    assert earned(hero, trophy) == []
    decisive = won_game(hero, kind, **needs)
    [award] = earned(hero, trophy)
    assert award.game_id == decisive.game_id and award.earned_at == decisive.finished_at
    won_game(hero, kind, **needs)
    assert len(earned(hero, trophy)) == 1


def test_a_loss_earns_no_first_win_and_breaks_a_streak():
    hero = player()
    for _win in range(4):
        won_game(hero)
    loss = finish_game([hero, player()], winner_side=1, stake=0)
    game_result_award(game_id=loss.game_id)
    won_game(hero)
    codes = set(TrophyAward.objects.filter(user=hero).values_list("trophy", flat=True))
    assert "first_win_tute2" in codes and "streak_5" not in codes
    assert not TrophyAward.objects.filter(game_id=loss.game_id, user=hero).exists()


def test_a_feat_earns_its_trophy_even_in_a_lost_game_and_only_for_its_seat():
    hero, other = player(), player()
    result = finish_game([hero, other], winner_side=1, stake=0, feats={0: ("cuarenta",)})
    game_result_award(game_id=result.game_id)
    assert set(
        TrophyAward.objects.filter(game_id=result.game_id).values_list("user", "trophy")
    ) == {
        (hero.pk, "cuarenta"),
        (other.pk, "first_win_tute2"),
    }


def test_every_trophy_has_a_name_a_description_and_an_icon():
    codes = [trophy.code for trophy in TROPHIES]
    assert len(codes) == len(set(codes))
    for trophy in TROPHIES:
        assert str(trophy.name) and str(trophy.description)
        icon = trophy_icon_svg(trophy, size=40)
        assert icon.startswith("<svg") and str(trophy.name) in icon


SHARED = {0: "192.0.2.5", 1: "192.0.2.5"}


def history(hero, ips=None) -> list:
    """Five won games: two habanero, then three of tute for two, the middle one with las
    cuarenta: first wins of two kinds, a feat and a streak of five."""
    kinds = ["habanero", "habanero", "tute2", "tute2", "tute2"]
    feats = [{}, {}, {}, {0: ("cuarenta",)}, {}]
    return [
        won_game(hero, kind, ips=ips, feats=feat) for kind, feat in zip(kinds, feats, strict=True)
    ]


def trophies_by_game(hero, results) -> set[tuple[str, int]]:
    """Each trophy of the hero's with the place in `results` of the game that earned it."""
    place = {result.game_id: n for n, result in enumerate(results)}
    return {(award.trophy, place[award.game_id]) for award in TrophyAward.objects.filter(user=hero)}


@pytest.mark.parametrize("order", ["in game order", "backwards"])
def test_games_counted_again_earn_the_trophies_they_would_have_earned_once(order):
    counted, recounted = player(), player()
    expected = trophies_by_game(counted, history(counted))
    assert {code for code, _game in expected} == {
        "first_win_habanero",
        "first_win_tute2",
        "cuarenta",
        "streak_5",
    }
    excluded = history(recounted, ips=SHARED)
    assert trophies_by_game(recounted, excluded) == set()
    moderator = UserFactory(is_staff=True)
    for result in excluded if order == "in game order" else reversed(excluded):
        assert game_result_include(result=result, moderator=moderator, reason="one household")
    assert trophies_by_game(recounted, excluded) == expected
    # Counted again twice, or its award run again: nothing more.
    for result in excluded:
        assert not game_result_include(result=result, moderator=moderator, reason="again")
        game_result_award(game_id=result.game_id)
    assert TrophyAward.objects.filter(user=recounted).count() == len(expected)
