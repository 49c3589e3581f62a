"""The leak scan (issue #15): over games of every variant, every frame each player and each
spectator (logged in, and anonymous) receives over the table socket, and every page each of
them fetches while the game runs (the table page, the lobby, the game page, record.json), is
scanned for cards; it fails on any card that viewer may not see at that moment.

What a viewer may see is built from the rules of what is public (RULES.md), not from the view
the server sent: their own hand, the cards played face up this deal (the trick and the finished
tricks), the face-up trump card, the cards of an exchange, and a sung pair or a tute's four
cards. Everything else of the deal (other hands, the stock, the shuffle) is secret until the
game is over, when the summary reveals every deal.

Pages: the table page carries the 40 faces of the deck once, each in a `<template
data-card=...>` that the page's script clones to draw a card. That sprite is the same for every
table and every moment, so the page scan skips `<template>` elements (their tags and their
contents) and reads everything else: every attribute value and every text, inline scripts and
JSON included, for a card code as a whole word (`12O`) or a card's name ("King of oros").
A finished game's page, which shows every hand, checks that the scan does find cards.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.test import Client
from django.utils import translation

from bench.support.client import merged
from games.engine import CARDS, from_record
from games.models import Game
from games.table import play, seating
from games.templatetags.cards import card_label
from tests.support.engine import card_codes
from tests.support.factories import UserFactory
from tests.support.live import WAIT, record_of, table_socket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ALL = {str(card) for card in CARDS}
TO_THE_END = 10_000
# Games of every variant, each a test of its own (pytest-xdist spreads them): four played to
# the end (their game-over frames reveal every hand), the long ones (a deal of tute for four
# without pairs, pocha's ladder) scanned for their first moves only.
GAMES = [
    ({"variant": "tute", "players": 2}, TO_THE_END),
    ({"variant": "habanero", "points_to_win": 1}, TO_THE_END),
    ({"variant": "tute", "players": 3}, TO_THE_END),
    ({"variant": "tute", "players": 4, "pairs": True}, TO_THE_END),
    ({"variant": "tute", "players": 4, "pairs": False}, 20),
    ({"variant": "pocha", "players": 4}, 45),
    ({"variant": "pocha", "players": 3}, 25),
]
PAGE_EVERY = 20  # moves between two rounds of page fetches
CODE_WORD = re.compile(r"(?<![\w-])(?:1|2|3|4|5|6|7|10|11|12)[OCEB](?![\w-])")


def visible_to(record: dict, seat: int | None) -> set[str]:
    """The cards `seat` (None: a spectator) may see after the stored record's last action."""
    state = from_record(record)
    if state.over:
        return set(ALL)  # the summary screen reveals every deal's hands
    seen = {str(CARDS[state.trump_card])} if state.trump_card is not None else set()
    if seat is not None:
        seen |= {str(CARDS[c]) for c in state.hands[seat]}
    for _seat, given, taken in state.exchanges:
        seen |= {str(CARDS[given]), str(CARDS[taken])}
    for action in record["deals"][-1]["actions"]:
        if "play" in action:
            seen.add(action["play"])
        elif "sing" in action:
            seen |= {f"11{action['sing']}", f"12{action['sing']}"}
        elif "tute" in action:
            seen |= {f"{action['tute']}{suit}" for suit in "OCEB"}
    return seen


class PageText(HTMLParser):
    """Every attribute value and text of a page, less the `<template>` elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "template":
            self.depth += 1
        if self.depth == 0:
            self.parts += [value for _name, value in attrs if value]

    def handle_startendtag(self, tag, attrs):
        if self.depth == 0:
            self.parts += [value for _name, value in attrs if value]

    def handle_endtag(self, tag):
        if tag == "template" and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth == 0:
            self.parts.append(data)


def cards_on_page(html: str) -> set[str]:
    reader = PageText()
    reader.feed(html)
    text = "\n".join(reader.parts)
    found = set(CODE_WORD.findall(text))
    with translation.override("en"):
        found |= {code for code in ALL if card_label(code) in text}
    return found


def seated_table(options: dict) -> tuple[int, list, object, dict[str, Client]]:
    """A table of `options` with every seat taken, its game started; a spectator; and a
    logged-in web client for each viewer (None: the anonymous one)."""
    players = options.get("players", 2 if options["variant"] == "habanero" else 4)
    users = [UserFactory(chips=1000) for _ in range(players)]
    table = seating.table_create(master=users[0], options={**options, "guests": True})
    for user in users[1:]:
        seating.table_sit(table_id=table.pk, user=user)
    play.game_start(table_id=table.pk, user=users[0])
    spectator = UserFactory()
    clients = {}
    for user in [*users, spectator]:
        clients[user.username] = Client()
        clients[user.username].force_login(user)
    clients[None] = Client()
    return table.pk, users, spectator, clients


def fetch_pages(table_id: int, clients: dict[str, Client], running: bool) -> list[tuple]:
    """(viewer, url, html) of each page each viewer fetches now."""
    game = Game.objects.filter(table_id=table_id).order_by("-pk").first()
    pages = []
    for name, client in clients.items():
        for url in (
            f"/tables/{table_id}/",
            "/tables/",
            f"/games/{game.pk}/",
            f"/games/{game.pk}/record.json",
        ):
            response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
            if running and url.startswith("/games/"):
                # A running game's replay and record would show every hand.
                assert response.status_code == 404, (name, url)
            else:
                assert response.status_code == 200, (name, url, response.status_code)
            pages.append((name, url, response.content.decode()))
    return pages


class Viewer:
    def __init__(self, socket, first: dict, seat: int | None, name: str | None) -> None:
        self.socket, self.seat, self.name = socket, seat, name
        self.frames = [first]
        self.state = first

    async def next_state(self) -> dict:
        """Frames up to the next `state` or `update`, merged into the viewer's state; all of
        them kept for the scan."""
        while True:
            frame = await self.socket.receive_json_from(timeout=WAIT)
            self.frames.append(frame)
            if frame["type"] == "state":
                self.state = frame
                return frame
            if frame["type"] == "update":
                assert frame["version"] == self.state["version"] + 1, "a push was lost"
                self.state = merged(self.state, frame)
                return self.state


def scan_frames(viewers: list[Viewer], record: dict) -> int:
    """Check every frame received since the last scan against what its viewer may see now."""
    scanned = 0
    for viewer in viewers:
        allowed = visible_to(record, viewer.seat)
        for frame in viewer.frames:
            leaked = card_codes(frame) - allowed
            assert not leaked, f"{viewer.name} (seat {viewer.seat}) was sent {leaked}: {frame}"
            scanned += 1
        viewer.frames = []
    return scanned


async def play_and_scan(options: dict, moves: int, rng: random.Random) -> dict[str, int]:
    table_id, users, spectator, clients = await sync_to_async(seated_table)(options)
    viewers = []
    for seat, user in enumerate([*users, spectator, None]):
        socket, first = await table_socket(table_id, user)
        name = user.username if user is not None else None
        viewers.append(Viewer(socket, first, seat if seat < len(users) else None, name))
    players = viewers[: len(users)]
    counts = {"frames": 0, "pages": 0, "moves": 0, "own_cards_seen": 0, "finished": 0}
    record = await record_of(table_id)
    counts["frames"] += scan_frames(viewers, record)
    while counts["moves"] < moves:
        view = players[0].state["game"]["view"]
        if view["game_over"]:
            break
        if view["needs_deal"]:
            await players[0].socket.send_json_to({"type": "next_deal"})
        else:
            player, action = rng.choice(
                [(p, a) for p in players for a in p.state["game"]["view"]["legal_actions"]]
            )
            count = player.state["count"]
            await player.socket.send_json_to({"type": "act", "action": action, "count": count})
            counts["moves"] += 1
        for viewer in viewers:
            await viewer.next_state()
        record = await record_of(table_id)
        for viewer in players:
            counts["own_cards_seen"] += len(card_codes(viewer.state["game"]["view"]["hand"]))
        counts["frames"] += scan_frames(viewers, record)
        if counts["moves"] % PAGE_EVERY == 0:
            counts["pages"] += await scan_pages(table_id, clients, viewers, record)
    counts["pages"] += await scan_pages(table_id, clients, viewers, record)
    counts["finished"] += from_record(record).over
    for viewer in viewers:
        await viewer.socket.disconnect()
    return counts


async def scan_pages(table_id: int, clients: dict, viewers: list[Viewer], record: dict) -> int:
    running = not from_record(record).over
    pages = await sync_to_async(fetch_pages)(table_id, clients, running)
    seats = {viewer.name: viewer.seat for viewer in viewers}
    for name, url, html in pages:
        if url.endswith(".json") and not running:
            continue  # a finished game's record, for download: every card, by design
        leaked = cards_on_page(html) - visible_to(record, seats[name])
        assert not leaked, f"{name} fetched {url} showing {leaked}"
    return len(pages)


def game_id(options: dict) -> str:
    return "-".join(str(value) for value in options.values())


@pytest.mark.asyncio
@pytest.mark.parametrize(("options", "moves"), GAMES, ids=[game_id(o) for o, _m in GAMES])
async def test_no_viewer_is_ever_sent_a_card_they_may_not_see(options, moves):
    counts = await play_and_scan(options, moves, random.Random(15))
    players = options.get("players", 2)
    viewers = players + 2  # and a spectator, and an anonymous one
    # The scan read real traffic: the game's moves (to its end, whose frames reveal every
    # hand), every viewer's frame of each, the pages, and the players' own cards in their
    # frames (so the scanner does see cards where they are).
    if moves == TO_THE_END:
        assert counts["finished"] == 1 and counts["moves"] >= 16, counts
    else:
        assert counts["moves"] == moves, counts
    assert counts["frames"] >= (counts["moves"] + 1) * viewers, counts
    rounds = 1 + counts["moves"] // PAGE_EVERY
    assert counts["pages"] >= rounds * viewers * 4, counts
    assert counts["own_cards_seen"] >= counts["moves"], counts


@pytest.mark.asyncio
async def test_the_page_scan_finds_the_cards_of_a_finished_games_page():
    """The control: a finished game's page shows every hand, and the scan sees them; the
    table page's deck sprite alone shows none."""
    counts = await play_and_scan(
        {"variant": "habanero", "points_to_win": 1}, 10_000, random.Random(3)
    )
    assert counts["moves"] > 16
    table_id = await sync_to_async(lambda: Game.objects.latest("pk").table_id)()
    game_id = await sync_to_async(lambda: Game.objects.latest("pk").pk)()
    assert await sync_to_async(lambda: Game.objects.get(pk=game_id).status)() == "finished"
    client = Client()
    finished = await sync_to_async(client.get)(f"/games/{game_id}/", HTTP_ACCEPT_LANGUAGE="en")
    assert cards_on_page(finished.content.decode()) == ALL
    table = await sync_to_async(client.get)(f"/tables/{table_id}/", HTTP_ACCEPT_LANGUAGE="en")
    html = table.content.decode()
    assert html.count("<template data-card=") == 40
    assert cards_on_page(html) == set()
