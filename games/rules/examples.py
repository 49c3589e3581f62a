"""Worked examples for the rules pages, played by the engine itself.

Each example is a game record (NOTATION.md) built here from the few cards that matter; the
engine's ``replay`` plays it, so the pages show what the engine really allows and scores: the
cards each seat could legally play, who took the trick, its points, the value of each cante.
A record that breaks a rule makes the page fail loudly, never show a wrong example.

Longer examples (a capote, the habanero deals that end on 100 and 101 points) are records in
``records/``, written once by ``python -m games.rules.make_records``.

Over 400 lines: it is data: one short function per worked example of the rules pages, each a
few cards and the record they make.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from games.engine import Action, from_record
from games.engine.cards import CARD_TEXT, POINTS_OF, deck_for, parse_card_index
from games.engine.options import Options
from games.engine.replay import replay

# The same four players in every example, in seat order; names read the same in each language.
NAMES = ("Ana", "Bruno", "Carla", "David")
RECORDS_DIR = Path(__file__).resolve().parent / "records"


class ExampleError(RuntimeError):
    """An example the engine refuses: the record, or the story told about it, is wrong."""


@dataclass(frozen=True)
class Play:
    seat: int
    name: str
    card: str
    legal: tuple[str, ...]  # the cards the engine allowed, strongest first within a suit
    free: bool  # any card of the hand was allowed
    lead: bool
    wins: bool


@dataclass(frozen=True)
class Trick:
    number: int  # 1-based, in the deal
    plays: tuple[Play, ...]
    winner: int
    winner_name: str
    points: int  # card points in the trick
    taken: int = 0  # tricks the winner has taken in the deal, this one included

    @property
    def winning_card(self) -> str:
        return next(p.card for p in self.plays if p.wins)


@dataclass(frozen=True)
class Cante:
    seat: int
    name: str
    suit: str
    value: int
    choices: tuple[str, ...]  # the suits the engine let this seat sing at that moment

    @property
    def cards(self) -> tuple[str, str]:
        return (f"12{self.suit}", f"11{self.suit}")


@dataclass(frozen=True)
class Example:
    key: str
    variant: str
    players: int
    pairs: bool
    trump_card: str
    tricks: tuple[Trick, ...]
    cantes: tuple[Cante, ...] = ()
    exchanges: tuple[tuple[str, str, str], ...] = ()  # (name, card given, card taken)
    points: tuple[int, ...] = ()  # per side at the end of the record
    winner: int | None = None  # side that won the deal, None while it goes on
    bids: tuple[int, ...] | None = None
    scores: tuple[int, ...] | None = None  # pocha hand scores
    tricks_won: tuple[int, ...] = ()
    hands: dict[str, tuple[str, ...]] = field(default_factory=dict)  # at the capote decision
    capote: dict[str, Any] | None = None
    capote_calls: tuple[tuple[str, bool], ...] = ()  # (name, declared) in order
    carry: tuple[int, ...] | None = None
    last_trick: int | None = None
    # A game of bids on tricks (pocha): card points play no part, so tricks are counted.
    counts_tricks: bool = False

    @property
    def trump_suit(self) -> str:
        return self.trump_card[-1]

    @property
    def trick(self) -> Trick:
        """The example's featured trick: its first, or the only one."""
        return self.tricks[0]

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES[: self.players]

    def side_points(self, seat: int) -> int:
        side = seat % 2 if self.pairs else seat
        return self.points[side]

    @property
    def rows(self) -> list[dict[str, Any]]:
        """One row per seat for a pocha hand: name, bid, tricks taken, score."""
        return [
            {"name": NAMES[s], "bid": self.bids[s], "took": self.tricks_won[s], "score": score}
            for s, score in enumerate(self.scores or ())
        ]


def _full_hands(
    players: int, hand_size: int, fixed: dict[int, list[str]], stock_top: list[str], trump: str
) -> tuple[list[list[str]], list[str]]:
    """Deal the fixed cards where told, then the rest of the deck in deck order.

    Every other card goes to the first seat with room, then to the stock. Suits whose every
    card is placed by hand in ``fixed`` therefore stay exactly where the example puts them.
    """
    hands = [list(fixed.get(s, [])) for s in range(players)]
    placed = {c for h in hands for c in h} | set(stock_top) | {trump}
    rest = [CARD_TEXT[i] for i in deck_for(players) if CARD_TEXT[i] not in placed]
    for seat in range(players):
        while len(hands[seat]) < hand_size:
            hands[seat].append(rest.pop(0))
    return hands, stock_top + rest


def tute_record(
    *,
    players: int = 4,
    pairs: bool = True,
    dealer: int,
    trump: str,
    fixed: dict[int, list[str]],
    actions: list[tuple],
    variant: str = "tute",
    stock_top: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A one-deal record of tute or habanero from the cards that matter.

    Without a stock the trump card is the dealer's last card and stays in the dealer's hand;
    with one (two players) it lies face up under the stock.
    """
    rules = Options.from_dict({"variant": variant, "players": players, "pairs": pairs}).rules
    fixed = {s: list(cards) for s, cards in fixed.items()}
    if not rules.has_stock and trump not in fixed.get(dealer, []):
        fixed.setdefault(dealer, []).append(trump)
    hands, stock = _full_hands(players, rules.hand_size, fixed, stock_top or [], trump)
    if not rules.has_stock:
        hands[dealer].remove(trump)
        hands[dealer].append(trump)  # the dealer's last card, turned up
        stock = []
    return {
        "variant": variant,
        "options": {"players": players, "pairs": pairs, **(options or {})},
        "deals": [
            {
                "dealer": dealer,
                "hands": hands,
                "trump_card": trump,
                "stock": stock,
                "actions": [_action(a) for a in actions],
            }
        ],
    }


def _action(spec: tuple) -> dict[str, Any]:
    seat, kind, value = spec
    return {"seat": seat, kind: value}


def play_example(key: str, record: dict[str, Any], *, deal: int = -1) -> Example:
    """Replay ``record`` with the engine and describe its deal ``deal`` for a page."""
    status, out = replay(record)
    if status != 0:
        raise ExampleError(f"example {key!r}: the engine refused it: {out.get('error')}")
    summary = out["deals"][deal]
    options = Options.from_dict({**record.get("options", {}), "variant": record["variant"]})
    rules = options.rules
    n = rules.players
    raw_deal = record["deals"][deal]
    deal_index = deal % len(record["deals"])
    first_step = sum(len(d["actions"]) for d in record["deals"][:deal_index])
    actions = raw_deal["actions"]
    steps = out["steps"][first_step : first_step + len(actions)]

    # The hand of each seat before each of its plays, to tell "any card" from a real duty.
    earlier = record["deals"][:deal_index]
    state = from_record({**record, "deals": [*earlier, {**raw_deal, "actions": []}]})
    tricks: list[Trick] = []
    current: list[Play] = []
    cantes: list[Cante] = []
    exchanges: list[tuple[str, str, str]] = []
    capote_calls: list[tuple[str, bool]] = []
    capote_hands: dict[str, tuple[str, ...]] = {}
    for step, action in zip(steps, actions, strict=True):
        seat = action["seat"]
        legal = step["legal"].get(str(seat), [])
        if "play" in action:
            cards = tuple(a["play"] for a in legal if "play" in a)
            current.append(
                Play(
                    seat=seat,
                    name=NAMES[seat],
                    card=action["play"],
                    legal=cards,
                    free=len(cards) == len(state.hand(seat)),
                    lead=not current,
                    wins=False,
                )
            )
        elif "sing" in action:
            suits = tuple(a["sing"] for a in legal if "sing" in a)
            value = _cante_value(summary, seat, action["sing"])
            cantes.append(Cante(seat, NAMES[seat], action["sing"], value, suits))
        elif "capote" in action:
            if not capote_hands:
                capote_hands = {NAMES[s]: tuple(str(c) for c in state.hand(s)) for s in range(n)}
            capote_calls.append((NAMES[seat], action["capote"]))
        elif "exchange" in action:
            taken = CARD_TEXT[state.trump_card]
            exchanges.append((NAMES[seat], action["exchange"], taken))
        before = list(state.tricks_won)
        state.apply(Action.from_dict(action, n))
        if len(current) == n:
            # The engine gave the trick to the one seat whose count of tricks went up.
            (winner,) = (s for s in range(n) if state.tricks_won[s] > before[s])
            tricks.append(
                _close_trick(len(state.tricks), current, summary, winner, state.tricks_won[winner])
            )
            current = []
    if current:
        raise ExampleError(f"example {key!r} ends in the middle of a trick")
    return Example(
        key=key,
        variant=record["variant"],
        players=n,
        pairs=rules.pairs,
        trump_card=raw_deal["trump_card"],
        tricks=tuple(tricks),
        cantes=tuple(cantes),
        exchanges=tuple(exchanges),
        points=tuple(summary["points"] or ()),
        winner=summary["winner"],
        bids=None if summary["bids"] is None else tuple(summary["bids"]),
        scores=tuple(summary["points"]) if rules.bids and summary["points"] else None,
        tricks_won=tuple(state.tricks_won) if state.deal_index == deal_index else (),
        capote=summary["capote"],
        capote_calls=tuple(capote_calls),
        hands=capote_hands,
        carry=None if summary["carry"] is None else tuple(summary["carry"]),
        last_trick=summary["last_trick"],
        counts_tricks=rules.bids,
    )


def _cante_value(summary: dict[str, Any], seat: int, suit: str) -> int:
    for side in summary["cantes"]:
        for cante in side:
            if cante["seat"] == seat and cante["suit"] == suit:
                return cante["value"]
    raise ExampleError(f"the engine did not record the cante of seat {seat} in {suit}")


def _close_trick(
    number: int, plays: list[Play], summary: dict[str, Any], winner: int, taken: int
) -> Trick:
    played = summary["tricks"][number - 1]
    if [p["card"] for p in played] != [p.card for p in plays]:
        raise ExampleError(f"trick {number} is not the one the engine recorded")
    marked = tuple(
        Play(p.seat, p.name, p.card, p.legal, p.free, p.lead, p.seat == winner) for p in plays
    )
    points = sum(POINTS_OF[parse_card_index(p.card)] for p in plays)
    return Trick(number, marked, winner, NAMES[winner], points, taken)


def pocha_record(
    *,
    players: int,
    first_dealer: int,
    hands: dict[int, list[str]],
    trump: str,
    actions: list[tuple],
) -> dict[str, Any]:
    """A pocha record whose last deal is the example; the hands before it play themselves.

    The ladder starts at one card, so a hand of three cards is the game's third deal. The
    earlier deals are dealt in deck order and played with each seat's first legal action:
    only the last deal is shown, but a record must hold the whole game up to it.
    """
    from games.engine import Deal, GameState, to_record

    options = Options.from_dict({"variant": "pocha", "players": players})
    state = GameState(options)
    deal_index = len(next(iter(hands.values()))) - 1
    deck = [CARD_TEXT[i] for i in deck_for(players)]
    for k in range(deal_index):
        size = k + 1
        dealt = [deck[s * size : (s + 1) * size] for s in range(players)]
        undealt = deck[players * size :]
        state.start_deal(
            Deal.from_dict(
                {
                    "dealer": (first_dealer + k) % players,
                    "hands": dealt,
                    "trump_card": undealt[0],
                    "stock": undealt,
                }
            )
        )
        while not state.needs_deal:
            seat = state.to_move
            state.apply(state.legal_actions_for(seat)[0])
    record = to_record(state)
    dealt_cards = {c for h in hands.values() for c in h}
    undealt = [trump] + [c for c in deck if c not in dealt_cards and c != trump]
    record["deals"].append(
        {
            "dealer": (first_dealer + deal_index) % players,
            "hands": [hands[s] for s in range(players)],
            "trump_card": trump,
            "stock": undealt,
            "actions": [_action(a) for a in actions],
        }
    )
    return record


def _plays(*cards: tuple[int, str]) -> list[tuple]:
    return [(seat, "play", card) for seat, card in cards]


ANA, BRUNO, CARLA, DAVID = range(4)


def _follow_beat() -> dict[str, Any]:
    # Trump bastos. Every espada is placed, so each seat's choice is exactly as told.
    return tute_record(
        dealer=DAVID,
        trump="6B",
        fixed={
            ANA: ["12E", "6E"],
            BRUNO: ["3E", "10E", "5E"],
            CARLA: ["11E", "7E", "4E"],
            DAVID: ["1E", "2E"],
        },
        actions=_plays((ANA, "12E"), (BRUNO, "3E"), (CARLA, "4E"), (DAVID, "1E")),
    )


def _trump_overtrump() -> dict[str, Any]:
    # Trump oros; Carla and David hold no bastos.
    return tute_record(
        dealer=ANA,
        trump="6O",
        fixed={
            ANA: ["1B", "3B", "10B", "6B", "2B", "1O", "3O", "11O"],
            BRUNO: ["12B", "11B", "7B", "5B", "4B"],
            CARLA: ["10O", "7O", "4O"],
            DAVID: ["12O", "5O", "2O"],
        },
        actions=_plays((BRUNO, "12B"), (CARLA, "10O"), (DAVID, "12O"), (ANA, "2B")),
    )


def _no_undertrump() -> dict[str, Any]:
    # Trump copas; David and Ana hold no espadas, and Ana's only copas are below the 3.
    return tute_record(
        dealer=BRUNO,
        trump="5C",
        fixed={
            ANA: ["10C", "4C"],
            BRUNO: ["3E", "11E", "10E", "4E", "2E", "1C", "11C", "7C", "2C"],
            CARLA: ["7E", "1E", "12E", "6E", "5E"],
            DAVID: ["3C", "12C", "6C"],
        },
        actions=_plays((CARLA, "7E"), (DAVID, "3C"), (ANA, "5O"), (BRUNO, "2E")),
    )


def _cante() -> dict[str, Any]:
    # Trump copas. Every oro and every rey and caballo is placed.
    return tute_record(
        dealer=BRUNO,
        trump="6C",
        fixed={
            ANA: ["3O", "2O"],
            BRUNO: ["12O", "11O", "10O", "7O", "6O", "12B", "11B"],
            CARLA: ["5O"],
            DAVID: ["1O", "4O", "12C", "11C", "12E", "11E"],
        },
        actions=[
            *_plays((CARLA, "5O"), (DAVID, "1O"), (ANA, "2O"), (BRUNO, "10O")),
            (DAVID, "sing", "C"),
            (BRUNO, "sing", "O"),
        ],
    )


def _habanero_stock() -> dict[str, Any]:
    # Trump espadas, the sota face up under the stock; Ana deals, so Bruno leads.
    return tute_record(
        variant="habanero",
        players=2,
        pairs=False,
        dealer=ANA,
        trump="10E",
        fixed={ANA: ["11E", "5E", "12O", "11O"], BRUNO: ["3E", "7E", "12C", "11C"]},
        stock_top=["2O", "3C"],
        actions=[
            *_plays((BRUNO, "3E"), (ANA, "5E")),
            (BRUNO, "exchange", "7E"),
            (BRUNO, "sing", "C"),
            *_plays((BRUNO, "2O"), (ANA, "3C")),
        ],
    )


def _pocha_hand() -> dict[str, Any]:
    # Four players, third hand of the ladder (three cards each); bastos turned up.
    return pocha_record(
        players=4,
        first_dealer=CARLA,
        hands={
            ANA: ["1B", "12O", "5E"],
            BRUNO: ["11C", "1E", "4O"],
            CARLA: ["3C", "6C", "4E"],
            DAVID: ["10B", "7O", "2E"],
        },
        trump="5B",
        actions=[
            (BRUNO, "bid", 1),
            (CARLA, "bid", 1),
            (DAVID, "bid", 0),
            (ANA, "bid", 2),
            *_plays((BRUNO, "11C"), (CARLA, "3C"), (DAVID, "10B"), (ANA, "1B")),
            *_plays((ANA, "12O"), (BRUNO, "4O"), (CARLA, "4E"), (DAVID, "7O")),
            *_plays((ANA, "5E"), (BRUNO, "1E"), (CARLA, "6C"), (DAVID, "2E")),
        ],
    )


BUILT = {
    "follow_beat": _follow_beat,
    "trump_overtrump": _trump_overtrump,
    "no_undertrump": _no_undertrump,
    "cante": _cante,
    "habanero_stock": _habanero_stock,
    "pocha_hand": _pocha_hand,
}


def load_record(name: str) -> dict[str, Any]:
    return json.loads((RECORDS_DIR / f"{name}.json").read_text(encoding="utf-8"))


@cache
def example(key: str) -> Example:
    """One worked example, played by the engine (cached: the engine does not change at run time)."""
    if key in BUILT:
        return play_example(key, BUILT[key]())
    return play_example(key, load_record(key))


def all_examples() -> dict[str, Example]:
    keys = list(BUILT) + sorted(p.stem for p in RECORDS_DIR.glob("*.json"))
    return {key: example(key) for key in keys}
