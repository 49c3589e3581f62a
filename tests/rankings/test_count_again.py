"""Games counted again by a moderator earn what they would have earned had they never been
excluded: the same leaderboard rows, the same trophies from the same games (first wins, a
feat, a streak), shown on the profile, and all of it once."""

import pytest
from django.urls import reverse

from rankings.models import BoardCount, BoardRow, TrophyAward
from rankings.services import game_result_award
from rankings.tasks import award_game
from tests.support.awards import finish_game
from tests.support.factories import UserFactory
from tests.support.moderation import moderator_fixture as moderator_fixture

pytestmark = pytest.mark.django_db

RESULTS = "/admin/rankings/gameresult/"
SHARED = {0: "192.0.2.7", 1: "192.0.2.7"}
# The review's player: two habanero wins, 2-player tute wins, las cuarenta sung, five wins
# in a row, then a loss and a win, each against a new opponent.
HISTORY = [
    ("habanero", True, ()),
    ("habanero", True, ()),
    ("tute", True, ()),
    ("tute", True, ("cuarenta",)),
    ("tute", True, ()),
    ("tute", False, ()),
    ("tute", True, ()),
]


def played(hero, ips=None) -> list:
    results = []
    for variant, won, feats in HISTORY:
        result = finish_game(
            [hero, UserFactory(chips=10_000)],
            variant=variant,
            winner_side=0 if won else 1,
            stake=50,
            ips=ips,
            feats={0: feats},
        )
        game_result_award(game_id=result.game_id)
        results.append(result)
    return results


def boards(hero) -> set[tuple]:
    return set(
        BoardRow.objects.filter(user=hero).values_list(
            "period", "variant", "xp", "games", "wins", "chips", "active"
        )
    )


def trophies(hero, results) -> list[tuple[str, int]]:
    place = {result.game_id: n for n, result in enumerate(results)}
    return sorted(
        (award.trophy, place[award.game_id]) for award in TrophyAward.objects.filter(user=hero)
    )


def test_seven_games_counted_again_earn_their_boards_and_trophies_once(client, moderator):
    never_excluded = UserFactory(chips=10_000)
    expected_trophies = trophies(never_excluded, played(never_excluded))
    assert [code for code, _game in expected_trophies] == [
        "cuarenta",
        "first_win_habanero",
        "first_win_tute2",
        "streak_5",
    ]
    hero = UserFactory(chips=10_000, username="reviewed")
    excluded = played(hero, ips=SHARED)
    assert trophies(hero, excluded) == [] and boards(hero) == set()

    form = {
        "action": "include_games",
        "_selected_action": [result.pk for result in excluded],
        "apply": "1",
        "reason": "Two flatmates, checked",
    }
    client.post(RESULTS, form)
    # The moderator clicks again, and every game's award task is delivered twice.
    client.post(RESULTS, form)
    for result in excluded:
        award_game.apply(args=[result.game_id])
        award_game.apply(args=[result.game_id])

    assert boards(hero) == {
        (period, variant, xp, games, wins, chips, True)
        for period, variant, xp, games, wins, chips, _active in boards(never_excluded)
    }
    assert trophies(hero, excluded) == expected_trophies
    assert TrophyAward.objects.filter(user=hero).count() == len(expected_trophies)
    # Each board counts its players once, however often the games were counted again.
    for count in BoardCount.objects.all():
        rows = BoardRow.objects.filter(
            period=count.period, start=count.start, variant=count.variant, games__gt=0, active=True
        )
        assert count.players == rows.count()
    profile = client.get(reverse("player_profile", args=[hero.username])).content.decode()
    assert "No trophies yet" not in profile
    for name in ("Las cuarenta", "First win: habanero", "First win: 2-player tute", "Five in a"):
        assert name in profile
