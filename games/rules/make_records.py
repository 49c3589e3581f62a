"""Write the long example records of the rules pages into ``records/`` (run once, commit them).

python -m games.rules.make_records

Each record is found by playing seeded habanero games with the engine, so every action in it
is one the engine allowed:

- ``capote``: a deal where the leader of the arrastre declares capote and takes all 8 tricks.
- ``habanero_100`` and ``habanero_101``: deals that end with a player on exactly 100 points
  (not enough: a mano de vuelta follows) and on exactly 101 (enough to win the deal).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from games.engine import Action, GameState, new_game, to_record

RECORDS_DIR = Path(__file__).resolve().parent / "records"


def _play_stock_phase(state: GameState, rng: random.Random, sing: bool) -> None:
    """Random legal plays until the capote decision (or the deal's end)."""
    while state.phase == "play":
        legal = state.legal_actions()
        if sing:
            sings = [a for acts in legal.values() for a in acts if a.kind == "sing"]
            if sings:
                state.apply(sings[0])
                continue
        seat = state.to_move
        plays = [a for a in legal.get(seat, []) if a.kind == "play"]
        state.apply(rng.choice(plays))


def _capote_line(state: GameState, declarer: int) -> list[Action] | None:
    """Plays by which ``declarer`` wins every remaining trick whatever the other does, or None.

    The defender's plays in the returned line are the first legal ones; the search proves
    that every other answer loses too.
    """
    if state.deal_over:
        return [] if state.capote_made else None
    seat = state.to_move
    plays = [a for a in state.legal_actions_for(seat) if a.kind == "play"]
    if seat == declarer:
        for action in plays:
            child = state.clone()
            child.apply(action)
            rest = _capote_line(child, declarer)
            if rest is not None:
                return [action, *rest]
        return None
    line = None
    for action in plays:
        child = state.clone()
        child.apply(action)
        rest = _capote_line(child, declarer)
        if rest is None:
            return None
        if line is None:
            line = [action, *rest]
    return line


def find_capote(max_seed: int = 5000) -> dict:
    for seed in range(max_seed):
        rng = random.Random(seed)
        state = new_game({"variant": "habanero"}, rng, first_dealer=0)
        _play_stock_phase(state, rng, sing=False)
        if state.phase != "capote":
            continue
        declarer = state.capote_turn
        trial = state.clone()
        trial.apply(Action(declarer, "capote", True))
        line = _capote_line(trial, declarer)
        # A capote worth showing: the defender must answer under a duty at least once.
        if line is None or not _defender_constrained(trial, line, declarer):
            continue
        state.apply(Action(declarer, "capote", True))
        for action in line:
            state.apply(action)
        return to_record(state)
    raise RuntimeError("no capote found")


def _defender_constrained(state: GameState, line: list[Action], declarer: int) -> bool:
    probe = state.clone()
    constrained = 0
    for action in line:
        if action.seat != declarer:
            legal = [a for a in probe.legal_actions_for(action.seat) if a.kind == "play"]
            if len(legal) < len(probe.hand(action.seat)):
                constrained += 1
        probe.apply(action)
    return constrained >= 3


def find_total(target: int, max_seed: int = 20000) -> dict:
    """A habanero deal that ends, capote declined, with a player on exactly ``target``."""
    for seed in range(max_seed):
        rng = random.Random(seed)
        state = new_game({"variant": "habanero"}, rng, first_dealer=0)
        _play_stock_phase(state, rng, sing=True)
        if state.phase == "capote":
            state.apply(Action(state.capote_turn, "capote", False))
            state.apply(Action(1 - state.leader, "capote", False))
            _play_stock_phase(state, rng, sing=True)
        if not state.deal_over or state.over:
            continue
        if max(state.points) == target and state.tute is None:
            return to_record(state)
    raise RuntimeError(f"no deal ends on {target}")


def main() -> None:
    RECORDS_DIR.mkdir(exist_ok=True)
    records = {
        "capote": find_capote(),
        "habanero_100": find_total(100),
        "habanero_101": find_total(101),
    }
    for name, record in records.items():
        path = RECORDS_DIR / f"{name}.json"
        path.write_text(json.dumps(record) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(Path.cwd())}")


if __name__ == "__main__":
    main()
