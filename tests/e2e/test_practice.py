"""A player starts a practice game against three robots in 4-player pairs tute from the
lobby, and plays it to the end in Debian's Chromium, against a real daphne run as `make run`
runs it without Redis (the timer sweep and the robots inside the server process)."""

import pytest

from games.models import Game, GameSeat
from tests.accounts.factories import UserFactory
from tests.e2e.test_accounts import in_db, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_plays_a_practice_game_against_three_robots_to_the_end(
    page, embedded_daphne_server
):
    base = embedded_daphne_server
    player = in_db(lambda: UserFactory(username="solita"))
    log_in(page, base, "solita")
    page.goto(base + "/tables/")
    # The form's defaults: 4-player tute in pairs.
    page.get_by_role("button", name="Practice against robots").click()
    page.wait_for_url(base + "/tables/*/")
    seats = page.locator("#live-seats li")
    seats.first.wait_for()
    assert seats.all_inner_texts()[0].startswith("solita")
    assert [text.split(" ·")[0] for text in seats.all_inner_texts()[1:]] == [
        "Robot (heuristic)"
    ] * 3
    moves = 0
    while True:
        page.wait_for_selector("#live-actions button, #live-over:not([hidden])", timeout=20_000)
        if page.locator("#live-over").is_visible():
            break
        count = page.locator("#live").get_attribute("data-count")
        page.locator("#live-actions button").first.click()
        page.wait_for_function(
            f"document.getElementById('live').dataset.count !== '{count}'", timeout=20_000
        )
        moves += 1
    assert page.locator("#live-over").inner_text() == "Game over."
    game = in_db(lambda: Game.objects.filter(seats__user=player).get())
    assert game.status == Game.Status.FINISHED
    # Ten cards each: the player played at least a card a trick, the robots the rest.
    assert moves >= 10
    robots = in_db(
        lambda: list(GameSeat.objects.filter(game=game, user=None).values_list("seat", flat=True))
    )
    assert sorted(robots) == [1, 2, 3]
