"""Helpers to build exact positions and to play random games for the engine tests."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from games.engine import Action, Card, Deal, GameState, IllegalAction, deal_cards, new_game
from games.engine.cards import CARD_TEXT, CARDS, SUIT_OF, SUITS, caballo, deck_for, rey
from games.engine.deal import hand_size
from games.engine.options import Options
from games.engine.rulebook import beats, exchange_card


def cards(text: str) -> list[str]:
    """'1O 3O 12E' -> ['1O', '3O', '12E']."""
    return text.split()


def build_deal(
    options: dict[str, Any],
    dealer: int,
    given: dict[int, str],
    trump_card: str,
    closed: dict[int, str] | None = None,
    stock: str | None = None,
    deal_index: int = 0,
) -> Deal:
    """A full deal from partial hands.

    ``given[seat]`` are cards that seat must hold; ``closed[seat]`` are suits (letters) in
    which those given cards are all the seat holds (a void when none are given). The rest
    of the deck goes, in deck order, to the first seat that still needs cards and may take
    that suit, then to the stock. ``stock`` (2 players) gives the top of the stock, top
    first; the cards left over follow it.
    """
    opts = Options.from_dict(options)
    rules = opts.rules
    n = rules.players
    size = hand_size(rules, deal_index)
    hands = {s: cards(given.get(s, "")) for s in range(n)}
    closed = closed or {}
    used = {t for h in hands.values() for t in h} | {trump_card}
    fixed_stock = cards(stock) if stock is not None else None
    if fixed_stock:
        used |= set(fixed_stock)
    for i in deck_for(n):
        text = str(CARDS[i])
        if text in used:
            continue
        suit = SUITS[SUIT_OF[i]]
        for s in range(n):
            if len(hands[s]) < size and suit not in closed.get(s, ""):
                hands[s].append(text)
                break
        else:
            fixed_stock = [*(fixed_stock or []), text]
    if not rules.has_stock and not rules.bids:
        assert trump_card in hands[dealer], "without a stock the trump card is the dealer's"
    for s in range(n):
        assert len(hands[s]) == size, f"seat {s} got {len(hands[s])} cards"
    stock_cards = fixed_stock or []
    if rules.bids and trump_card not in hands[dealer]:
        stock_cards = [trump_card, *[c for c in stock_cards if c != trump_card]]
    return Deal(
        dealer,
        tuple(tuple(Card.parse(t) for t in hands[s]) for s in range(n)),
        Card.parse(trump_card),
        tuple(Card.parse(t) for t in stock_cards),
    )


def position(options: dict[str, Any], dealer: int, given, trump_card, **kw) -> GameState:
    """A game whose first deal is ``build_deal(...)``."""
    state = GameState(options)
    state.start_deal(build_deal(options, dealer, given, trump_card, **kw))
    return state


def play(state: GameState, seat: int, card: str) -> None:
    state.apply(Action.play(seat, card))


def play_all(state: GameState, moves: str) -> None:
    """Apply 'seat:card' moves, e.g. '0:12O 1:1O'."""
    for move in moves.split():
        seat, card = move.split(":")
        play(state, int(seat), card)


def plays(state: GameState, seat: int) -> list[str]:
    """The cards ``seat`` may play now, as text, in the engine's order."""
    return [str(a.value) for a in state.legal_actions_for(seat) if a.kind == "play"]


def kinds(state: GameState, seat: int, kind: str) -> list[Any]:
    return [a.value for a in state.legal_actions_for(seat) if a.kind == kind]


def refusal(state: GameState, action: Action) -> str:
    """The reason an illegal action is refused (fails the test if it is accepted)."""
    try:
        state.apply(action)
    except IllegalAction as exc:
        return str(exc)
    raise AssertionError(f"{action} was accepted")


def random_game(
    options: dict[str, Any], seed: int, on_step=None, max_deals: int | None = None
) -> GameState:
    """Play a game choosing uniformly among all legal actions of all seats.

    ``on_step(state)`` runs before each action and at the end of each deal.
    """
    rng = random.Random(seed)
    state = new_game(options, rng)
    deals = 1
    while not state.over:
        if state.needs_deal:
            if on_step:
                on_step(state)
            if max_deals is not None and deals >= max_deals:
                break
            state.deal_next(rng)
            deals += 1
            continue
        if on_step:
            on_step(state)
        legal = state.legal_actions()
        everything = [a for acts in legal.values() for a in acts]
        state.apply(rng.choice(everything))
    if on_step:
        on_step(state)
    return state


def losing_card(state: GameState, seat: int) -> str:
    """A legal card for a follower that does not win the trick, if there is one."""
    legal = [a.value for a in state.legal_actions_for(seat) if a.kind == "play"]
    losers = [c for c in legal if not beats(c.index, state.win_card, state.trump)]
    return str((losers or legal)[-1])


def leader_wins_trick(state: GameState, keep: str = "") -> None:
    """The leader leads its first card not in ``keep``; the other seats try to lose."""
    seat = state.turn
    lead = next(
        str(a.value)
        for a in state.legal_actions_for(seat)
        if a.kind == "play" and str(a.value) not in keep.split()
    )
    play(state, seat, lead)
    for _ in range(state.n - 1):
        follower = state.turn
        play(state, follower, losing_card(state, follower))


ROOT = Path(__file__).resolve().parents[2]


def replay(tmp_path: Path, record: Any) -> tuple[int, dict]:
    """Run ``python -m games.engine replay`` on a record (a dict, or raw text) as a
    developer would: exit status and parsed JSON output, never a traceback."""
    path = tmp_path / "record.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(done.stdout)


def rich_deal(state, rng: random.Random):
    """A first deal where a seat holds a rey and caballo of one suit and, with a stock, the
    card to exchange for the face-up one too: drawn at random until it comes, so that
    cantes and exchanges meet in the positions checked."""
    for _ in range(2000):
        deal = deal_cards(state.options, rng.randrange(state.n), rng, 0)
        give = exchange_card(deal.trump_card.index)
        for hand in deal.hands:
            held = {c.index for c in hand}
            pair = any(rey(s) in held and caballo(s) in held for s in range(4))
            if (pair or not state.rules.cantes) and (not state.rules.has_stock or give in held):
                return deal
    raise AssertionError("no such deal in 2,000 tries")


def card_codes(data: Any) -> set[str]:
    """Every card written anywhere in JSON data (a frame, a view): the scan of the tests
    that check no seat is shown a card it may not see."""
    if isinstance(data, dict):
        return set().union(*map(card_codes, data.values()))
    if isinstance(data, list):
        return set().union(*map(card_codes, data))
    return {data} if isinstance(data, str) and data in CARD_TEXT else set()
