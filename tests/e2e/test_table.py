"""Two players in two Chromium windows open and join a 2-player tute table and play a whole
deal by clicking their cards (and the keyboard once), against a real daphne."""

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bench.processes import ROOT
from games.models import Game, Table
from tests.accounts.factories import UserFactory
from tests.e2e.test_accounts import in_db, log_in
from tests.e2e.waits import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(ROOT) / "test-artifacts"
ENABLED_CARDS = "#hand button.playable:not([disabled])"
ENABLED_ACTIONS = "#actions button:not([disabled])"


def drawn_count(page) -> int:
    return int(page.locator("#table-app").get_attribute("data-count") or -1)


def drawn_version(page) -> int:
    return int(page.locator("#table-app").get_attribute("data-version") or -1)


def take_step(page, step: str) -> str | None:
    """Take a player's next step on the table page: the first action offered ("action"), the
    first card they may play ("card") or the next deal ("deal"), and wait until the page drew
    what followed or an error. The action's label, when the step was one. (The table's
    version, not the action count: a deal is a new version but no action, and after it the
    player may be the one to lead.)"""
    before = drawn_version(page)
    label = None
    if step == "action":
        button = page.locator(ENABLED_ACTIONS).first
        label = button.inner_text()
        button.click()
    elif step == "card":
        page.locator(ENABLED_CARDS).first.click()
    else:
        deal_unless_dealt(page, before)
    until(
        page,
        """(before) => Number(document.getElementById('table-app').dataset.version) > before
            || !!document.querySelector('#error:not([hidden])')""",
        arg=before,
    )
    return label


# What the next-deal step finds: the deal made already, or its button there to press.
DEAL_OR_DEALT = """(before) => {
  if (Number(document.getElementById('table-app').dataset.version) > before) return 'dealt';
  const next = document.getElementById('next-deal');
  return next && !next.hidden && !next.closest('[hidden]') && !next.disabled ? 'press' : null;
}"""


def deal_unless_dealt(page, before: int, tries: int = 10) -> None:
    """Press "next deal", unless another player (a protocol client deals at once) or the
    deal's timer dealt first: then its button went, and there is nothing left to press."""
    for _ in range(tries):
        if until(page, DEAL_OR_DEALT, arg=before) == "dealt":
            return
        try:
            page.locator("#next-deal").click(timeout=3_000)
            return
        except PlaywrightTimeoutError:
            continue  # it went meanwhile: look again
    raise AssertionError("the next deal's button never took a click")


def wait_for_count_above(page, count: int) -> None:
    until(
        page,
        "(count) => Number(document.getElementById('table-app').dataset.count) > count",
        arg=count,
    )


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0


def check_only_legal_cards_are_offered(page) -> None:
    """On a player's turn the cards they may not play are dimmed and marked disabled (they
    only say why when tapped)."""
    disabled = page.locator("#hand button[aria-disabled=true]")
    dimmed = page.locator("#hand button.illegal")
    assert disabled.count() == dimmed.count()
    for i in range(dimmed.count()):
        opacity = dimmed.nth(i).evaluate("b => Number(getComputedStyle(b).opacity)")
        assert opacity < 0.5


def take_one_turn(page, rng: random.Random, clicked: list[str]) -> bool:
    """Click one of this player's announcement buttons (a cante, the exchange) when there
    is one, else one of the cards they may play. False when they have nothing to do."""
    actions = page.locator(ENABLED_ACTIONS)
    cards = page.locator(ENABLED_CARDS)
    if not actions.count() and not cards.count():
        return False
    before = drawn_count(page)
    if actions.count():
        button = actions.nth(rng.randrange(actions.count()))
        clicked.append(button.inner_text())
        button.click()
    else:
        check_only_legal_cards_are_offered(page)
        cards.nth(rng.randrange(cards.count())).click()
    wait_for_count_above(page, before)
    return True


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


def alicia_and_bruno(browser, base: str, **bruno_options):
    """Alicia logged in a desktop-wide window, bruno in a phone-wide one."""
    alicia_context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    bruno_context = browser.new_context(
        locale="en-US", viewport={"width": 375, "height": 800}, **bruno_options
    )
    alicia, bruno = alicia_context.new_page(), bruno_context.new_page()
    for page, name in ((alicia, "alicia"), (bruno, "bruno")):
        page.set_default_timeout(15_000)
        log_in(page, base, name)
    return alicia, bruno


def open_tute_for_two(page, base: str) -> int:
    """Open a 2-player tute table from the lobby; its id."""
    page.goto(base + "/tables/")
    page.locator("#id_variant").select_option("tute")
    page.locator("#id_players").select_option("2")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


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
