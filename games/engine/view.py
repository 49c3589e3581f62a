"""What one seat, or a spectator, may see of a game: the only input of clients and robots.

A :class:`SeatView` holds the seat's own hand and everything shown face up to the whole
table: the current trick, the finished tricks of this deal (they were played face up), the
face-up trump card, cantes, exchanges, bids and scores. It never holds another seat's hand,
the stock's order or pocha's undealt cards (the face-up trump card aside).

>>> import random
>>> from games.engine import new_game
>>> g = new_game({"players": 4}, random.Random(5), first_dealer=0)
>>> v = g.view(1)
>>> len(v.hand), v.turn, v.hand_sizes
(10, 1, (10, 10, 10, 10))
>>> g.view(None).hand is None
True
>>> sorted(g.view(2).to_dict())[:4]
['bids', 'cante_open', 'cantes', 'capote']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import Card
from .options import Options


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat's view (``seat`` None for a spectator). Tuples throughout, so it is immutable.

    ``points`` are this deal's points per side (cards taken, cantes, the 10 for the last
    trick): all public, since tricks are played face up. ``trump_card`` is the card that set
    trump or, with a stock, the card face up under it now (``trump_in_stock`` says whether it
    is still there). ``cante_open`` lists the seats whose moment to sing is open now.
    """

    seat: int | None
    variant: str
    players: int
    pairs: bool
    sides: tuple[int, ...]  # side of each seat
    options: Options
    deal_number: int
    dealer: int | None
    phase: str
    turn: int | None
    leader: int | None
    hand: tuple[Card, ...] | None
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[tuple[tuple[int, Card], ...], ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    trump_suit: str | None
    trump_card: Card | None
    trump_in_stock: bool
    stock_size: int
    cantes: tuple[tuple[int, str, int], ...]
    exchanges: tuple[tuple[int, Card, Card], ...]  # (seat, card given, card taken)
    cante_open: tuple[int, ...]
    bids: tuple[int | None, ...] | None
    hand_scores: tuple[int, ...] | None
    capote: tuple[int, bool | None] | None  # (declarer, made)
    carry: tuple[int, ...] | None
    tute: tuple[int, str] | None
    last_trick: int | None
    deal_winner: int | None
    tie_break: str | None  # what settled a tie on points (GameState.tie_break)
    carries: tuple[int, ...] | None  # the points carried into the next deal
    score: tuple[int, ...]
    needs_deal: bool
    game_over: bool
    winner: int | tuple[int, ...] | None
    legal_actions: tuple[Action, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data: cards as text ("12O"), actions as in records."""

        def card(c: Card | None) -> str | None:
            return None if c is None else str(c)

        def played(t: tuple[tuple[int, Card], ...]) -> list[dict[str, Any]]:
            return [{"seat": s, "card": str(c)} for s, c in t]

        return {
            "seat": self.seat,
            "variant": self.variant,
            "players": self.players,
            "pairs": self.pairs,
            "sides": list(self.sides),
            "options": self.options.to_dict(),
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.turn,
            "leader": self.leader,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "trick": played(self.trick),
            "tricks": [played(t) for t in self.tricks],
            "tricks_won": list(self.tricks_won),
            "points": list(self.points),
            "trump_suit": self.trump_suit,
            "trump_card": card(self.trump_card),
            "trump_in_stock": self.trump_in_stock,
            "stock_size": self.stock_size,
            "cantes": [{"seat": s, "suit": u, "value": v} for s, u, v in self.cantes],
            "exchanges": [
                {"seat": s, "gave": str(g), "took": str(t)} for s, g, t in self.exchanges
            ],
            "cante_open": list(self.cante_open),
            "bids": None if self.bids is None else list(self.bids),
            "hand_scores": None if self.hand_scores is None else list(self.hand_scores),
            "capote": None
            if self.capote is None
            else {"seat": self.capote[0], "made": self.capote[1]},
            "carry": None if self.carry is None else list(self.carry),
            "tute": None if self.tute is None else {"seat": self.tute[0], "with": self.tute[1]},
            "last_trick": self.last_trick,
            "deal_winner": self.deal_winner,
            "tie_break": self.tie_break,
            "carries": None if self.carries is None else list(self.carries),
            "score": list(self.score),
            "needs_deal": self.needs_deal,
            "game_over": self.game_over,
            "winner": list(self.winner) if isinstance(self.winner, tuple) else self.winner,
            "legal_actions": [a.to_dict() for a in self.legal_actions],
        }
