"""The bench command: random legal games, as fast as the engine goes.

``python -m games.engine bench --variant tute --players 4 --seconds 3`` prints one JSON line
with ``plies_per_s`` and ``deals_per_s``. A ply is one applied action. Moves are chosen
uniformly among every legal action of every seat (cantes and exchanges included), with a
seeded ``random.Random`` also used to shuffle: the bench measures the engine, not the RNG.

Rates are per second of this process's CPU time (``time.process_time``), so they measure one
core's work even on a busy machine; ``wall_seconds`` is given too.
"""

from __future__ import annotations

import random
import secrets
import time
from typing import Any

from .options import Options
from .state import new_game


def bench(
    variant: str = "tute",
    players: int | None = None,
    seconds: float = 2.0,
    seed: int | None = None,
    pairs: bool = True,
) -> dict[str, Any]:
    """Play random games for about ``seconds`` and return the figures."""
    raw: dict[str, Any] = {"variant": variant, "pairs": pairs}
    if players is not None:
        raw["players"] = players
    options = Options.from_dict(raw)
    rng = random.Random(seed if seed is not None else secrets.randbits(64))
    rnd = rng.random
    plies = deals = games = 0
    wall = time.perf_counter()
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        state = new_game(options, rng)
        legal_for = state.legal_actions_for
        apply = state.apply
        while True:
            phase = state.phase
            if phase == "done":
                if state.over:
                    break
                state.deal_next(rng)
                continue
            if state.moment or phase == "capote":
                acts = [a for lst in state.legal_actions().values() for a in lst]
            else:
                acts = legal_for(state.turn)
            apply(acts[int(rnd() * len(acts))])
            plies += 1
        games += 1
        deals += state.deal_index + 1
    elapsed = time.process_time() - start
    wall = time.perf_counter() - wall
    return {
        "variant": variant,
        "players": options.players,
        "pairs": options.rules.pairs,
        "games": games,
        "deals": deals,
        "plies": plies,
        "seconds": round(elapsed, 3),
        "wall_seconds": round(wall, 3),
        "plies_per_s": round(plies / elapsed),
        "deals_per_s": round(deals / elapsed, 1),
    }
