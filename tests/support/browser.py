"""What the browser tests share: logging in, ORM work away from Playwright's loop, the
viewports, taking a turn on the table page, screenshots in the test artifacts, the games
they set up (a practice table, a finished game, a finished arena), and a table page whose
game the test plays itself through a relay on its socket."""

import json
import random
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

from django.db import connections
from django.utils import timezone
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from bench.support.processes import ROOT
from games.arenas import services
from games.arenas.models import Arena, ArenaPlayer
from games.arenas.pairing import arena_pair
from games.arenas.scoring import arena_game_score
from games.models import Game, GameSeat, Table
from games.table import play
from games.table.explain import score_sheet
from games.table.frames import game_explain, sing_values
from games.table.record import game_state
from games.table.seating import table_practice
from rankings.tasks import award_sweep
from tests.support.arenas import habanero_arena, play_out, present, running_games
from tests.support.factories import PASSWORD, UserFactory
from tests.support.waits import until

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


# Where each player comes from behind a trusted proxy (servers.proxied_daphne_server).
ADDRESSES = {"alicia": "198.51.100.1", "bruno": "198.51.100.2"}


def alicia_and_bruno(browser, base: str, *, own_addresses: bool = False, **bruno_options):
    """Alicia logged in a desktop-wide window, bruno in a phone-wide one; with
    `own_addresses`, each says their own address to a proxied server."""

    def context(name: str, **options):
        if own_addresses:
            options["extra_http_headers"] = {"X-Forwarded-For": ADDRESSES[name]}
        return browser.new_context(locale="en-US", **options)

    alicia_context = context("alicia", viewport={"width": 1280, "height": 900})
    bruno_context = context("bruno", viewport={"width": 375, "height": 800}, **bruno_options)
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


def in_db(query):
    """Run ORM code while Playwright's loop runs in this thread, then close its connection.

    With a running event loop, Django keys connections by context rather than by thread, so
    the connection opened here is not the test's own and would outlive the test database.
    """
    try:
        return query()
    finally:
        connections.close_all()


def log_in(page, base, login, password=PASSWORD):
    page.goto(base + "/accounts/login/")
    page.fill('input[name="login"]', login)
    page.fill('input[name="password"]', password)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_load_state()


# What the player may do now, read from the page as they would see it.
NEXT_STEP = """() => {
  const shown = (el) => el && !el.hidden && !el.closest('[hidden]');
  const heading = document.querySelector('#summary h2');
  if (shown(heading) && heading.textContent === 'Game over') return 'over';
  if (document.querySelector('#actions button:not([disabled])')) return 'action';
  if (document.querySelector('#hand button.playable:not([disabled])')) return 'card';
  const next = document.getElementById('next-deal');
  if (shown(next) && !next.disabled) return 'deal';
  return null;
}"""


def in_thread(work):
    """Run ORM and service code in a thread of its own and return what it returns (its error
    is raised here): services push to the channel layer through async_to_sync, which
    Playwright's running event loop forbids in this thread."""
    outcome = {}

    def run():
        try:
            outcome["value"] = work()
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


TABLE_SOCKET = re.compile(r"/ws/tables/\d+/$")


class Relay:
    """Between a page and its table socket. `edit(frame)` may change each frame from the
    server (None drops it); `keep(message)` says whether a message of the page goes on to the
    server. It keeps what went each way, and sends the page frames of its own."""

    def __init__(self, page, *, edit=lambda frame: frame, keep=lambda message: True):
        self.edit, self.keep = edit, keep
        self.to_page: list[dict] = []
        self.from_page: list[dict] = []
        self.route = None
        page.route_web_socket(TABLE_SOCKET, self._open)

    def _open(self, route) -> None:
        self.route = route
        server = route.connect_to_server()

        def from_page(message) -> None:
            self.from_page.append(json.loads(message))
            if self.keep(self.from_page[-1]):
                server.send(message)

        def to_page(message) -> None:
            frame = self.edit(json.loads(message))
            if frame is not None:
                self.send(frame)

        route.on_message(from_page)
        server.on_message(to_page)

    def send(self, frame: dict) -> None:
        self.to_page.append(frame)
        self.route.send(json.dumps(frame))

    @property
    def version(self) -> int:
        return max(f["version"] for f in self.to_page if f["type"] in ("state", "update"))

    def send_game(self, part: dict) -> None:
        """An update of the game in the page's first `state` frame, one version past the
        last frame: `part` holds the parts of its `game` that changed (`seat_game_part`)."""
        state = next(f for f in self.to_page if f["type"] == "state")
        self.send(
            {
                "type": "update",
                "table_id": state["table_id"],
                "version": self.version + 1,
                "count": state["count"],
                "event": None,
                "game": {"id": state["game"]["id"], **part},
            }
        )


def relayed_table(browser, base: str, username: str, table: Table, viewport: dict):
    """`username`'s page of `table`, its socket behind a `Relay` that lets only the server's
    `state` frames through: the page keeps the real table, and the game's later pushes are
    the ones the test sends (`Relay.send_game`). The browser context, the page and the relay,
    once the hand shows."""
    context = browser.new_context(locale="en-US", viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(20_000)
    relay = Relay(page, edit=lambda frame: frame if frame["type"] == "state" else None)
    log_in(page, base, username)
    page.goto(base + table.get_absolute_url())
    page.locator("#hand button").first.wait_for()
    return context, page, relay


def seat_game_part(state, seat: int) -> dict:
    """The parts of a seat's `game` that a move changes, built by the server's own functions
    (games/table/frames.py) from an engine `state`: the seat's view, what the page explains,
    the score sheet and what a cante is worth."""
    return {
        "view": state.view(seat).to_dict(),
        "explain": game_explain(state, seat),
        "sheet": score_sheet(state),
        # It reads nothing of a room but its state.
        "sing_values": sing_values(SimpleNamespace(state=state)),
    }


PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}


def practice(username: str, **options) -> Table:
    user = in_db(lambda: UserFactory(username=username))
    values = {"robot_level": "random", "move_time": 60, **options}
    # In a thread of its own: the service pushes through async_to_sync, which Playwright's
    # running loop forbids in this one.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(in_db, lambda: table_practice(master=user, options=values)).result()


# The elements that reach past the viewport's right edge, innermost first: what to fix.
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('[hidden]'))
  .map(e => `${e.tagName}#${e.id}.${e.className}`).slice(0, 8)"""


def shot(page, name: str, size: str) -> None:
    """A screenshot to look at, of a page that fits the width."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"finding-{name}-{size}.png"), full_page=True)
    assert no_sideways_scroll(page), f"{name} too wide at {size}: {page.evaluate(TOO_WIDE)}"


def browser_page(browser, size: str):
    context = browser.new_context(viewport=VIEWPORTS[size], locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page


def finish_the_game(table_id: int, users: dict) -> Game:
    """Random legal moves through the services, each by its own player, to the game's end;
    then the award (no Celery worker here: the sweep does it)."""
    rng = random.Random(11)
    # Both browsers come from 127.0.0.1, which would exclude the game as same-address: bruno
    # plays from another machine.
    game = Table.objects.get(pk=table_id).game
    GameSeat.objects.filter(game=game, seat=1).update(ip_address="198.51.100.2")
    while True:
        game = Table.objects.get(pk=table_id).game
        if game.status != Game.Status.PLAYING:
            break
        state = game_state(game=game)
        if state.needs_deal:
            play.game_next_deal(table_id=table_id, user=users[0])
            continue
        seat, actions = rng.choice(sorted(state.legal_actions().items()))
        play.game_act(table_id=table_id, user=users[seat], action=rng.choice(actions).to_dict())
    award_sweep(older_than_seconds=0)
    return game


def finished_arena(*, counted: bool) -> Arena:
    """Two players, an entry of 20: a game that counted (when `counted`), then one played
    from a shared address; then the end."""
    ana, beto = UserFactory(username="anabel", chips=500), UserFactory(username="bertin", chips=500)
    arena = habanero_arena(name="Evening arena", entry=20)
    by_id = {ana.pk: ana, beto.pk: beto}
    if counted:
        services.arena_join(arena_id=arena.pk, user=ana, ip_address="198.51.100.1")
        services.arena_join(arena_id=arena.pk, user=beto, ip_address="198.51.100.2")
    else:
        for user in (ana, beto):
            services.arena_join(arena_id=arena.pk, user=user, ip_address="203.0.113.8")
    present(arena, ana, beto)
    rounds = 2 if counted else 1
    for n in range(rounds):
        if n == 1:  # the second game from one address
            ArenaPlayer.objects.filter(arena=arena).update(ip_address="203.0.113.8")
        arena_pair(arena_id=arena.pk, now=timezone.now() + timedelta(minutes=1 + n))
        (game,) = running_games(arena)
        play_out(game, by_id, random.Random(n))
        assert arena_game_score(game_id=game.pk)
    for user in (ana, beto):
        services.arena_pause(arena_id=arena.pk, user=user)
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=11))
    assert services.arena_tick()["finished"] == 1
    return arena


def player_page(browser, base: str, username: str, viewport: dict):
    page = browser.new_context(locale="en-US", viewport=viewport, timezone_id="UTC").new_page()
    page.set_default_timeout(15_000)
    log_in(page, base, username)
    return page
