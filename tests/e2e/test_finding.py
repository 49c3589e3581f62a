"""Finding a game in Debian's Chromium, at a phone's 375×812 and a desktop's 1280×800: a guest
practises a whole game from the home page, "Play now" seats two browsers at one table and
their game starts, an invitation reaches a player's header on another page and accepting it
seats them, a player who is not the master offers a rematch and the next game starts, and the
lobby shows no `None` and no practice table."""

import pytest

from games.models import Game, Table
from games.table import seating
from games.table.people import invitation_decline
from games.table.play import game_start
from tests.support.browser import (
    ARTIFACTS,
    ENABLED_CARDS,
    NEXT_STEP,
    VIEWPORTS,
    browser_page,
    in_db,
    in_thread,
    log_in,
    shot,
    take_step,
)
from tests.support.factories import UserFactory
from tests.support.play import finish
from tests.support.waits import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


SUMMARY_HEADING_IN_VIEW = """() => {
  const r = document.querySelector('#summary h2').getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight;
}"""
SUMMARY_EMPTY_BELOW = """() => {
  const box = document.getElementById('summary');
  const last = box.lastElementChild.getBoundingClientRect();
  return box.getBoundingClientRect().bottom - last.bottom;
}"""


@pytest.mark.parametrize("size", VIEWPORTS)
def test_a_guest_practises_a_whole_game_from_the_home_page(browser, quick_daphne, size):
    base = quick_daphne
    context, page = browser_page(browser, size)
    page.goto(base + "/")
    shot(page, "home", size)
    box = page.locator("#practice-box")
    box.get_by_label("Game").select_option("habanero")
    box.get_by_label("easy: ").check()
    box.locator("summary").click()
    box.get_by_label("Points to win").fill("1")
    box.get_by_role("button", name="Play against robots").click()
    page.wait_for_url(base + "/tables/*/")
    page.locator("#hand button").first.wait_for()
    assert page.locator(".site-header .who").inner_text() == "Guest"
    assert page.locator("#chat-form").is_hidden()  # guests never chat
    hinted = False
    while True:
        step = until(page, NEXT_STEP)
        if step == "over":
            break
        if step == "card" and not hinted:
            # The strongest robot's choice, from the guest's own view.
            page.get_by_role("button", name="Hint").click()
            page.locator("#hint-text").get_by_text("The robot would play:").wait_for()
            shot(page, "practice-hint", size)
            hinted = True
        try:
            take_step(page, step)
        except Exception:
            page.screenshot(path=str(ARTIFACTS / f"finding-stuck-{size}.png"), full_page=True)
            raise
    assert hinted
    assert page.locator("#summary h2").inner_text() == "Game over"
    # The summary opens at its heading, and holds no empty space under its last line (P4).
    page.wait_for_function(SUMMARY_HEADING_IN_VIEW)
    assert page.evaluate(SUMMARY_EMPTY_BELOW) < 40
    # One way to the next game against robots: the new game, no rematch to offer them.
    assert page.get_by_role("button", name="New game with the same players").is_visible()
    assert page.locator("#rematch-box").is_hidden()
    # Nothing reaches past the phone's edge at the game's end.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.screenshot(path=str(ARTIFACTS / f"finding-practice-over-{size}.png"), full_page=True)
    game = in_db(lambda: Game.objects.get())
    assert game.status == Game.Status.FINISHED and not game.competitive
    assert in_db(lambda: game.seats.get(seat=0).user.is_guest)
    context.close()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_play_now_seats_two_browsers_at_one_table_and_their_game_starts(
    browser, daphne_server, size
):
    in_db(lambda: [UserFactory(username=n, chips=1000) for n in ("ana", "beto")])
    pages = []
    for name in ("ana", "beto"):
        context, page = browser_page(browser, size)
        log_in(page, daphne_server, name)
        page.goto(daphne_server + "/tables/")
        box = page.locator("#play-now-box")
        box.get_by_label("Game").select_option("habanero")
        pages.append((context, page, box))
    shot(pages[0][1], "lobby", size)
    for _context, page, box in pages:
        box.get_by_role("button", name="Play now").click()
        page.wait_for_url(daphne_server + "/tables/*/")
    assert pages[0][1].url == pages[1][1].url
    for _context, page, _box in pages:
        page.locator("#hand button").first.wait_for()  # the game started by itself
    shot(pages[1][1], "play-now-table", size)
    table = in_db(lambda: Table.objects.get())
    assert table.status == Table.Status.PLAYING and table.seats.count() == 2
    for context, _page, _box in pages:
        context.close()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_an_invitation_reaches_the_header_on_another_page_and_accepting_seats(
    browser, daphne_server, size
):
    alicia, _bruno, carla = in_db(
        lambda: [UserFactory(username=n, chips=1000) for n in ("alicia", "bruno", "carla")]
    )
    table = in_thread(
        lambda: seating.table_create(
            master=alicia, options={"variant": "tute", "players": 3, "private": True}
        )
    )
    # The master watches her table: her list of invited players follows what happens.
    master_context, master = browser_page(browser, size)
    log_in(master, daphne_server, "alicia")
    master.goto(daphne_server + f"/tables/{table.pk}/")
    invited = master.locator("#invited-list")
    context, page = browser_page(browser, size)
    log_in(page, daphne_server, "bruno")
    page.goto(daphne_server + "/rules/")
    badge = page.locator("#invitations-badge")
    assert badge.is_hidden()
    # The page's own socket has its first frame (the count, 0): it hears the invitation's push.
    page.locator('#invitations-badge[aria-label$=": 0"]').wait_for(state="attached")
    in_thread(lambda: seating.table_invite(table_id=table.pk, user=alicia, username="bruno"))
    badge.wait_for()
    assert badge.inner_text().strip() == "✉ 1"
    shot(page, "invited-header", size)
    invited.get_by_text("bruno: invited").wait_for()
    badge.click()
    page.get_by_role("button", name="Accept and sit down").wait_for()
    shot(page, "invitations", size)
    page.get_by_role("button", name="Accept and sit down").click()
    page.wait_for_url(daphne_server + f"/tables/{table.pk}/")
    assert in_db(lambda: table.seats.filter(user__username="bruno").exists())
    assert page.locator("#invitations-badge").is_hidden()
    # The master sees who accepted, and who declined, as it happens.
    invited.get_by_text("bruno: accepted").wait_for()
    in_thread(lambda: seating.table_invite(table_id=table.pk, user=alicia, username="carla"))
    invited.get_by_text("carla: invited").wait_for()
    invitation = in_db(lambda: carla.table_invitations.get())
    in_thread(lambda: invitation_decline(user=carla, invitation_id=invitation.pk))
    invited.get_by_text("carla: declined").wait_for()
    assert invited.inner_text() == "bruno: accepted\ncarla: declined"
    shot(master, "invited-list", size)
    master_context.close()
    context.close()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_a_player_who_is_not_the_master_offers_a_rematch_and_the_next_game_starts(
    browser, daphne_server, size
):
    alicia, bruno = in_db(
        lambda: [UserFactory(username=n, chips=1000) for n in ("alicia", "bruno")]
    )

    def played_table():
        table = seating.table_create(
            master=alicia, options={"variant": "habanero", "points_to_win": 1}
        )
        seating.table_sit(table_id=table.pk, user=bruno)
        game_start(table_id=table.pk, user=alicia)
        finish(table.pk, alicia)
        return Table.objects.get(pk=table.pk)

    table = in_thread(played_table)
    first = table.game_id
    pages = {}
    for name in ("alicia", "bruno"):
        context, page = browser_page(browser, size)
        log_in(page, daphne_server, name)
        page.goto(daphne_server + f"/tables/{table.pk}/")
        pages[name] = (context, page)
    bruno_page, alicia_page = pages["bruno"][1], pages["alicia"][1]
    bruno_page.get_by_role("button", name="Offer a rematch").click()
    bruno_page.get_by_text("You offered a rematch.").wait_for()
    alicia_page.get_by_text("bruno offers a rematch.").wait_for()
    alicia_page.screenshot(path=str(ARTIFACTS / f"finding-rematch-offered-{size}.png"))
    alicia_page.get_by_role("button", name="Accept the rematch").click()
    for page in (alicia_page, bruno_page):
        page.locator("#rematch-box").wait_for(state="hidden")
        page.locator(ENABLED_CARDS + ", #hand button").first.wait_for()
    shot(bruno_page, "rematch-started", size)
    table = in_db(lambda: Table.objects.get(pk=table.pk))
    assert table.status == Table.Status.PLAYING and table.game_id != first
    for context, _page in pages.values():
        context.close()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_lobby_shows_no_none_and_no_practice_table(browser, daphne_server, size):
    alicia, carmen = in_db(
        lambda: [UserFactory(username=n, chips=1000) for n in ("alicia", "carmen")]
    )
    public = in_thread(lambda: seating.table_create(master=alicia, options={"variant": "habanero"}))
    practice = in_thread(
        lambda: seating.table_practice(master=carmen, options={"variant": "habanero"})
    )
    in_db(
        lambda: (
            Game.objects.filter(table=practice).update(status=Game.Status.FINISHED),
            Table.objects.filter(pk=practice.pk).update(status=Table.Status.OPEN),
        )
    )
    context, page = browser_page(browser, size)
    log_in(page, daphne_server, "carmen")
    page.goto(daphne_server + "/tables/")
    tiles = page.locator("#lobby-tables .table-tile")
    tiles.first.wait_for()
    ids = tiles.evaluate_all("nodes => nodes.map(n => Number(n.dataset.tableId))")
    assert ids == [public.pk]
    text = page.locator("#lobby-tables").inner_text()
    assert "None" not in text and "0 watching" in text
    # The level a player understands, with how it plays.
    assert page.locator("#practice-box").get_by_label("expert: ").is_visible()
    shot(page, "lobby-rows", size)
    context.close()
