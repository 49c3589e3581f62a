"""What each seat did in a finished game that a trophy may ask for, read from the engine's
deal summaries (the replay's): rankings never sees a card, only these codes.

- `cuarenta`: sang las cuarenta (the 40 in trumps);
- `tute`: declared a tute;
- `capote`: declared a capote and made it.
"""

from collections import defaultdict
from typing import Any

FEATS = ("cuarenta", "tute", "capote")


def game_feats(deal_summaries: list[dict[str, Any]]) -> dict[int, tuple[str, ...]]:
    """Each seat's feats over the whole game, in FEATS' order, by seat.

    >>> game_feats([{"cantes": [[{"seat": 0, "suit": "oros", "value": 40}], []],
    ...              "tute": None, "capote": {"seat": 1, "made": True}}])
    {0: ('cuarenta',), 1: ('capote',)}
    """
    found: dict[int, set[str]] = defaultdict(set)
    for deal in deal_summaries:
        for side in deal.get("cantes") or []:
            for cante in side:
                if cante["value"] == 40:
                    found[cante["seat"]].add("cuarenta")
        if deal.get("tute"):
            found[deal["tute"]["seat"]].add("tute")
        capote = deal.get("capote")
        if capote and capote.get("made"):
            found[capote["seat"]].add("capote")
    return {
        seat: tuple(feat for feat in FEATS if feat in feats)
        for seat, feats in sorted(found.items())
    }
