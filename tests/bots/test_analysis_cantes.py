"""A cante taken when it is offered is never marked as a loss by the analysis.

Singing gains its 20 or 40 points and keeps the pair in hand, so taking it at once is never
worse than a card that keeps it for later. Judged by the playouts' own card after it, it
once was: a habanero cante was marked a blunder of 40 points, because after the cante the
playout's rule plays the pair like any other cards, while the card that skipped it kept the
pair together. The analysis now judges a cante (and an exchange) by the seat's best card
after it, on the same worlds.
"""

from __future__ import annotations

import random

from games.bots import HeuristicBot, StrongBot, seat_to_act
from games.bots.analysis import score_decision
from games.engine import new_game

PLAYOUTS = 200


def sing_moments(count: int) -> list:
    """Views of habanero seats that may sing while the stock lasts, from seeded games of
    heuristic robots (their choice is played on, so each game gives a few)."""
    found = []
    seed = 0
    while len(found) < count:
        state = new_game({"variant": "habanero", "points_to_win": 1}, random.Random(seed))
        bots = [HeuristicBot(random.Random(f"{seed}:{s}")) for s in range(2)]
        while not state.over and len(found) < count:
            if state.needs_deal:
                state.deal_next(random.Random(seed))
                continue
            seat = seat_to_act(state)
            view = state.view(seat)
            kinds = {a.kind for a in view.legal_actions}
            if "sing" in kinds and "play" in kinds and state.stock_left:
                found.append(view)
            state.apply(bots[seat].choose(view))
        seed += 1
    return found


def test_a_cante_taken_at_once_is_marked_best() -> None:
    moments = sing_moments(60)
    for i, view in enumerate(moments):
        legal = list(view.legal_actions)
        sing = next(a for a in legal if a.kind == "sing")
        bot = StrongBot(random.Random(i), budget_ms=None, iterations=PLAYOUTS)
        scored = score_decision(bot, view, legal, sing)
        assert scored is not None
        assert scored["mark"] == "best", (i, scored)


def test_a_cante_is_valued_by_the_best_card_after_it() -> None:
    view = sing_moments(1)[0]
    legal = list(view.legal_actions)
    bot = StrongBot(random.Random(3), budget_ms=None, iterations=PLAYOUTS)
    lines, owners = bot.lines(view, legal)
    sing = legal.index(next(a for a in legal if a.kind == "sing"))
    after = [line for line, owner in zip(lines, owners, strict=True) if owner == sing]
    # Every card the seat may play after its cante is a line of its own (an exchange may
    # come between them), and each line ends with a card.
    assert all(line[-1].kind == "play" for line in after)
    assert {line[1].value for line in after if line[1].kind == "play"} == set(view.hand)
    assert all(len(line) == 1 for line, owner in zip(lines, owners, strict=True) if owner != sing)
