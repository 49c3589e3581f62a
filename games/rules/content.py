"""What each rules page needs besides its prose: numbers, worked examples, tables.

Everything here is computed from the engine and the rankings code (see :mod:`.numbers` and
:mod:`.examples`), so the pages cannot state a rule the site does not play.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import deck_for
from games.engine.options import PLAYERS_ALLOWED, Options

from .examples import example
from .numbers import card_ranks, pot_example, rule_numbers, xp_table

SUITS = ("O", "C", "E", "B")


class Examples:
    """Worked examples by key, played on first use: ``{{ ex.follow_beat.trick }}``."""

    def __getitem__(self, key: str):
        try:
            return example(key)
        except FileNotFoundError:
            raise KeyError(key) from None


def variants_table() -> list[dict[str, Any]]:
    """One row per variant and table size, from the engine's own rules."""
    rows = []
    for variant, allowed in PLAYERS_ALLOWED.items():
        for players in allowed:
            rules = Options.from_dict({"variant": variant, "players": players}).rules
            rows.append(
                {
                    "variant": variant,
                    "players": players,
                    "pairs_possible": variant == "tute" and players == 4,
                    "hand": rules.hand_size if not rules.bids else max(rules.ladder),
                    "ladder": len(rules.ladder),
                    "stock": rules.has_stock,
                    "deck": len(deck_for(players)),
                    "cantes": rules.cantes,
                    "capote": rules.capote,
                    "bids": rules.bids,
                }
            )
    return rows


def page_context(slug: str) -> dict[str, Any]:
    return {
        "n": rule_numbers(),
        "ex": Examples(),
        "ranks": card_ranks(),
        "suits": SUITS,
        "variants": variants_table() if slug == "index" else (),
        "xp_rows": xp_table() if slug == "rankings" else (),
        "pot": pot_example() if slug == "rankings" else None,
    }
