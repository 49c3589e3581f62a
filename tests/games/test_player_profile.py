"""A player's public profile: standing, games per variant, last games, XP chart."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from rankings.models import XpEvent
from rankings.services import game_result_award, xp_award
from tests.support.awards import finish_game
from tests.support.factories import UserFactory
from tests.support.game_factories import GameFactory, GameSeatFactory

pytestmark = pytest.mark.django_db


def seat(user, variant, outcome, status=Game.Status.FINISHED, **game):
    return GameSeatFactory(
        user=user, outcome=outcome, game=GameFactory(variant=variant, status=status, **game)
    )


def awarded(result):
    return game_result_award(game_id=result.game_id)


def test_profile_shows_grade_badge_xp_and_chips(client):
    player = UserFactory(username="Marta", chips=1000)
    xp_award(user=player, amount=520, reason=XpEvent.Reason.WON, key="xp:1")
    html = client.get("/players/Marta/").content.decode()
    assert "<h1>Marta</h1>" in html
    assert '<svg class="grade-badge grade-player" role="img" aria-label="Player"' in html
    assert '<dd id="player-xp">520 XP</dd>' in html
    assert '<dd id="player-chips">1,000</dd>' in html
    assert "Expert in 1,480 XP" in html


def test_profile_counts_games_played_and_won_per_variant_from_the_awards(client):
    player, other = UserFactory(username="marta"), UserFactory()
    for variant, won in [("tute", True), ("tute", False), ("tute", True), ("habanero", False)]:
        awarded(finish_game([player, other], variant=variant, winner_side=0 if won else 1, stake=0))
    finish_game([player, other], variant="pocha", stake=0)  # not awarded yet: not counted
    awarded(finish_game([player, other], variant="pocha", stake=0, competitive=False))  # practice
    awarded(finish_game([other, UserFactory()], stake=0))  # someone else's
    html = client.get("/players/marta/").content.decode()
    rows = dict(
        re.findall(
            r'<tr data-variant="(\w+)"><td>\w+</td><td>(\d+</td><td>\d+</td><td>[^<]+)</td></tr>',
            html,
        )
    )
    assert rows == {
        "tute": "3</td><td>2</td><td>67%",
        "habanero": "1</td><td>0</td><td>0%",
        "pocha": "0</td><td>0</td><td>–",
    }


def test_profile_links_the_last_twenty_games_newest_first(client):
    player = UserFactory(username="marta")
    now = timezone.now()
    seats = [seat(player, "tute", "won") for _game in range(25)]
    for age, game_seat in enumerate(seats):
        Game.objects.filter(pk=game_seat.game_id).update(created_at=now - timedelta(hours=age))
    html = client.get("/players/marta/").content.decode()
    linked = [int(pk) for pk in re.findall(r'<a href="/games/(\d+)/">', html)]
    assert linked == [game_seat.game_id for game_seat in seats[:20]]


def test_profile_draws_the_xp_chart_itself_with_no_outside_script(client):
    player = UserFactory(username="marta")
    assert "No experience yet" in client.get("/players/marta/").content.decode()
    for number, amount in enumerate([20, 5, 40, 30]):
        xp_award(user=player, amount=amount, reason=XpEvent.Reason.WON, key=f"xp:{number}")
    html = client.get("/players/marta/").content.decode()
    chart = re.search(r'<svg class="xp-chart".*?</svg>', html, re.S).group(0)
    assert 'aria-label="Experience over time: 95 XP now."' in chart
    # A step line: a start at zero and one rise per award.
    path = re.search(r'class="xp-line" d="([^"]+)"', chart).group(1)
    assert path.startswith("M") and path.count("V") == 4
    # The axis tops out at 100: the Apprentice threshold is drawn, Player's 500 is not.
    assert ">Apprentice</text>" in chart and ">Player</text>" not in chart
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', html)
    assert scripts and all(src.startswith("/static/") for src in scripts)


def test_profile_url_ignores_case_and_unknown_players_are_404(client):
    UserFactory(username="Marta")
    response = client.get("/players/MARTA/")
    assert response.status_code == 301 and response["Location"] == "/players/Marta/"
    assert client.get("/players/nobody/").status_code == 404


def test_seats_of_robots_do_not_break_a_profile(client):
    player = UserFactory(username="marta")
    game_seat = seat(player, "tute", "won")
    GameSeatFactory(game=game_seat.game, seat=1, user=None, robot="basic", outcome="lost")
    assert client.get("/players/marta/").status_code == 200


@pytest.mark.parametrize(
    ("language", "played", "won", "outcome"),
    [("fr", "Jouées", "Gagnées", "Gagnée"), ("es", "Jugadas", "Ganadas", "Ganada")],
)
def test_the_games_won_column_and_one_games_outcome_agree_in_number(
    client, language, played, won, outcome
):
    """One English "Won", two translations: the column counts games, a row is one game."""
    player = UserFactory(username="marta")
    seat(player, "tute", "won")
    html = client.get("/players/marta/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<th>{played}</th><th>{won}</th>" in html
    assert re.search(rf"<td>{outcome}</td></tr>", html)


@pytest.mark.parametrize(
    ("language", "wording"),
    [
        ("en", "Apprentice in 100 XP"),
        ("fr", "Encore 100 XP avant Apprenti"),
        ("es", "A 100 XP de Aprendiz"),
    ],
)
def test_the_next_grade_reads_naturally(client, language, wording):
    UserFactory(username="nuevo")
    html = client.get("/players/nuevo/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert wording in re.sub(r"\s+", " ", html)


def test_profile_shows_each_rating_its_last_change_its_chart_and_the_trophies(client):
    player, other = UserFactory(username="rosa"), UserFactory()
    html = client.get("/players/rosa/").content.decode()
    assert "No rating yet" in html and "No trophies yet" in html
    first = finish_game([player, other], winner_side=0, stake=0)
    awarded(first)
    awarded(finish_game([player, other], variant="habanero", winner_side=1, stake=0))
    html = client.get("/players/rosa/").content.decode()
    rows = {
        kind: (value, change)
        for kind, value, change in re.findall(
            r'<tr data-kind="(\w+)"><td>[^<]+</td><td class="rating-value"[^>]*>(\d+\?)</td>\s*'
            r'<td class="rating-change [\w-]*">([+-]\d+)</td>',
            html,
        )
    }
    assert set(rows) == {"tute2", "habanero"}
    assert int(rows["tute2"][0].rstrip("?")) > 1000 and rows["tute2"][1].startswith("+")
    assert rows["habanero"][1].startswith("-")
    assert '<svg class="rating-chart"' in html
    assert html.count('class="rating-line"') == 2
    # Her first win at 2-player tute, with a link to that game's page (its replay).
    assert 'data-trophy="first_win_tute2"' in html
    assert f'<a href="/games/{first.game_id}/">' in html
    assert 'data-trophy="first_win_habanero"' not in html
