"""The most crowded turn of habanero on a phone and a desktop, in Debian's Chromium against a
real daphne: a full hand of eight while the player may give a card for the trump card and
sing in two suits. Every card, the trick, the trump, the turn line and the three buttons stay
on one screen with no scrolling.

A whole game against a robot meets such a turn only on some deals, so this one is dealt on
purpose: a seeded game the engine plays, its frames built by the server's own functions
(games/table/frames.py, games/table/explain.py) and handed to the page through a relay on
its table socket."""

import random

import pytest

from accounts.models import User
from games.engine import new_game
from tests.support.browser import (
    ARTIFACTS,
    ENABLED_ACTIONS,
    VIEWPORTS,
    in_db,
    practice,
    relayed_table,
    seat_game_part,
)
from tests.support.felt import TURN
from tests.support.waits import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Seeds are searched from here: the first one dealing such a turn to seat 0 (found once, so
# that the test does not play 1,700 games to reach it).
FIRST_SEED = 1739
GIVE = {"en": "Give your ", "es": "Dar tu ", "fr": "Donner votre "}
SING = {"en": "Sing ", "es": "Cantar ", "fr": "Chanter "}


def a_crowded_turn() -> dict:
    """Seat 0's `game` at its first turn with eight cards, the trump exchange and two
    cantes offered, as the server builds it."""
    for seed in range(FIRST_SEED, FIRST_SEED + 2000):
        state = new_game({"variant": "habanero", "points_to_win": 2}, random.Random(seed), 0)
        rng = random.Random(seed)
        while not state.over and state.deal_index < 1:
            if state.needs_deal:
                state.deal_next(rng)
                continue
            legal = state.legal_actions()
            kinds = [a.kind for a in legal.get(0, []) if a.kind != "play"]
            if "exchange" in kinds and kinds.count("sing") >= 2 and len(state.view(0).hand) == 8:
                return seat_game_part(state, 0)
            state.apply(rng.choice(legal[sorted(legal)[0]]))
    pytest.fail("no turn with the exchange and two cantes in 2,000 seeded games")


# The buttons' words are longest in Spanish and French.
@pytest.mark.parametrize(
    ("size", "language"),
    [("phone", "en"), ("phone", "es"), ("phone", "fr"), ("desktop", "en"), ("desktop", "fr")],
)
def test_eight_cards_the_exchange_and_two_cantes_fit_one_screen(
    browser, quick_daphne, size, language
):
    crowded = a_crowded_turn()
    table = practice("dolores", variant="habanero", players=2, move_time=300)
    in_db(lambda: User.objects.filter(username="dolores").update(language=language))
    context, page, relay = relayed_table(browser, quick_daphne, "dolores", table, VIEWPORTS[size])
    relay.send_game(crowded)
    page.locator(f"{ENABLED_ACTIONS}.action-exchange").wait_for()
    buttons = page.locator(ENABLED_ACTIONS).all_inner_texts()
    assert len(buttons) == 3, buttons
    assert buttons[0].startswith(GIVE[language]), buttons
    assert all(text.startswith(SING[language]) for text in buttons[1:]), buttons
    turn = until(page, TURN)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"crowded-turn-{size}-{language}.png"))
    assert turn["step"] == "action", turn
    assert turn["off"] == [], turn
    assert page.locator("#hand button").count() == 8
    context.close()
