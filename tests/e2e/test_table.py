"""Two players in two Chromium windows open and join a 2-player tute table and play a whole
deal by clicking their cards (and the keyboard once), against a real daphne."""

import random
import re

import pytest

from games.models import Game, Table
from tests.support.browser import (
    ARTIFACTS,
    ENABLED_ACTIONS,
    ENABLED_CARDS,
    alicia_and_bruno,
    drawn_count,
    in_db,
    no_sideways_scroll,
    open_tute_for_two,
    take_one_turn,
    wait_for_count_above,
)
from tests.support.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play_by_keyboard(page) -> None:
    """A whole turn by keyboard: focus the hand, move with an arrow key, play with Enter."""
    before = drawn_count(page)
    page.locator(ENABLED_CARDS).first.focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused == page.locator(ENABLED_CARDS).nth(1).get_attribute("data-card")
    page.screenshot(path=str(ARTIFACTS / f"table-keyboard-{page.viewport_size['width']}.png"))
    page.keyboard.press("Enter")
    wait_for_count_above(page, before)
    assert f'data-card="{focused}"' not in page.locator("#hand").inner_html()


def change_options_while_bruno_watches(alicia, bruno) -> None:
    """The master's change reaches a watcher at once; a refusal shows next to its field."""
    alicia.locator("#options-details summary").click()
    alicia.locator("#opt_move_time").fill("45")
    alicia.get_by_role("button", name="Save the options").click()
    bruno.locator("#table-options").get_by_text("45 s per move").wait_for()
    alicia.locator("#opt_competitive").uncheck()
    alicia.locator("#opt_stake").fill("10")
    alicia.get_by_role("button", name="Save the options").click()
    stake_errors = alicia.locator('#options-form [data-errors-for="stake"]')
    stake_errors.get_by_text("Only a competitive table plays for a stake.").wait_for()
    alicia.locator("#opt_stake").fill("0")
    alicia.locator("#opt_competitive").check()


def chat(bruno, alicia) -> None:
    """A chat line reaches the other player as typed, never as HTML."""
    bruno.locator("#chat-text").fill("<b>¡Suerte!</b> & <i>olé</i>")
    bruno.get_by_role("button", name="Send").click()
    line = alicia.locator("#chat-log li").last
    line.get_by_text("<b>¡Suerte!</b> & <i>olé</i>").wait_for()
    assert line.locator("b, i").count() == 0


def test_two_players_open_join_and_play_a_whole_deal(browser, daphne_server):
    in_db(lambda: [UserFactory(username="alicia", chips=1000), UserFactory(username="bruno")])
    alicia, bruno = alicia_and_bruno(browser, daphne_server, has_touch=True)
    alicia_context, bruno_context = alicia.context, bruno.context

    # Bruno waits in the lobby; the table alicia opens appears there without a reload.
    bruno.goto(daphne_server + "/tables/")
    bruno.get_by_text("No table matches").wait_for()
    table_id = open_tute_for_two(alicia, daphne_server)
    tile = bruno.locator(f'li[data-table-id="{table_id}"]')
    tile.wait_for()
    assert "1 free seat" in tile.inner_text() and "alicia" in tile.inner_text()

    tile.get_by_role("link", name="Join").click()
    bruno.wait_for_url(f"**/tables/{table_id}/")
    change_options_while_bruno_watches(alicia, bruno)
    bruno.get_by_role("button", name="Sit here").click()
    # Alicia sees bruno sit down at once, and may start: every seat is taken.
    alicia.locator("#seats").get_by_text("bruno").wait_for()
    assert alicia.locator("#seats li").first.inner_text().startswith("★ alicia")
    alicia.get_by_role("button", name="Start the game").click()
    for page in (alicia, bruno):
        page.locator("#hand button").nth(7).wait_for()
        assert page.locator("#hand button").count() == 8
        assert page.locator("#trump .trump-card svg").count() == 1
    assert "Stock: 24" in bruno.locator("#trump").inner_text()
    # Each card has its name for screen readers.
    label = bruno.locator("#hand button").first.get_attribute("aria-label")
    assert re.fullmatch(r"(Ace|Two|Three|Four|Five|Six|Seven|Jack|Knight|King) of \w+", label)

    ARTIFACTS.mkdir(exist_ok=True)
    rng = random.Random(11)
    clicked: list[str] = []
    played_by_keyboard = False
    for turn in range(200):
        if turn == 3:
            # The phone-width table in the middle of a deal, for people to look at.
            bruno.screenshot(path=str(ARTIFACTS / "table-375.png"), full_page=True)
            assert no_sideways_scroll(bruno)
            # A reload shows exactly the same position.
            hand = bruno.locator("#hand").get_attribute("data-cards")
            count = drawn_count(bruno)
            bruno.reload()
            bruno.wait_for_function("document.getElementById('table-app').dataset.count")
            assert bruno.locator("#hand").get_attribute("data-cards") == hand
            assert drawn_count(bruno) == count
            chat(bruno, alicia)
        if alicia.locator("#summary").is_visible() and bruno.locator("#summary").is_visible():
            break
        for page in (alicia, bruno):
            if (
                not played_by_keyboard
                and page.locator(ENABLED_CARDS).count() > 1
                and not page.locator(ENABLED_ACTIONS).count()
            ):
                play_by_keyboard(page)
                played_by_keyboard = True
                continue
            take_one_turn(page, rng, clicked)
    else:
        pytest.fail("the deal did not end within 200 turns")
    assert played_by_keyboard

    for page in (alicia, bruno):
        summary = page.locator("#summary")
        heading = summary.locator("h2").inner_text()
        assert heading in ("Game over", "Deal 1 is over")
        rows = summary.locator("tr")
        assert rows.count() == 3  # a heading row and one per player
        points = [int(rows.nth(i).locator("td").first.inner_text()) for i in (1, 2)]
        cantes = sum(
            int(value)
            for i in (1, 2)
            for value in re.findall(r"\b(20|40)\b", rows.nth(i).locator("td").nth(1).inner_text())
        )
        # Every card point (120) and the 10 of the last trick went to someone, plus cantes.
        assert sum(points) == 130 + cantes or summary.get_by_text("tute").count()
        if any(label.startswith("Sing") for label in clicked):
            assert cantes > 0  # a cante sung by a click counts in the summary
        assert page.locator("#hand button").count() == 0
    assert any(w in bruno.locator("#summary").inner_text() for w in ("won.", "Nobody won"))
    assert no_sideways_scroll(bruno)
    bruno.screenshot(path=str(ARTIFACTS / "table-375-deal-over.png"), full_page=True)
    alicia.screenshot(path=str(ARTIFACTS / "table-1280-deal-over.png"), full_page=True)

    game = in_db(lambda: Table.objects.get(pk=table_id).game)
    if game.status == Game.Status.FINISHED:
        # One way to play again, for either player: the rematch, which asks the other. The
        # replay is now public.
        for page in (alicia, bruno):
            assert page.get_by_role("button", name="Offer a rematch").is_visible()
            assert not page.get_by_role("button", name="New game with the same players").count()
        bruno.get_by_role("link", name="See the replay").click()
        bruno.locator("#replay-step").wait_for()
        assert bruno.locator("#replay-counter").inner_text().startswith("Step 1 of ")
        bruno.keyboard.press("ArrowRight")
        assert bruno.locator("#replay-counter").inner_text().startswith("Step 2 of ")
        assert "plays" in bruno.locator("#replay-step").inner_text()
    else:
        # A drawn deal: either player deals the next one.
        bruno.get_by_role("button", name="Next deal").click()
        alicia.locator("#hand button").nth(7).wait_for()
    alicia_context.close()
    bruno_context.close()
