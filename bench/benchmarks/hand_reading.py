"""What the other seats' plays tell about their hands: reading, measured.

The strong robot's sampler (games/bots/sampler.py) deals every world that fits the view
alike: any hidden card may be anywhere the rules allow. But the other seats chose their
cards from their hands. A world where a seat held a card it would surely have played, and
played another, explains its play less well. Weighing the worlds by how well they explain
the plays ("reading the hands") is the step the hidden cards' cost pointed to (README.md,
"What the hidden cards cost"). This bench measures what it is worth before a robot pays for
it.

The model of another seat (:class:`Reader`): it plays the card a rule plays, here the
playouts' own rule (:func:`games.bots.strong.smart_card`). Each past card of another seat
that the rule, given that seat's hand in the world, would not have played multiplies the
world's weight by ``miss``; a card played from one legal choice says nothing. What a seat
held when it played is the world's: without a stock, its hand now plus the cards it played
since; with a stock, the hands the sampler records as it replays the deal
(``WorldSampler.past_hands``).

The figure: robots play single deals; at some of seat 0's decisions 200 worlds are dealt
from its view, and for every hidden card and other seat, the share of the (weighted) worlds
that put the card in that seat's hand is scored against the truth (the Brier score, lower
is better). Two kinds of players: *rule* players play by the model's own rule (the best
case: the model is exact), *heuristic* players are the club robot (the model is right about
half the time). ``ess`` is the worlds' effective number out of 200.

Against heuristic players the reading moved the guess by 1.5% in habanero and 3% at 4
players (README.md), too little for the worlds it would cost: no robot weighs its worlds.

    python -m bench.benchmarks.hand_reading [--games 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.bots.core import legal_plays
from games.bots.heuristic import HeuristicBot
from games.bots.knowledge import trick_winner
from games.bots.sampler import NoWorld, WorldSampler
from games.bots.strong import _Playout, _Setup, smart_card
from games.engine import GameState, SeatView, new_game
from games.engine.cards import SUITS

Rule = Callable[[list[int], int, Any], int]


class _Moment:
    """One past card of another seat, as the rule reads it (the playouts' state): the table
    (``setup``), the trick so far, the cards gone before it (those of this trick included)
    and the suits sung; and whether the stock still had cards (§5's duties)."""

    __slots__ = ("card", "gone", "index", "seat", "setup", "stock_left", "sung", "trick")

    def __init__(
        self,
        setup: _Setup,
        seat: int,
        card: int,
        index: int,
        trick: list,
        gone: int,
        *,
        sung: set[int],
        stock_left: int,
    ) -> None:
        self.setup = setup
        self.seat = seat
        self.card = card
        self.index = index  # which of the seat's plays this is, counted from the first
        self.trick = trick
        self.gone = gone
        self.sung = sung
        self.stock_left = stock_left


class Reader:
    """Reads the past cards of the other seats for one decision of ``view``'s seat; build
    once, then :meth:`unexplained` or :meth:`weight` for each world. Not for pocha: the
    rule's pocha cards read the bids, which a moment does not carry."""

    def __init__(self, view: SeatView, rule: Rule) -> None:
        self.rule = rule
        rules = view.options.rules
        self.stock_play = rules.stock_play
        setup = _Setup(view)  # what the rule reads of the table is the same for every seat
        self.trump = setup.trump
        sung_by = _sung_by_trick(view, self.trump)
        self.moments: list[_Moment] = []
        self.plays: dict[int, list[int]] = {s: [] for s in range(view.players)}
        gone = 0
        for t, trick in enumerate((*view.tricks, view.trick)):
            so_far: list[tuple[int, int]] = []
            for seat, c in trick:
                card = c.index
                if seat != view.seat:
                    self.moments.append(
                        _Moment(
                            setup,
                            seat,
                            card,
                            len(self.plays[seat]),
                            so_far[:],
                            gone,
                            sung=sung_by[t],
                            # Two players with a stock: it is empty from the 13th trick on.
                            stock_left=int(rules.has_stock and t < 12),
                        )
                    )
                self.plays[seat].append(card)
                so_far.append((seat, card))
                gone |= 1 << card

    def unexplained(self, world: GameState, past_hands: Sequence[Sequence[int]] | None) -> int:
        """How many past cards of the other seats the rule would not have played from their
        hands in this world (a card played from one legal choice is always explained).
        ``past_hands`` are the hands the sampler recorded before each of those cards (in
        the order of :attr:`moments`), or None to read them off the world's hands now."""
        count = 0
        hands = world.hands if past_hands is None else None
        for i, moment in enumerate(self.moments):
            if past_hands is not None:
                hand = sorted(past_hands[i])
            else:
                hand = sorted((*hands[moment.seat], *self.plays[moment.seat][moment.index :]))  # type: ignore[index]
            cards = self._allowed(hand, moment)
            if len(cards) > 1 and self.rule(cards, moment.seat, moment) != moment.card:
                count += 1
        return count

    def weight(
        self, world: GameState, past_hands: Sequence[Sequence[int]] | None, miss: float
    ) -> float:
        """The world's weight, from 0 to 1: ``miss`` for each unexplained card."""
        return miss ** self.unexplained(world, past_hands)

    def _allowed(self, hand: list[int], moment: _Moment) -> list[int]:
        """The cards the seat could play then (§5), from a sorted hand: the search core's
        :func:`~games.bots.core.legal_plays`, which its property test keeps equal to the
        engine's."""
        trick = moment.trick
        if not trick:
            return hand
        mask = 0
        for c in hand:
            mask |= 1 << c
        win = trick_winner(trick, self.trump)[1]
        allowed = legal_plays(
            mask, trick[0][1] // 10, win, self.trump, self.stock_play, moment.stock_left
        )
        return [c for c in hand if allowed >> c & 1]


def _sung_by_trick(view: SeatView, trump: int) -> list[set[int]]:
    """The suits sung before each trick of the view is led (one set per trick, the one in
    play included). The view lists the cantes in order but not when: each is dated at the
    first moment its seat could sing it, after a trick its side won (§7), as a club player
    sings, one cante a moment per seat and no earlier than the cante before it."""
    tricks = [[(s, c.index) for s, c in t] for t in view.tricks]
    winners = [trick_winner(t, trump)[0] for t in tricks]
    sides = view.sides
    dated: list[tuple[int, int]] = []  # (trick after which it was sung, suit)
    bound = 0
    last: dict[int, int] = {}
    for seat, suit, _value in view.cantes:
        low = max(bound, last.get(seat, -1) + 1)
        after = next(
            (t for t in range(low, len(tricks)) if sides[winners[t]] == sides[seat]),
            len(tricks) - 1,
        )
        dated.append((after, SUITS.index(suit)))
        bound = last[seat] = after
    return [{u for t, u in dated if t < trick} for trick in range(len(tricks) + 1)]


# ---------------------------------------------------------------------- the bench

VARIANTS = {"habanero": {"variant": "habanero"}, "pairs": {"variant": "tute", "players": 4}}
MISSES = (1.0, 0.5, 0.3, 0.1)  # 1.0: every world alike, the sampler as it is
WORLDS = 200  # worlds dealt at each decision measured


class RulePlayer:
    """Plays its cards by the model's rule, from its view; sings and exchanges as the
    heuristic robot does (so the model is exact about its cards)."""

    name = "rule"

    def __init__(self) -> None:
        self.other = HeuristicBot()

    def choose(self, view: SeatView) -> Any:
        legal = view.legal_actions
        plays = [a for a in legal if a.kind == "play"]
        if len(plays) < 2 or len(plays) != len(legal):
            return self.other.choose(view)
        card = rule_card(view, [a.value.index for a in plays])
        return next(a for a in plays if a.value.index == card)


def rule_card(view: SeatView, cards: list[int]) -> int:
    """The card the model's rule plays from ``cards`` at ``view``'s turn."""
    return smart_card(cards, view.seat, _Playout(_Setup(view), ()))  # type: ignore[arg-type]


def decisions(config: dict, players: str, games: int, seed: int, agree: list[int] | None = None):
    """Seat 0's views, with the true game, at about half its decisions from the fourth
    trick on, in single deals between ``players`` ("rule" or "heuristic"). ``agree``, when
    given, counts [cards the rule predicts, cards chosen from two or more]."""
    rng = random.Random(f"{seed}:pick")
    for game in range(games):
        state = new_game(config, random.Random(f"{seed}:{game}"))
        bots = [RulePlayer() if players == "rule" else HeuristicBot() for _ in range(state.n)]
        while not state.needs_deal and not state.over:
            legal = state.legal_actions()
            seat = state.to_move if state.to_move in legal else min(legal)
            view = state.view(seat)
            wanted = seat == 0 and len(view.tricks) >= 3 and len(view.legal_actions) > 1
            if wanted and rng.random() < 0.5:
                yield state, view
            action = bots[seat].choose(view)
            if agree is not None:
                plays = [a.value.index for a in view.legal_actions if a.kind == "play"]
                if len(plays) == len(view.legal_actions) > 1:
                    agree[0] += rule_card(view, plays) == action.value.index
                    agree[1] += 1
            state.apply(action)


def brier(state: GameState, view: SeatView, worlds: list, weights: list[float]) -> float:
    """For every hidden card and other seat, the squared distance between the weighted
    share of worlds that put the card in that seat's hand and the truth (1 or 0), summed."""
    played = {c.index for t in (*view.tricks, view.trick) for _, c in t}
    mine = set(state.hands[view.seat])  # type: ignore[index]
    hidden = [c for c in range(40) if c not in mine and c not in played]
    total = sum(weights)
    score = 0.0
    for seat in range(state.n):
        if seat == view.seat:
            continue
        truth = set(state.hands[seat])
        for card in hidden:
            share = sum(
                w for w, world in zip(weights, worlds, strict=True) if card in world.hands[seat]
            )
            score += (share / total - (card in truth)) ** 2
    return score


def measure(variant: str, players: str, games: int, seed: int) -> dict[str, Any]:
    """Mean Brier score and effective worlds per ``miss``, over the decisions of ``games``."""
    config = VARIANTS[variant]
    rng = random.Random(f"{seed}:worlds")
    scores = dict.fromkeys(MISSES, 0.0)
    ess = dict.fromkeys(MISSES, 0.0)
    n = 0
    agree = [0, 0]
    for state, view in decisions(config, players, games, seed, agree):
        try:
            sampler = WorldSampler(view, past=True)
            dealt = [(sampler.sample(rng), sampler.past_hands) for _ in range(WORLDS)]
        except NoWorld:
            continue
        worlds = [w for w, _ in dealt]
        n += 1
        reader = Reader(view, smart_card)
        unexplained = [reader.unexplained(w, past) for w, past in dealt]
        for miss in MISSES:
            weights = [miss**k for k in unexplained]
            scores[miss] += brier(state, view, worlds, weights)
            ess[miss] += sum(weights) ** 2 / sum(w * w for w in weights)
    base = scores[1.0] / n
    return {
        "variant": variant,
        "players": players,
        "decisions": n,
        "rule_predicts": round(agree[0] / max(1, agree[1]), 3),
        "brier": {str(m): round(scores[m] / n, 4) for m in MISSES},
        "better_than_alike": {str(m): round(1 - scores[m] / n / base, 4) for m in MISSES},
        "ess": {str(m): round(ess[m] / n, 1) for m in MISSES},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.benchmarks.hand_reading")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for variant in VARIANTS:
        for players in ("rule", "heuristic"):
            load_before = os.getloadavg()[0]
            start = time.perf_counter()
            row = measure(variant, players, args.games, args.seed)
            row["seconds"] = round(time.perf_counter() - start, 1)
            row["load"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
            print(json.dumps({"bench": "hand_reading", **row}))


if __name__ == "__main__":
    main()
