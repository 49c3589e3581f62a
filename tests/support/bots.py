"""Helpers for the robot tests: exact positions, and games played by robots."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.bots import Bot, bot_play, seat_to_act
from games.engine import (
    CARDS,
    Action,
    Card,
    Deal,
    GameState,
    IllegalAction,
    InvalidRecord,
    SeatView,
    from_record,
)
from games.engine.cards import CARD_TEXT, SUIT_OF, SUITS, deck_for
from games.engine.deal import deal_cards, hand_size


def position(
    options: dict[str, Any],
    dealer: int,
    hands: dict[int, str],
    trump_card: str,
    plays: str = "",
    stock: str = "",
    voids: dict[int, str] | None = None,
    deal_index: int = 0,
) -> GameState:
    """A game at its first deal with the given hands, after ``plays``.

    ``hands[seat]`` lists cards the seat holds; the rest of the deck fills the hands in
    deck order, skipping a seat for the suits listed in ``voids[seat]``, then goes to the
    stock (2 players) after the cards of ``stock``. ``plays`` is "seat:card seat:card ...";
    a bare "seat:sing:O" or "seat:exchange:7O" applies those actions too. With
    ``deal_index`` k, k earlier deals are played first (first legal action each time) so
    that the built deal is the k-th, dealt by ``dealer``.
    """
    state = GameState(options)
    rules = state.rules
    n = rules.players
    rng = random.Random(0)
    for k in range(deal_index):
        state.start_deal(deal_cards(state.options, (dealer - deal_index + k) % n, rng, k))
        while state.phase != "done":
            seat = seat_to_act(state)
            state.apply(state.legal_actions_for(seat)[0])
    size = hand_size(rules, deal_index)
    if rules.bids and n * size + 1 > len(deck_for(n)):
        raise ValueError("this helper builds pocha deals with undealt cards only")
    dealt = {s: hands.get(s, "").split() for s in range(n)}
    voids = voids or {}
    taken = {t for h in dealt.values() for t in h} | {trump_card} | set(stock.split())
    rest = list(stock.split())
    for i in deck_for(n):
        text = str(CARDS[i])
        if text in taken:
            continue
        for s in range(n):
            if len(dealt[s]) < size and SUITS[SUIT_OF[i]] not in voids.get(s, ""):
                dealt[s].append(text)
                break
        else:
            rest.append(text)
    if rules.bids:
        rest.insert(0, trump_card)  # pocha: the first undealt card is turned up
    elif not rules.has_stock and trump_card not in dealt[dealer]:
        raise ValueError("without a stock the trump card must be in the dealer's hand")
    deal = Deal(
        dealer,
        tuple(tuple(Card.parse(t) for t in dealt[s]) for s in range(n)),
        Card.parse(trump_card),
        tuple(Card.parse(t) for t in rest),
    )
    state.start_deal(deal)
    for step in plays.split():
        state.apply(parse_step(step))
    return state


def parse_step(step: str) -> Action:
    """'2:1O' plays 1O for seat 2; '2:sing:O', '2:exchange:7O', '2:capote:1' likewise."""
    parts = step.split(":")
    seat = int(parts[0])
    if len(parts) == 2:
        return Action.play(seat, parts[1])
    kind, value = parts[1], parts[2]
    if kind == "sing":
        return Action.sing(seat, value)
    if kind == "exchange":
        return Action.exchange(seat, value)
    if kind == "capote":
        return Action.capote(seat, value == "1")
    if kind == "bid":
        return Action.bid(seat, int(value))
    raise ValueError(f"unknown step {step!r}")


def seats_to_act(state: GameState, rng: random.Random, steps: int) -> Iterator[int]:
    """For at most ``steps`` steps, deal when needed and yield the seat to act; the caller
    applies that seat's action before asking for the next."""
    for _ in range(steps):
        if state.over:
            return
        if state.needs_deal:
            state.deal_next(rng)
            continue
        yield seat_to_act(state)


def play_out(state: GameState, bots: list[Bot], rng: random.Random, deals: int = 99) -> None:
    """Play on with one robot per seat until the game ends or ``deals`` deals are done."""
    while not state.over:
        if state.needs_deal:
            deals -= 1
            if deals <= 0:
                return
            state.deal_next(rng)
            continue
        seat = seat_to_act(state)
        assert seat is not None
        bot_play(bots[seat], state, seat)


CONFIGS = [
    {"variant": "tute", "players": 2, "stock_play": "free"},
    {"variant": "tute", "players": 2, "stock_play": "follow_trump"},
    {"variant": "tute", "players": 2, "stock_play": "strict", "rounds": 2},
    {"variant": "tute", "players": 3},
    {"variant": "tute", "players": 4},
    {"variant": "tute", "players": 4, "pairs": False},
    {"variant": "tute", "players": 4, "allow_tute": False, "rounds": 2},
    {"variant": "habanero", "points_to_win": 2},
    {"variant": "pocha", "players": 2},
    {"variant": "pocha", "players": 3},
    {"variant": "pocha", "players": 4},
]


class SpyBot:
    """Wraps a robot and keeps every view it was given."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.views: list[SeatView] = []

    def choose(self, view: SeatView):
        self.views.append(view)
        return self.inner.choose(view)


def hidden_cards(state: GameState, seat: int) -> set[str]:
    """Cards the seat must not see: other hands (bar public ones), stock, undealt cards."""
    view = state.view(seat)
    public = {str(view.trump_card)} | {str(took) for _, _, took in view.exchanges}
    deal = state.record_deals()[-1][0]
    others = {str(c) for s in range(state.n) if s != seat for c in state.hand(s)}
    if state.rules.has_stock:
        undrawn = {CARD_TEXT[c] for c in state.stock}  # not yet drawn, face down
    else:
        undrawn = {str(c) for c in deal.stock}  # pocha's undealt cards
    return (others | undrawn) - public - {str(c) for c in view.hand}


def reshuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """The same game with the cards ``seat`` cannot see dealt differently among the
    other hands, the stock and the undealt cards; None if no such deal replays legally."""
    record = state.to_record()
    deal = record["deals"][-1]
    shown = {v for a in deal["actions"] for k, v in a.items() if isinstance(v, str)}
    shown |= {deal["trump_card"], str(state.view(seat).trump_card)}
    hidden = sorted(hidden_cards(state, seat) - shown)
    for _ in range(30):
        moved = hidden[:]
        rng.shuffle(moved)
        swap = dict(zip(hidden, moved, strict=True))
        deal["hands"] = [[swap.get(c, c) for c in h] for h in deal["hands"]]
        deal["stock"] = [swap.get(c, c) for c in deal["stock"]]
        try:
            return from_record(record)
        except (IllegalAction, InvalidRecord):
            inverse = {v: k for k, v in swap.items()}
            deal["hands"] = [[inverse.get(c, c) for c in h] for h in deal["hands"]]
            deal["stock"] = [inverse.get(c, c) for c in deal["stock"]]
    return None
