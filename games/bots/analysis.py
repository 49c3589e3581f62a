"""The analysis of a finished game: every decision scored by the strong robot, from the view
of the player who made it, at that moment.

The game's record is replayed through the engine. Before each action, the seat that took it
gets its :class:`~games.engine.SeatView` (its own hand and what the table saw, never the
hidden cards), and :meth:`.strong.StrongBot.evaluate` gives the expected deal result of every
action it had: the mean over worlds dealt from that view, or, in a 2-player deal whose stock
is empty, the exact value of the tricks left (:mod:`.solver`). Cards, cantes, exchanges,
tute, capote and bids are scored alike; a decision with a single legal action is forced and
is not scored. A cante or an exchange leaves its seat to play a card next, so it is valued by
the best card after it (:meth:`.strong.StrongBot.lines`), not by the card the playouts' rule
would play after it: that rule, no longer keeping the sung pair together, once had a cante
taken at once marked a blunder against a card that kept it for later.

The expected result is on the scale the page states, from 0 for a deal lost to 100 for a
deal won (50 when nobody wins it): each world's :func:`.strong.playout_value`, which adds a
quarter of the point margin to steer the robot's own play, is held to 0-1 before the mean
(:func:`on_scale`), so that no number shown goes past either end. The points lost are the
best action's expected result less the chosen one's, and give the mark (:data:`THRESHOLDS`,
written in the rules pages):

- ``best``: less than 5 points lost (or the best choice itself);
- ``inaccuracy``: 5 to 15;
- ``mistake``: 15 to 30;
- ``blunder``: 30 or more.

A player's accuracy is the share of their scored decisions marked ``best``, in percent
(:func:`accuracy_of`): what a player counts by hand from the marks on the page. Only a
``choice`` counts: a decision where some legal action would have lost an inaccuracy or
more (beyond the noise, below). Where every action is worth the same the decision is as
good as forced; counted, it let a player who threw any card score about 87% in habanero
(bench/benchmarks/analysis_spread.py measures the robots `random` and `hard`).

On sampled worlds, the points lost leave out :data:`NOISE` standard errors of the paired
difference between the best action and the chosen one: a choice the samples cannot tell
from the best is not marked.

The whole game is bounded in time (``seconds``): it is shared among the decisions to score,
with at least :data:`MIN_MS` and at most :data:`MAX_MS` and ``playouts`` each; past twice
that time the rest is left unscored (``complete`` false). With ``seconds`` None only the
playouts bound a decision, and the analysis is repeatable exactly.

>>> import random
>>> from games.bots import HeuristicBot, bot_play, seat_to_act
>>> from games.engine import new_game
>>> g = new_game({"variant": "habanero", "points_to_win": 1}, random.Random(5))
>>> bots = [HeuristicBot(random.Random(s)) for s in range(2)]
>>> while not g.over:
...     if g.needs_deal:
...         g.deal_next(random.Random(6))
...     seat = seat_to_act(g)
...     _ = bot_play(bots[seat], g, seat)
>>> result = analyse_record(g.to_record(), seconds=2.0, seed=1)
>>> {d["seat"] for deal in result["deals"] for d in deal["decisions"]} <= {0, 1}
True
>>> {d["mark"] for deal in result["deals"] for d in deal["decisions"]} <= set(MARKS)
True
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from games.engine import GameState, parse_record
from games.engine.record import start_listed_deal

from .sampler import NoWorld
from .strong import StrongBot

MARKS = ("best", "inaccuracy", "mistake", "blunder")
THRESHOLDS = (5.0, 15.0, 30.0)  # points lost from which a decision is an inaccuracy, ...
MAX_MS = 400.0  # at most this long on one decision
MAX_PLAYOUTS = 600  # ... and this many playouts
MIN_MS = 50.0  # at least this long, however many decisions share the game's time
SCALE = 100.0  # a deal won is 100
NOISE = 2.0  # standard errors of the sampled difference not counted as points lost


def mark_for(loss: float) -> str:
    """The mark of a decision that lost ``loss`` expected points.

    >>> [mark_for(x) for x in (0, 4.9, 5, 14.9, 15, 29.9, 30, 80)]
    ['best', 'best', 'inaccuracy', 'inaccuracy', 'mistake', 'mistake', 'blunder', 'blunder']
    """
    for mark, limit in zip(MARKS, THRESHOLDS, strict=False):
        if loss < limit:
            return mark
    return MARKS[-1]


def accuracy_of(marks: list[str]) -> float | None:
    """The share of decisions marked best, in percent; None when none was scored.

    >>> accuracy_of(["best", "best", "blunder", "best"]), accuracy_of([])
    (75.0, None)
    """
    if not marks:
        return None
    return round(100.0 * marks.count("best") / len(marks), 1)


def seat_marks(data: dict[str, Any], seat: int) -> list[str]:
    """A seat's marks through an analysed game (`analyse_record`'s data), in order: what its
    accuracy is read from, wherever it is shown, so that it always follows from the marks.

    >>> decisions = [{"seat": 0, "mark": "best"}, {"seat": 1, "mark": "mistake"}]
    >>> data = {"deals": [{"decisions": decisions}]}
    >>> seat_marks(data, 1), accuracy_of(seat_marks(data, 0))
    (['mistake'], 100.0)
    """
    return [
        d["mark"]
        for deal in data["deals"]
        for d in deal["decisions"]
        if d["seat"] == seat and d.get("choice", True)
    ]


def on_scale(value: float) -> float:
    """A deal's value held to the analysis's scale, 0 (lost) to 1 (won): the margin the
    robot adds to a win or a loss makes no deal more than won or less than lost.

    >>> on_scale(1.2), on_scale(-0.2), on_scale(0.5)
    (1.0, 0.0, 0.5)
    """
    return min(1.0, max(0.0, value))


def analyse_record(
    record: Any, *, seconds: float | None = 30.0, playouts: int = MAX_PLAYOUTS, seed: Any = 0
) -> dict[str, Any]:
    """The analysis of a game from its record (NOTATION.md); see the module's docstring.

    Returns ``deals`` (per deal, its ``decisions``: the action index in the deal, seat,
    action, best action, the expected results of both, points lost, mark, and whether it
    was solved exactly), ``accuracy`` per seat (a string key, for JSON), ``exact`` (whether
    some decision was solved exactly) and ``seconds`` spent.
    """
    start = time.perf_counter()
    options, deals = parse_record(record)
    to_score = _choices(options, deals)
    budget_ms = None
    deadline = None
    if seconds is not None:
        budget_ms = max(MIN_MS, min(MAX_MS, 1000.0 * seconds / max(1, to_score)))
        deadline = start + 2 * seconds
    complete = True
    state = GameState(options)
    out_deals: list[dict[str, Any]] = []
    any_exact = False
    for k, (deal, actions) in enumerate(deals):
        start_listed_deal(state, k, deal)
        decisions = []
        # One robot per seat through the deal: its exact endgame table is reused.
        bots = {
            s: StrongBot(random.Random(f"{seed}:{k}:{s}"), budget_ms=budget_ms, iterations=playouts)
            for s in range(state.n)
        }
        for index, action in enumerate(actions):
            seat = action.seat
            view = state.view(seat)
            legal = list(view.legal_actions)
            if deadline is not None and time.perf_counter() > deadline:
                complete = False  # out of time: the rest of the game is left unscored
            elif len(legal) > 1 and action in legal:
                scored = score_decision(bots[seat], view, legal, action)
                if scored is not None:
                    scored["index"] = index
                    decisions.append(scored)
                    any_exact = any_exact or scored["exact"]
            state.apply(action)
        out_deals.append({"number": k + 1, "decisions": decisions})
    return {
        "deals": out_deals,
        "exact": any_exact,
        "complete": complete,
        "thresholds": list(THRESHOLDS),
        "seconds": round(time.perf_counter() - start, 2),
    }


def _choices(options: Any, deals: list[Any]) -> int:
    """How many decisions of the game had more than one legal action."""
    state = GameState(options)
    count = 0
    for k, (deal, actions) in enumerate(deals):
        start_listed_deal(state, k, deal)
        for action in actions:
            count += len(state.legal_actions_for(action.seat)) > 1
            state.apply(action)
    return count


def score_decision(
    bot: StrongBot, view: Any, legal: list[Any], action: Any
) -> dict[str, Any] | None:
    """One decision scored from its seat's view: the chosen action's expected result, the
    best one's, the points lost and the mark (None when no world fits the view)."""
    try:
        values, exact, samples = bot.evaluate_samples(view, legal)
    except NoWorld:
        return None
    if samples is None:
        values = [on_scale(value) for value in values]
    else:
        samples = [[on_scale(value) for value in playouts] for playouts in samples]
        values = [sum(playouts) / len(playouts) for playouts in samples]
    mine = legal.index(action)
    chosen = values[mine]
    best_i = max(range(len(legal)), key=lambda i: (values[i], i == mine))
    best = values[best_i]
    loss = SCALE * (best - chosen)
    if samples is not None and best_i != mine:
        # Sampled worlds: only what the noise of the paired difference cannot explain.
        loss -= SCALE * NOISE * _standard_error(samples[best_i], samples[mine])
    loss = max(0.0, loss)
    # Whether the decision was a choice at all: some legal action would have cost at least an
    # inaccuracy (beyond the noise, on sampled worlds). Where every action is worth the same
    # the decision is as good as forced, and no accuracy counts it.
    worst_i = min(range(len(legal)), key=lambda i: values[i])
    spread = SCALE * (best - values[worst_i])
    if samples is not None and worst_i != best_i:
        spread -= SCALE * NOISE * _standard_error(samples[best_i], samples[worst_i])
    return {
        "seat": action.seat,
        "action": action.to_dict(),
        "best": legal[best_i].to_dict(),
        "expected": round(SCALE * chosen, 1),
        "expected_best": round(SCALE * best, 1),
        "loss": round(loss, 1),
        "mark": mark_for(loss),
        "choice": spread >= THRESHOLDS[0],
        "exact": exact,
    }


def _standard_error(ahead: list[float], behind: list[float]) -> float:
    """The standard error of the mean of the paired differences ``ahead - behind``."""
    diffs = [a - b for a, b in zip(ahead, behind, strict=True)]
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return math.sqrt(var / n)
