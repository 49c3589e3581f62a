"""A player starts a practice game against three robots in 4-player pairs tute from the
lobby, and plays it to the end on the table page in Debian's Chromium, against a real daphne
run as `make run` runs it without Redis (the timer sweep and the robots inside the server
process)."""

import pytest

from games.models import Game, GameSeat
from tests.support.browser import ARTIFACTS, NEXT_STEP, in_db, log_in, no_sideways_scroll, take_step
from tests.support.factories import UserFactory
from tests.support.waits import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_plays_a_practice_game_against_three_robots_to_the_end(page, quick_daphne):
    base = quick_daphne
    player = in_db(lambda: UserFactory(username="solita"))
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, base, "solita")
    page.goto(base + "/tables/")
    # The practice form's defaults: 4-player tute in pairs, medium robots.
    page.get_by_role("button", name="Play against robots").click()
    page.wait_for_url(base + "/tables/*/")
    page.locator("#hand button").first.wait_for()
    seats = page.locator("#seats li")
    texts = seats.all_inner_texts()
    assert texts[0].startswith("★ solita (you)")
    # Each robot has its seat's own name and its level in the reader's words.
    assert [text.strip() for text in texts[1:]] == [
        "Robot Paco · medium",
        "Robot Rosa · medium",
        "Robot Tomás · medium",
    ]
    assert page.locator("#seats li.robot").count() == 3
    # The felt shows the three robots too, the partner opposite (seat 2, at the top).
    assert page.locator("#felt .seat-box.robot").count() == 3
    top = page.locator("#felt .seat-box.pos-top").inner_text()
    assert top.startswith("Robot Rosa\nmedium\nyour partner"), top
    # Seated in a running game: the player may propose to cancel or leave, nothing else.
    assert page.get_by_role("button", name="Propose to cancel").is_visible()
    assert page.get_by_role("button", name="Leave the game").is_visible()
    assert not page.get_by_role("button", name="Take my seat back").is_visible()

    ARTIFACTS.mkdir(exist_ok=True)
    moves = 0
    clicked: list[str] = []
    while True:
        step = until(page, NEXT_STEP)
        if step == "over":
            break
        if moves == 2:
            # The table with robots seated, at both widths, for people to look at.
            page.screenshot(path=str(ARTIFACTS / "practice-1280.png"), full_page=True)
            page.set_viewport_size({"width": 375, "height": 800})
            page.screenshot(path=str(ARTIFACTS / "practice-375.png"), full_page=True)
            assert no_sideways_scroll(page)
            page.set_viewport_size({"width": 1280, "height": 900})
        # A cante or a tute when offered: the robots' game goes on around it.
        label = take_step(page, step)
        if label is not None:
            clicked.append(label)
        moves += 1

    summary = page.locator("#summary")
    assert summary.locator("h2").inner_text() == "Game over"
    assert summary.locator(".winner-line").inner_text().startswith("Winners: ")
    assert page.get_by_role("link", name="See the replay").is_visible()
    # The game is over: nothing left to cancel or leave.
    assert not page.get_by_role("button", name="Propose to cancel").is_visible()
    assert not page.get_by_role("button", name="Leave the game").is_visible()
    page.screenshot(path=str(ARTIFACTS / "practice-over-1280.png"), full_page=True)
    game = in_db(lambda: Game.objects.filter(seats__user=player).get())
    assert game.status == Game.Status.FINISHED
    # The player played a card at every trick of theirs, the robots the rest. Not always
    # ten: a robot's tute (four reyes or four caballos) wins the game at once (RULES.md §7).
    own_plays = sum(
        1
        for deal in game.record["deals"]
        for a in deal["actions"]
        if a["seat"] == 0 and "play" in a
    )
    assert moves >= own_plays >= 1
    robots = in_db(
        lambda: list(GameSeat.objects.filter(game=game, user=None).values_list("seat", flat=True))
    )
    assert sorted(robots) == [1, 2, 3]
