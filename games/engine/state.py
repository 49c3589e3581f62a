"""The state of a game of tute, habanero or pocha, and the rules that move it (RULES.md §2–§9).

A :class:`GameState` answers "what may this seat do now" (:meth:`GameState.legal_actions_for`,
:meth:`GameState.legal_actions`) and applies one action (:meth:`GameState.apply`), raising
:class:`IllegalAction` with the kind of refusal (:class:`.refusals.Refusal`), its values and
an English sentence naming the rule broken. Dealing is explicit: when a
deal ends and the game goes on, ``needs_deal`` is true until :meth:`GameState.start_deal`.

>>> import random
>>> state = new_game({"players": 4}, random.Random(3))
>>> state._dealer, state._turn
(1, 2)
>>> acts = state.legal_actions_for(state._turn)
>>> state.apply(acts[0])
>>> state.apply(Action.play(0, "1O"))
Traceback (most recent call last):
...
games.engine.refusals.IllegalAction: It is not your turn to play (§2).

Choices where the rules leave room (each is also noted where it is coded):

- 2-player tute, singing "only while the stock still has cards": checked after the draws of
  the trick just won. So a player can sing after tricks 1–11 but not after the 12th, whose
  draws empty the stock, the same moment the exchange stops (§6).
- Tute can be announced only in a moment when that player could still sing (so, in 2-player
  tute, only while the stock has cards), never after a cante in the same deal, and in
  habanero never once capote has been declared ("nothing else decides the deal").
- The 10 for the last trick, and ``last_trick``, go to the winner of the deal's final trick
  whenever that trick is played, also when it ends a capote or a mano de vuelta.
- At equal top points in tute the tied side that won a trick most recently wins; this is the
  last trick's winner whenever that side is among the tied.
- Tute counts in habanero too (``allow_tute`` applies to both 2-player variants); in pocha
  there is none.
- Habanero capote: when the leader declares, the other player is not asked. Cantes stay
  possible during a capote and count in the points, but decide nothing. The mano de vuelta
  check runs after every trick and cante only while no capote is declared.
- Habanero: a deal where nobody passes 100 is followed by a mano de vuelta carrying each
  player's total (carried points included, should a mano de vuelta ever end that way).
- Pocha deal summaries give ``points`` as null (the whole list) until the hand ends; the game
  winner is one seat, or the list of seats tied at the top.
- An action by a seat that may not act now (not its turn, deal over, game over) is illegal,
  with a reason, not malformed.

Over 400 lines: one class, `GameState`, whose methods keep the deal's invariants together
(whose turn it is, the trick, the duties, the stock, the scores). Split, each part would reach
into the others' private fields. The rules it applies are in rulebook.py, what a seat sees in
view.py, the record in record.py.
"""

from __future__ import annotations

import secrets
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, NamedTuple

from .actions import PLAYS, Action, IllegalAction
from .cards import CARD_TEXT, CARDS, POINTS_OF, SUIT_OF, SUITS, caballo, rey
from .deal import Deal, check_deal, deal_cards, hand_size
from .determinize import determinize
from .options import BIDS, MOST_POINTS, OVER, Options, Rules, as_options
from .record import parse_record, start_listed_deal, to_record
from .refusals import Refusal
from .rulebook import (
    BEATS,
    cante_value,
    exchange_card,
    follower_duties,
    full_duties_apply,
    may_sing_after_trick,
    pocha_hand_score,
    singable_suits,
    stock_play_allowed,
    trick_winner,
    trick_winner_seat,
    tute_ranks,
    wins_over,
)
from .view import SeatView

# Phases of a deal. DONE covers "before the first deal", "deal over" and "game over".
BID, CAPOTE, PLAY, DONE = "bid", "capote", "play", "done"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The game's result so far: ``winner`` is a side, a list of sides (a pocha tie), or None."""

    over: bool
    winner: int | list[int] | None
    score: tuple[int, ...]


class GameState:
    """One game: options, game score, and the deal being played.

    Internals are plain ints and lists (cards are ints 0..39, see :mod:`.cards`) so that a
    ply costs a few microseconds and :meth:`clone` is cheap for robots' playouts.
    """

    __slots__ = (
        "_bids",
        "_cache",
        "_can_exchange",
        "_cantes",
        "_capote_asked",
        "_capote_made",
        "_capote_seat",
        "_capote_turn",
        "_carry",
        "_deal",
        "_deal_index",
        "_deal_winner",
        "_dealer",
        "_duties_now",
        "_exchanged",
        "_exchanges",
        "_finished",
        "_first_dealer",
        "_hand_scores",
        "_hands",
        "_last_trick",
        "_last_win",
        "_leader",
        "_led",
        "_log",
        "_masks",
        "_moment",
        "_moment_all",
        "_moment_seats",
        "_n",
        "_next_carry",
        "_next_seat",
        "_options",
        "_over",
        "_partner",
        "_phase",
        "_points",
        "_rules",
        "_sang",
        "_score",
        "_side_of",
        "_sides",
        "_stock",
        "_sung",
        "_trick",
        "_trick_leader",
        "_tricks",
        "_tricks_won",
        "_trump",
        "_trump_card",
        "_trump_in_stock",
        "_turn",
        "_tute",
        "_win_card",
        "_win_seat",
        "_winner",
    )

    def __init__(self, options: Options | Mapping[str, Any] | None = None) -> None:
        """A game with these options, waiting for its first deal (:meth:`start_deal`)."""
        self._options = as_options(options)
        rules = self._rules = self._options.rules
        self._n = rules.players
        self._sides = rules.sides
        self._side_of, self._partner, self._next_seat, self._moment_seats = _seating(rules)
        self._score = [0] * self._sides
        self._first_dealer: int | None = None
        self._deal_index = -1
        self._over = False
        self._winner: int | list[int] | None = None
        self._finished: list[tuple[Deal, tuple[Action, ...], _Ended]] = []
        self._deal: Deal | None = None
        self._log: list[Action] = []
        self._next_carry: list[int] | None = None
        self._clear_deal()

    def _clear_deal(self) -> None:
        """Forget the deal being played: no hands, no tricks, no moment to sing."""
        n = self._n
        self._phase = DONE
        self._dealer = self._leader = self._turn = -1
        self._hands: list[list[int]] = [[] for _ in range(n)]  # sorted card ints
        self._masks = [0] * n  # the same hands as bitmasks (bit c set: card c held)
        self._trump = -1
        self._trump_card = -1
        self._trump_in_stock = False
        self._stock: list[int] = []  # hidden stock cards, top card LAST so pop() draws it
        self._trick: list[int] = []
        self._trick_leader = self._win_card = self._win_seat = self._led = -1
        self._tricks: list[tuple[int, list[int]]] = []  # (leader, cards in play order)
        self._tricks_won = [0] * n
        self._points = [0] * self._sides
        self._last_win = [-1] * self._sides  # number of the side's latest trick, for ties
        self._last_trick: int | None = None
        self._moment: tuple[int, ...] = ()  # seats whose cante moment is open and unused
        self._moment_all: tuple[int, ...] = ()  # seats who had this moment, used or not
        self._can_exchange = False
        self._exchanged = False
        self._sung = 0  # bit rey(s) set when suit s was sung this deal
        self._cantes: list[tuple[int, int, int]] = []  # (seat, suit, value)
        self._sang = [False] * n
        self._exchanges: list[tuple[int, int, int]] = []  # (seat, card given, card taken)
        self._capote_seat: int | None = None
        self._capote_made: bool | None = None
        self._capote_turn = -1
        self._capote_asked = False
        self._carry: list[int] | None = None
        self._bids: list[int | None] | None = None
        self._hand_scores: list[int] | None = None
        self._deal_winner: int | None = None
        self._tute: tuple[int, str] | None = None
        self._cache: tuple[int, list[int]] | None = None
        # Whether followers owe the full duties of §5 now; it changes only with the stock.
        self._duties_now = True

    # ------------------------------------------------------------------ dealing

    @property
    def needs_deal(self) -> bool:
        """True when the game waits for :meth:`start_deal` (before the first deal, or
        after a deal that did not end the game)."""
        return self._phase == DONE and not self._over

    @property
    def deal_over(self) -> bool:
        """True once the deal being played has ended."""
        return self._phase == DONE and self._deal is not None

    @property
    def next_dealer(self) -> int | None:
        """Dealer of the next deal: (first dealer + k) % n; None before the first deal."""
        if self._first_dealer is None:
            return None
        return (self._first_dealer + self._deal_index + 1) % self._n

    def start_deal(self, deal: Deal) -> None:
        """Start the next deal with these cards. ValueError if no deal is due or the cards
        do not fit (wrong dealer, sizes, cards: see :func:`.deal.check_deal`)."""
        if self._over:
            raise ValueError("The game is over; no deal can follow.")
        if self._phase != DONE:
            raise ValueError("The current deal is not finished.")
        k = self._deal_index + 1
        check_deal(self._rules, k, deal)
        if self._first_dealer is not None and deal.dealer != self.next_dealer:
            raise ValueError(f"Deal {k} must be dealt by seat {self.next_dealer}.")
        if self._deal is not None:
            self._finished.append((self._deal, tuple(self._log), self._ended()))
        carry = self._next_carry
        self._clear_deal()
        if self._first_dealer is None:
            self._first_dealer = deal.dealer
        rules = self._rules
        self._deal_index = k
        self._deal = deal
        self._log = []
        self._dealer = deal.dealer
        self._leader = self._turn = self._next_seat[deal.dealer]
        self._hands = [sorted(map(_INDEX, h)) for h in deal.hands]
        self._masks = [sum(map(_BIT.__getitem__, h)) for h in self._hands]
        self._trump_card = deal.trump_card.index
        self._trump = SUIT_OF[self._trump_card]
        if rules.has_stock:
            self._stock = list(map(_INDEX, reversed(deal.stock)))
            self._trump_in_stock = True
        self._duties_now = full_duties_apply(rules.has_stock, rules.stock_play, self.stock_left)
        self._carry = carry
        self._next_carry = None
        if rules.bids:
            self._bids = [None] * self._n
            self._phase = BID
        else:
            self._phase = PLAY

    def deal_next(self, rng: Any = None) -> None:
        """Deal the next deal with ``rng`` (system randomness by default) and start it."""
        dealer = self.next_dealer
        if dealer is None:
            rng = rng if rng is not None else secrets.SystemRandom()
            dealer = rng.randrange(self._n)
        self.start_deal(deal_cards(self._options, dealer, rng, self._deal_index + 1))

    # ------------------------------------------------------------------ queries

    @property
    def stock_left(self) -> int:
        """Cards still to draw, the face-up trump card included."""
        return len(self._stock) + self._trump_in_stock

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat in the current (or first) deal."""
        return hand_size(self._rules, max(self._deal_index, 0))

    @property
    def to_move(self) -> int | None:
        """The seat whose bid, capote decision or card the game waits for; None when none.

        Seats in a cante moment (``moment``) may act too; see :meth:`legal_actions`."""
        if self._phase == PLAY or self._phase == BID:
            return self._turn
        if self._phase == CAPOTE:
            return self._capote_turn
        return None

    def hand(self, seat: int) -> list[Any]:
        """The cards in ``seat``'s hand, as :class:`Card` objects, sorted."""
        return [CARDS[c] for c in self._hands[seat]]

    def outcome(self) -> Outcome:
        """The game's result so far."""
        return Outcome(self._over, self._winner, tuple(self._score))

    def legal_actions(self) -> dict[int, list[Action]]:
        """Every legal action of every seat that has one, sorted as NOTATION.md says."""
        phase = self._phase
        if phase == DONE:
            return {}
        first = self._capote_turn if phase == CAPOTE else self._turn
        moment = self._moment
        if not moment or (len(moment) == 1 and moment[0] == first):
            acts = self.legal_actions_for(first)
            return {first: acts} if acts else {}
        out = {}
        for seat in sorted({first, *self._moment}):
            acts = self.legal_actions_for(seat)
            if acts:
                out[seat] = acts
        return out

    def legal_actions_for(self, seat: int) -> list[Action]:
        """What ``seat`` may do now, in NOTATION.md order (bid, capote, exchange, play, sing,
        tute). Empty when the seat has nothing to do."""
        phase = self._phase
        if phase == PLAY and seat == self._turn and not self._moment and not self._can_exchange:
            # The common case, kept short: a card to play and nothing else to do.
            plays = PLAYS[seat]
            if not self._trick:
                return [plays[c] for c in self._hands[seat]]
            return [plays[c] for c in self._allowed(seat)]
        if phase == DONE:
            return []
        if phase == BID:
            if seat != self._turn:
                return []
            return [Action(seat, "bid", b) for b in range(len(self._hands[seat]) + 1)]
        acts: list[Action] = []
        if phase == CAPOTE:
            if seat == self._capote_turn:
                acts += (Action(seat, "capote", False), Action(seat, "capote", True))
        elif seat == self._turn:
            if self._can_exchange:
                give = self._exchange_card()
                if give is not None and give in self._hands[seat]:
                    acts.append(Action(seat, "exchange", CARDS[give]))
            plays = PLAYS[seat]
            acts += [plays[c] for c in self._allowed(seat)]
        if seat in self._moment:
            acts += [Action(seat, "sing", SUITS[s]) for s in self._singable(seat)]
            acts += [Action(seat, "tute", r) for r in self._tute_ranks(seat)]
        return acts

    def _allowed(self, seat: int) -> list[int]:
        """Cards ``seat`` may play to the current trick (§5); cached, with the duty that
        chose them, until the next action."""
        cache = self._cache
        if cache is not None and cache[0] == seat:
            return cache[1]
        hand = self._hands[seat]
        if not self._trick:
            allowed, duty = hand, None
        elif self._duties_now:
            allowed, duty = follower_duties(hand, self._led, self._win_card, self._trump)
        else:
            allowed, duty = stock_play_allowed(hand, self._led, self._trump, self._rules.stock_play)
        # The duty is kept with the cards: it is the reason any other card is refused.
        self._cache = (seat, allowed, duty)
        return allowed

    def _exchange_card(self) -> int | None:
        """The card that may be given for the face-up trump card now (§6), or None."""
        return exchange_card(self._trump_card)

    def _singable(self, seat: int) -> list[int]:
        """Suits ``seat`` may sing now, the 40 alone when it is available (§7)."""
        return singable_suits(self._masks[seat], self._sung, self._trump)

    def _tute_ranks(self, seat: int) -> list[str]:
        """The tutes ``seat`` may announce, if its moment allowed (§7): none at a table
        without tute, after a cante of its own this deal, or once capote is declared."""
        if not self._rules.allow_tute or self._sang[seat] or self._capote_seat is not None:
            return []
        return tute_ranks(self._masks[seat])

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> None:
        """Apply one action; raise :class:`IllegalAction` naming the rule it breaks."""
        kind = action.kind
        if kind == "play":
            # Playing a card is the hot path: it is inlined here, not in a helper.
            seat = action.seat
            try:
                card = action.value.index
            except AttributeError:
                raise IllegalAction(Refusal.PLAY_NEEDS_CARD) from None
            if self._phase != PLAY or seat != self._turn:
                raise self._why_not_turn(seat)
            cache = self._cache
            allowed = cache[1] if cache is not None and cache[0] == seat else self._allowed(seat)
            if card not in allowed:
                raise self._why_not_card(seat, card)
            self._hands[seat].remove(card)
            self._masks[seat] ^= 1 << card
            self._cache = None
            trick = self._trick
            if not trick:
                # Leading closes the cante moment and the chance to exchange (§6, §7).
                if self._moment:
                    self._moment = ()
                self._can_exchange = False
                self._led = SUIT_OF[card]
                self._win_card = card
                self._win_seat = seat
                self._trick_leader = seat
            elif BEATS[self._trump][self._win_card * 40 + card]:
                self._win_card = card
                self._win_seat = seat
            trick.append(card)
            if len(trick) == self._n:
                self._end_trick()
            else:
                self._turn = self._next_seat[seat]
        else:
            seat = action.seat
            if not isinstance(seat, int) or not 0 <= seat < self._n:
                raise IllegalAction(Refusal.NO_SUCH_SEAT, seat=seat)
            if self._phase == DONE:
                raise IllegalAction(Refusal.GAME_OVER if self._over else Refusal.DEAL_OVER)
            handler = getattr(self, "_do_" + kind, None) if isinstance(kind, str) else None
            if handler is None:
                raise IllegalAction(Refusal.NO_SUCH_ACTION, action=kind)
            handler(seat, action.value)
        self._log.append(action)

    def _end_trick(self) -> None:
        """The trick is complete: its winner takes it and its points, both draw with a stock,
        and the moment to sing, the exchange, capote or the end of the deal follow (§5-§8)."""
        rules = self._rules
        w = self._win_seat
        cards = self._trick
        self._trick = []
        self._tricks.append((self._trick_leader, cards))  # the list is never mutated again
        self._tricks_won[w] += 1
        side = self._side_of[w]
        if rules.counts_card_points:
            self._points[side] += sum(map(POINTS_OF.__getitem__, cards))
        self._last_win[side] = len(self._tricks)
        if rules.has_stock and (self._stock or self._trump_in_stock):
            # Winner draws first; with one hidden card left the loser gets the trump card.
            self._draw(w)
            self._draw(1 - w)
            self._duties_now = full_duties_apply(rules.has_stock, rules.stock_play, self.stock_left)
        final = not self._hands[w]
        if final:
            self._last_trick = w
            self._points[side] += rules.last_trick_bonus
        self._leader = self._turn = w
        self._exchanged = False
        if self._capote_seat is not None:
            # A declared capote: the first trick lost, or the last one won, decides (§8).
            if w != self._capote_seat:
                self._capote_made = False
                self._finish_deal(w)
            elif final:
                self._capote_made = True
                self._finish_deal(w)
            if self._phase == DONE:
                return
        elif self._carry is not None and self._carry_won(w):
            return
        if final:
            self._score_deal()
            return
        if may_sing_after_trick(rules.cantes, rules.cante_needs_stock, self.stock_left):
            self._moment = self._moment_all = self._moment_seats[w]
        else:
            self._moment_all = ()
        if rules.has_stock:
            # Exchange only while a hidden card is left besides the trump card (§6).
            self._can_exchange = bool(self._stock) and self._trump_in_stock
            if rules.capote and not self._capote_asked and not self.stock_left:
                self._capote_asked = True
                self._phase = CAPOTE
                self._capote_turn = w

    def _draw(self, seat: int) -> None:
        """``seat`` takes the top card of the stock, or the face-up trump card when only
        it is left (§5)."""
        if self._stock:
            card = self._stock.pop()
        else:
            card = self._trump_card
            self._trump_in_stock = False
        insort(self._hands[seat], card)
        self._masks[seat] |= 1 << card

    def _carry_won(self, seat: int) -> bool:
        """Mano de vuelta: the first player over 100 with the carried points wins (§8)."""
        if wins_over(self._carry[seat] + self._points[seat]):  # type: ignore[index]
            self._finish_deal(seat)
            return True
        return False

    def _do_sing(self, seat: int, suit_letter: str) -> None:
        """Apply a cante, or raise :class:`IllegalAction` (§7)."""
        rules = self._rules
        if not rules.cantes:
            raise IllegalAction(Refusal.NO_CANTES)
        if not isinstance(suit_letter, str) or len(suit_letter) != 1 or suit_letter not in SUITS:
            raise IllegalAction(Refusal.CANTE_SUIT, suit=suit_letter)
        self._check_moment(seat, "sing")
        suit = SUITS.index(suit_letter)
        hand = self._hands[seat]
        if self._sung >> rey(suit) & 1:
            raise IllegalAction(Refusal.SUNG_ALREADY, suit=suit_letter)
        if rey(suit) not in hand or caballo(suit) not in hand:
            raise IllegalAction(Refusal.NO_PAIR, suit=suit_letter)
        if suit != self._trump and self._trump in self._singable(seat):
            raise IllegalAction(Refusal.FORTY_FIRST, suit=suit_letter, trump=SUITS[self._trump])
        value = cante_value(suit, self._trump)
        self._sung |= 1 << rey(suit)
        self._sang[seat] = True
        self._moment = tuple(s for s in self._moment if s != seat)
        self._cantes.append((seat, suit, value))
        self._points[self._side_of[seat]] += value
        self._cache = None
        if self._carry is not None and self._capote_seat is None:
            self._carry_won(seat)

    def _do_tute(self, seat: int, rank: str) -> None:
        """Apply a tute announcement, which ends the game, or raise (§7)."""
        rules = self._rules
        if not rules.cantes:
            raise IllegalAction(Refusal.NO_TUTE)
        if rank not in ("11", "12"):
            raise IllegalAction(Refusal.TUTE_RANK, rank=rank)
        if not rules.allow_tute:
            raise IllegalAction(Refusal.TUTE_OFF)
        if self._sang[seat]:
            raise IllegalAction(Refusal.TUTE_AFTER_CANTE)
        self._check_moment(seat, "tute")
        if self._capote_seat is not None:
            raise IllegalAction(Refusal.CAPOTE_DECIDES)
        if rank not in self._tute_ranks(seat):
            raise IllegalAction(Refusal.TUTE_NOT_HELD, rank=rank)
        side = self._side_of[seat]
        self._tute = (seat, rank)
        self._moment = ()
        self._finish_deal(side, tute=True)

    def _check_moment(self, seat: int, what: str) -> None:
        """Raise unless ``seat``'s moment to sing is open now (§7); changes nothing."""
        if seat in self._moment:
            return
        if seat in self._moment_all and self._trick == [] and self._phase != DONE:
            raise IllegalAction(Refusal.ONE_CANTE_PER_TRICK)
        rules = self._rules
        if (
            rules.cante_needs_stock
            and not self.stock_left
            and not self._trick
            and self._side_of[self._leader] == self._side_of[seat]
            and self._tricks
        ):
            raise IllegalAction(Refusal.SING_WITH_STOCK)
        raise IllegalAction(Refusal.NO_MOMENT, action=what)

    def _do_exchange(self, seat: int, card_obj: Any) -> None:
        """Apply an exchange of the 7 or 2 of trump for the face-up card, or raise (§6)."""
        rules = self._rules
        if not rules.has_stock:
            raise IllegalAction(Refusal.EXCHANGE_NEEDS_STOCK)
        card = getattr(card_obj, "index", None)
        if not isinstance(card, int) or not 0 <= card < 40:  # a str has an index method too
            raise IllegalAction(Refusal.EXCHANGE_NEEDS_CARD)
        if self._phase != PLAY or seat != self._turn or self._trick or not self._tricks:
            raise IllegalAction(Refusal.EXCHANGE_MOMENT)
        if self._exchanged:
            raise IllegalAction(Refusal.EXCHANGED_ALREADY)
        if not self._can_exchange:
            raise IllegalAction(Refusal.EXCHANGE_STOCK_LOW)
        give = self._exchange_card()
        face_up = CARD_TEXT[self._trump_card]
        if give is None:
            raise IllegalAction(Refusal.NOTHING_FOR_A_TWO, trump_card=face_up)
        if card != give:
            raise IllegalAction(
                Refusal.WRONG_EXCHANGE,
                card=CARD_TEXT[card],
                give=CARD_TEXT[give],
                trump_card=face_up,
            )
        hand = self._hands[seat]
        if card not in hand:
            raise IllegalAction(Refusal.NOT_HELD, card=CARD_TEXT[card])
        hand.remove(card)
        insort(hand, self._trump_card)
        self._masks[seat] ^= (1 << card) | (1 << self._trump_card)
        self._exchanges.append((seat, card, self._trump_card))
        self._trump_card = card
        self._exchanged = True
        self._can_exchange = False
        self._cache = None

    def _do_capote(self, seat: int, declare: Any) -> None:
        """Apply a capote declaration or refusal, or raise (§8)."""
        if not self._rules.capote:
            raise IllegalAction(Refusal.NO_CAPOTE)
        if not isinstance(declare, bool):
            raise IllegalAction(Refusal.CAPOTE_VALUE, value=declare)
        if self._phase != CAPOTE:
            raise IllegalAction(Refusal.CAPOTE_MOMENT)
        if seat != self._capote_turn:
            raise IllegalAction(Refusal.NOT_YOUR_CAPOTE, turn=self._capote_turn)
        if declare:
            self._capote_seat = seat
        if declare or seat != self._leader:
            self._phase = PLAY
            self._capote_turn = -1
        else:
            self._capote_turn = 1 - seat
        self._cache = None

    def _do_bid(self, seat: int, tricks: Any) -> None:
        """Apply a pocha bid, or raise (§9)."""
        if not self._rules.bids:
            raise IllegalAction(Refusal.NO_BIDS)
        if self._phase != BID:
            raise IllegalAction(Refusal.BIDDING_OVER)
        if seat != self._turn:
            raise IllegalAction(Refusal.NOT_YOUR_BID, turn=self._turn)
        size = len(self._hands[seat])
        if not isinstance(tricks, int) or isinstance(tricks, bool) or not 0 <= tricks <= size:
            raise IllegalAction(Refusal.BID_RANGE, bid=tricks, most=size)
        self._bids[seat] = tricks  # type: ignore[index]
        if seat == self._dealer:
            self._phase = PLAY
            self._turn = self._leader
        else:
            self._turn = self._next_seat[seat]

    # ------------------------------------------------------------------ why not

    def _why_not_turn(self, seat: int) -> IllegalAction:
        """Why ``seat`` may not play a card now."""
        if self._over:
            return IllegalAction(Refusal.GAME_OVER)
        if self._phase == DONE:
            return IllegalAction(Refusal.DEAL_OVER)
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            return IllegalAction(Refusal.NO_SUCH_SEAT, seat=seat)
        if self._phase == BID:
            return IllegalAction(Refusal.BIDS_FIRST, turn=self._turn)
        if self._phase == CAPOTE:
            return IllegalAction(Refusal.CAPOTE_FIRST, turn=self._capote_turn)
        return IllegalAction(Refusal.NOT_YOUR_TURN, turn=self._turn)

    def play_duty(self, seat: int) -> Refusal | None:
        """The duty of §5 that bars some of ``seat``'s cards now, the refusal a barred card
        would get; None when it is not the seat's turn to play a card, or it may play any
        card it holds."""
        if self._phase != PLAY or seat != self._turn or not self._trick:
            return None
        if len(self._allowed(seat)) == len(self._hands[seat]):
            return None
        return self._cache[2]  # type: ignore[index]

    def _why_not_card(self, seat: int, card: int) -> IllegalAction:
        """Why ``seat``, whose turn it is, may not play ``card``: not held, or the duty of
        §5 that chose the cards it may play (the rulebook's answer, kept by :meth:`_allowed`)."""
        if not isinstance(card, int) or not 0 <= card < 40:
            # A value whose ``index`` is no card's (a str's index method): no card at all.
            return IllegalAction(Refusal.PLAY_NEEDS_CARD)
        if card not in self._hands[seat]:
            return IllegalAction(Refusal.NOT_HELD, card=CARD_TEXT[card])
        self._allowed(seat)
        duty = self._cache[2]  # type: ignore[index]
        facts = {
            "card": CARD_TEXT[card],
            "led": SUITS[self._led],
            "trump": SUITS[self._trump],
            "to_beat": CARD_TEXT[self._win_card],
        }
        return IllegalAction(duty, **{name: facts[name] for name in duty.fields})

    # ------------------------------------------------------------------ scoring

    def _score_deal(self) -> None:
        """All tricks played, nothing ended the deal early: score it by variant (§8, §9)."""
        rules = self._rules
        if rules.deal_scoring == BIDS:
            scores = [
                pocha_hand_score(bid, taken)  # type: ignore[arg-type]
                for bid, taken in zip(self._bids, self._tricks_won, strict=True)  # type: ignore[arg-type]
            ]
            for seat, score in enumerate(scores):
                self._score[seat] += score
            self._hand_scores = scores
            self._finish_deal(None)
        elif rules.deal_scoring == OVER:
            carry = self._carry or [0, 0]
            totals = [carry[s] + self._points[s] for s in range(2)]
            over = [s for s in range(2) if wins_over(totals[s])]
            if not over:
                # Nobody over 100: a mano de vuelta follows and carries these points.
                self._next_carry = totals
                self._finish_deal(None)
            elif totals[0] != totals[1]:  # one over 100, or both and one higher
                self._finish_deal(max(over, key=lambda s: totals[s]))
            else:
                self._finish_deal(self._last_trick)
        else:
            top = max(self._points)
            tied = [s for s in range(self._sides) if self._points[s] == top]
            self._finish_deal(max(tied, key=lambda s: self._last_win[s]))

    @property
    def tie_break(self) -> str | None:
        """What settled a tie on points in the deal just scored (§8): "last_trick" when the
        side that took the last trick won the deal so, "latest_trick" when, in tute, the
        tied side that won a trick most recently did and the last trick went to another;
        None when no tie settled it (or the deal is not over, or tute or capote ended it)."""
        winner = self._deal_winner
        if self._phase != DONE or winner is None or self._tute is not None:
            return None
        rules = self._rules
        if rules.deal_scoring == OVER and self._capote_seat is None:
            carry = self._carry or [0, 0]
            totals = [carry[s] + self._points[s] for s in range(2)]
            return "last_trick" if totals[0] == totals[1] else None
        if rules.deal_scoring == MOST_POINTS:
            top = self._points[winner]
            if sum(1 for points in self._points if points == top) < 2:
                return None
            return "last_trick" if self._side_of[self._last_trick] == winner else "latest_trick"
        return None

    @property
    def carries(self) -> tuple[int, ...] | None:
        """The points this deal carries into the next one (habanero's deal won by nobody,
        §8), each side's; None when it carries nothing."""
        if self._phase != DONE or self._next_carry is None:
            return None
        return tuple(self._next_carry)

    def _finish_deal(self, winner: int | None, tute: bool = False) -> None:
        """End the deal, won by side ``winner`` (None: nobody, as in pocha or a habanero
        deal under 100), and the game when that reaches its goal (§8, §9)."""
        self._phase = DONE
        self._moment = ()
        self._can_exchange = False
        self._cache = None
        self._deal_winner = winner
        rules = self._rules
        if winner is not None:
            self._score[winner] += 1
            if tute or self._score[winner] >= rules.deals_to_win:
                self._over = True
                self._winner = winner
        elif rules.deals_in_game is not None and self._deal_index == rules.deals_in_game - 1:
            self._over = True
            top = max(self._score)
            best = [s for s in range(self._n) if self._score[s] == top]
            self._winner = best[0] if len(best) == 1 else best

    # ------------------------------------------------------------------ copies, records

    def clone(self) -> GameState:
        """An independent copy for search and playouts; finished deals are shared.

        The body is generated from ``__slots__`` below (see ``_make_clone``), so a new slot
        cannot be forgotten and the copy runs as straight-line code.
        """
        raise NotImplementedError  # replaced by _make_clone() at import

    def record_deals(self) -> list[tuple[Deal, tuple[Action, ...]]]:
        """Each deal's cards and actions so far, for :func:`.record.to_record`."""
        out = [(d, a) for d, a, _ in self._finished]
        if self._deal is not None:
            out.append((self._deal, tuple(self._log)))
        return out

    def deal_summaries(self) -> list[dict[str, Any]]:
        """One JSON-safe summary per deal, as the replay command prints them."""
        out = [_summary(ended) for _, _, ended in self._finished]
        if self._deal is not None:
            out.append(_summary(self))
        return out

    def _ended(self) -> _Ended:
        """What a finished deal's summary needs. The lists are kept, not copied: the next
        deal starts new ones and never touches these again."""
        return _Ended(*(getattr(self, name) for name in _Ended._fields))

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may see (None: a spectator; no hand, no actions); see :mod:`.view`."""
        n = self.n
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"There is no seat {seat!r} at this table.")
        dealt = self.deal_index >= 0
        hand = None if seat is None else tuple(CARDS[c] for c in self.hands[seat])
        lead = self.trick_leader
        trick = tuple(((lead + i) % n, CARDS[c]) for i, c in enumerate(self.trick))
        tricks = tuple(
            tuple(((ld + i) % n, CARDS[c]) for i, c in enumerate(cards))
            for ld, cards in self.tricks
        )
        winner = self.winner
        return SeatView(
            seat=seat,
            variant=self.rules.variant,
            players=n,
            pairs=self.rules.pairs,
            sides=self.side_of,
            options=self.options,
            deal_number=self.deal_index,
            dealer=self.dealer if dealt else None,
            phase=self.phase,
            turn=self.to_move,
            leader=self.leader if dealt else None,
            hand=hand,
            hand_sizes=tuple(len(h) for h in self.hands),
            trick=trick,
            tricks=tricks,
            tricks_won=tuple(self.tricks_won),
            points=tuple(self.points),
            trump_suit=SUITS[self.trump] if dealt else None,
            trump_card=CARDS[self.trump_card] if dealt else None,
            trump_in_stock=self.trump_in_stock,
            stock_size=self.stock_left,
            cantes=tuple((s, SUITS[u], v) for s, u, v in self.cantes),
            exchanges=tuple((s, CARDS[g], CARDS[t]) for s, g, t in self.exchanges),
            cante_open=tuple(sorted(self.moment)),
            bids=None if self.bids is None else tuple(self.bids),
            hand_scores=None if self.hand_scores is None else tuple(self.hand_scores),
            capote=None if self.capote_seat is None else (self.capote_seat, self.capote_made),
            carry=None if self.carry is None else tuple(self.carry),
            tute=self.tute,
            last_trick=self.last_trick,
            deal_winner=self.deal_winner,
            tie_break=self.tie_break,
            carries=self.carries,
            score=tuple(self.score),
            needs_deal=self.needs_deal,
            game_over=self.over,
            winner=tuple(winner) if isinstance(winner, list) else winner,
            legal_actions=() if seat is None else tuple(self.legal_actions_for(seat)),
        )

    def determinize(self, seat: int, rng: Any) -> GameState:
        """A clone with the cards hidden from ``seat`` placed anew; see :mod:`.determinize`."""
        return determinize(self, seat, rng)

    def to_record(self) -> dict[str, Any]:
        """The game record (NOTATION.md) of this game so far."""
        return to_record(self)

    def with_hidden_cards(self, hands: Mapping[int, list[int]], stock: list[int]) -> GameState:
        """A clone where each seat of ``hands`` holds those cards instead, and the hidden
        stock is ``stock`` (top card last): a determinized copy for playouts. Its record
        still names the real deal."""
        copy = self.clone()
        for seat, hand in hands.items():
            copy._hands[seat] = sorted(hand)
            copy._masks[seat] = sum(_BIT[c] for c in hand)
        copy._stock = list(stock)
        return copy

    @classmethod
    def in_play(
        cls,
        options: Options,
        *,
        deal_index: int,
        dealer: int,
        score: Sequence[int],
        hands: Sequence[Sequence[int]],
        trump_card: int,
        tricks: Sequence[tuple[int, Sequence[int]]],
        trick: Sequence[int],
        cantes: Sequence[tuple[int, int, int]],
        cante_open: Sequence[int],
        tute: tuple[int, str] | None = None,
    ) -> GameState:
        """A deal being played, rebuilt from what the whole table saw and a guess at the
        hands: a position for playouts (see :mod:`.position`), with no record of the deal.

        Only deals without a stock or bids, where every card is in some hand. ``tricks``
        are (leader, cards in play order) and ``trick`` the cards on the table; who leads
        and whose turn it is, the points and the tricks won follow from them.
        """
        state = cls(options)
        rules = state._rules
        if rules.has_stock or rules.bids:
            raise ValueError("Positions in play need a deal with every card in hand.")
        n = state._n
        state._score = list(score)
        state._deal_index = deal_index
        state._first_dealer = (dealer - deal_index) % n
        state._phase = PLAY
        state._dealer = dealer
        state._hands = [sorted(h) for h in hands]
        state._masks = [sum(_BIT[c] for c in h) for h in hands]
        state._trump_card = trump_card
        state._trump = SUIT_OF[trump_card]
        state._leader = state._next_seat[dealer]
        for leader, cards in tricks:
            winner = trick_winner_seat(state._trump, n, leader, cards)
            side = state._side_of[winner]
            state._tricks.append((leader, list(cards)))
            state._tricks_won[winner] += 1
            if rules.counts_card_points:
                state._points[side] += sum(POINTS_OF[c] for c in cards)
            state._last_win[side] = len(state._tricks)
            state._leader = winner
        state._turn = state._leader
        if trick:
            state._trick = list(trick)
            state._trick_leader = state._leader
            state._led = SUIT_OF[trick[0]]
            best = trick_winner(trick, state._trump)
            state._win_seat = (state._leader + best) % n
            state._win_card = trick[best]
            state._turn = (state._leader + len(trick)) % n
        elif tricks:
            state._moment_all = state._moment_seats[state._leader]
        state._moment = tuple(cante_open)
        for seat, suit, value in cantes:
            state._cantes.append((seat, suit, value))
            state._points[state._side_of[seat]] += value
            state._sung |= 1 << rey(suit)
            state._sang[seat] = True
        state._tute = tute
        return state


def _read_only(name: str, copy: Any = None) -> property:
    """A public, read-only face of the private field ``_name``: lists come out as copies,
    so nothing outside the state can change it."""
    get = attrgetter("_" + name)
    if copy is None:
        return property(get, doc=f"The game's ``{name}`` (read only).")
    return property(lambda self: copy(get(self)), doc=f"A copy of the game's ``{name}``.")


def _optional_list(value: list[Any] | None) -> list[Any] | None:
    return None if value is None else list(value)


def _winner_copy(value: int | list[int] | None) -> int | list[int] | None:
    return list(value) if isinstance(value, list) else value


# What other modules may read; they change the state only through its methods.
for _name in (
    "can_exchange",
    "capote_asked",
    "capote_made",
    "capote_seat",
    "capote_turn",
    "deal_index",
    "deal_winner",
    "dealer",
    "exchanged",
    "first_dealer",
    "last_trick",
    "leader",
    "led",
    "moment",
    "moment_all",
    "moment_seats",
    "n",
    "next_seat",
    "options",
    "over",
    "partner",
    "phase",
    "rules",
    "side_of",
    "sides",
    "sung",
    "trick_leader",
    "trump",
    "trump_card",
    "trump_in_stock",
    "turn",
    "tute",
    "win_card",
    "win_seat",
):
    setattr(GameState, _name, _read_only(_name))
for _name in (
    "cantes",
    "exchanges",
    "last_win",
    "masks",
    "points",
    "sang",
    "score",
    "stock",
    "trick",
    "tricks_won",
):
    setattr(GameState, _name, _read_only(_name, list))
for _name in ("bids", "carry", "hand_scores"):
    setattr(GameState, _name, _read_only(_name, _optional_list))
GameState.hands = _read_only("hands", lambda hands: [list(h) for h in hands])  # type: ignore[attr-defined]
GameState.tricks = _read_only("tricks", lambda ts: [(ld, list(c)) for ld, c in ts])  # type: ignore[attr-defined]
GameState.winner = _read_only("winner", _winner_copy)  # type: ignore[attr-defined]


# How clone() copies each slot: shared (immutable or never mutated after creation), copied
# lists, or lists that may be None.
_LISTS = (
    "_finished",
    "_log",
    "_cantes",
    "_exchanges",
    "_last_win",
    "_masks",
    "_points",
    "_sang",
    "_score",
    "_stock",
    "_trick",
    "_tricks",
    "_tricks_won",
)
_OPTIONAL_LISTS = ("_bids", "_carry", "_hand_scores", "_next_carry")
_SHARED = tuple(
    name
    for name in GameState.__slots__
    if name not in (*_LISTS, *_OPTIONAL_LISTS, "_hands", "_cache")
)


def _make_clone() -> Any:
    """Build GameState.clone as straight-line code: a loop of setattr calls costs ~4x more."""
    lines = ["def clone(self):", "    new = _new(GameState)"]
    lines += [f"    new.{name} = self.{name}" for name in _SHARED]
    lines += [f"    new.{name} = self.{name}[:]" for name in _LISTS]
    for name in _OPTIONAL_LISTS:
        lines.append(f"    new.{name} = None if self.{name} is None else self.{name}[:]")
    lines.append("    new._hands = [h[:] for h in self._hands]")
    lines.append("    new._cache = None  # it may point at one of our hand lists")
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "GameState": GameState}
    exec("\n".join(lines), namespace)  # trusted: built above from our own slot names
    clone = namespace["clone"]
    clone.__doc__ = GameState.clone.__doc__
    return clone


GameState.clone = _make_clone()  # type: ignore[method-assign]


_INDEX = attrgetter("index")
_BIT = tuple(1 << c for c in range(40))
_SEATING: dict[Rules, tuple[Any, ...]] = {}


def _seating(rules: Rules) -> tuple[Any, ...]:
    """Per-table constants: side of each seat, partner, next seat, who sings after a win."""
    cached = _SEATING.get(rules)
    if cached is None:
        n = rules.players
        cached = _SEATING[rules] = (
            tuple(rules.side_of(s) for s in range(n)),
            tuple((s + 2) % 4 for s in range(n)) if rules.pairs else None,
            tuple((s + 1) % n for s in range(n)),
            # Who may sing after seat w wins a trick: w, and w's partner in pairs (§7).
            tuple((w, (w + 2) % 4) if rules.pairs else (w,) for w in range(n)),
        )
    return cached


def _summary(deal: Any) -> dict[str, Any]:
    """One deal's summary as the replay command prints it, from a state or an _Ended."""
    n = len(deal.side_of)
    if deal.bids is not None:
        points: list[int] | None = None if deal.hand_scores is None else deal.hand_scores[:]
    else:
        points = deal.points[:]
    cantes: list[list[dict[str, Any]]] = [[] for _ in range(max(deal.side_of) + 1)]
    for seat, suit, value in deal.cantes:
        cantes[deal.side_of[seat]].append({"seat": seat, "suit": SUITS[suit], "value": value})
    tricks = [
        [{"seat": (lead + i) % n, "card": CARD_TEXT[c]} for i, c in enumerate(cards)]
        for lead, cards in deal.tricks
    ]
    capote = None
    if deal.capote_seat is not None:
        capote = {"seat": deal.capote_seat, "made": deal.capote_made}
    return {
        "points": points,
        "cantes": cantes,
        "tricks": tricks,
        "last_trick": deal.last_trick if deal.phase == DONE else None,
        "winner": deal.deal_winner,
        "tute": None if deal.tute is None else {"seat": deal.tute[0], "with": deal.tute[1]},
        "capote": capote,
        "bids": None if deal.bids is None else deal.bids[:],
        "carry": None if deal.carry is None else deal.carry[:],
    }


class _Ended(NamedTuple):
    """The fields of a finished deal that its summary reads."""

    side_of: tuple[int, ...]
    bids: list[int | None] | None
    hand_scores: list[int] | None
    points: list[int]
    cantes: list[tuple[int, int, int]]
    tricks: list[tuple[int, list[int]]]
    capote_seat: int | None
    capote_made: bool | None
    phase: str
    last_trick: int | None
    deal_winner: int | None
    tute: tuple[int, str] | None
    carry: list[int] | None


def new_game(
    options: Options | Mapping[str, Any] | None = None,
    rng: Any = None,
    first_dealer: int | None = None,
) -> GameState:
    """A new game with its first deal dealt. The first dealer is drawn from ``rng`` unless
    given; ``rng`` defaults to :class:`secrets.SystemRandom` (a secure shuffle).

    >>> import random
    >>> g = new_game({"variant": "habanero"}, random.Random(1), first_dealer=0)
    >>> g.dealer, g.turn, g.stock_left, len(g.hand(1))
    (0, 1, 24, 8)
    """
    state = GameState(options)
    rng = rng if rng is not None else secrets.SystemRandom()
    if first_dealer is None:
        first_dealer = rng.randrange(state._n)
    state.start_deal(deal_cards(state._options, first_dealer, rng, 0))
    return state


def from_record(data: Any) -> GameState:
    """Rebuild the game a record describes.

    Raises :class:`InvalidRecord` for a record that cannot describe a game, and
    :class:`IllegalAction` for an action that breaks a rule; that exception carries
    ``index`` (counted across all deals) and ``action``.
    """
    options, deals = parse_record(data)
    state = GameState(options)
    index = 0
    for k, (deal, actions) in enumerate(deals):
        start_listed_deal(state, k, deal)
        for action in actions:
            try:
                state.apply(action)
            except IllegalAction as exc:
                exc.index = index  # type: ignore[attr-defined]
                exc.action = action  # type: ignore[attr-defined]
                raise
            index += 1
    return state
