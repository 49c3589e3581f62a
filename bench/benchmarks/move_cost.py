"""What one move costs the server's CPU, in-process: a player's card through the live-play
wing (`games.table.play.game_act`: the lock, the room, the engine, the row, the frames)
and its pushes encoded as the channel layer encodes them (msgpack), without the sockets.
Timed in CPU seconds over a 4-player tute game on a throwaway database (PostgreSQL when
DATABASE_URL says so), beside `make bench`'s baseline workload in the same run.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any


def move_cost(moves: int = 300, baseline_plies_per_s: float | None = None) -> dict[str, Any]:
    import msgpack

    from bench.benchmarks.live_bench import throwaway_database

    pushed: list[int] = []
    cpu: list[float] = []
    with throwaway_database():
        from bench.support.players import new_player
        from games import push
        from games.models import Game, Table
        from games.table import play, seating
        from games.table.record import game_state

        real_send = push.send
        push.send = lambda messages: pushed.extend(len(msgpack.packb(m)) for _g, m in messages)
        try:
            users = [new_player() for _ in range(4)]

            def new_table() -> Table:
                """A full table of the four: a game is started once at a table (then a
                rematch, which asks everyone), so each game gets a table of its own."""
                table = seating.table_create(
                    master=users[0], options={"variant": "tute", "players": 4, "rounds": 5}
                )
                for user in users[1:]:
                    seating.table_sit(table_id=table.pk, user=user)
                play.game_start(table_id=table.pk, user=users[0])
                return table

            table = new_table()
            rng = random.Random(1)
            while len(cpu) < moves:
                game = Game.objects.filter(pk=Table.objects.get(pk=table.pk).game_id).first()
                if game is None or game.status != Game.Status.PLAYING:
                    table = new_table()
                    continue
                state = game_state(game=game)
                if state.needs_deal:
                    play.game_next_deal(table_id=table.pk, user=users[0])
                    continue
                seat = state.to_move
                action = rng.choice(state.legal_actions_for(seat)).to_dict()
                pushed.clear()
                start = time.process_time()
                play.game_act(table_id=table.pk, user=users[seat], action=action)
                cpu.append(time.process_time() - start)
        finally:
            push.send = real_send
    figures = {
        "bench": "move-cost",
        "moves": len(cpu),
        "cpu_ms_median": round(statistics.median(cpu) * 1000, 2),
        "pushed_bytes_last_move": sum(pushed),
    }
    if baseline_plies_per_s:
        # CPU per move in units of the baseline's plies: moves only when our code does.
        figures["baseline_plies_per_move"] = round(statistics.median(cpu) * baseline_plies_per_s, 1)
    return figures


if __name__ == "__main__":
    print(json.dumps(move_cost()))
