"""Ratings in a real browser, against a real daphne: the chance of winning before a
competitive game, each player's rating change and a new trophy in the end-of-game summary,
then the rating chart on the profile, at 1280 and at 375 pixels wide."""

import re

import pytest

from games.table import seating
from rankings.models import GameResult
from rankings.services import game_result_award, game_result_exclude
from tests.support.awards import finish_game
from tests.support.browser import (
    ARTIFACTS,
    alicia_and_bruno,
    finish_the_game,
    in_db,
    in_thread,
    no_sideways_scroll,
    open_tute_for_two,
)
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seed_players():
    alicia = UserFactory(username="alicia", chips=1000)
    bruno = UserFactory(username="bruno", chips=1000)
    carla = UserFactory(username="carla", chips=1000)
    # Alicia lost three games of 2-player tute to carla: she is the underdog against a new
    # bruno, and neither of them has won at this kind of table yet.
    for _game in range(3):
        result = finish_game([alicia, carla], winner_side=1, stake=0)
        game_result_award(game_id=result.game_id)
    return alicia, bruno


def exclude(game_id: int) -> None:
    moderator = ModeratorFactory(username="mod_ana")
    result = GameResult.objects.get(game_id=game_id)
    game_result_exclude(
        result=result, moderator=moderator, reason="Both accounts belong to one person"
    )


def test_chance_before_the_game_rating_change_and_trophy_after_it_and_the_chart(
    browser, proxied_daphne_server
):
    # Two players from two addresses: a table of one address shows no chances (it counts
    # for no ranking).
    daphne_server = proxied_daphne_server
    alicia_user, bruno_user = in_db(seed_players)
    alicia, bruno = alicia_and_bruno(browser, daphne_server, own_addresses=True)
    table_id = open_tute_for_two(alicia, daphne_server)
    # Played for 50 chips each: the summary and the game's page show the pot and the payout.
    in_thread(
        lambda: seating.table_set_options(
            table_id=table_id, user=alicia_user, options={"stake": 50}
        )
    )
    bruno.goto(alicia.url)
    bruno.get_by_role("button", name="Sit here").click()

    # Every seat taken, the game not started: each side's chance, the underdog below half.
    for page in (alicia, bruno):
        line = page.locator("#chances")
        line.wait_for()
        text = line.inner_text()
        alicia_chance = int(re.search(r"alicia (\d+)%", text).group(1))
        bruno_chance = int(re.search(r"bruno (\d+)%", text).group(1))
        assert text.startswith("Chance of winning:")
        assert alicia_chance < 50 < bruno_chance and alicia_chance + bruno_chance in (99, 100, 101)
    alicia.screenshot(path=str(ARTIFACTS / "ratings-chance-1280.png"), full_page=True)
    bruno.screenshot(path=str(ARTIFACTS / "ratings-chance-375.png"), full_page=True)
    alicia.get_by_role("button", name="Start the game").click()
    bruno.locator("#hand button").first.wait_for()
    assert not bruno.locator("#chances").is_visible()

    game = in_thread(lambda: finish_the_game(table_id, {0: alicia_user, 1: bruno_user}))
    winner = ["alicia", "bruno"][game.result["winner"]]
    loser = "bruno" if winner == "alicia" else "alicia"
    for page in (alicia, bruno):
        # The moves were made here, not in the browsers: a reload shows the game's end as a
        # reconnect does (the whole state on connect).
        page.reload()
        awards = page.locator("#summary-awards")
        awards.wait_for(timeout=20_000)
        text = awards.inner_text()
        assert re.search(rf"{winner}: rating \d+\? \(\+\d+\)", text), text
        assert re.search(rf"{loser}: rating \d+\? \(-\d+\)", text), text
        assert f"{winner} earns a trophy: First win: 2-player tute" in text
        assert f"{loser} earns a trophy" not in text
        # Chips and XP: the pot of both stakes, the bank's quarter, what each received.
        assert "Pot: 100 chips. The bank keeps 25 (25%); the winners share the rest." in text
        assert re.search(rf"{winner}: staked 50, received 75 chips, \+\d+ XP\.", text), text
        assert re.search(rf"{loser}: staked 50, received 0 chips, \+\d+ XP\.", text), text
        assert "counts for no leaderboard" not in text
        assert no_sideways_scroll(page)
    alicia.screenshot(path=str(ARTIFACTS / "ratings-summary-1280.png"), full_page=True)
    bruno.screenshot(path=str(ARTIFACTS / "ratings-summary-375.png"), full_page=True)

    # The profile: the rating with its "?" and last change, its chart, the trophy's game.
    for page, size in ((alicia, 1280), (bruno, 375)):
        page.goto(f"{daphne_server}/players/alicia/")
        chart = page.locator("svg.rating-chart")
        chart.wait_for()
        assert chart.locator("path.rating-line").count() == 1
        assert chart.bounding_box()["width"] <= size
        row = page.locator('#ratings tr[data-kind="tute2"]')
        assert re.fullmatch(r"\d+\?", row.locator(".rating-value").inner_text())
        assert no_sideways_scroll(page)
        page.screenshot(path=str(ARTIFACTS / f"ratings-profile-{size}.png"), full_page=True)
    if winner == "alicia":
        link = alicia.locator('#trophies li[data-trophy="first_win_tute2"] a')
        assert link.get_attribute("href") == f"/games/{game.pk}/"

    # A moderator takes the game off the leaderboards: its page and its table's summary say
    # so, and why, in a player's words; the chips and XP stay paid.
    in_thread(lambda: exclude(game.pk))
    bruno.goto(f"{daphne_server}/games/{game.pk}/")
    excluded = bruno.locator("#game-excluded")
    assert excluded.inner_text() == (
        "This game counts for no leaderboard: a moderator excluded it. Chips and XP were paid "
        "all the same. The moderator's reason: Both accounts belong to one person"
    )
    assert "Pot: 100 chips. The bank kept 25 (25%)" in bruno.locator("#game-pot").inner_text()
    row = bruno.locator("table.game-seats tr", has_text=winner)
    assert "staked 50, received 75" in row.inner_text()
    assert no_sideways_scroll(bruno)
    bruno.screenshot(path=str(ARTIFACTS / "game-page-excluded-375.png"), full_page=True)
    alicia.goto(f"{daphne_server}/tables/{table_id}/")
    alicia.locator("#summary-awards li.excluded").get_by_text("a moderator excluded it").wait_for()
    alicia.context.close()
    bruno.context.close()
