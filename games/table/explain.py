"""What the table page explains but may not work out itself, since it decides no rule: who
wins the trick on the felt so far, who took the last one and what it was worth, why the
cards a seat may not play are dimmed (the engine's refusal, by kind: the page reads its
sentence in the player's language from `refusals.MESSAGES`), and the score sheet of the
finished deals.

Each reads the room's engine state only; `frames.game_json` puts them in a seat's `game`.
"""

from __future__ import annotations

from typing import Any

from games.engine import GameState
from games.engine.cards import POINTS_OF, SUITS, parse_card_index
from games.engine.refusals import Refusal
from games.engine.rulebook import trick_winner_seat

# The refusals of §5 that dim a card in the hand of the seat on turn.
PLAY_DUTIES = (
    Refusal.ANSWER_TRUMP_LEAD,
    Refusal.FOLLOW_SUIT,
    Refusal.BEAT_LED,
    Refusal.OVERTRUMP,
    Refusal.TRUMP,
)


def trick_explained(state: GameState) -> dict[str, Any] | None:
    """The trick as the page explains it: who leads the one on the felt and who wins it so
    far (`leader`, `winning`), and the last trick taken this deal (`taken`: its winner and
    its points, the 10 of the last trick included; None for points in pocha). None before
    the first deal."""
    if state.deal_index < 0:
        return None
    taken = None
    tricks = state.tricks
    if tricks:
        leader, cards = tricks[-1]
        seat = trick_winner_seat(state.trump, state.n, leader, cards)
        rules = state.rules
        points = None
        if rules.counts_card_points:
            points = sum(POINTS_OF[c] for c in cards)
            # The winner of the deal's last trick holds no card more (RULES.md §5).
            if not state.hands[seat]:
                points += rules.last_trick_bonus
        taken = {"seat": seat, "points": points, "number": len(tricks)}
    playing = bool(state.trick)
    return {
        "leader": state.trick_leader if playing else None,
        "winning": state.win_seat if playing else None,
        "taken": taken,
    }


def dimmed_reason(state: GameState, seat: int | None) -> str | None:
    """Why `seat`, on turn to play a card, may not play some of its cards: the kind of the
    engine's refusal (`Refusal.value`, e.g. ``follow_suit``). None when every card it holds
    may be played or it has no card to play now."""
    duty = None if seat is None else state.play_duty(seat)
    return duty.value if duty in PLAY_DUTIES else None


def score_sheet(state: GameState) -> list[dict[str, Any]]:
    """Every finished deal of the game, as the score sheet shows it at any time: each side's
    points (pocha: each seat's hand score, its bid and the tricks it took), the deal's winner
    (None: nobody, as a habanero deal under 100), the points it carried in, capote, tute."""
    summaries = state.deal_summaries()
    if not state.deal_over:
        summaries = summaries[:-1]  # the deal being played is no line of the sheet yet
    deals = state.record_deals()
    sheet = []
    for summary, (deal, _actions) in zip(summaries, deals, strict=False):
        taken = None
        if summary["bids"] is not None:
            trump = SUITS.index(deal.trump_card.suit)
            taken = [0] * state.n
            for trick in summary["tricks"]:
                cards = [parse_card_index(p["card"]) for p in trick]
                taken[trick_winner_seat(trump, state.n, trick[0]["seat"], cards)] += 1
        sheet.append(
            {
                "points": summary["points"],
                "winner": summary["winner"],
                "bids": summary["bids"],
                "taken": taken,
                "carry": summary["carry"],
                "capote": summary["capote"],
                "tute": summary["tute"],
            }
        )
    return sheet
