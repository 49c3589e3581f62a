"""A search core of its own for the robots: the tricks of one deal as bit masks, made for speed.

The 40 cards are the engine's card ints (``suit * 10 + place``, :mod:`games.engine.cards`),
so a hand, a suit or a set of cards is one ``int`` with bit ``c`` set for card ``c``. Within
a suit a lower bit is a stronger card, so "the cards of this suit above ``w``" is one mask,
and the legal replies of §5 are a few ``&`` and ``|`` (:func:`legal_plays`). A
:class:`Core` holds one deal being played and moves by :meth:`Core.make` and
:meth:`Core.unmake` on that one object, where the engine copies a :class:`GameState` for
each line it tries: that is what makes the exact solver (:mod:`.solver`) fast.

**The engine stays the one source of rules for live play.** Every table, every record and
every refusal goes through :class:`games.engine.GameState`; this module is for the robots'
search only. It writes again, for speed, the rules the search needs, and
``tests/bots/test_core_agrees.py`` is what keeps the two equal: a hypothesis property test
that plays random positions of every variant on both and compares what each lists as
legal, what each accepts and refuses, and every fact after every action. When a rule
changes in the engine, that test fails until this module follows.

What the core re-implements (RULES.md):

- §5 the duties of a follower, in all three ``stock_play`` modes (:func:`legal_plays`), and
  the trick's winner (:func:`beats`);
- §7 cantes (20 and 40, one suit once a deal, the 40 first, one cante per seat and trick
  won, the winner's partner in pairs), the moment to sing after a trick won and when it
  closes, and the tute announcement (``allow_tute``, never after a cante of one's own, never
  once capote is declared);
- §8 the points of the tricks, the 10 of the last trick, the deal's winner in ``tute``
  (most points, ties to the side that won a trick most recently) and in ``habanero`` (over
  100, both over: the higher, equal: the last trick), capote (the decision, leader first,
  and the deal ended by the first trick the declarer loses or by the eighth won), and the
  mano de vuelta's carried points (the first player over 100 after a trick or a cante);
- §9 pocha's hand score from the bids and the tricks taken.

Which positions a :class:`Core` holds (:func:`covers`): a deal being played with no card
left to draw and no bid to make, that is the whole deal of 3- and 4-player tute, the
arrastre of 2-player tute and habanero (the capote decision included) and pocha's tricks
once the bids are in. Draws, the exchange of the trump card and bids are not in it; the
solver leaves such positions to the engine (:mod:`.engine_solver`). :func:`legal_plays`
covers the stock's three modes too, and the test compares it there as well.

Actions are small ints: a card ``c`` (0..39) is its play, ``SING + s`` sings suit ``s``,
``TUTE_11`` and ``TUTE_12`` announce tute, ``CAPOTE_NO`` and ``CAPOTE_YES`` decline or
declare capote. :func:`to_action` and :func:`from_action` translate to the engine's.

>>> import random
>>> from games.engine import new_game
>>> g = new_game({"variant": "tute", "players": 4}, random.Random(2))
>>> core = Core.from_state(g)
>>> sorted(core.legal(g.turn)) == sorted(from_action(a) for a in g.legal_actions_for(g.turn))
True
>>> core.make(g.turn, core.legal(g.turn)[0]); core.unmake()
>>> core.hands == Core.from_state(g).hands and core.stack == []
True

Over 400 lines: the bit-mask rules of a deal (§5's legal plays, cantes, the stock) sit beside
`make` and `unmake`, which must undo exactly what they did; apart, each could only be read with
the other open.
"""

from __future__ import annotations

from typing import Any

from games.engine import Action, GameState
from games.engine.cards import CARDS, POINTS_OF, SUITS, caballo, rey
from games.engine.options import BIDS, OVER
from games.engine.rulebook import (
    CANTE_PLAIN,
    CANTE_TRUMP,
    DEAL_POINTS,
    FOLLOW_TRUMP,
    HABANERO_OVER,
    STRICT,
    pocha_hand_score,
)

from .base import MARGIN_WEIGHT, POCHA_SCALE

# ---------------------------------------------------------------------- masks

BIT = tuple(1 << c for c in range(40))
SUIT_MASK = tuple(0x3FF << (10 * s) for s in range(4))
SUIT_OF_BIT = tuple(c // 10 for c in range(40))
# ABOVE[c]: the cards of c's suit stronger than c (lower places of the same suit).
ABOVE = tuple((1 << c) - (1 << (c - c % 10)) for c in range(40))
ALL_REYES = sum(1 << rey(s) for s in range(4))
ALL_CABALLOS = sum(1 << caballo(s) for s in range(4))
REY_BIT = tuple(1 << rey(s) for s in range(4))
# Cards worth no points: the 7, 6, 5, 4 and 2 of each suit (places 5 to 9).
ZERO_POINTS = sum(1 << c for c in range(40) if not POINTS_OF[c])
ALL_CARDS = (1 << 40) - 1

# Action codes.
SING = 40  # SING + suit
TUTE_11, TUTE_12 = 44, 45
CAPOTE_NO, CAPOTE_YES = 46, 47
ACTIONS = 48

# Phases.
PLAY, CAPOTE, DONE = 0, 1, 2
_PHASE_NAMES = {"play": PLAY, "capote": CAPOTE, "done": DONE}


def cards_of(mask: int) -> list[int]:
    """The card ints of a mask, strongest first within a suit, suits O, C, E, B.

    >>> cards_of(BIT[0] | BIT[12] | BIT[39])
    [0, 12, 39]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Any) -> int:
    """The mask of some card ints."""
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card winning it so far (§5)."""
    if SUIT_OF_BIT[card] == SUIT_OF_BIT[best]:
        return card < best
    return SUIT_OF_BIT[card] == trump


def full_duties(hand: int, led: int, win: int, trump: int) -> int:
    """The follower's cards under the full duties of §5, as a mask: follow and beat, else
    follow (any card of the suit once a trump is on a plain lead), else trump (overtrump a
    trump on the table if possible), else anything.

    >>> from games.engine.cards import card_index as ci
    >>> h = mask_of([ci(3, "O"), ci(2, "O"), ci(1, "B")])
    >>> cards_of(full_duties(h, led=0, win=ci(12, "O"), trump=3)) == [ci(3, "O")]
    True
    """
    same = hand & SUIT_MASK[led]
    if same:
        if SUIT_OF_BIT[win] != led:
            return same
        return (same & ABOVE[win]) or same
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    if SUIT_OF_BIT[win] == trump:
        return (trumps & ABOVE[win]) or hand
    return trumps


def legal_plays(
    hand: int, led: int, win: int, trump: int, stock_play: str = STRICT, stock_left: int = 0
) -> int:
    """The cards a follower may play (mask), ``led`` being the led suit and ``win`` the card
    winning the trick so far, or -1 for both when the seat leads. With a stock left
    (2 players) ``stock_play`` decides: ``free``, ``follow_trump`` or ``strict`` (§5)."""
    if led < 0:
        return hand
    if not stock_left or stock_play == STRICT:
        return full_duties(hand, led, win, trump)
    if stock_play == FOLLOW_TRUMP and led == trump:
        return (hand & SUIT_MASK[trump]) or hand
    return hand


def covers(state: GameState) -> bool:
    """Whether a :class:`Core` can hold ``state``: a deal being played (or its capote
    decision) with no card left to draw or exchange and no bid to make."""
    if state.phase not in ("play", "capote"):
        return False
    return not (state.stock_left or state.can_exchange)


def to_action(seat: int, code: int) -> Action:
    """The engine's :class:`Action` for an action code of ``seat``."""
    if code < 40:
        return Action.play(seat, CARDS[code])
    if code < TUTE_11:
        return Action.sing(seat, SUITS[code - SING])
    if code < CAPOTE_NO:
        return Action.tute(seat, "11" if code == TUTE_11 else "12")
    return Action.capote(seat, code == CAPOTE_YES)


def from_action(action: Action) -> int:
    """The action code of an engine :class:`Action` (ValueError for a bid or an exchange)."""
    kind, value = action.kind, action.value
    if kind == "play":
        return value.index
    if kind == "sing":
        return SING + SUITS.index(value)
    if kind == "tute":
        return TUTE_11 if value == "11" else TUTE_12
    if kind == "capote":
        return CAPOTE_YES if value else CAPOTE_NO
    raise ValueError(f"The search core has no {kind} action.")


class Core:
    """One deal being played, as masks and small ints, moved by make and unmake.

    Build it from an engine state with :meth:`from_state`. Fields are public for the solver's
    hot loop; change them only through :meth:`make` and :meth:`unmake`.
    """

    __slots__ = (
        "allow_tute",
        "bids",
        "bonus",
        "capote_made",
        "capote_seat",
        "capote_turn",
        "carry",
        "count_points",
        "hand_scores",
        "hands",
        "last_trick",
        "last_win",
        "leader",
        "moment",
        "moment_seats",
        "n",
        "ntricks",
        "phase",
        "points",
        "sang",
        "scoring",
        "side_of",
        "sides",
        "sing_after",
        "stack",
        "sung",
        "trick",
        "tricks_won",
        "trump",
        "turn",
        "tute",
        "win_card",
        "win_seat",
        "winner",
    )

    # ------------------------------------------------------------------ building

    @classmethod
    def from_state(cls, state: GameState, carry: tuple[int, ...] | None = None) -> Core:
        """The core of ``state`` (:func:`covers` must hold). ``carry`` is a mano de vuelta's
        carried points when the state does not hold them itself (a sampled world)."""
        if not covers(state):
            raise ValueError("The search core holds a deal in play with nothing left to draw.")
        rules = state.rules
        core = cls.__new__(cls)
        core.n = rules.players
        core.sides = rules.sides
        core.side_of = tuple(state.side_of)
        core.moment_seats = tuple(state.moment_seats)
        core.trump = state.trump
        # No stock is left, so a trick won opens a moment to sing wherever cantes exist
        # but in 2-player tute, which sings only while the stock has cards (§7).
        core.sing_after = rules.cantes and not rules.cante_needs_stock
        core.allow_tute = rules.allow_tute
        core.bonus = rules.last_trick_bonus
        core.count_points = rules.counts_card_points
        core.scoring = rules.deal_scoring
        core.bids = tuple(state.bids) if rules.bids else None
        own = state.carry
        core.carry = tuple(own) if own is not None else carry
        core.hands = list(state.masks)
        core.points = state.points
        core.tricks_won = state.tricks_won
        core.last_win = state.last_win
        core.stack = []
        core._load(state, own is None)
        return core

    @staticmethod
    def context(state: GameState, carry: tuple[int, ...] | None = None) -> tuple[Any, ...]:
        """What a core's fixed part depends on: two states of one context can share a core
        (:meth:`reload`)."""
        own = state.carry
        bids = state.bids
        return (
            state.rules,
            state.trump,
            tuple(own) if own is not None else carry,
            tuple(bids) if bids is not None else None,
        )

    def reload(self, state: GameState) -> None:
        """Hold ``state`` instead, a position of the same :meth:`context`: the lists are
        filled in place, so a search holding them (the solver's) sees the new position."""
        if not covers(state):
            raise ValueError("The search core holds a deal in play with nothing left to draw.")
        self.hands[:] = state.masks
        self.points[:] = state.points
        self.tricks_won[:] = state.tricks_won
        self.last_win[:] = state.last_win
        self.stack.clear()
        self._load(state, state.carry is None)

    def _load(self, state: GameState, carried_outside: bool) -> None:
        self.trick = state.trick
        self.leader = state.leader
        self.turn = state.turn
        self.win_seat = state.win_seat if self.trick else -1
        self.win_card = state.win_card if self.trick else -1
        self.ntricks = len(state.tricks)
        self.sung = state.sung
        self.sang = sum(1 << s for s, sang in enumerate(state.sang) if sang)
        self.moment = tuple(state.moment)
        self.phase = _PHASE_NAMES[state.phase]
        self.capote_turn = state.capote_turn
        self.capote_seat = -1 if state.capote_seat is None else state.capote_seat
        self.capote_made = None
        self.winner = None
        self.last_trick = None
        self.hand_scores = None
        self.tute = None
        carry = self.carry
        if carry is not None and carried_outside and self.capote_seat < 0:
            # A sampled world holds no carried points: should they already put a player
            # over 100, the deal has ended, won by the first of them (§8).
            over = [s for s in range(2) if carry[s] + self.points[s] > HABANERO_OVER]
            if over:
                self._finish(over[0])

    # ------------------------------------------------------------------ queries

    def to_move(self) -> int | None:
        """The seat whose card or capote decision the deal waits for (None: deal over)."""
        if self.phase == PLAY:
            return self.turn
        if self.phase == CAPOTE:
            return self.capote_turn
        return None

    def acting(self) -> int | None:
        """The seat the search asks next, as the robots' driver does
        (:func:`games.bots.base.seat_to_act`): a seat whose only actions are in a cante
        moment goes before the seat to move."""
        phase = self.phase
        if phase == DONE:
            return None
        first = self.capote_turn if phase == CAPOTE else self.turn
        for seat in self.moment:
            if seat != first and self.announcements(seat):
                return seat
        return first

    def plays(self, seat: int) -> int:
        """The cards ``seat`` may play now, as a mask (0 when it may not play)."""
        if self.phase != PLAY or seat != self.turn:
            return 0
        hand = self.hands[seat]
        if not self.trick:
            return hand
        return full_duties(hand, SUIT_OF_BIT[self.trick[0]], self.win_card, self.trump)

    def announcements(self, seat: int) -> list[int]:
        """The cantes and tutes ``seat`` may make now (action codes), if its moment is open."""
        if seat not in self.moment:
            return []
        hand = self.hands[seat]
        out = []
        pairs = hand & (hand >> 1) & ALL_REYES & ~self.sung
        if pairs:
            trump = self.trump
            if pairs & REY_BIT[trump]:
                out.append(SING + trump)  # the 40 alone while it is there (§7)
            else:
                out += [SING + s for s in range(4) if pairs & REY_BIT[s]]
        if self.allow_tute and not self.sang >> seat & 1 and self.capote_seat < 0:
            if hand & ALL_CABALLOS == ALL_CABALLOS:
                out.append(TUTE_11)
            if hand & ALL_REYES == ALL_REYES:
                out.append(TUTE_12)
        return out

    def legal(self, seat: int) -> list[int]:
        """Every action ``seat`` may take now, in the engine's order (capote, play, sing,
        tute)."""
        phase = self.phase
        if phase == DONE:
            return []
        out: list[int] = []
        if phase == CAPOTE:
            if seat == self.capote_turn:
                out += (CAPOTE_NO, CAPOTE_YES)
        elif seat == self.turn:
            out += cards_of(self.plays(seat))
        return out + self.announcements(seat)

    def accepts(self, seat: int, code: int) -> bool:
        """Whether the rules let ``seat`` take the action ``code`` now, checked in the order
        the engine's :meth:`~games.engine.GameState.apply` checks it."""
        if not 0 <= seat < self.n or not 0 <= code < ACTIONS or self.phase == DONE:
            return False
        hand = self.hands[seat]
        if code < 40:
            if self.phase != PLAY or seat != self.turn or not hand & BIT[code]:
                return False
            return bool(self.plays(seat) & BIT[code])
        if code < TUTE_11:
            suit = code - SING
            if seat not in self.moment or self.sung & REY_BIT[suit]:
                return False
            if not (hand >> rey(suit) & 1 and hand >> caballo(suit) & 1):
                return False
            trump = self.trump
            trump_pair = hand >> rey(trump) & 1 and hand >> caballo(trump) & 1
            return suit == trump or not (trump_pair and not self.sung & REY_BIT[trump])
        if code < CAPOTE_NO:
            if not self.allow_tute or self.sang >> seat & 1 or seat not in self.moment:
                return False
            if self.capote_seat >= 0:
                return False
            need = ALL_CABALLOS if code == TUTE_11 else ALL_REYES
            return hand & need == need
        return self.phase == CAPOTE and seat == self.capote_turn

    def value(
        self, side: int, seat: int | None = None, margin_weight: float = MARGIN_WEIGHT
    ) -> float:
        """What the finished deal is worth to ``side`` (pocha: to ``seat``), the scale of
        :func:`games.bots.solver.deal_value`."""
        if self.scoring == BIDS:
            scores = self.hand_scores or [0] * self.n
            mine = scores[seat]  # type: ignore[index]
            others = [s for i, s in enumerate(scores) if i != seat]
            return 0.5 + (mine - sum(others) / len(others)) / POCHA_SCALE
        winner = self.winner
        won = 0.5 if winner is None else 1.0 if winner == side else 0.0
        points = self.points
        if self.sides == 2:
            return won + margin_weight * (points[side] - points[1 - side]) / DEAL_POINTS
        others = [p for s, p in enumerate(points) if s != side]
        return won + margin_weight * (points[side] - max(others)) / DEAL_POINTS

    # ------------------------------------------------------------------ make and unmake

    def make(self, seat: int, code: int) -> None:
        """Take the action (which must be legal: the search asks :meth:`legal` first)."""
        if code < 40:
            self.play(seat, code)
        else:
            self._announce(seat, code)

    def unmake(self) -> None:
        """Take back the last action made."""
        stack = self.stack
        rec = stack.pop()
        kind = rec[0]
        if kind == 1:
            self.untake(rec)
            rec = stack.pop()
            kind = 0
        if kind == 0:
            _, seat, card, turn, win_seat, win_card, moment = rec
            self.hands[seat] |= BIT[card]
            self.trick.pop()
            self.turn, self.win_seat, self.win_card, self.moment = turn, win_seat, win_card, moment
        else:
            (
                _,
                points,
                self.sung,
                self.sang,
                self.moment,
                self.phase,
                self.winner,
                self.tute,
                self.capote_seat,
                self.capote_turn,
            ) = rec
            self.points[:] = points  # in place: the solver holds this list

    def play(self, seat: int, card: int) -> None:
        """Play ``card`` from ``seat`` (the seat on turn)."""
        self.hands[seat] ^= BIT[card]
        trick = self.trick
        self.stack.append((0, seat, card, self.turn, self.win_seat, self.win_card, self.moment))
        if not trick:
            self.moment = ()  # leading closes the moment to sing (§7)
            self.win_seat, self.win_card = seat, card
        elif beats(card, self.win_card, self.trump):
            self.win_seat, self.win_card = seat, card
        trick.append(card)
        if len(trick) == self.n:
            points = 0
            for c in trick:
                points += POINTS_OF[c]
            self.take(self.win_seat, points)
        else:
            self.turn = (seat + 1) % self.n

    def take(self, w: int, points: int) -> None:
        """Seat ``w`` takes the trick on the table, worth ``points`` in cards; then the deal
        may end (§5, §8). The solver calls this with the trick's cards kept in its own
        variables; :meth:`untake` takes it back."""
        side = self.side_of[w]
        score = self.points
        self.stack.append(
            (1, w, side, score[side], self.last_win[side], self.trick, self.leader, self.turn)
        )
        self.trick = []
        self.tricks_won[w] += 1
        if self.count_points:
            score[side] += points
        self.ntricks += 1
        self.last_win[side] = self.ntricks
        final = not self.hands[w]
        if final:
            self.last_trick = w
            score[side] += self.bonus
        self.leader = self.turn = w
        if self.capote_seat >= 0:
            # A declared capote: the first trick lost, or the last one won, decides (§8).
            if w != self.capote_seat:
                self.capote_made = False
                self._finish(w)
                return
            if final:
                self.capote_made = True
                self._finish(w)
                return
        elif self.carry is not None and self.carry[w] + score[w] > HABANERO_OVER:
            self._finish(w)  # mano de vuelta: the first over 100 wins at once (§8)
            return
        if final:
            self._score()
            return
        self.moment = self.moment_seats[w] if self.sing_after else ()

    def untake(self, rec: tuple[Any, ...] | None = None) -> None:
        """Take back the last :meth:`take` (its record, when the caller popped it); the moment
        to sing is the caller's to restore (:meth:`unmake` does it with the card's record)."""
        if rec is None:
            rec = self.stack.pop()
        _, w, side, points, last_win, trick, leader, turn = rec
        self.tricks_won[w] -= 1
        self.points[side] = points
        self.last_win[side] = last_win
        self.ntricks -= 1
        self.trick = trick
        self.leader, self.turn = leader, turn
        self.phase = PLAY
        self.winner = self.last_trick = self.capote_made = self.hand_scores = None

    def _finish(self, winner: int | None) -> None:
        self.phase = DONE
        self.moment = ()
        self.winner = winner

    def _score(self) -> None:
        """All tricks played and nothing ended the deal early (§8, §9)."""
        scoring = self.scoring
        if scoring == BIDS:
            self.hand_scores = [
                pocha_hand_score(bid, taken)
                for bid, taken in zip(self.bids, self.tricks_won, strict=True)  # type: ignore[arg-type]
            ]
            self._finish(None)
        elif scoring == OVER:
            first, second = self.points
            carry = self.carry
            if carry is not None:
                first += carry[0]
                second += carry[1]
            if first <= HABANERO_OVER and second <= HABANERO_OVER:
                self._finish(None)  # nobody over 100: a mano de vuelta follows
            elif first != second:
                self._finish(0 if first > second else 1)  # over 100, and the higher
            else:
                self._finish(self.last_trick)
        elif self.sides == 2:
            first, second = self.points
            if first != second:
                self._finish(0 if first > second else 1)
            else:
                last = self.last_win
                self._finish(0 if last[0] > last[1] else 1)
        else:
            points = self.points
            top = max(points)
            tied = [s for s in range(self.sides) if points[s] == top]
            self._finish(max(tied, key=self.last_win.__getitem__))

    def _announce(self, seat: int, code: int) -> None:
        """A cante, a tute or a capote decision."""
        self.stack.append(
            (
                2,
                self.points[:],
                self.sung,
                self.sang,
                self.moment,
                self.phase,
                self.winner,
                self.tute,
                self.capote_seat,
                self.capote_turn,
            )
        )
        if code < TUTE_11:
            suit = code - SING
            self.sung |= REY_BIT[suit]
            self.sang |= 1 << seat
            self.moment = tuple(s for s in self.moment if s != seat)
            self.points[self.side_of[seat]] += CANTE_TRUMP if suit == self.trump else CANTE_PLAIN
            carry = self.carry
            if (
                carry is not None
                and self.capote_seat < 0
                and carry[seat] + self.points[seat] > HABANERO_OVER
            ):
                self._finish(seat)
        elif code < CAPOTE_NO:
            self.tute = (seat, "11" if code == TUTE_11 else "12")
            self._finish(self.side_of[seat])  # tute wins at once (§7)
        else:
            if code == CAPOTE_YES:
                self.capote_seat = seat
            if code == CAPOTE_YES or seat != self.leader:
                self.phase = PLAY
                self.capote_turn = -1
            else:
                self.capote_turn = 1 - seat
