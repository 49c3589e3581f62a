"""Puzzles found in a finished game's record: 2-player endgames with one right answer.

Once the stock of 2-player tute or habanero is empty, every card is known to a player who
counts, and the exact solver (:mod:`games.bots.solver`) gives the true value of every action.
A decision of the arrastre (or of habanero's capote decision) is a puzzle when:

- exactly one legal action keeps the best value, and every other loses at least
  :data:`MIN_GAP` points on the analysis' scale (100 a deal won, plus a quarter of the point
  margin over 130: :func:`games.bots.solver.deal_value` times 100);
- and the player in the game missed it (lost :data:`MIN_GAP` or more), or nearly did: found
  it where the next best action, another card, lost :data:`TRAP` or more.

At most one puzzle per deal and seat: the decision missed by most, else the widest trap.

The puzzle is a line: the player's move, the solver's reply (the other seat's best actions
until the player decides again), the player's next move, ... It goes on while the player's
next decision again has one best action with every other :data:`MIN_GAP` behind, for at most
:data:`MAX_MOVES` moves; then the result is safe (every action keeps it, or several do).
For every wrong action at each of the player's moves the refutation is stored: best play on
both sides from there to the end of the deal, and how the deal ends.

Nothing here reads Django: the record in, plain data out (see :func:`mine_record`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.bots.solver import Solver, seat_to_act
from games.engine import Action, GameState, from_record, parse_record
from games.engine.record import start_listed_deal

from .themes import themes_of

SCALE = 100.0  # a deal won is worth 100, as in the analysis
MIN_GAP = 5.0  # every other action loses at least this much: an inaccuracy or worse
TRAP = 30.0  # found, but the next best was a blunder: "nearly missed"
MAX_MOVES = 4  # the player's moves in one puzzle
EPSILON = 1e-9


def action_key(action: Action | dict[str, Any]) -> str:
    """An action's short text: ``play:1O``, ``sing:C``, ``capote:true``, ``tute:12``.

    >>> action_key({"seat": 1, "play": "1O"}), action_key(Action.capote(0, True))
    ('play:1O', 'capote:true')
    """
    data = action.to_dict() if isinstance(action, Action) else action
    kind = next(k for k in data if k != "seat")
    value = data[kind]
    if isinstance(value, bool):
        value = "true" if value else "false"
    return f"{kind}:{value}"


def outcome_of(state: GameState) -> dict[str, Any]:
    """How a finished deal ended, for the page: points per seat, who won it, the capote."""
    capote = None
    if state.capote_seat is not None:
        capote = [state.capote_seat, state.capote_made]
    return {
        "points": list(state.points),
        "winner": state.deal_winner,
        "last_trick": state.last_trick,
        "capote": capote,
        "carry": state.carry,
    }


def solver_for(state: GameState, seat: int) -> Solver:
    carry = state.carry
    return Solver(state.side_of[seat], seat, tuple(carry) if carry is not None else None)


def best_line(state: GameState, solver: Solver) -> tuple[list[Action], GameState]:
    """Best play on both sides to the end of the deal, and the deal's final state."""
    state = state.clone()
    line: list[Action] = []
    while not state.deal_over:
        if seat_to_act(state) is None:
            break
        _value, best = solver.solve(state)
        if best is None:
            break
        line.append(best)
        state.apply(best)
    return line, state


@dataclass
class Decision:
    """The solver's verdict on one decision: each legal action's value, best first."""

    legal: list[Action]
    values: list[float]
    order: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.order = sorted(range(len(self.legal)), key=lambda i: -self.values[i])

    @property
    def best(self) -> Action:
        return self.legal[self.order[0]]

    @property
    def best_value(self) -> float:
        return self.values[self.order[0]]

    @property
    def gap(self) -> float:
        """How far behind the best the next best is (0 when several are best)."""
        if len(self.order) < 2:
            return 0.0
        return SCALE * (self.best_value - self.values[self.order[1]])

    @property
    def one_answer(self) -> bool:
        return len(self.legal) > 1 and self.gap >= MIN_GAP

    def loss(self, action: Action) -> float:
        return SCALE * (self.best_value - self.values[self.legal.index(action)])


def _worth(decision: Decision) -> bool:
    """Declining a capote is what every player does unless sure: no puzzle to find there."""
    best = decision.best
    return not (best.kind == "capote" and best.value is False)


def _card_trap(decision: Decision) -> bool:
    """A choice between cards: a decision found in the game counts only as a card puzzle
    (declining a hopeless capote is no puzzle)."""
    second = decision.legal[decision.order[1]]
    return decision.best.kind == "play" and second.kind == "play"


def decide(state: GameState, seat: int, solver: Solver) -> Decision:
    legal = state.legal_actions_for(seat)
    return Decision(legal, solver.values(state, legal) if len(legal) > 1 else [0.0])


def mine_record(record: Any, *, source: str = "") -> list[dict[str, Any]]:
    """The puzzles of a finished game's record (see the module's docstring). Each is a dict:
    ``key`` (``source`` and where: unique), ``record`` (the game up to the puzzle, for the
    server alone), ``seat``, ``line``, ``steps`` (per move of the player: its best action and
    the refutation of each other), ``outcome`` (the solution's end of the deal), ``themes``,
    ``gap``, ``loss`` (what the player in the game lost there) and ``value``."""
    options, deals = parse_record(record)
    rules = options.rules
    if not rules.has_stock or rules.players != 2:
        return []
    state = GameState(options)
    found: list[dict[str, Any]] = []
    for k, (deal, actions) in enumerate(deals):
        start_listed_deal(state, k, deal)
        chosen: dict[int, tuple[tuple[float, ...], int, dict[str, Any]]] = {}
        solvers: dict[int, Solver] = {}
        for index, action in enumerate(actions):
            seat = action.seat
            if (
                not state.stock_left
                and not state.deal_over
                and seat_to_act(state) == seat
                and len(state.legal_actions_for(seat)) > 1
            ):
                solver = solvers.get(seat) or solvers.setdefault(seat, solver_for(state, seat))
                decision = decide(state, seat, solver)
                if decision.one_answer and action in decision.legal and _worth(decision):
                    loss = decision.loss(action)
                    if loss >= MIN_GAP or (decision.gap >= TRAP and _card_trap(decision)):
                        # Missed first (by most), then the widest trap, then the earliest.
                        rank = (loss >= MIN_GAP, loss, decision.gap)
                        if seat not in chosen or rank > chosen[seat][0]:
                            start = {"record": state.to_record(), "loss": loss}
                            chosen[seat] = (rank, index, start)
            state.apply(action)
        for seat, (_rank, index, start) in sorted(chosen.items()):
            puzzle = build_puzzle(start["record"], seat)
            if puzzle is None:
                continue
            puzzle["key"] = f"{source}d{k}a{index}s{seat}"
            puzzle["loss"] = round(start["loss"], 1)
            found.append(puzzle)
        if state.over:
            break
    return found


def build_puzzle(record: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The line, refutations and themes of the puzzle whose position ends ``record``; None
    when the position has no single answer."""
    start = from_record(record)
    solver = solver_for(start, seat)
    state = start.clone()
    line: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    decisions: list[Decision] = []
    while not state.deal_over and len(steps) < MAX_MOVES:
        actor = seat_to_act(state)
        if actor is None:
            break
        if actor != seat:
            _value, reply = solver.solve(state)
            line.append(reply.to_dict())  # type: ignore[union-attr]
            state.apply(reply)  # type: ignore[arg-type]
            continue
        decision = decide(state, seat, solver)
        if not decision.one_answer:
            break  # the result is safe: no single answer left to find
        wrong = {}
        for action in decision.legal:
            if action == decision.best:
                continue
            after = state.clone()
            after.apply(action)
            rest, end = best_line(after, solver)
            wrong[action_key(action)] = {
                "line": [action.to_dict(), *(a.to_dict() for a in rest)],
                "outcome": outcome_of(end),
                "loss": round(decision.loss(action), 1),
            }
        steps.append({"at": len(line), "best": decision.best.to_dict(), "wrong": wrong})
        decisions.append(decision)
        line.append(decision.best.to_dict())
        state.apply(decision.best)
    # The solver's reply to the last move: the other seat's actions until the player decides.
    while not state.deal_over and seat_to_act(state) not in (None, seat):
        _value, reply = solver.solve(state)
        line.append(reply.to_dict())  # type: ignore[union-attr]
        state.apply(reply)  # type: ignore[arg-type]
    if not decisions:
        return None
    rest, end = best_line(state, solver)
    first = decisions[0]
    second = first.legal[first.order[1]]
    refutation = steps[0]["wrong"][action_key(second)]
    themes = themes_of(
        start=start,
        seat=seat,
        line=[Action.from_dict(a, 2) for a in line],
        solution_end=end,
        solution_rest=rest,
        second=second,
        second_line=[Action.from_dict(a, 2) for a in refutation["line"]],
        steps=[(d.best, d.legal[d.order[1]]) for d in decisions],
    )
    return {
        "record": record,
        "seat": seat,
        "variant": start.options.variant,
        "line": line,
        "steps": steps,
        "rest": [a.to_dict() for a in rest],
        "outcome": outcome_of(end),
        "themes": themes,
        "gap": round(first.gap, 1),
        "value": round(SCALE * first.best_value, 1),
    }


def position_at(record: dict[str, Any], line: list[dict[str, Any]], upto: int) -> GameState:
    """The puzzle's position after the first ``upto`` actions of its line."""
    state = from_record(record)
    for data in line[:upto]:
        state.apply(Action.from_dict(data, state.n))
    return state
