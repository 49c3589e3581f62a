"""A whole practice game of each variant against robots on a 375×812 phone, in Debian's
Chromium against a real daphne: at every turn, with no scrolling, the whole hand (each card
big enough to tap), the trick, the trump, whose turn it is and the actions offered are on
screen; no page is wider than the screen, the summaries in French and Spanish included.
Screenshots of each variant at 375×812 and 1280×800 go to test-artifacts/."""

import re

import pytest

from tests.support.browser import (
    ARTIFACTS,
    DESKTOP,
    ENABLED_ACTIONS,
    ENABLED_CARDS,
    PHONE,
    log_in,
    practice,
)
from tests.support.felt import TURN, WATCH
from tests.support.waits import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# A dimmed card says why, in the engine's words (games/table/refusals.py).
DUTIES = (
    "While the stock has cards, you must answer a trump lead with a trump when you hold one.",
    "You must follow suit when you can.",
    "You must follow suit with a higher card when you can.",
    "You cannot follow suit, so you must play a trump higher than the one on the table when "
    "you can.",
    "You cannot follow suit, so you must play a trump when you have one.",
)
TAKEN = re.compile(r"(You take|(Robot \w+) takes) the trick(, (\d+) points)?\.")


def count(page) -> int:
    return int(page.locator("#table-app").get_attribute("data-count") or -1)


def play_to_the_end(page, name: str, username: str, *, shots_at: int = 3) -> dict:
    """Play the player's turns (the first action offered, else the first card) until the
    game is over, checking each turn's screen; the screenshots at move `shots_at`."""
    moves = 0
    seen = {"action": 0, "card": 0, "deal": 0, "dimmed": 0, "taken": set(), "summaries": []}
    while True:
        turn = until(page, TURN)
        if turn["off"]:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"phone-{name}-failed-375.png"))
        assert turn["off"] == [], (moves, turn)
        step = turn["step"]
        if turn["taken"]:
            # The trick goes to its winner, named with its points, and its card is marked.
            taken = TAKEN.fullmatch(turn["taken"])
            assert taken, turn["taken"]
            assert turn["winner"] == (taken.group(2) or username), turn
            seen["taken"].add(taken.group(1))
        if step == "over":
            seen["summaries"].append(turn["summary"])
            return seen
        seen[step] += 1
        if moves == shots_at:
            screenshots(page, name)
        before = count(page)
        if step == "card" and turn["illegal"] and not seen["dimmed"]:
            # Tapped, a dimmed card says why it may not be played now, and nothing is played.
            tap(page, "#hand button.illegal")
            page.locator("#card-why").wait_for()
            assert page.locator("#card-why").inner_text() in DUTIES
            assert count(page) == before
            seen["dimmed"] += 1
        if step == "action":
            tap(page, ENABLED_ACTIONS)
        elif step == "card":
            tap(page, ENABLED_CARDS)
        else:
            seen["summaries"].append(turn["summary"])
            tap(page, "#next-deal")
            # A deal is no action of the record: the summary goes once it is dealt.
            page.locator("#summary").wait_for(state="hidden", timeout=30_000)
            moves += 1
            continue
        until(
            page,
            """(before) => Number(document.getElementById('table-app').dataset.count) > before
                || !!document.querySelector('#error:not([hidden])')""",
            arg=before,
        )
        moves += 1


def tap(page, selector: str) -> None:
    """A tap where the thing is on screen, as a thumb does: never a scroll first (a
    locator's click scrolls when the page redraws under it)."""
    box = page.locator(selector).first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def screenshots(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phone-{name}-375.png"))
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(ARTIFACTS / f"phone-{name}-1280.png"))
    for part in ("#hand", "#resume, #propose-cancel"):
        box = page.locator(part).first.bounding_box()
        assert box is None or box["y"] + box["height"] <= DESKTOP["height"], part
    page.set_viewport_size(PHONE)


def summary_fits(page, name: str, language: str) -> None:
    """The game's summary in another language: no wider than the phone."""
    page.evaluate(
        """(lang) => fetch('/i18n/setlang/', {method: 'POST', headers: {'X-CSRFToken':
           document.querySelector('[name=csrfmiddlewaretoken]').value,
           'Content-Type': 'application/x-www-form-urlencoded'},
           body: 'language=' + lang})""",
        language,
    )
    page.reload()
    page.locator("#summary h2").wait_for()
    page.screenshot(path=str(ARTIFACTS / f"phone-{name}-over-{language}-375.png"), full_page=True)
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, (language, wide)
    # Nor is any of it cut off inside the summary's own box (the score's last column).
    hidden = page.evaluate(
        "(() => { const box = document.getElementById('summary');"
        " return box.scrollWidth - box.clientWidth; })()"
    )
    assert hidden <= 0, (language, hidden)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("tute-pairs", {"variant": "tute", "players": 4, "pairs": True, "rounds": 1}),
        # Two deals to win: in one habanero deal the player meets no dimmed card about one
        # time in ten (the engine, 400 deals of this player's first-card play); in two or
        # more, about one in a hundred.
        ("habanero", {"variant": "habanero", "players": 2, "points_to_win": 2}),
        # Pocha for two: its whole ladder of 19 hands, its bids and summaries, with half the
        # robots' moves of four (a 4-player table on a phone is tute-pairs' above).
        ("pocha", {"variant": "pocha", "players": 2}),
    ],
)
def test_a_whole_game_on_a_phone_keeps_every_turn_on_one_screen(
    browser, quick_daphne, name, options
):
    username = f"phone_{name.replace('-', '_')}"
    table = practice(username, **options)
    context = browser.new_context(locale="en-US", viewport=PHONE, has_touch=True)
    # Every change the felt draws is checked: no banner, badge or nameplate covers another.
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(20_000)
    log_in(page, quick_daphne, username)
    page.goto(quick_daphne + table.get_absolute_url())
    page.locator("#hand button").first.wait_for()
    # Robots have names of their own and their level in words, never the registry's name.
    robots = page.locator("#felt .seat-box.robot").evaluate_all(
        "bs => bs.map(b => `${b.dataset.name} · ${b.querySelector('.robot-level').textContent}`)"
    )
    assert robots and all(re.fullmatch(r"Robot (Lola|Paco|Rosa|Tomás) · random", r) for r in robots)
    assert len(set(robots)) == len(robots)
    if options.get("pairs"):
        # Pairs: the partner opposite is marked, and the score says whose team is whose.
        assert page.locator("#felt .seat-box.partner").get_attribute("data-name") == "Robot Rosa"
        assert page.locator("#felt .seat-box.partner .team-tag").text_content() == "your partner"
        assert (
            page.locator(".scoreboard tr.mine th").text_content().startswith("You and Robot Rosa")
        )
    seen = play_to_the_end(page, name, username)
    assert seen["card"] >= 10
    assert seen["dimmed"] == 1, "no card was dimmed in a whole game"
    assert seen["taken"], "no trick taken was explained"
    last = seen["summaries"][-1]
    if name == "pocha":
        # Pocha's own summary: bids, tricks and points for each hand; no cantes, no deal won.
        for summary in seen["summaries"]:
            assert "\tBid\tTricks\tPoints\tGame score" in summary, summary
            assert "Cantes" not in summary and "Nobody won this deal" not in summary
        assert seen["deal"] == 18
    else:
        assert "Cantes" in last
    for summary in seen["summaries"]:
        if name == "habanero" and "Nobody passed 100 points" in summary:
            # A deal nobody won: the next one carries its points (checked again in the sheet).
            assert "nobody wins this deal, and its points are carried into the next one" in summary
    page.screenshot(path=str(ARTIFACTS / f"phone-{name}-over-375.png"), full_page=True)
    assert page.evaluate("window.__checks") > 20
    overlaps = page.evaluate("window.__overlaps")
    assert not overlaps, "\n".join(overlaps)
    # The score sheet of every deal, opened from under the felt.
    page.locator("#score-sheet-button").click()
    sheet = page.locator("#score-sheet table")
    assert sheet.locator("tr").count() == seen["deal"] + 2
    for language in ("fr", "es"):
        summary_fits(page, name, language)
    context.close()


def test_a_missing_table_or_game_leads_back_to_the_lobby(page, quick_daphne):
    for path in ("/tables/999999/", "/games/999999/"):
        response = page.goto(quick_daphne + path)
        assert response.status == 404
        link = page.locator(".error-links a.to-lobby")
        assert link.inner_text() == "Back to the lobby: the open tables"
        link.click()
        page.wait_for_url(quick_daphne + "/tables/")


def test_an_anonymous_spectator_is_asked_to_log_in_to_chat_not_to_sit_at_a_full_table(
    page, quick_daphne
):
    table = practice("vera", variant="habanero", players=2)
    page.set_viewport_size(PHONE)
    page.goto(quick_daphne + table.get_absolute_url())
    page.locator("#trick .played, #trick .felt-message, #trump .trump-card").first.wait_for()
    chat = page.locator(".chat-panel")
    assert chat.get_by_role("link", name="Log in to chat").is_visible()
    assert not chat.locator("#chat-form").is_visible()
    # Every seat is taken: nothing invites a visitor to sit down.
    assert page.get_by_role("link", name="Log in to sit down").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
