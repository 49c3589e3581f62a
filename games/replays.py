"""A finished game, step by step, for its replay page: built by replaying its record through
the engine, so the page never re-implements a rule. Only for finished games: every hand is
revealed here."""

from __future__ import annotations

from typing import Any

from games.engine import GameState, parse_record
from games.engine.record import start_listed_deal
from games.models import Game


def _position(state: GameState) -> dict[str, Any]:
    """Everything the replay shows at one moment: every hand, the table, the scores."""
    public = state.view(None)
    trick = [{"seat": s, "card": str(c)} for s, c in public.trick]
    closed = False
    if not trick and public.tricks:
        # A trick just ended: keep its cards on show until the next card is played.
        trick = [{"seat": s, "card": str(c)} for s, c in public.tricks[-1]]
        closed = True
    return {
        "hands": [[str(c) for c in state.hand(seat)] for seat in range(state.n)],
        "trick": trick,
        "trick_closed": closed,
        "trump_card": None if public.trump_card is None else str(public.trump_card),
        "stock_size": public.stock_size,
        "tricks_won": list(public.tricks_won),
        "points": list(public.points),
        "score": list(public.score),
        "cantes": [{"seat": s, "suit": u, "value": v} for s, u, v in public.cantes],
        "bids": None if public.bids is None else list(public.bids),
        "turn": public.turn,
    }


def game_replay(*, game: Game) -> dict[str, Any]:
    """The replay of a stored game: per deal, its dealer, its trump card and a list of steps
    (the position before any action, then after each one), plus its summary (NOTATION.md's
    replay `deals` entry). Raises the engine's InvalidRecord/IllegalAction for a bad record."""
    options, deals = parse_record(game.record)
    state = GameState(options)
    out: list[dict[str, Any]] = []
    for k, (deal, actions) in enumerate(deals):
        start_listed_deal(state, k, deal)
        steps = [{"action": None, **_position(state)}]
        for action in actions:
            state.apply(action)
            steps.append({"action": action.to_dict(), **_position(state)})
        out.append({"number": k + 1, "dealer": deal.dealer, "steps": steps})
    for entry, summary in zip(out, state.deal_summaries(), strict=True):
        entry["summary"] = summary
    return {
        "variant": options.variant,
        "players": state.n,
        "sides": [state.rules.side_of(s) for s in range(state.n)],
        "deals": out,
        "result": {"over": state.over, "winner": state.winner, "score": list(state.score)},
    }
