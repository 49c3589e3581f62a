"""Two players at a 2-player table in two Chromium windows, against a real daphne: both see
the move countdown, who is away, a proposal to cancel reaches the other player who refuses
it, then accepts it, and leaving the next game asks for a confirmation and shows the others
who abandoned (docs/protocol.md, "Robots, timers, absences and cancelling")."""

import re

import pytest

from games.models import Game, Table
from tests.support.browser import ARTIFACTS, alicia_and_bruno, in_db, open_tute_for_two
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seconds_in(text: str) -> int:
    return int(re.search(r"(\d+) s", text).group(1))


def on_turn(alicia, bruno):
    """The player whose turn it is, and the other one."""
    alicia.locator("#hand button").nth(7).wait_for()
    bruno.locator("#hand button").nth(7).wait_for()
    if alicia.locator("#hand button:not([disabled])").count():
        return alicia, bruno
    return bruno, alicia


def test_countdown_cancel_proposal_and_leaving_reach_the_other_player(browser, daphne_server):
    in_db(lambda: [UserFactory(username="alicia"), UserFactory(username="bruno")])
    alicia, bruno = alicia_and_bruno(browser, daphne_server)
    table_id = open_tute_for_two(alicia, daphne_server)
    bruno.goto(alicia.url)
    bruno.get_by_role("button", name="Sit here").click()
    alicia.locator("#seats").get_by_text("bruno").wait_for()
    alicia.get_by_role("button", name="Start the game").click()

    # The countdown: the player on turn has their own clock, the other sees it on that seat.
    mover, other = on_turn(alicia, bruno)
    clock = mover.locator("#clock")
    clock.get_by_text("s left to play.").wait_for()
    seat_clock = other.locator("#felt .seat-box.turn .countdown")
    seat_clock.wait_for()
    first = seconds_in(seat_clock.inner_text())
    assert 20 <= first <= 30  # the table's 30 s per move
    other.wait_for_function(
        f"parseInt(document.querySelector('#felt .seat-box.turn .countdown').textContent) < {first}"
    )
    mover.wait_for_function("parseInt(document.getElementById('clock').textContent) < 30")
    assert not other.locator("#clock").is_visible()

    # Bruno's window closes: alicia sees him away (a robot plays his seat) until he is back.
    url = bruno.url
    bruno_context = bruno.context
    bruno.close()
    alicia.locator("#felt .flag-away").get_by_text("away").wait_for()
    alicia.locator("#notice").get_by_text("bruno is away: a robot plays their seat.").wait_for()
    bruno = bruno_context.new_page()
    bruno.set_default_timeout(15_000)
    bruno.goto(url)
    alicia.locator("#felt .flag-away").wait_for(state="detached")
    bruno.locator("#hand button").first.wait_for()

    # Bruno proposes to cancel; alicia sees the proposal with Accept and Refuse, and refuses.
    bruno.get_by_role("button", name="Propose to cancel").click()
    box = alicia.locator("#cancel-box")
    box.get_by_text("bruno proposes to cancel the game.").wait_for()
    assert "Waiting for: alicia." in box.inner_text()
    assert re.search(r"\d+ s left", box.inner_text())
    bruno.locator("#cancel-box").get_by_text("You propose to cancel the game.").wait_for()
    assert not bruno.get_by_role("button", name="Accept").is_visible()
    assert not bruno.get_by_role("button", name="Propose to cancel").is_visible()
    alicia.get_by_role("button", name="Refuse").click()
    bruno.locator("#notice").get_by_text("alicia refuses to cancel: the game goes on.").wait_for()
    bruno.locator("#cancel-box").wait_for(state="hidden")
    assert in_db(lambda: Table.objects.get(pk=table_id).game.status) == Game.Status.PLAYING

    # Again, and this time alicia accepts: the game is cancelled for both.
    alicia.get_by_role("button", name="Propose to cancel").click()
    bruno.locator("#cancel-box").get_by_text("alicia proposes to cancel the game.").wait_for()
    bruno.screenshot(path=str(ARTIFACTS / "table-cancel-375.png"), full_page=True)
    bruno.get_by_role("button", name="Accept").click()
    for page in (alicia, bruno):
        page.locator("#summary h2").get_by_text("Game cancelled").wait_for()
        assert page.locator("#status").inner_text() == "The game was cancelled."
        assert not page.locator("#hand").is_visible()
        assert not page.get_by_role("button", name="Leave the game").is_visible()
    assert in_db(lambda: Table.objects.get(pk=table_id).game.status) == Game.Status.CANCELLED

    # A new game (the rematch alicia offers and bruno accepts); bruno leaves it: a dialog
    # says it counts as abandoning, "Stay" stays.
    alicia.get_by_role("button", name="Offer a rematch").click()
    bruno.get_by_role("button", name="Accept the rematch").click()
    bruno.locator("#hand button").nth(7).wait_for()
    bruno.get_by_role("button", name="Leave the game").click()
    dialog = bruno.locator("#leave-dialog")
    dialog.get_by_text("counts as abandoning").wait_for()
    bruno.screenshot(path=str(ARTIFACTS / "table-leave-375.png"))
    dialog.get_by_role("button", name="Stay").click()
    assert not dialog.is_visible()
    assert bruno.locator("#hand button").count() == 8
    bruno.get_by_role("button", name="Leave the game").click()
    dialog.get_by_role("button", name="Leave and abandon").click()
    alicia.locator("#notice").get_by_text("bruno left the game: a robot finishes it.").wait_for()
    alicia.locator("#felt .flag-abandoned").get_by_text("abandoned").wait_for()
    bruno.get_by_role("button", name="Leave the game").wait_for(state="hidden")
    game = in_db(lambda: Table.objects.get(pk=table_id).game)
    assert in_db(lambda: game.seats.get(user__username="bruno").abandoned)
    alicia.context.close()
    bruno.context.close()
