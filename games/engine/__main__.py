"""Command line: ``python -m games.engine replay RECORD.json`` and ``... bench``."""

from __future__ import annotations

import argparse
import json
import sys

from .bench import bench
from .options import VARIANTS
from .replay import replay_file


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a game record and print the JSON result")
    rp.add_argument("record", help="path of the record (JSON)")
    bp = sub.add_parser("bench", help="play random legal games and print plies per second")
    bp.add_argument("--variant", choices=VARIANTS, default="tute")
    bp.add_argument("--players", type=int, default=None)
    bp.add_argument("--seconds", type=float, default=2.0)
    bp.add_argument("--seed", type=int, default=None)
    bp.add_argument("--no-pairs", dest="pairs", action="store_false", help="4-player tute alone")
    args = parser.parse_args(argv)
    if args.command == "replay":
        status, text = replay_file(args.record)
        sys.stdout.write(text + "\n")
        return status
    try:
        result = bench(args.variant, args.players, args.seconds, args.seed, args.pairs)
    except ValueError as exc:
        parser.error(str(exc))
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
