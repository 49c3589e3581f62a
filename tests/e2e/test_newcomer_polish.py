"""The small things a newcomer met (issue 40's polish), in Debian's Chromium on a phone and a
desktop: a POST-only address opened in the browser answers with the site's page; the
sign-up form puts each error under its own field and writes "Sign up" as the site does; the
report form's first choice says what it means; the arena's streak mark is text that every
font shows."""

import pytest
from playwright.sync_api import expect

from games.arenas import services as arenas
from games.arenas.models import ArenaPlayer
from games.table import chat, seating
from tests.support.arenas import habanero_arena
from tests.support.browser import ARTIFACTS, in_db, in_thread, no_sideways_scroll, player_page
from tests.support.factories import PASSWORD, ModeratorFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS
SIZES = [{"width": 375, "height": 812}, {"width": 1280, "height": 800}]


def shot(page, name: str, viewport: dict) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{viewport['width']}.png"), full_page=True)
    assert no_sideways_scroll(page), f"{name} is too wide at {viewport['width']}px"


@pytest.mark.parametrize("viewport", SIZES, ids=["375", "1280"])
def test_a_post_only_address_opened_answers_with_the_sites_page(browser, daphne_server, viewport):
    page = browser.new_context(locale="en-US", viewport=viewport).new_page()
    for address in ("/tables/practice/",):
        response = page.goto(daphne_server + address)
        assert response.status == 405 and "POST" in response.headers["allow"]
        expect(page.get_by_role("heading", level=1)).to_have_text(
            "This address is for a button, not a page"
        )
        expect(page.get_by_role("link", name="Back to the lobby: the open tables")).to_be_visible()
    shot(page, "not-allowed", viewport)
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES, ids=["375", "1280"])
def test_sign_up_puts_the_password_error_under_the_password(browser, daphne_server, viewport):
    page = browser.new_context(locale="en-US", viewport=viewport).new_page()
    page.goto(daphne_server + "/accounts/signup/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign up")
    form = page.locator("main form")
    form.get_by_label("Username").fill("newcomer")
    form.get_by_label("Email").first.fill("newcomer@example.com")
    form.locator("input[name=password1]").fill("1234")
    form.locator("input[name=password2]").fill("1234")
    form.get_by_role("button", name="Sign up", exact=True).click()
    errors = form.locator("[data-errors-for=password1]")
    expect(errors).to_contain_text("too short")
    # In the page's order: the password's field, then its error; the username's has none.
    order = form.evaluate(
        """f => [...f.querySelectorAll('[data-field], [data-errors-for]')]
             .map(n => n.dataset.field || ('errors:' + n.dataset.errorsFor))"""
    )
    assert order.index("errors:password1") == order.index("password1") + 1, order
    assert "errors:username" not in order
    expect(page.get_by_text("Sign Up", exact=True)).to_have_count(0)
    shot(page, "signup-errors", viewport)
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES, ids=["375", "1280"])
def test_the_report_forms_first_choice_says_what_it_means(browser, daphne_server, viewport):
    def make_table():
        ana, beto = UserFactory(username="ana_rep"), UserFactory(username="beto_rep")
        table = seating.table_create(master=ana, options={"variant": "habanero"})
        seating.table_sit(table_id=table.pk, user=beto)
        chat.chat_post(table_id=table.pk, user=ana, text="hola")
        return table.pk

    table_id = in_thread(make_table)
    page = player_page(browser, daphne_server, "beto_rep", viewport)
    page.goto(f"{daphne_server}/tables/{table_id}/report/")
    first = page.locator("input[name=message]").first
    expect(first).to_have_accessible_name("No message: I am reporting a player, chosen below")
    expect(page.get_by_text("None: I report a player")).to_have_count(0)
    shot(page, "report-form", viewport)
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES, ids=["375", "1280"])
def test_the_arenas_streak_mark_is_text(browser, daphne_server, viewport):
    def make_arena():
        arena = habanero_arena(name="Streak arena")
        for n, name in enumerate(("rachas", "otro")):
            user = UserFactory(username=name)
            arenas.arena_join(arena_id=arena.pk, user=user, ip_address=f"198.51.100.{n + 1}")
        ArenaPlayer.objects.filter(arena=arena, user__username="rachas").update(
            streak=2, score=4, games=2, wins=2
        )
        return arena

    arena = in_db(make_arena)
    page = browser.new_context(locale="en-US", viewport=viewport).new_page()
    page.goto(daphne_server + arena.get_absolute_url())
    mark = page.locator(".arena-standings tr[data-user='rachas'] .streak")
    expect(mark).to_have_text("streak ×2")
    expect(mark).to_have_attribute("title", "On a streak: wins count double")
    assert "\N{FIRE}" not in page.content()
    shot(page, "arena-streak", viewport)
    page.context.close()


@pytest.mark.parametrize("viewport", SIZES, ids=["375", "1280"])
def test_the_admins_tables_search_finds_a_table_by_its_number(browser, daphne_server, viewport):
    def make_tables():
        ModeratorFactory(username="mod_busca")
        first = seating.table_create(master=UserFactory(username="lucia"), options={})
        seating.table_create(master=UserFactory(username="mateo"), options={})
        return first

    first = in_db(make_tables)
    page = browser.new_context(locale="en-US", viewport=viewport).new_page()
    page.set_default_timeout(10_000)
    page.goto(daphne_server + "/admin/login/?next=/admin/games/table/")
    page.fill("#id_username", "mod_busca")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    # The box says what it searches.
    expect(page.locator("#searchbar_helptext")).to_have_text(
        "A number (12 or #12), or a player's username."
    )
    for term in (str(first.pk), f"#{first.pk}"):
        page.locator("#searchbar").fill(term)
        page.locator("#changelist-search input[type=submit]").click()
        rows = page.locator("#result_list tbody tr")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("lucia")
    page.locator("#searchbar").fill("mateo")
    page.locator("#changelist-search input[type=submit]").click()
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"admin-tables-search-{viewport['width']}.png"))
    page.context.close()
