"""A moderator's evening in Chromium, against a real daphne: a game excluded from the
leaderboards and counted again (both in the moderation log, the leaderboard changing back),
a table closed with a reason that its players read in their own language, and a muted
player whose chat box says until when and why, then comes back by itself.

Screenshots are kept in test-artifacts/ for a person to look at."""

from datetime import UTC, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from accounts.services import user_mute
from games.models import Game, Report, Table
from games.table import chat, play, seating
from rankings.selectors import chips_balance
from rankings.services import game_result_award
from tests.support.awards import finish_game
from tests.support.browser import (
    ARTIFACTS,
    in_db,
    in_thread,
    no_sideways_scroll,
    player_page,
)
from tests.support.factories import PASSWORD, ModeratorFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 800}


def moderator_page(browser, base: str):
    """mod_eva, a moderator, logged in to the admin in a desktop-wide window."""
    in_db(lambda: ModeratorFactory(username="mod_eva"))
    page = browser.new_context(locale="en-US", viewport=DESKTOP, timezone_id="UTC").new_page()
    page.set_default_timeout(15_000)
    page.goto(base + "/admin/login/?next=/admin/")
    page.fill("#id_username", "mod_eva")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#site-name")).to_have_text("Tute online: moderation")
    return page


def run_action(page, action_label: str, reason: str) -> None:
    """On a change list with the rows already ticked: the action, its form, the reason."""
    page.locator('select[name="action"]').select_option(label=action_label)
    page.get_by_role("button", name="Go").click()
    page.get_by_label("Reason").fill(reason)
    page.locator('.submit-row input[type="submit"]').click()


def test_a_moderator_excludes_a_game_and_counts_it_again(browser, daphne_server):
    def make_game():
        ana, beto = UserFactory(username="ana_gana"), UserFactory(username="beto_pierde")
        return game_result_award(game_id=finish_game([ana, beto], stake=0).game_id).game_id

    game_id = in_db(make_game)
    mod = moderator_page(browser, daphne_server)
    phone = player_page(browser, daphne_server, "beto_pierde", PHONE)
    phone.goto(daphne_server + "/rankings/")
    expect(phone.locator("main")).to_contain_text("ana_gana")

    mod.goto(daphne_server + "/admin/rankings/gameresult/")
    assert mod.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    assert mod.evaluate(
        "(() => { const t = document.getElementById('result_list');"
        " return t.parentElement.scrollWidth <= t.parentElement.clientWidth; })()"
    )
    mod.screenshot(path=str(ARTIFACTS / "admin-game-results-1280.png"), full_page=True)
    mod.goto(daphne_server + f"/admin/rankings/gameresult/?q={game_id}")
    row = mod.locator("#result_list tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(f"Game {game_id}")
    expect(row.get_by_role("link", name="replay")).to_have_attribute(
        "href", f"/games/{game_id}/#replay"
    )
    row.locator("input.action-select").check()
    run_action(mod, "Exclude selected games from the leaderboards", "Soft play between friends")
    expect(mod.locator(".messagelist")).to_have_text(
        f"Excluded game {game_id} from the leaderboards."
    )
    phone.reload()
    expect(phone.locator("main")).not_to_contain_text("ana_gana")

    mod.goto(daphne_server + f"/admin/rankings/gameresult/?q={game_id}")
    mod.locator("#result_list tbody tr input.action-select").check()
    run_action(mod, "Count selected games again", "Wrong game: they are strangers")
    expect(mod.locator(".messagelist")).to_have_text(
        f"Game {game_id} counts again on its leaderboards."
    )
    phone.reload()
    expect(phone.locator("main")).to_contain_text("ana_gana")
    assert no_sideways_scroll(phone)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "moderation-board-back-375.png"), full_page=True)

    # Both in the moderation log: who, the game and why.
    mod.goto(daphne_server + "/admin/accounts/moderationaction/")
    rows = mod.locator("#result_list tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Game counted again")
    expect(rows.nth(0)).to_contain_text(f"game {game_id}")
    expect(rows.nth(0)).to_contain_text("Wrong game: they are strangers")
    expect(rows.nth(0)).to_contain_text("mod_eva")
    expect(rows.nth(1)).to_contain_text("Game excluded from the leaderboards")
    expect(rows.nth(1)).to_contain_text("Soft play between friends")
    mod.screenshot(path=str(ARTIFACTS / "moderation-log-1280.png"), full_page=True)


def test_closing_a_table_with_a_reason_is_seen_by_its_players(browser, daphne_server):
    def make_table():
        ana = UserFactory(username="ana_mesa", chips=500)
        beto = UserFactory(username="beto_mesa", chips=500, language="es")
        table = seating.table_create(master=ana, options={"variant": "habanero", "stake": 40})
        seating.table_sit(table_id=table.pk, user=beto)
        play.game_start(table_id=table.pk, user=ana)
        return table.pk

    table_id = in_thread(make_table)
    ana = player_page(browser, daphne_server, "ana_mesa", DESKTOP)
    beto = player_page(browser, daphne_server, "beto_mesa", PHONE)
    for page in (ana, beto):
        page.goto(f"{daphne_server}/tables/{table_id}/")
        page.locator("#hand button").first.wait_for()
        expect(page.locator("#chat-form")).to_be_visible()

    mod = moderator_page(browser, daphne_server)
    mod.goto(daphne_server + "/admin/games/table/")
    mod.locator(f'#result_list input.action-select[value="{table_id}"]').check()
    mod.locator('select[name="action"]').select_option(label="Close selected tables")
    mod.get_by_role("button", name="Go").click()
    # A confirmation page: nothing is closed until the moderator says why.
    expect(mod.locator("#content")).to_contain_text(
        "its running game is cancelled and every stake given back"
    )
    assert in_db(lambda: Table.objects.get(pk=table_id).status) == Table.Status.PLAYING
    mod.get_by_label("Reason").fill("Insultos en el chat")
    mod.locator('.submit-row input[type="submit"]').click()
    expect(mod.locator(".messagelist")).to_have_text(
        f"Closed table {table_id}; its players are told why."
    )

    # Each player reads it in their own language, once, and every dead control is gone.
    said = {
        ana: (
            "A moderator closed this table: Insultos en el chat",
            "A moderator closed the table: every stake was given back.",
        ),
        beto: (
            "Un moderador ha cerrado esta mesa: Insultos en el chat",
            "Un moderador ha cerrado la mesa: se han devuelto todas las apuestas.",
        ),
    }
    for page, (status, summary) in said.items():
        expect(page.locator("#status")).to_have_text(status)
        expect(page.locator("#summary")).to_contain_text(summary)
        expect(page.locator("#chat-form")).to_be_hidden()
        expect(page.locator("#new-game")).to_have_count(0)
        expect(page.locator("#game-controls")).to_be_hidden()
        expect(page.locator("#hand button")).to_have_count(0)
        expect(page.locator("#notice")).to_be_hidden()
        assert page.get_by_text(status).count() == 1
        assert no_sideways_scroll(page)
        width = page.viewport_size["width"]
        page.screenshot(path=str(ARTIFACTS / f"table-closed-{width}.png"), full_page=True)

    def state():
        game = Table.objects.get(pk=table_id).game
        return game.status, [chips_balance(user=s.user) for s in game.seats.order_by("seat")]

    assert in_db(state) == (Game.Status.CANCELLED, [500, 500])


def mute_ending_soon():
    """The end of the next minute at least 20 s away: a mute the admin's form can set (to
    the minute) that a test can wait for."""
    now = timezone.now().astimezone(UTC)
    until = now.replace(second=0, microsecond=0) + timedelta(minutes=1)
    return until if until - now >= timedelta(seconds=20) else until + timedelta(minutes=1)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375", "1280"])
def test_a_muted_player_reads_until_when_and_why_in_the_chat_box(browser, daphne_server, viewport):
    def make_table():
        player = UserFactory(username="rosa_habla")
        return seating.table_practice(master=player, options={"variant": "habanero"}).pk

    table_id = in_thread(make_table)
    page = player_page(browser, daphne_server, "rosa_habla", viewport)
    page.goto(f"{daphne_server}/tables/{table_id}/")
    page.locator("#chat-text").fill("hola")
    page.get_by_role("button", name="Send").click()
    page.locator("#chat-log li").get_by_text("hola").wait_for()

    # A moderator mutes her in the admin while she is at the table.
    until = mute_ending_soon()
    mod = moderator_page(browser, daphne_server)
    mod.goto(daphne_server + "/admin/accounts/user/?q=rosa_habla")
    mod.locator("#result_list tbody tr input.action-select").check()
    mod.locator('select[name="action"]').select_option(label="Mute selected players")
    mod.get_by_role("button", name="Go").click()
    mod.get_by_label("Muted until (UTC)").fill(f"{until:%Y-%m-%dT%H:%M}")
    mod.get_by_label("Reason").fill("Insults at table 3")
    mod.locator('.submit-row input[type="submit"]').click()
    expect(mod.locator(".messagelist")).to_contain_text("Muted rosa_habla")

    # At once, in place of the chat form: until when and why.
    box = page.locator("#chat-muted")
    wanted = f"You are muted until {until:%H:%M}: Insults at table 3"
    expect(box).to_have_text(wanted)
    expect(page.locator("#chat-form")).to_be_hidden()
    expect(page.locator("#error")).to_be_hidden()
    assert no_sideways_scroll(page)
    width = viewport["width"]
    page.screenshot(path=str(ARTIFACTS / f"table-muted-{width}.png"), full_page=True)

    # A page opened while muted says so at once.
    page.reload()
    expect(box).to_have_text(wanted)
    expect(page.locator("#chat-form")).to_be_hidden()

    # When the mute ends, the chat box comes back by itself, and works. (The moderator
    # shortens it to a few seconds through the service: the admin's form sets a minute.)
    def shorten() -> None:
        player = User.objects.get(username="rosa_habla")
        moderator = User.objects.get(username="mod_eva")
        user_mute(user=player, moderator=moderator, until=soon, reason="Insults at table 3")

    soon = timezone.now() + timedelta(seconds=4)
    in_thread(shorten)
    expect(box).to_have_text(f"You are muted until {soon:%H:%M}: Insults at table 3")
    expect(page.locator("#chat-form")).to_be_visible(timeout=20_000)
    expect(box).to_be_hidden()
    page.locator("#chat-text").fill("ya puedo")
    page.get_by_role("button", name="Send").click()
    page.locator("#chat-log li").get_by_text("ya puedo").wait_for()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["375", "1280"])
def test_a_player_reports_a_chat_message_from_the_table(browser, daphne_server, viewport):
    def make_table():
        ana, beto = UserFactory(username="ana_dice"), UserFactory(username="beto_lee")
        table = seating.table_create(master=ana, options={"variant": "habanero"})
        seating.table_sit(table_id=table.pk, user=beto)
        chat.chat_post(table_id=table.pk, user=ana, text="eres un paquete, lárgate")
        return table.pk

    table_id = in_thread(make_table)
    page = player_page(browser, daphne_server, "beto_lee", viewport)
    page.goto(f"{daphne_server}/tables/{table_id}/")
    line = page.locator("#chat-log li", has_text="eres un paquete")
    line.get_by_role("link", name="Report this message: ana_dice").click()
    page.wait_for_url(f"**/tables/{table_id}/report/?message=*")
    expect(page.get_by_label("ana_dice: eres un paquete, lárgate")).to_be_checked()
    page.get_by_label("Insults or harassment").check()
    page.get_by_label("A note for the moderators (optional)").fill("Lo hace en cada partida")
    assert no_sideways_scroll(page)
    width = viewport["width"]
    page.screenshot(path=str(ARTIFACTS / f"table-report-{width}.png"), full_page=True)
    page.get_by_role("button", name="Send the report").click()
    page.wait_for_url(f"**/tables/{table_id}/")
    expect(page.locator(".messages")).to_contain_text(
        "Thank you: the moderators will read your report."
    )

    def sent():
        report = Report.objects.select_related("reported", "message").get()
        return report.reported.username, report.message.text, report.reason, report.note

    assert in_db(sent) == (
        "ana_dice",
        "eres un paquete, lárgate",
        "insults",
        "Lo hace en cada partida",
    )
