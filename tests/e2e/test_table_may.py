"""The table page shows a request's button exactly when the frame says the server would
accept it (`may`, docs/protocol.md), in Debian's Chromium at a phone's 375×812 and a
desktop's 1280×800: before a game, while it runs, between deals, once it is over and while a
rematch is offered, for the master, a player and a spectator."""

import json
import time

import pytest

from games.models import Game, Table
from games.table import seating
from games.table.record import game_state
from tests.support.browser import VIEWPORTS, browser_page, in_db, in_thread, log_in, shot
from tests.support.factories import UserFactory
from tests.support.play import finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Each request's button (or form) on the page.
BUTTONS = """() => {
  const shown = (sel) => {
    const e = document.querySelector(sel);
    return !!e && !e.closest('[hidden]') && e.getClientRects().length > 0;
  };
  return {
    start: shown('#start-form'), sit: shown('#seats form[data-ws=sit]'),
    stand: shown('#stand-form'), options: shown('#options-details'),
    invite: shown('#invite-form'), next_deal: shown('#next-deal'), hint: shown('#hint-box'),
    rematch: shown('#new-game'), rematch_answer: shown('#rematch-accept'),
    cancel: shown('#propose-cancel'), cancel_answer: shown('#cancel-answer'),
    robots: shown('#fill-robots-box'), leave: shown('#leave-game'), resume: shown('#resume'),
    chat: shown('#chat-form'),
  };
}"""


class Frames:
    """The `may` of the frames a page's table socket received, as the page merges them."""

    def __init__(self, page) -> None:
        self.may: dict = {}
        self.version = -1
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        frame = json.loads(payload)
        self.version = max(self.version, frame.get("version", -1))
        if "may" not in frame:
            return
        self.may = frame["may"] if frame["type"] == "state" else {**self.may, **frame["may"]}


def buttons_follow_may(page, frames: Frames, who: str, moment: str, version: int) -> None:
    """Once the page has the table's `version` and has drawn it, each button is shown exactly
    when allowed."""
    deadline = time.monotonic() + 20
    while True:
        shown = page.evaluate(BUTTONS)
        if frames.version >= version and frames.may and shown == frames.may:
            return
        if time.monotonic() > deadline:
            differ = {
                k: (shown.get(k), frames.may.get(k))
                for k in frames.may
                if shown.get(k) != frames.may.get(k)
            }
            raise AssertionError(f"{who}, {moment}: (shown, may) differ: {differ}")
        time.sleep(0.2)


def played_until(table_id: int, done) -> None:
    """Each seat's first legal action until `done(state)`."""
    from games.bots import seat_to_act
    from games.models import GameSeat
    from games.table.play import game_act

    for _ in range(500):
        game = Table.objects.get(pk=table_id).game
        state = game_state(game=game)
        if done(state):
            return
        seat = seat_to_act(state)
        user = GameSeat.objects.get(game=game, seat=seat).user
        action = state.legal_actions_for(seat)[0]
        game_act(table_id=table_id, user=user, action=action.to_dict(), count=game.action_count)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_pages_buttons_are_the_frames_permissions(browser, daphne_server, size):
    alicia, _bruno, _carmen = in_db(
        lambda: [UserFactory(username=n, chips=1000) for n in ("alicia", "bruno", "carmen")]
    )
    table = in_thread(
        lambda: seating.table_create(
            master=alicia, options={"variant": "tute", "players": 2, "rounds": 2}
        )
    )
    pages = {}
    for name in ("alicia", "bruno", "carmen"):
        context, page = browser_page(browser, size)
        frames = Frames(page)
        log_in(page, daphne_server, name)
        page.goto(daphne_server + f"/tables/{table.pk}/")
        pages[name] = (context, page, frames)

    def check(moment: str) -> None:
        version = in_db(lambda: Table.objects.get(pk=table.pk).version)
        for name, (_context, page, frames) in pages.items():
            buttons_follow_may(page, frames, name, moment, version)

    check("waiting")
    pages["bruno"][1].get_by_role("button", name="Sit here").first.click()
    pages["bruno"][1].locator("#stand-form").wait_for()
    check("full")
    pages["alicia"][1].get_by_role("button", name="Start the game").click()
    pages["alicia"][1].locator("#hand button").first.wait_for()
    check("playing")
    in_thread(lambda: played_until(table.pk, lambda state: state.needs_deal or state.over))
    check("deal over")
    shot(pages["bruno"][1], "may-deal-over", size)
    in_thread(lambda: finish(table.pk, alicia))
    assert in_db(lambda: Table.objects.get(pk=table.pk).game.status) == Game.Status.FINISHED
    check("game over")
    pages["bruno"][1].get_by_role("button", name="Offer a rematch").click()
    pages["alicia"][1].get_by_text("bruno offers a rematch.").wait_for()
    check("rematch offered")
    shot(pages["alicia"][1], "may-rematch-offered", size)
    for context, _page, _frames in pages.values():
        context.close()
