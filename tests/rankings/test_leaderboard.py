"""The public leaderboards: boards, variants, pages of 50, the viewer's rank, htmx swaps."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import user_ban, user_unban
from rankings.services import game_result_award
from tests.support.awards import finish_game
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db


def play(winner, loser, **game):
    result = finish_game([winner, loser], **game)
    return game_result_award(game_id=result.game_id)


def names(html: str) -> list[str]:
    table = re.search(r'<table class="leaderboard".*?</table>', html, re.S)
    return re.findall(r'<a href="/players/[^/]+/">([^<]+)</a>', table.group(0)) if table else []


def test_rankings_list_players_by_xp_and_by_chips(client):
    ana = UserFactory(username="ana", chips=300)
    beto = UserFactory(username="beto", chips=2000)
    carla = UserFactory(username="carla", chips=900)
    UserFactory(username="newbie", chips=5000)  # no game: not listed, even by chips
    play(carla, ana, stake=0, deals_to_win=3)  # carla 40 XP, ana 5
    play(carla, beto, stake=0)  # carla 20, beto 5
    play(ana, beto, stake=0)  # ana 20, beto 5

    html = client.get("/rankings/").content.decode()
    assert names(html) == ["carla", "ana", "beto"]
    assert re.search(r"<td>carla</td>|>carla</a></td>\s*<td[^>]*>.*?</td><td>60</td>", html, re.S)
    chips = client.get("/rankings/", {"board": "chips"}).content.decode()
    assert names(chips) == ["beto", "carla", "ana"]


def test_boards_per_variant_and_per_period(client):
    ana, beto = UserFactory(username="ana", chips=1000), UserFactory(username="beto", chips=1000)
    play(ana, beto, variant="pocha", stake=10)
    play(beto, ana, variant="tute", stake=10, finished_at=timezone.now() - timedelta(days=40))
    assert names(client.get("/rankings/", {"variant": "pocha"}).content.decode()) == [
        "ana",
        "beto",
    ]
    assert names(client.get("/rankings/", {"variant": "tute"}).content.decode()) == [
        "beto",
        "ana",
    ]
    # The old tute game is not this month's: ana's pocha win leads it.
    month = client.get("/rankings/", {"board": "month", "variant": "tute"}).content.decode()
    assert names(month) == []
    assert names(client.get("/rankings/", {"board": "week"}).content.decode()) == ["ana", "beto"]
    won = client.get("/rankings/", {"board": "chips", "variant": "pocha"}).content.decode()
    assert names(won) == ["ana", "beto"] and "<td>5</td>" in won and "<td>-10</td>" in won


def test_banned_players_and_excluded_games_leave_the_rankings(client):
    cheat, mark, fair = UserFactory(username="cheat"), UserFactory(username="mark"), UserFactory()
    play(cheat, fair, stake=0)
    play(cheat, mark, stake=0, ips={0: "203.0.113.5", 1: "203.0.113.5"})
    html = client.get("/rankings/").content.decode()
    assert "mark" not in names(html) and "cheat" in names(html)
    moderator = ModeratorFactory()
    user_ban(user=cheat, moderator=moderator, reason="Chip dumping")
    assert "cheat" not in client.get("/rankings/").content.decode()
    user_unban(user=cheat, moderator=moderator, reason="Appeal accepted")
    assert "cheat" in names(client.get("/rankings/").content.decode())


def test_pages_of_fifty_and_the_viewers_rank_one_click_away(client):
    players = [UserFactory(username=f"p{number:02}") for number in range(60)]
    loser = UserFactory(is_active=False)  # banned: on no board
    for number, player in enumerate(players):
        # p00 has the most XP: each deal to win beyond the first gives the winner 10 more.
        play(player, loser, stake=0, deals_to_win=1 + (60 - number))
    me = players[54]
    client.force_login(me)
    first = client.get("/rankings/").content.decode()
    assert len(names(first)) == 50 and names(first)[0] == "p00"
    assert "Your rank: #55" in first and 'class="me"' not in first
    link = re.search(r'href="(/rankings/\?board=xp&amp;page=2)#me" hx-get="([^"]+)"', first)
    assert link and link.group(2) == "/rankings/?board=xp&amp;page=2"
    second = client.get("/rankings/", {"board": "xp", "page": 2}).content.decode()
    assert names(second) == [f"p{number}" for number in range(50, 60)]
    assert '<tr id="me" class="me"><td>55</td>' in second
    past_the_end = client.get("/rankings/", {"page": 99}).content.decode()
    assert names(past_the_end) == names(second)  # the last page


def test_htmx_gets_the_board_alone_and_every_board_has_its_address(client):
    ana = UserFactory(username="ana")
    play(ana, UserFactory(username="beto"), stake=0)
    full = client.get("/rankings/").content.decode()
    for board in ("xp", "week", "month", "chips"):
        assert f'href="/rankings/?board={board}" hx-get="/rankings/?board={board}"' in full
    for variant in ("tute", "habanero", "pocha"):
        assert f'hx-get="/rankings/?board=xp&amp;variant={variant}"' in full
    fragment = client.get("/rankings/", {"board": "week"}, HTTP_HX_REQUEST="true")
    html = fragment.content.decode()
    assert html.lstrip().startswith('<section id="board"') and "<html" not in html
    assert names(html) == ["ana", "beto"]


@pytest.mark.parametrize(
    "board,variant", [("xp", ""), ("week", "tute"), ("month", ""), ("chips", ""), ("chips", "tute")]
)
def test_a_page_runs_eight_queries_whatever_the_number_of_players(
    client, board, variant, django_assert_num_queries
):
    viewer = UserFactory(username="viewer", chips=1000)
    play(viewer, UserFactory(chips=1000), stake=10)
    client.force_login(viewer)
    # Session, viewer, the header's friend requests; the board's count, its rows, their
    # players, the viewer's line and rank.
    with django_assert_num_queries(8):
        html = client.get("/rankings/", {"board": board, "variant": variant}).content.decode()
    assert len(names(html)) == 2
    for _game in range(25):
        play(UserFactory(chips=100), UserFactory(chips=100), stake=10)
    with django_assert_num_queries(8):
        html = client.get("/rankings/", {"board": board, "variant": variant}).content.decode()
    assert len(names(html)) == 50 and "Your rank: #" in html


def test_the_rating_boards_show_rated_players_by_kind_of_table_and_their_gain(client):
    ana, beto, carla = (UserFactory(username=name, chips=1000) for name in ("ana", "beto", "carla"))
    for _game in range(10):
        play(ana, beto, stake=0)
    play(carla, beto, stake=0)  # carla is provisional: on no rating board
    html = client.get("/rankings/", {"board": "rating", "variant": "tute2"}).content.decode()
    assert names(html) == ["ana", "beto"]
    assert 'data-board="rating" data-variant="tute2"' in html
    for kind in ("tute2", "tute3", "tute4", "tute4pairs", "habanero", "pocha"):
        assert f'hx-get="/rankings/?board=rating&amp;variant={kind}"' in html
    gain = client.get("/rankings/", {"board": "gain", "variant": "tute2"}).content.decode()
    assert names(gain) == ["ana", "beto"]
    assert re.search(r"<td>\+\d+</td><td>\d+</td>", gain)
    empty = client.get("/rankings/", {"board": "rating", "variant": "pocha"}).content.decode()
    assert names(empty) == [] and "no longer provisional" in empty
    # From a rating board, the XP tab goes back to every variant.
    assert 'href="/rankings/?board=xp" hx-get="/rankings/?board=xp"' in html


@pytest.mark.parametrize("board", ["rating", "gain"])
def test_a_rating_board_runs_eight_queries_whatever_the_number_of_players(
    client, board, django_assert_num_queries
):
    viewer, other = UserFactory(username="viewer", chips=1000), UserFactory(chips=1000)
    for _game in range(10):
        play(viewer, other, stake=0)
    client.force_login(viewer)
    with django_assert_num_queries(8):
        html = client.get("/rankings/", {"board": board, "variant": "tute2"}).content.decode()
    assert len(names(html)) == 2 and "Your rank: #" in html
