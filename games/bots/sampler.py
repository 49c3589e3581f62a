"""Worlds for a searching robot: the cards hidden from one seat, dealt anew from its view.

A *world* is a playable :class:`~games.engine.GameState` at the moment of a
:class:`~games.engine.SeatView`: the seat's own hand and everything played face up are as
in the view, and the cards the seat cannot see are placed at random among the other hands
(and the stock, or pocha's undealt cards), consistently with all the view shows:

- the voids and ceilings the tricks revealed, read by :class:`~.knowledge.Knowledge`
  (a follower who did not follow suit has none of it, one who did not beat holds nothing
  above the winning card, one who could not trump holds no trump);
- the cards sung (the singer holds them until they are played), the trump card taken in an
  exchange, the face-up trump card the loser of the 12th trick drew, the dealer's face-up
  trump card when every card is dealt.

Only the view goes in (plus the robot's own generator): the real hidden cards never reach
this module, so two games that look the same from the seat give the same worlds.

Without a stock or bids (tute for 3 and 4 players) the world is built by the engine's
:func:`~games.engine.position.position_from_view`. With a stock (2 players) and in pocha
there is no such shortcut, so a whole deal is written that could have led here: every
card's arrival in a hand (dealt, drawn after trick *t*, or taken in an exchange) is
scheduled before it was played, shown or exchanged, and after every trick where the duties
of §5 prove the seat did not hold it. The engine then replays the view's public actions on
that deal, which checks every one of them: a world the engine refuses is drawn again.

>>> import random
>>> from games.engine import new_game
>>> g = new_game({"variant": "habanero"}, random.Random(3))
>>> for _ in range(9):
...     seat = g.turn
...     g.apply(g.legal_actions_for(seat)[0])
>>> view = g.view(g.turn)
>>> world = WorldSampler(view).sample(random.Random(1))
>>> world.view(view.seat).legal_actions == view.legal_actions
True
>>> world.view(view.seat).hand == view.hand, world.stock_left == g.stock_left
(True, True)

Over 400 lines: every constraint on a world (voids, ceilings, cards sung, the trump card's
path) and the one matching that honours them all at once are read together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engine import CARDS, Action, Deal, GameState, IllegalAction, SeatView
from games.engine.cards import SUITS, caballo, rey
from games.engine.deal import deal_cards
from games.engine.position import position_from_view

from .base import seat_to_act
from .countout import guess_hands
from .knowledge import Knowledge, beats, trick_winner

TRIES = 30  # draws before a sampler gives up on one world (the engine refused them all)
LATE = 99  # a time after every trick: "still in hand"


class NoWorld(Exception):
    """No world consistent with the view was found (the robot then falls back)."""


class WorldSampler:
    """Draws worlds for one view; build once per decision, then :meth:`sample` many."""

    def __init__(self, view: SeatView, *, past: bool = False) -> None:
        if view.seat is None or view.hand is None:
            raise NoWorld("A spectator has no hand to search from.")
        self.view = view
        rules = view.options.rules
        self._draw: Callable[[Any], GameState | None]
        self._plan: _StockPlan | None = None
        # With ``past`` and a stock, the other seat's hand before each of its cards as the
        # last world was replayed (bench/benchmarks/hand_reading.py reads them); else None.
        self.past_hands: list[list[int]] | None = None
        if rules.has_stock:
            self._plan = _StockPlan(view, record=past)
            self._draw = self._plan.draw
        elif rules.bids:
            self._draw = _PochaPlan(view).draw
        else:
            knowledge = Knowledge(view)
            self._draw = lambda rng: position_from_view(view, guess_hands(knowledge, rng))

    def sample(self, rng: Any) -> GameState:
        """One world; raises :class:`NoWorld` after :data:`TRIES` refused draws."""
        for _ in range(TRIES):
            try:
                world = self._draw(rng)
            except (IllegalAction, ValueError, AssertionError):
                continue  # the engine refused a replayed action: draw again
            if world is not None and _same_moment(world, self.view):
                if self._plan is not None and self._plan.record:
                    self.past_hands = self._plan.past_hands
                return world
        raise NoWorld("No deal of the hidden cards fits what this seat has seen.")


def _same_moment(world: GameState, view: SeatView) -> bool:
    """The world offers the seat exactly the view's actions (a cheap end-to-end check)."""
    return tuple(world.legal_actions_for(view.seat)) == view.legal_actions  # type: ignore[arg-type]


def _replay_plays(state: GameState, view: SeatView) -> None:
    for trick in (*view.tricks, view.trick):
        for seat, card in trick:
            state.apply(Action.play(seat, card))


# ---------------------------------------------------------------------- pocha


_BASES: dict[tuple[Any, ...], GameState] = {}


def _before_deal(view: SeatView) -> GameState:
    """A game waiting for deal ``view.deal_number``, to be dealt by ``view.dealer``.

    Pocha's hand size depends on the deal's place on the ladder, and the engine starts a
    deal only where the game is, so earlier deals are played through (first legal action
    each time; their scores do not matter to a search of this hand). Cached.
    """
    key = (view.options, view.deal_number, view.dealer)
    base = _BASES.get(key)
    if base is None:
        n = view.players
        base = GameState(view.options)
        for k in range(view.deal_number):
            dealer = (view.dealer - view.deal_number + k) % n  # type: ignore[operator]
            base.start_deal(deal_cards(view.options, dealer, _FixedShuffle(), k))
            while not base.needs_deal:
                seat = seat_to_act(base)
                base.apply(base.legal_actions_for(seat)[0])  # type: ignore[arg-type]
        if len(_BASES) > 64:
            _BASES.clear()
        _BASES[key] = base
    return base.clone()


class _FixedShuffle:
    """A "shuffle" that leaves the deck as it is: the dummy deals need no randomness."""

    def shuffle(self, items: list[Any]) -> None:
        return None


class _PochaPlan:
    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.knowledge = Knowledge(view)
        played: dict[int, list[int]] = {s: [] for s in range(view.players)}
        for trick in (*view.tricks, view.trick):
            for seat, card in trick:
                played[seat].append(card.index)
        self.played = played

    def draw(self, rng: Any) -> GameState:
        view, k = self.view, self.knowledge
        hands = guess_hands(k, rng)
        placed = {c for h in hands for c in h}
        undealt = [c for c in sorted(k.unseen) if c not in placed]
        rng.shuffle(undealt)
        trump = view.trump_card.index  # type: ignore[union-attr]
        rules = view.options.rules
        size = rules.ladder[view.deal_number]
        if view.players * size < len(k.deck):
            stock = [trump, *(c for c in undealt if c != trump)]
        else:
            stock = []
        deal = Deal(
            view.dealer,  # type: ignore[arg-type]
            tuple(tuple(CARDS[c] for c in (*hands[s], *self.played[s])) for s in range(k.n)),
            CARDS[trump],
            tuple(CARDS[c] for c in stock),
        )
        state = _before_deal(view)
        state.start_deal(deal)
        bids = view.bids or ()
        for i in range(view.players):
            seat = (view.dealer + 1 + i) % view.players  # type: ignore[operator]
            if bids[seat] is not None:
                state.apply(Action.bid(seat, bids[seat]))  # type: ignore[arg-type]
        _replay_plays(state, view)
        return state


# ---------------------------------------------------------------------- with a stock


def excluded_by_trick(
    plays: list[tuple[int, int]], trump: int, duties: bool, follow_trump: bool
) -> dict[int, set[int]]:
    """Cards each follower of a trick can be shown not to have held when it played.

    Under the full duties of §5: not following means none of the led suit; following
    without beating a led-suit winner means nothing above it; not trumping (or not
    overtrumping) means no trump that would have won. With ``follow_trump`` (a stock,
    trump led): a follower who played no trump held none.
    """
    out: dict[int, set[int]] = {}
    led = plays[0][1] // 10
    win = plays[0][1]
    for seat, card in plays[1:]:
        suit = card // 10
        gone: set[int] = set()
        if duties:
            if suit == led:
                if win // 10 == led and card > win:
                    gone.update(range(led * 10, win))
            else:
                gone.update(range(led * 10, led * 10 + 10))
                if win // 10 == trump:
                    if not (suit == trump and card < win):
                        gone.update(range(trump * 10, win))
                elif suit != trump:
                    gone.update(range(trump * 10, trump * 10 + 10))
        elif follow_trump and led == trump and suit != trump:
            gone.update(range(trump * 10, trump * 10 + 10))
        if gone:
            out[seat] = gone
        if beats(card, win, trump):
            win = card
    return out


class _StockPlan:
    """Everything about a 2-player deal with a stock that does not depend on the guess.

    Times: time 0 is the deal; time ``t + 1`` is the moment after trick ``t``'s draws, when
    its winner may exchange and sing, and before trick ``t + 1`` is led.
    """

    def __init__(self, view: SeatView, *, record: bool = False) -> None:
        self.view = view
        rules = view.options.rules
        me = self.me = view.seat  # type: ignore[assignment]
        opp = self.opp = 1 - me
        trump = self.trump = SUITS.index(view.trump_suit)  # type: ignore[arg-type]
        tricks = [[(s, c.index) for s, c in t] for t in view.tricks]
        self.tricks = tricks
        self.current = [(s, c.index) for s, c in view.trick]
        self.winners = [trick_winner(t, trump)[0] for t in tricks]
        n_tricks = self.n_tricks = len(tricks)
        exchanges = [(s, g.index, k.index) for s, g, k in view.exchanges]
        face_up = view.trump_card.index  # type: ignore[union-attr]
        self.original_trump = exchanges[0][2] if exchanges else face_up
        self.loser12 = 1 - self.winners[11] if n_tricks >= 12 else None

        # When each card left each seat by being played: card -> trick, per seat.
        self.played_at: list[dict[int, int]] = [{}, {}]
        for t, plays in enumerate([*tricks, self.current]):
            for s, c in plays:
                self.played_at[s][c] = t
        # Cards each seat is shown not to hold while playing to trick t: (t, cards).
        self.excluded: list[list[tuple[int, set[int]]]] = [[], []]
        for t, plays in enumerate([*tricks, self.current]):
            if len(plays) < 2:
                continue
            duties = t >= 12 or rules.stock_play == "strict"
            follow = rules.stock_play == "follow_trump"
            for s, gone in excluded_by_trick(plays, trump, duties, follow).items():
                self.excluded[s].append((t, gone))

        self.exchange_times = self._exchange_times(exchanges)
        self.exchanges = exchanges
        self.cantes = [(s, SUITS.index(u)) for s, u, _ in view.cantes]
        self.cante_times = self._cante_times(rules.cante_needs_stock)

        # Cards of the opponent's hand that the seat knows.
        known: set[int] = set()
        for (s, u), _e in zip(self.cantes, self.cante_times, strict=True):
            if s == opp:
                known.update((rey(u), caballo(u)))
        for (s, gave, took), _e in zip(exchanges, self.exchange_times, strict=True):
            if s == opp:
                known.add(took)
                known.discard(gave)
        if self.loser12 == opp:
            known.add(face_up)
        played_all = {c for t in (*tricks, self.current) for _, c in t}
        self.opp_known = sorted(known - played_all)
        hand = {c.index for c in view.hand}  # type: ignore[union-attr]
        hidden = set(range(40)) - hand - played_all - set(self.opp_known)
        if view.trump_in_stock:
            hidden.discard(face_up)
        self.pool = sorted(hidden)
        self.opp_need = view.hand_sizes[opp] - len(self.opp_known)
        # Cards some trick shows the opponent did not hold then: placed with a check.
        self.ruled_out = set().union(*(gone for _t, gone in self.excluded[opp]))
        if self.opp_need < 0 or self.opp_need > len(self.pool):
            raise NoWorld("The view's hand sizes do not fit its cards.")
        self.my_hand = sorted(hand)
        self.record = record  # keep each replay's past hands (WorldSampler's ``past``)
        self.past_hands: list[list[int]] = []

    # -- the moments of exchanges and cantes, which the view lists but does not date

    def _won_moments(self, seat: int, last_trick: int) -> list[int]:
        """Moments after tricks won by ``seat``, up to trick ``last_trick`` included."""
        top = min(self.n_tricks - 1, last_trick)
        return [t + 1 for t in range(top + 1) if self.winners[t] == seat]

    def _exchange_times(self, exchanges: list[tuple[int, int, int]]) -> list[int]:
        """Each exchange at the latest moment its seat could have made it: the card taken
        is then held the shortest time and the card given the longest (both are what the
        duties may have ruled out), and each exchange comes after the one before."""
        times = [0] * len(exchanges)
        bound = LATE
        for i in range(len(exchanges) - 1, -1, -1):
            seat, _gave, took = exchanges[i]
            top = min(bound, self.played_at[seat].get(took, LATE))
            if seat == self.me and any(a.kind == "exchange" for a in self.view.legal_actions):
                top = min(top, self.n_tricks - 1)  # the exchange now is still to make
            # An exchange needs a hidden card left besides the trump card: after trick 10.
            options = [e for e in self._won_moments(seat, 10) if e <= top]
            if not options:
                raise NoWorld("An exchange cannot be placed in this deal.")
            times[i] = options[-1]
            bound = times[i] - 1
        return times

    def _cante_times(self, needs_stock: bool) -> list[int]:
        """Each cante at the latest moment its seat won a trick while holding the pair."""
        times = [0] * len(self.cantes)
        bound = LATE
        for i in range(len(self.cantes) - 1, -1, -1):
            seat, suit = self.cantes[i]
            pair = (rey(suit), caballo(suit))
            top = min(bound, *(self.played_at[seat].get(c, LATE) for c in pair))
            if seat in self.view.cante_open:
                top = min(top, self.n_tricks - 1)  # its moment now is still unused
            low = max(self._taken_at(seat, c) for c in pair)
            last = 10 if needs_stock else LATE  # 2-player tute: only while the stock lasts
            options = [e for e in self._won_moments(seat, last) if low <= e <= top]
            if not options:
                raise NoWorld("A cante cannot be placed in this deal.")
            times[i] = options[-1]
            bound = times[i] - 1
        return times

    def _taken_at(self, seat: int, card: int) -> int:
        """When ``seat`` took ``card`` from the face-up place, or 0 when it did not."""
        if self.loser12 == seat and card == self.view.trump_card.index:  # type: ignore[union-attr]
            return 12
        for (s, _gave, took), e in zip(self.exchanges, self.exchange_times, strict=True):
            if s == seat and took == card:
                return e
        return 0

    # -- one world

    def draw(self, rng: Any) -> GameState | None:
        pool = self.pool[:]
        rng.shuffle(pool)
        opp_hand = self.opp_known[:]
        stock_rest = []
        ruled_out = self.ruled_out
        for card in pool:
            if len(opp_hand) == len(self.opp_known) + self.opp_need:
                stock_rest.append(card)
            elif (
                card in ruled_out and self._schedule(self.opp, [*opp_hand, card], rng, True) is None
            ):
                stock_rest.append(card)  # the tricks show the opponent could not hold it
            else:
                opp_hand.append(card)
        hands = {self.me: self.my_hand, self.opp: opp_hand}
        initial: dict[int, list[int]] = {}
        drawn: dict[int, dict[int, int]] = {}
        for seat in (0, 1):
            schedule = self._schedule(seat, hands[seat], rng)
            if schedule is None:
                return None
            initial[seat], drawn[seat] = schedule
        stock: list[int] = []
        for t in range(min(self.n_tricks, 12)):
            w = self.winners[t]
            stock.append(drawn[w][t + 1])
            if t < 11:
                stock.append(drawn[1 - w][t + 1])
        stock += stock_rest
        deal = Deal(
            self.view.dealer,  # type: ignore[arg-type]
            tuple(tuple(CARDS[c] for c in initial[s]) for s in (0, 1)),
            CARDS[self.original_trump],
            tuple(CARDS[c] for c in stock),
        )
        return self._replay(deal)

    def _holdings(self, seat: int, hand: list[int]) -> list[tuple[int, int, int, int]]:
        """The cards ``seat`` held, each as (card, arrival, deadline, release): arrival is
        -1 for a card dealt or drawn (its time to be scheduled), else the moment it was
        taken face up; it must be in hand by ``deadline`` and not before ``release``."""
        events: list[tuple[int, int, str, int]] = []  # (sort key, card, kind, time)
        for card, t in self.played_at[seat].items():
            events.append((2 * t + 1, card, "out", t))
        for (s, gave, took), e in zip(self.exchanges, self.exchange_times, strict=True):
            if s == seat:
                events.append((2 * e - 1, gave, "gave", e))
                events.append((2 * e, took, "in", e))
        if self.loser12 == seat:
            events.append((24, self.view.trump_card.index, "in", 12))  # type: ignore[union-attr]
        for card in hand:
            events.append((2 * LATE, card, "out", LATE))
        events.sort()
        sung_at: dict[int, int] = {}
        for (s, suit), e in zip(self.cantes, self.cante_times, strict=True):
            if s == seat:
                sung_at[rey(suit)] = sung_at[caballo(suit)] = e
        arrival: dict[int, int] = {}
        until: dict[int, int] = {}
        out: list[tuple[int, int, int, int]] = []
        seen_slot: set[int] = set()
        for _key, card, kind, time in events:
            if kind == "in":
                arrival[card] = time
                continue
            came = arrival.pop(card, -1)
            if came < 0:
                if card in seen_slot:
                    raise NoWorld("A card would be dealt twice.")
                seen_slot.add(card)
            held_until = time - 1 if kind == "gave" else time
            deadline = min(time, sung_at.get(card, LATE))
            release = 0
            for t, gone in self.excluded[seat]:
                if t <= held_until and card in gone:
                    release = max(release, t + 1)
            out.append((card, came, deadline, release))
            until[card] = held_until
        return self._no_forty_due(seat, out, until)

    def _no_forty_due(
        self, seat: int, holdings: list[tuple[int, int, int, int]], until: dict[int, int]
    ) -> list[tuple[int, int, int, int]]:
        """A 20 is sung only while the 40 is not due (§7): when the seat held the rey and
        caballo of trump on past a 20 it sang, one of them (the caballo, if it was dealt
        or drawn) arrived after that 20."""
        rey_t, cab_t = rey(self.trump), caballo(self.trump)
        forty = next(
            (e for (s, u), e in zip(self.cantes, self.cante_times, strict=True) if u == self.trump),
            LATE,
        )
        late = 0
        for (s, suit), e in zip(self.cantes, self.cante_times, strict=True):
            held_both = until.get(rey_t, -1) >= e and until.get(cab_t, -1) >= e
            if s == seat and suit != self.trump and e < forty and held_both:
                late = max(late, e + 1)
        if not late:
            return holdings
        out = []
        for card, came, deadline, release in holdings:
            if card == cab_t and came < 0:
                release = max(release, late)
            out.append((card, came, deadline, release))
        return out

    def _schedule(
        self, seat: int, hand: list[int], rng: Any, partial: bool = False
    ) -> tuple[list[int], dict[int, int]] | None:
        """Which cards ``seat`` was dealt and which it drew after each trick: each dealt or
        drawn card placed in a slot between its release and its deadline, earliest
        deadline first (optimal for such windows). None when no placing exists.
        ``partial``: ``hand`` is only part of the hand, so slots may stay empty."""
        slots = [0] * 8
        for t in range(min(self.n_tricks, 12)):
            if not (t == 11 and self.loser12 == seat):
                slots.append(t + 1)
        free = [(h[2], rng.random(), h[3], h[0]) for h in self._holdings(seat, hand) if h[1] < 0]
        if len(free) > len(slots) or (len(free) < len(slots) and not partial):
            raise NoWorld("The cards seen do not fill the deal's slots.")
        free.sort()
        initial: list[int] = []
        drawn: dict[int, int] = {}
        for time in slots:
            for i, (deadline, _tie, release, card) in enumerate(free):
                if release <= time:
                    if deadline < time:
                        return None
                    del free[i]
                    if time == 0:
                        initial.append(card)
                    else:
                        drawn[time] = card
                    break
            else:
                if not partial:
                    return None
        if free:
            return None
        return initial, drawn

    def _replay(self, deal: Deal) -> GameState:
        view = self.view
        state = GameState(view.options)
        state.start_deal(deal)
        at: dict[int, list[Action]] = {}
        for (seat, gave, _took), e in zip(self.exchanges, self.exchange_times, strict=True):
            at.setdefault(e, []).append(Action.exchange(seat, CARDS[gave]))
        for (seat, suit), e in zip(self.cantes, self.cante_times, strict=True):
            at.setdefault(e, []).append(Action.sing(seat, SUITS[suit]))
        if view.options.rules.capote and self.n_tricks >= 12:
            at.setdefault(12, []).extend(self._capote_actions())
        past: list[list[int]] = []
        other = self.opp if self.record else None
        for t in range(self.n_tricks + 1):
            for action in at.get(t, ()):
                state.apply(action)
            plays = self.tricks[t] if t < self.n_tricks else self.current
            for seat, card in plays:
                if seat == other:
                    past.append(state.hands[seat])
                state.apply(Action.play(seat, CARDS[card]))
        self.past_hands = past
        return state

    def _capote_actions(self) -> list[Action]:
        """Habanero's capote decisions after the 12th trick, as the view shows them."""
        view = self.view
        leader = self.winners[11]
        if view.capote is not None:
            declarer = view.capote[0]
            if declarer == leader:
                return [Action.capote(leader, True)]
            return [Action.capote(leader, False), Action.capote(declarer, True)]
        if view.phase == "capote":
            return [] if view.turn == leader else [Action.capote(leader, False)]
        return [Action.capote(leader, False), Action.capote(1 - leader, False)]
