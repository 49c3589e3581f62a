"""Command line: ``python -m games.bots arena --a heuristic --b random --games 1000``.

Prints one JSON line: the tally of :func:`games.bots.arena.arena` (win rate with its 95%
interval, think time per move). ``--budget-ms`` and ``--iterations`` set the search budget
of the searching robots; ``--workers N`` plays the games in N processes (same result).
"""

from __future__ import annotations

import argparse
import json
import sys

from games.engine import OptionError, Options
from games.engine.options import RULE_OPTIONS, STOCK_PLAY, VARIANTS

from . import bot_names
from .arena import arena, merge


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots")
    sub = parser.add_subparsers(dest="command", required=True)
    ap = sub.add_parser("arena", help="play robot A against robot B; print one JSON line")
    ap.add_argument("--a", default="heuristic", choices=bot_names(), help="robot A")
    ap.add_argument("--b", default="random", choices=bot_names(), help="robot B")
    ap.add_argument("--variant", choices=VARIANTS, default="tute")
    ap.add_argument("--players", type=int, default=None, help="default: the variant's")
    ap.add_argument("--pairs", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--rounds", type=int, default=None, help="tute: deals to win")
    ap.add_argument("--points-to-win", type=int, default=None, help="habanero: deals to win")
    ap.add_argument("--stock-play", choices=STOCK_PLAY, default=None, help="2-player tute")
    ap.add_argument("--allow-tute", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--budget-ms", type=float, default=None, help="searching robots: ms of thinking a move"
    )
    ap.add_argument(
        "--iterations",
        type=int,
        default=None,
        help="searching robots: playouts a move (alone: exactly repeatable)",
    )
    ap.add_argument("--workers", type=int, default=1, help="games played in N processes")
    ap.add_argument(
        "--first-game", type=int, default=0, help="number the games from here (runs in parts)"
    )
    mp = sub.add_parser("merge", help="add up arena JSON lines (parts of one run) from files")
    mp.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    if args.command == "merge":
        parts = []
        for name in args.files:
            with open(name) as f:
                parts += [json.loads(line) for line in f if line.strip()]
        try:
            sys.stdout.write(json.dumps(merge(parts)) + "\n")
        except (ValueError, KeyError) as exc:
            parser.error(str(exc))
        return 0
    # An option left unset takes the engine's default (players: the variant's).
    raw = {
        name: getattr(args, name)
        for name in ("variant", *RULE_OPTIONS)
        if getattr(args, name) is not None
    }
    try:
        options = Options.from_dict(raw)
    except OptionError as exc:
        parser.error(str(exc))
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.first_game < 0:
        parser.error("--first-game must be at least 0")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.budget_ms is not None and args.budget_ms <= 0:
        parser.error("--budget-ms must be positive")
    if args.iterations is not None and args.iterations < 1:
        parser.error("--iterations must be at least 1")
    result = arena(
        args.a,
        args.b,
        options,
        args.games,
        args.seed,
        budget_ms=args.budget_ms,
        iterations=args.iterations,
        workers=args.workers,
        first_game=args.first_game,
    )
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
