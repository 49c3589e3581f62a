"""The ``heuristic`` robot: plays like a sound club player, from its seat's view only.

It reads only its seat's view. Until the last few cards it does not search: each idea of
good play is one small function:

- announcements: :func:`tute_action`, :func:`exchange_action` (the 7 or 2 of trump for a
  better face-up card), :func:`sing_action` (always sing; the engine offers the 40 alone
  while it is due);
- habanero's capote: :func:`capote_is_sure`, a short exact check, since the stock is empty
  and every card is known;
- pocha's bid: :func:`expected_tricks`;
- leads: two rules come first, :func:`cash_master_lead` (an as or three that no card
  still out can beat, while nobody is likely to trump it) and :func:`low_trump_lead`
  (early on, a small trump that makes everyone follow and spend theirs);
- card play: every legal card gets a score, what playing it *now* is worth to the side
  minus what holding it for *later* is worth (:func:`card_score`). The pieces are: the
  chance the side takes the trick (:func:`chance_side_wins`, counting the trumps and
  high cards still out), the points at stake, the cante a won trick lets us sing
  (:func:`sing_bonus`) or lets the others sing (:func:`moment_values`), the 10 for the
  last trick, what a card may still win later (:func:`later_value`), the rey and caballo
  kept together for their cante (:func:`pair_value`) and drawing trumps to make our
  masters safe (:func:`trump_draw_bonus`). That one formula covers the beginner's advice:
  it protects aces and threes (giving them away costs their points), feeds points to a
  partner who is winning, and does not spend a top trump where a small one wins;
- the end of a deal without a stock: with :data:`COUNT_OUT_FROM` cards or fewer left it
  counts the end out (:mod:`.countout`): it guesses the hidden hands from what the tricks
  showed and plays each card out on every guess.

>>> import random
>>> from games.engine import new_game
>>> state = new_game({"variant": "tute", "players": 4}, random.Random(7))
>>> view = state.view(state.turn)
>>> HeuristicBot().choose(view) in view.legal_actions
True

Over 400 lines: one short function per idea of good play, listed above; apart, the ideas would
be read out of the order the robot weighs them in.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Action, SeatView, rulebook
from games.engine.cards import POINTS_OF, SUIT_OF, SUITS, caballo, rey
from games.engine.rulebook import beats, follower_duties

from . import countout
from .knowledge import Knowledge, place

# Weights, in deal points or chances, set with ``python -m games.bots arena`` runs against
# ``random``; moving any one of them a little changes the win rate by a point or two at most.
LATER_DECAY = 0.8  # a master outside trump gets riskier as players run out of its suit
PAIR_SING_CHANCE = 0.75  # a rey+caballo kept together is sung later this often
SING_NOW_SHARE = 0.5  # winning to sing now is worth half the cante: we may win later too
MOMENT_WEIGHT = 1.0  # weight of the other players' chances to sing after this trick
MOVE_BONUS = 1.0  # with a stock, winning draws first and leads
FEED_CHANCE = 0.5  # in pairs, a card that wins nothing can often go to a partner's trick
LAST_TRICK_SHARE = 0.3  # part of the 10 for the last trick a top trump kept may bring
CASH_MIN_POINTS = 10  # masters worth cashing by a lead: aces and threes
CASH_SAFETY = 0.7  # ... when no opponent is likely to trump them
LOW_TRUMP_MAX = 3  # a small trump is led early when holding at most this many trumps
LOW_TRUMP_MIN_HAND = 7  # ... while the hand still has this many cards
COUNT_OUT_FROM = 5  # with this many cards left and no stock, count out the end (countout.py)


class HeuristicBot:
    """The club player. Built without ``rng`` it is deterministic: the same view always
    gives the same action (the guesses of :mod:`.countout` are then seeded from the view)."""

    name = "heuristic"

    def __init__(self, rng: Any = None) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        kinds = {a.kind for a in legal}
        for pick in (tute_action, exchange_action, sing_action):
            action = pick(legal)
            if action is not None:
                return action
        if "capote" in kinds:
            return Action.capote(view.seat, capote_is_sure(Knowledge(view)))  # type: ignore[arg-type]
        if "bid" in kinds:
            return bid_action(view, legal)
        if countout.applies(view, COUNT_OUT_FROM):
            return countout.count_out(view, Knowledge(view), self._rng_for(view))
        plays = [a for a in legal if a.kind == "play"]
        card = choose_card(Knowledge(view), [a.value.index for a in plays])
        return next(a for a in plays if a.value.index == card)

    def _rng_for(self, view: SeatView) -> Any:
        """The robot's own generator, or one seeded from the view when it has none."""
        if self.rng is not None:
            return self.rng
        hand = tuple(c.index for c in view.hand or ())
        played = tuple(c.index for t in (*view.tricks, view.trick) for _, c in t)
        return random.Random(hash((view.seat, hand, played)))


# ---------------------------------------------------------------------- announcements


def tute_action(legal: tuple[Action, ...]) -> Action | None:
    """Announce tute whenever it is offered: it wins the deal and the game at once."""
    return next((a for a in legal if a.kind == "tute"), None)


def exchange_action(legal: tuple[Action, ...]) -> Action | None:
    """Take the face-up trump card for the 7 (or the 2): the card taken is always higher,
    and it may complete the rey and caballo of trump for the 40, so exchange before singing."""
    return next((a for a in legal if a.kind == "exchange"), None)


def sing_action(legal: tuple[Action, ...]) -> Action | None:
    """Sing whenever a cante is offered; the engine offers the 40 alone while it is due."""
    sings = [a for a in legal if a.kind == "sing"]
    return sings[0] if sings else None


# ---------------------------------------------------------------------- habanero's capote


def capote_is_sure(k: Knowledge) -> bool:
    """Declare capote only when every remaining trick is ours whatever the opponent plays.

    At this moment the stock is empty, so the opponent holds exactly the unseen cards and
    the arrastre duties apply. When we lead, :func:`leads_out` says whether leading our
    trumps, then each suit from the top, wins everything; when they lead, every card they
    may lead must have an answer that takes it and leaves such a hand. That plan is sure;
    it could miss a capote that only a squeeze would make (none turned up in 400 deals
    checked against an exhaustive search), and then the robot merely does not declare.
    """
    mine = sorted(k.hand)
    theirs = sorted(k.unseen)
    if len(theirs) != len(mine):
        return False
    trump = k.trump
    if k.view.leader == k.seat:
        return leads_out(mine, theirs, trump)
    return all(
        any(
            beats(reply, lead, trump)
            and leads_out(_without(mine, reply), _without(theirs, lead), trump)
            for reply in duty_replies(mine, lead, trump)
        )
        for lead in theirs
    )


def leads_out(mine: list[int], theirs: list[int], trump: int) -> bool:
    """Whether we, leading, take every trick: first drawing their trumps with ours, each
    above their best (they keep it to the last), then in each suit leading from the top,
    each card above their best in that suit until they have none left in it.
    """
    for suit in range(4):
        ours = [c for c in mine if SUIT_OF[c] == suit]
        their = [c for c in theirs if SUIT_OF[c] == suit]
        if not their:
            continue
        above = sum(1 for c in ours if c < their[0])  # smaller int: stronger card
        if suit == trump:
            if above < len(their):
                return False
        elif above < min(len(their), len(ours)):
            return False
    return True


def _without(cards: list[int], card: int) -> list[int]:
    return [c for c in cards if c != card]


def duty_replies(hand: list[int], lead: int, trump: int) -> list[int]:
    """The cards a second player may answer ``lead`` with under the duties of §5."""
    return follower_duties(sorted(hand), SUIT_OF[lead], lead, trump)[0]


# ---------------------------------------------------------------------- pocha's bid


def bid_action(view: SeatView, legal: tuple[Action, ...]) -> Action:
    """Bid the tricks the hand should take, rounded, within the legal range."""
    estimate = round(expected_tricks(Knowledge(view)))
    bids = [a for a in legal if a.kind == "bid"]
    return min(bids, key=lambda a: (abs(a.value - estimate), a.value))


def expected_tricks(k: Knowledge) -> float:
    """Sum over the hand of the chance each card wins a trick it leads: high trumps near
    one, masters outside trump less the chance someone is out of the suit and trumps."""
    total = 0.0
    for card in k.hand:
        keep = 1.0
        for seat in k.others:
            keep *= 1.0 - k.p_beaten_by(seat, card, SUIT_OF[card])
        total += keep
    return total


# ---------------------------------------------------------------------- card play


def choose_card(k: Knowledge, cards: list[int]) -> int:
    """The card to play among the legal ``cards``."""
    if len(cards) == 1:
        return cards[0]
    if k.view.options.rules.bids:
        return pocha_card(k, cards)
    if not k.trick and k.duties:
        for rule in LEAD_RULES:
            lead = rule(k, cards)
            if lead is not None:
                return lead
    context = _Context(k)
    return max(cards, key=lambda c: (card_score(k, context, c), -POINTS_OF[c], c))


def low_trump_lead(k: Knowledge, cards: list[int]) -> int | None:
    """Early in the deal, lead a small trump: everyone must follow and beat it, so the
    opponents spend their trumps and our aces stay safe."""
    trumps = k.my_suit(k.trump)
    if not trumps or len(trumps) > LOW_TRUMP_MAX or len(k.hand) < LOW_TRUMP_MIN_HAND:
        return None
    if k.trumps_out() == 0:
        return None
    low = [c for c in trumps if POINTS_OF[c] == 0 and c in cards and not _breaks_pair(k, c)]
    return low[-1] if low else None


def cash_master_lead(k: Knowledge, cards: list[int]) -> int | None:
    """Lead a master outside trump while the others still hold its suit: it wins, and
    makes them follow with their cards of that suit."""
    safe = [
        c
        for c in cards
        if SUIT_OF[c] != k.trump
        and k.is_master(c)
        and not _breaks_pair(k, c)
        and POINTS_OF[c] >= CASH_MIN_POINTS
        and k.p_holds_after(c, SUIT_OF[c]) >= CASH_SAFETY
    ]
    if not safe:
        return None
    return max(safe, key=lambda c: (POINTS_OF[c], -c))


# Lead rules tried in order before scoring every card; the first that names a card wins.
LEAD_RULES = [low_trump_lead, cash_master_lead]


class _Context:
    """Figures shared by every candidate card of one decision."""

    __slots__ = ("after", "final", "moment", "sing", "stake", "stock", "trick_value")

    def __init__(self, k: Knowledge) -> None:
        self.after = k.seats_after_me()
        self.final = len(k.hand) == 1
        self.stock = k.view.stock_size > 0
        self.trick_value = later_trick_points(k)
        self.stake = k.trick_points() + average_unseen_points(k) * len(self.after)
        if self.final:
            self.stake += k.view.options.rules.last_trick_bonus
        self.sing = sing_bonus(k)
        self.moment = moment_values(k)


def card_score(k: Knowledge, ctx: _Context, card: int) -> float:
    """What playing ``card`` now is worth to our side, minus what holding it is worth."""
    p = chance_side_wins(k, ctx, card)
    at_stake = ctx.stake + POINTS_OF[card]
    now = (2 * p - 1) * at_stake
    if not _breaks_pair(k, card):
        now += p * ctx.sing
    ours, theirs = ctx.moment
    now += MOMENT_WEIGHT * (p * ours - (1 - p) * theirs)
    if ctx.stock:
        now += p * MOVE_BONUS + stock_end_adjustment(k, p)
    now += trump_draw_bonus(k, card)
    return now - later_value(k, ctx, card)


def chance_side_wins(k: Knowledge, ctx: _Context, card: int) -> float:
    """Chance that the trick ends with our side if we play ``card``."""
    if not k.trick:
        return k.p_side_takes(card, True, SUIT_OF[card])
    if beats(card, k.win_card, k.trump):
        return k.p_side_takes(card, True, k.led)
    return k.p_side_takes(k.win_card, k.is_ally(k.win_seat), k.led)


def later_value(k: Knowledge, ctx: _Context, card: int) -> float:
    """What ``card`` is worth kept in hand: the points it may capture in a later trick,
    where its own points end up, and the cante it may still make."""
    q = later_win_chance(k, card)
    keep = q + (1 - q) * _feed_chance(k)
    value = 2 * q * ctx.trick_value + (2 * keep - 1) * POINTS_OF[card]
    if SUIT_OF[card] == k.trump and k.is_master(card) and not ctx.final:
        value += q * k.view.options.rules.last_trick_bonus * LAST_TRICK_SHARE
    return value + pair_value(k, card)


def _feed_chance(k: Knowledge) -> float:
    """Chance that a card which wins nothing can still be given to a partner's trick."""
    return FEED_CHANCE if k.pairs else 0.0


def later_win_chance(k: Knowledge, card: int) -> float:
    """Rough chance that ``card`` takes a trick later in the deal."""
    stronger = len(k.stronger_unseen(card))
    if SUIT_OF[card] == k.trump:
        if not stronger:
            return 0.95
        return max(0.3, 0.85 - 0.15 * stronger)
    if stronger:
        return 0.6 * 0.4**stronger
    if k.trumps_out() == 0:
        return 0.95
    keep = 1.0
    for seat in k.others:
        if not k.is_ally(seat):
            keep *= 1.0 - k.p_beaten_by(seat, card, SUIT_OF[card])
    return keep * LATER_DECAY


def average_unseen_points(k: Knowledge) -> float:
    """Points of an average card still out: what each other player adds to a trick."""
    if not k.unseen:
        return 0.0
    return sum(POINTS_OF[c] for c in k.unseen) / len(k.unseen)


def later_trick_points(k: Knowledge) -> float:
    """Points the other players' cards bring to an average later trick."""
    return average_unseen_points(k) * (k.n - 1)


def cante_value(k: Knowledge, suit: int) -> int:
    return rulebook.cante_value(suit, k.trump)


def can_sing_later(k: Knowledge) -> bool:
    """Whether a trick won later in this deal can still bring a cante."""
    return len(k.hand) > 1 and _trick_opens_cantes(k)


def _trick_opens_cantes(k: Knowledge) -> bool:
    """Whether winning the trick now being played would open a moment to sing (§7): the
    stock the engine checks is the one left after this trick's draws."""
    rules = k.view.options.rules
    after_draws = max(0, k.view.stock_size - k.n) if rules.has_stock else 0
    return rulebook.may_sing_after_trick(rules.cantes, rules.cante_needs_stock, after_draws)


def singable_suits(k: Knowledge) -> list[int]:
    """Suits whose rey and caballo I hold and nobody has sung."""
    sung = sum(1 << rey(SUITS.index(s)) for _, s, _ in k.view.cantes)
    return rulebook.held_pairs(sum(1 << c for c in k.hand), sung)


def sing_bonus(k: Knowledge) -> float:
    """Winning this trick lets me sing my best pair right after it."""
    if len(k.hand) == 1 or not _trick_opens_cantes(k):
        return 0.0
    suits = singable_suits(k)
    if not suits:
        return 0.0
    return SING_NOW_SHARE * max(cante_value(k, s) for s in suits)


def moment_values(k: Knowledge) -> tuple[float, float]:
    """What the moment to sing after this trick may be worth to my partner and to the
    opponents: the cantes whose rey and caballo are both still unseen, by the chance
    that one player holds the pair."""
    rules = k.view.options.rules
    if not rules.cantes or rules.has_stock or len(k.hand) == 1:
        # With a stock, hands are refilled from it: these odds would not hold.
        return 0.0, 0.0
    sung = {SUITS.index(s) for _, s, _ in k.view.cantes}
    ours = theirs = 0.0
    for suit in range(4):
        if suit in sung or rey(suit) not in k.unseen or caballo(suit) not in k.unseen:
            continue
        value = cante_value(k, suit)
        for seat in k.others:
            both = k.p_holds(seat, rey(suit)) * k.p_holds(seat, caballo(suit))
            if k.is_ally(seat):
                ours += both * value
            else:
                theirs += both * value
    return ours, theirs


def pair_value(k: Knowledge, card: int) -> float:
    """A rey or caballo whose partner card is in hand, unsung, is worth part of its cante."""
    suit = SUIT_OF[card]
    if card not in (rey(suit), caballo(suit)) or suit not in singable_suits(k):
        return 0.0
    if not can_sing_later(k):
        return 0.0
    return PAIR_SING_CHANCE * cante_value(k, suit)


def _breaks_pair(k: Knowledge, card: int) -> bool:
    suit = SUIT_OF[card]
    return card in (rey(suit), caballo(suit)) and suit in singable_suits(k)


def trump_draw_bonus(k: Knowledge, card: int) -> float:
    """Leading a top trump pulls the opponents' trumps, which makes our masters safe."""
    if k.trick or SUIT_OF[card] != k.trump or not k.is_master(card) or not k.duties:
        return 0.0
    out = k.trumps_out()
    if out == 0:
        return 0.0
    masters = [c for c in k.hand if SUIT_OF[c] != k.trump and k.is_master(c)]
    mine = len(k.my_suit(k.trump))
    if mine < out / max(1, len([s for s in k.others if not k.is_ally(s)])):
        return 0.0
    return 3.0 * len(masters) + 2.0


def stock_end_adjustment(k: Knowledge, p_win: float) -> float:
    """The 12th trick: its loser draws the face-up trump card, so a strong one is worth
    losing for; with the stock at two cards, the winner gets the hidden card instead."""
    view = k.view
    if view.stock_size != 2 or not view.trump_in_stock or view.trump_card is None:
        return 0.0
    face_up = view.trump_card.index
    worth = POINTS_OF[face_up] + (6 if place(face_up) <= 2 else 0)
    return -p_win * worth


# ---------------------------------------------------------------------- pocha's play


def pocha_card(k: Knowledge, cards: list[int]) -> int:
    """Win tricks while the bid needs them, then duck: shed strong cards while they lose."""
    view = k.view
    bid = view.bids[k.seat] if view.bids else 0
    need = (bid or 0) - view.tricks_won[k.seat]
    left = len(k.hand)

    def win_chance(card: int) -> float:
        if not k.trick:
            return k.p_holds_after(card, SUIT_OF[card])
        if beats(card, k.win_card, k.trump):
            return k.p_holds_after(card, k.led)
        return 0.0

    if need >= left:
        return max(cards, key=lambda c: (win_chance(c), c))
    if need > 0:
        return max(cards, key=lambda c: (win_chance(c) - 0.2 * later_win_chance(k, c), c))
    return max(cards, key=lambda c: (-win_chance(c) + 0.2 * later_win_chance(k, c), c))
