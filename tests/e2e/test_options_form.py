"""Opening a table shows only the options that apply to the game chosen, in Debian's Chromium
against a real daphne, on a phone and on a desktop: a habanero table offers no pairs, no
players and no deals to win, and is stored with no pairs; made 4-player tute by its master it
offers pairs. The sentence about the options is the server's, in each viewer's language."""

import pytest

from games.models import Table
from games.table.frames import table_summary
from tests.support.browser import ARTIFACTS, in_db, log_in, no_sideways_scroll
from tests.support.factories import UserFactory
from tests.support.waits import until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 375, "height": 812}, "desktop": {"width": 1280, "height": 800}}
# The rule options a form may hide, and the fields every game shows.
RULES = ("players", "pairs", "rounds", "points_to_win", "allow_tute", "stock_play")
ALWAYS = ("variant", "move_time", "competitive", "stake", "private", "guests", "robot_level")


def shown_fields(page, form: str) -> set[str]:
    """The fields of a form a player sees."""
    return set(
        page.locator(f"{form} [data-field]").evaluate_all(
            "fields => fields.filter(f => f.getClientRects().length).map(f => f.dataset.field)"
        )
    )


def sentence_is(page, text: str) -> None:
    until(page, "(text) => document.getElementById('table-options').textContent === text", arg=text)


def summary_of(table_id: int) -> dict:
    def read():
        table = Table.objects.get(pk=table_id)
        return table_summary(table=table, seats=list(table.seats.select_related("user")))

    return in_db(read)


@pytest.mark.parametrize("size", SIZES)
def test_a_habanero_table_offers_and_stores_no_pairs_and_tute_at_four_offers_them(
    browser, daphne_server, size
):
    in_db(lambda: UserFactory(username="lucia", chips=1000))
    context = browser.new_context(locale="en-US", viewport=SIZES[size])
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, daphne_server, "lucia")
    ARTIFACTS.mkdir(exist_ok=True)

    # The lobby's form: the default game, 4-player tute, in pairs.
    page.goto(daphne_server + "/tables/#new-table")
    form = "form.options-form"
    assert shown_fields(page, form) == {*ALWAYS, "players", "pairs", "rounds", "allow_tute"}
    page.locator("#id_variant").select_option("habanero")
    assert shown_fields(page, form) == {*ALWAYS, "points_to_win", "allow_tute"}
    assert page.locator("#id_pairs").is_checked()  # hidden, still ticked: not a choice
    assert page.locator("#id_move_time ~ .help").inner_text().startswith("Seconds to play")
    page.locator("#new-table").screenshot(path=str(ARTIFACTS / f"options-habanero-{size}.png"))
    assert no_sideways_scroll(page)
    page.locator("#id_points_to_win").fill("3")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url("**/tables/*/")
    table_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    stored = in_db(lambda: Table.objects.get(pk=table_id))
    assert (stored.variant, stored.players, stored.pairs, stored.points_to_win) == (
        "habanero",
        2,
        False,
        3,
    )

    # A watcher in Spanish reads the server's sentence in Spanish, the master in English.
    watcher_context = browser.new_context(locale="es-ES", viewport=SIZES["phone"])
    watcher = watcher_context.new_page()
    watcher.set_default_timeout(20_000)
    watcher.on("pageerror", lambda error: errors.append(str(error)))
    watcher.goto(f"{daphne_server}/tables/{table_id}/")
    texts = summary_of(table_id)["options_text"]
    assert "in pairs" not in texts["en"] and "4 points" not in texts["en"]
    sentence_is(page, texts["en"])
    sentence_is(watcher, texts["es"])

    # The master's panel: habanero offers no pairs; 4-player tute does, 2-player tute its
    # play while the stock lasts.
    page.locator("#options-details summary").click()
    panel = "#options-form"
    assert shown_fields(page, panel) == {*ALWAYS, "points_to_win", "allow_tute"}
    page.locator("#opt_variant").select_option("tute")
    assert shown_fields(page, panel) == {*ALWAYS, "players", "rounds", "allow_tute", "stock_play"}
    page.locator("#opt_players").select_option("4")
    assert shown_fields(page, panel) == {*ALWAYS, "players", "pairs", "rounds", "allow_tute"}
    page.locator("#opt_pairs").check()
    page.locator("#options-details").screenshot(path=str(ARTIFACTS / f"options-tute-{size}.png"))
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="Save the options").click()
    until(page, "() => document.querySelector('.table-head h1').textContent.startsWith('Tute ')")
    texts = summary_of(table_id)["options_text"]
    assert texts["en"].startswith("4 players, in pairs · ")
    assert texts["es"].startswith("4 jugadores, por parejas · ")
    sentence_is(page, texts["en"])
    sentence_is(watcher, texts["es"])
    assert watcher.locator(".table-head h1").inner_text().startswith("Tute ")
    stored = in_db(lambda: Table.objects.get(pk=table_id))
    assert (stored.variant, stored.players, stored.pairs) == ("tute", 4, True)

    # Back to habanero from the panel: the pairs leave the form and the table.
    page.locator("#opt_variant").select_option("habanero")
    assert page.locator("#opt_players").input_value() == "2"
    page.get_by_role("button", name="Save the options").click()
    until(page, "() => document.querySelector('.table-head h1').textContent.startsWith('Habanero')")
    stored = in_db(lambda: Table.objects.get(pk=table_id))
    assert (stored.variant, stored.players, stored.pairs) == ("habanero", 2, False)
    sentence_is(watcher, summary_of(table_id)["options_text"]["es"])
    page.screenshot(path=str(ARTIFACTS / f"options-table-{size}.png"), full_page=True)
    assert no_sideways_scroll(page) and no_sideways_scroll(watcher)
    assert errors == []
    watcher_context.close()
    context.close()
