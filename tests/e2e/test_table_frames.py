"""The table page draws what its frames say, in Debian's Chromium against a real daphne, with a
relay between the page and its table socket (Playwright's WebSocket routing): a push the relay
drops makes the page ask for the whole state (`sync`) and draw the right board, a stale frame
changes nothing, and a cante's value and a robot holding the seat are the frame's, never the
page's own rule (docs/protocol.md)."""

import json
import random
import re

import pytest

from games.engine import from_record
from tests.support.browser import (
    ARTIFACTS,
    ENABLED_CARDS,
    Relay,
    alicia_and_bruno,
    drawn_count,
    in_db,
    log_in,
    open_tute_for_two,
    take_one_turn,
    wait_for_count_above,
)
from tests.support.factories import UserFactory
from tests.support.live import stored_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SUITS = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}


def seat_view(table_id: int, seat: int) -> dict:
    """The stored game's view of `seat`: what that player's page must show."""
    return from_record(in_db(lambda: stored_record(table_id))).view(seat).to_dict()


def test_a_lost_push_makes_the_page_sync_and_a_stale_frame_changes_nothing(browser, daphne_server):
    in_db(lambda: [UserFactory(username="alicia"), UserFactory(username="bruno")])
    alicia, bruno = alicia_and_bruno(browser, daphne_server)
    errors: list[str] = []
    bruno.on("pageerror", lambda error: errors.append(str(error)))
    dropped: list[dict] = []
    drop_next = []

    def edit(frame: dict) -> dict | None:
        # The push asked for is lost on the way.
        if frame["type"] == "update" and drop_next:
            drop_next.clear()
            dropped.append(frame)
            return None
        return frame

    relay = Relay(bruno, edit=edit)
    table_id = open_tute_for_two(alicia, daphne_server)
    bruno.goto(alicia.url)
    bruno.get_by_role("button", name="Sit here").click()
    alicia.locator("#seats").get_by_text("bruno").wait_for()
    # The game starts once bruno's own socket knows him seated: a socket that opened after
    # the start (a slow reload under load) would get the start as its first `state`.
    for _ in range(600):
        if any((f.get("you") or {}).get("seat") == 1 for f in relay.to_page):
            break
        bruno.wait_for_timeout(100)
    else:
        raise AssertionError(f"bruno's socket never knew him seated: {relay.to_page}")
    alicia.get_by_role("button", name="Start the game").click()
    bruno.locator("#hand button").nth(7).wait_for()
    # However the start reached him (its update, or a whole state under load), both pages
    # draw the same version of the table before the lost push below.
    bruno.wait_for_function(
        "v => Number(document.getElementById('table-app').dataset.version) >= v",
        arg=int(alicia.locator("#table-app").get_attribute("data-version")),
    )

    # Bruno plays until it is alicia's turn.
    rng = random.Random(3)
    for _turn in range(20):
        alicia.wait_for_function(
            f"Number(document.getElementById('table-app').dataset.count) >= {drawn_count(bruno)}"
        )
        if alicia.locator(ENABLED_CARDS).count():
            break
        take_one_turn(bruno, rng, [])
    else:
        pytest.fail("alicia's turn never came")

    # A chat line, marked in bruno's page: no game move draws the chat again.
    alicia.locator("#chat-text").fill("¡Suerte!")
    alicia.get_by_role("button", name="Send").click()
    bruno.locator("#chat-log li").get_by_text("¡Suerte!").wait_for()
    bruno.evaluate("document.querySelector('#chat-log li').kept = true")

    # Alicia plays a card; its push to bruno is lost: his page still shows the board before it.
    count = drawn_count(bruno)
    drop_next.append(True)
    alicia.locator(ENABLED_CARDS).first.click()
    wait_for_count_above(alicia, count)
    # However late the push comes under load (a bound of 60 s, not a measure).
    for _ in range(600):
        if dropped:
            break
        bruno.wait_for_timeout(100)
    assert dropped and drawn_count(bruno) == count

    # Her next change reaches him with a version one too far: his page asks for the whole
    # state, and draws the right board from it.
    asked = len(relay.from_page)
    alicia.get_by_role("button", name="Propose to cancel").click()
    bruno.locator("#cancel-box").get_by_text("alicia proposes to cancel the game.").wait_for()
    assert {"type": "sync"} in relay.from_page[asked:]
    assert bruno.evaluate("document.querySelector('#chat-log li').kept") is True
    truth = seat_view(table_id, 1)
    assert drawn_count(bruno) == drawn_count(alicia) > count
    assert sorted(bruno.locator("#hand").get_attribute("data-cards").split()) == sorted(
        truth["hand"]
    )
    shown = bruno.locator("#trick .played").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    on_felt = truth["trick"] or truth["tricks"][-1]
    assert len(shown) == len(on_felt) and any(label.startswith("alicia: ") for label in shown)
    bruno.screenshot(path=str(ARTIFACTS / "table-synced-375.png"), full_page=True)

    # A stale frame (the lost push, late; the first state) changes nothing and asks nothing.
    asked = len(relay.from_page)
    hand = bruno.locator("#hand").get_attribute("data-cards")
    count = drawn_count(bruno)
    relay.send(dropped[0])
    relay.send(next(f for f in relay.to_page if f["type"] == "state"))
    last = relay.to_page[-1]
    relay.send(
        {
            "type": "chat",
            "table_id": table_id,
            "version": relay.version,
            "count": last["count"],
            "message": {"id": 10**6, "user": "alicia", "text": "¿Sigues ahí?", "at": None},
        }
    )
    # Frames arrive in order: once the chat line is drawn, both stale frames were handled.
    bruno.locator("#chat-log").get_by_text("¿Sigues ahí?").wait_for()
    assert drawn_count(bruno) == count
    assert bruno.locator("#hand").get_attribute("data-cards") == hand
    assert bruno.locator("#cancel-box").is_visible()
    assert relay.from_page[asked:] == []
    assert errors == []
    alicia.context.close()
    bruno.context.close()


def test_a_cante_and_a_robot_holding_the_seat_are_what_the_frame_says(page, embedded_daphne_server):
    """The relay gives the player a cante in a plain suit worth 40, which no rule of the game
    gives: the button and the notice say 40 all the same, because the frame says so. Then it
    says a robot holds the player's seat, with no timeout counted: the page offers the seat back."""
    in_db(lambda: UserFactory(username="solita"))
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sung: dict = {}

    def edit(frame: dict) -> dict:
        game = frame.get("game") or {}
        if "seats" in game:
            sung["seats"] = game["seats"]
        view = game.get("view")
        if not view or not any("play" in a for a in view["legal_actions"]):
            return frame
        if not sung.get("suit"):
            trump = view["trump_suit"]
            sung.update(
                suit=next(suit for suit in SUITS if suit != trump), game=game, count=frame["count"]
            )
        # Every frame at that position offers it, not only the first: another that comes
        # before the player acts (their seat's presence, a sync) would take the button away
        # before the test saw it.
        if frame["count"] == sung["count"]:
            game["sing_values"] = {suit: 20 for suit in SUITS} | {sung["suit"]: 40}
            view["legal_actions"].append({"seat": view["seat"], "sing": sung["suit"]})
        return frame

    # The page's own requests about the cante and the seat stay with the relay: the server's
    # game never had them.
    relay = Relay(page, edit=edit, keep=lambda m: m["type"] not in ("act", "resume"))
    page.set_viewport_size({"width": 1280, "height": 800})
    log_in(page, embedded_daphne_server, "solita")
    page.goto(embedded_daphne_server + "/tables/")
    page.locator("#practice_variant").select_option("tute")
    page.locator("#practice_players").select_option("2")
    page.locator("#practice-box summary").click()  # the folded options
    page.locator("#practice_move_time").fill("300")  # no timeout while the test looks
    page.get_by_role("button", name="Play against robots").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))

    button = page.locator("#actions button.action-sing")
    button.wait_for()
    suit = SUITS[sung["suit"]]
    assert button.inner_text() == f"Sing 40 in {suit}"
    page.screenshot(path=str(ARTIFACTS / "table-cante-1280.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 812})
    page.screenshot(path=str(ARTIFACTS / "table-cante-375.png"), full_page=True)
    count = drawn_count(page)
    button.click()
    page.wait_for_function("() => document.querySelector('#actions button').disabled")
    asked = [m for m in relay.from_page if m["type"] == "act"]
    assert asked == [{"type": "act", "action": {"seat": 0, "sing": sung["suit"]}, "count": count}]
    assert page.locator(ENABLED_CARDS).count() == 0  # one click, one request

    # The server's update for the cante says what it was worth (and holds the game's parts
    # that changed: its view).
    view = json.loads(json.dumps(sung["game"]["view"]))
    view["legal_actions"] = [a for a in view["legal_actions"] if "play" in a]
    table_id = relay.to_page[-1]["table_id"]
    relay.send(
        {
            "type": "update",
            "table_id": table_id,
            "version": relay.version + 1,
            "count": count + 1,
            "event": {
                "kind": "act",
                "action": {"seat": 0, "sing": sung["suit"]},
                "by": "solita",
                "value": 40,
            },
            "game": {"id": sung["game"]["id"], "count": count + 1, "view": view},
        }
    )
    page.locator("#notice").get_by_text(f"You sing 40 in {suit}!").wait_for()
    assert page.locator("#actions button").count() == 0
    assert page.locator(ENABLED_CARDS).count() > 0

    # A robot holds the seat: the frame says so, though no timeout is counted.
    seats = json.loads(json.dumps(sung["seats"]))
    seats[0].update(robot_holds=True, timeouts=0)
    relay.send(
        {
            "type": "update",
            "table_id": table_id,
            "version": relay.version + 1,
            "count": count + 1,
            # Its third timeout in a row: the robot played for the player.
            "event": {
                "kind": "act",
                "action": {"seat": 0, "play": view["hand"][0]},
                "by": "solita",
                "robot": "heuristic",
                "timeout": True,
            },
            "game": {"id": sung["game"]["id"], "seats": seats},
            # What the server would say she may do now: take her seat back.
            "may": {"resume": True},
        }
    )
    page.locator("#notice").get_by_text("Your time was up: a robot played for you.").wait_for()
    page.get_by_role("button", name="Take my seat back").click()
    assert page.locator("#status").inner_text() == (
        "A robot plays your seat: take it back when you are ready."
    )
    page.wait_for_function("() => document.getElementById('resume').disabled")
    assert relay.from_page[-1] == {"type": "resume"}
    assert errors == []
