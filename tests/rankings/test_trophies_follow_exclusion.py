"""Trophies follow their game as its rating change does (issue 53, confusing 7): a game a
moderator excludes takes back the trophies it earned, and the player's next counting win earns
the first win instead; counted again, the game gives them back, once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rankings.models import TrophyAward
from rankings.services import game_result_award, game_result_exclude, game_result_include
from tests.support.awards import finish_game
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db

FIRST_WIN = "first_win_tute2"


def trophies(user) -> list[tuple[str, int]]:
    return sorted(TrophyAward.objects.filter(user=user).values_list("trophy", "game_id"))


def won(alicia, bruno, *, minutes_ago: int):
    result = finish_game(
        [alicia, bruno],
        winner_side=0,
        stake=0,
        finished_at=timezone.now() - timedelta(minutes=minutes_ago),
    )
    game_result_award(game_id=result.game_id)
    return result


def test_an_excluded_game_takes_its_trophies_and_gives_them_back_once_counted_again(client):
    alicia, bruno = UserFactory(username="alicia"), UserFactory(username="bruno")
    moderator = ModeratorFactory()
    first = won(alicia, bruno, minutes_ago=20)
    assert (FIRST_WIN, first.game_id) in trophies(alicia)
    earned = trophies(alicia)

    game_result_exclude(result=first, moderator=moderator, reason="Collusion")
    assert trophies(alicia) == []
    page = client.get("/players/alicia/").content.decode()
    assert f'data-trophy="{FIRST_WIN}"' not in page

    game_result_include(result=first, moderator=moderator, reason="A mistake")
    assert trophies(alicia) == earned
    page = client.get("/players/alicia/").content.decode()
    assert page.count(f'data-trophy="{FIRST_WIN}"') == 1


def test_the_next_win_earns_the_first_win_of_an_excluded_game():
    alicia, bruno = UserFactory(username="alicia"), UserFactory(username="bruno")
    moderator = ModeratorFactory()
    first = won(alicia, bruno, minutes_ago=20)
    second = won(alicia, bruno, minutes_ago=10)
    assert (FIRST_WIN, first.game_id) in trophies(alicia)

    game_result_exclude(result=first, moderator=moderator, reason="Collusion")
    assert (FIRST_WIN, second.game_id) in trophies(alicia)
    assert all(game == second.game_id for _trophy, game in trophies(alicia))

    game_result_include(result=first, moderator=moderator, reason="A mistake")
    assert [t for t in trophies(alicia) if t[0] == FIRST_WIN] == [(FIRST_WIN, first.game_id)]
