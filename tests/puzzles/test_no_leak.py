"""No puzzle page or answer shows a card the position does not make known, nor where it is not.

For every stored puzzle, every page and every answer a player can get (the start, each right
move, a wrong card at each move, the hint, the solution) is read as a player's browser gets
it: each card drawn (``data-card``) must stand in a zone of the page, and each zone must hold
exactly what the seat knows there, worked out here from the seat's own view: its hand, the
cards played (this trick and the tricks before), the trump card, and the other hand as what
is left of the deck. The lines of play shown may use only cards still in the two hands. No
page names a player or links to the game the puzzle came from.
"""

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from games.engine.cards import CARDS
from games.puzzles.mining import action_key
from games.puzzles.models import Puzzle
from tests.support.mined import mine_games, replay

pytestmark = pytest.mark.django_db

DECK = {str(card) for card in CARDS}
# Elements without an end tag on the site's pages (and the cards' self-closed shapes).
VOID = ("input", "br", "img", "meta", "link", "path", "circle", "rect", "ellipse", "polygon")
ZONES = ("hand", "their-hand", "trick", "played", "trump", "line")


class Cards(HTMLParser):
    """Each card drawn on the page, with the zone it stands in (None outside any)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str | None] = []
        self.cards: list[tuple[str | None, str]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        zone = attrs.get("data-zone")
        if "data-card" in attrs:
            inside = next((z for z in reversed(self.stack) if z), None)
            self.cards.append((inside, attrs["data-card"]))
        if tag not in VOID:
            self.stack.append(zone)

    def handle_endtag(self, tag):
        if tag not in VOID and self.stack:
            self.stack.pop()


def cards_by_zone(html: str) -> dict[str | None, list[str]]:
    parser = Cards()
    parser.feed(html)
    zones: dict[str | None, list[str]] = {}
    for zone, card in parser.cards:
        zones.setdefault(zone, []).append(card)
    return zones


def known_at(puzzle: Puzzle, upto: int) -> dict[str, set[str]]:
    """What the seat knows after ``upto`` actions of the line: from its own view alone."""
    view = replay(puzzle, upto).view(puzzle.seat)
    hand = {str(c) for c in view.hand}
    trick = {str(c) for _s, c in view.trick}
    played = {str(c) for t in view.tricks for _s, c in t}
    return {
        "hand": hand,
        "trick": trick,
        "played": played,
        "their-hand": DECK - hand - trick - played,
        "trump": {str(view.trump_card)},
    }


def check_page(html: str, puzzle: Puzzle, upto: int, line_from: int | None = None) -> None:
    """The page shows the position after ``upto`` actions of the line, and lines of play
    that start after ``line_from`` (the same by default)."""
    zones = cards_by_zone(html)
    assert None not in zones, f"cards drawn outside any zone: {zones.get(None)}"
    assert set(zones) <= set(ZONES)
    known = known_at(puzzle, upto)
    for zone in ("hand", "their-hand", "trick", "trump"):
        assert set(zones.get(zone, [])) == known[zone], zone
        assert len(zones.get(zone, [])) == len(known[zone]), zone
    assert set(zones.get("played", [])) == known["played"]
    # A line of play (a reply, a refutation, the solution) uses cards still in the hands.
    start = known if line_from is None else known_at(puzzle, line_from)
    in_hands = start["hand"] | start["their-hand"]
    assert set(zones.get("line", [])) <= in_hands
    for user in puzzle.game.seats.exclude(user=None).values_list("user__username", flat=True):
        assert user not in html
    assert f"/games/{puzzle.game_id}/" not in html


def right_upto(puzzle: Puzzle, step: int) -> int:
    return puzzle.steps[step]["at"]


def test_no_page_or_answer_of_any_stored_puzzle_shows_a_card_it_should_not():
    from tests.support.factories import UserFactory

    puzzles = mine_games()
    assert puzzles
    named = UserFactory(username="secret_name")
    for puzzle in puzzles:
        puzzle.game.seats.filter(seat=puzzle.seat).update(user=named, robot="")
    pages = 0
    for puzzle in puzzles:
        client = Client()
        base = f"/puzzles/{puzzle.pk}/"
        check_page(client.get(base).content.decode(), puzzle, right_upto(puzzle, 0))
        # A wrong card at each move (the answer, then the page as it stands), then the right.
        for step, data in enumerate(puzzle.steps):
            at = right_upto(puzzle, step)
            for number, wrong in enumerate(data["wrong"]):
                # The page as htmx gets it (the board alone) once a move, else the whole page.
                fragment = {"HTTP_HX_REQUEST": "true"} if number == 0 else {}
                answer = client.post(base + "move/", {"step": step, "action": wrong}, **fragment)
                assert answer.status_code == 200
                check_page(answer.content.decode(), puzzle, at)
                pages += 1
            hint = client.post(base + "hint/", HTTP_HX_REQUEST="true")
            check_page(hint.content.decode(), puzzle, at)
            right = client.post(base + "move/", {"step": step, "action": action_key(data["best"])})
            after = right_upto(puzzle, step + 1) if step + 1 < len(puzzle.steps) else None
            check_page(right.content.decode(), puzzle, after or len(puzzle.line), at)
            pages += 2
        # From the start again: the solution at once.
        client.get(base)
        solution = client.post(base + "solution/")
        check_page(solution.content.decode(), puzzle, len(puzzle.line), right_upto(puzzle, 0))
        pages += 2
    # The home page's puzzle of the day: its hand at the start.
    home = Client().get("/").content.decode()
    daily = Puzzle.objects.get(pk=int(re.search(r'href="/puzzles/(\d+)/"', home).group(1)))
    zones = cards_by_zone(home)
    assert set(zones) == {"hand"}
    assert set(zones["hand"]) == known_at(daily, right_upto(daily, 0))["hand"]
    assert pages > len(puzzles) * 4
