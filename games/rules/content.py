"""What each rules page needs besides its prose: numbers, worked examples, tables.

Everything here is computed from the engine and the rankings code (see :mod:`.numbers` and
:mod:`.examples`), so the pages cannot state a rule the site does not play.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import deck_for
from games.engine.options import PLAYERS_ALLOWED, VARIANT_NAMES, Options
from games.options import DEFAULT_OPTIONS, OPTIONS, Kind, TableOption

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
                    "pairs_possible": "pairs" in rules.applies,
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
        "grades": _grades() if slug == "rankings" else (),
        "table_options": table_options() if slug == "tables" else (),
        "marks": _analysis_marks() if slug == "tables" else None,
        "puzzles": _puzzle_numbers() if slug == "puzzles" else None,
        "reconnect_minutes": _table_default("reconnect_minutes"),
        "move_time": DEFAULT_OPTIONS["move_time"],
    }


def _analysis_marks() -> dict[str, float]:
    """The points lost from which a decision of the analysis is an inaccuracy, a mistake,
    a blunder (games/bots/analysis.py)."""
    from games.bots.analysis import THRESHOLDS

    inaccuracy, mistake, blunder = (int(t) if t == int(t) else t for t in THRESHOLDS)
    return {"inaccuracy": inaccuracy, "mistake": mistake, "blunder": blunder}


def _puzzle_numbers() -> dict[str, int]:
    """The puzzles' numbers, from their code: the gap every other answer loses, the trap of a
    puzzle found in the game, the most moves, a new rating and what a first try moves it by
    (games/puzzles/mining.py and services.py)."""
    from games.puzzles.mining import MAX_MOVES, MIN_GAP, TRAP
    from games.puzzles.services import rate
    from rankings.rating_math import MODEL, shown_value

    new = (MODEL.mu, MODEL.sigma)
    start = shown_value(*new)
    won = shown_value(*rate(new, new, True)[0])
    lost = shown_value(*rate(new, new, False)[0])
    return {
        "gap": int(MIN_GAP),
        "trap": int(TRAP),
        "moves": MAX_MOVES,
        "start": start,
        "won": won - start,
        "lost": start - lost,
    }


def _grades() -> tuple:
    from rankings.grades import GRADES

    return GRADES


# Table settings that no code holds yet: once a model has such a field, its default is read
# from it instead (see `_table_default`).
NOT_YET_IN_CODE = {"reconnect_minutes": 3}


def _table_default(name: str) -> Any:
    from django.apps import apps
    from django.core.exceptions import FieldDoesNotExist

    for model_name in ("Table", "GameTable"):
        try:
            model = apps.get_model("games", model_name)
            value = model._meta.get_field(name).get_default()
        except (LookupError, FieldDoesNotExist):
            continue
        if value not in (None, ""):
            return value
    return NOT_YET_IN_CODE[name]


def table_options() -> list[dict[str, Any]]:
    """The table options of the tables page, one row per option the rules explain: name,
    meaning, values and default, read from the declaration (games/options.py)."""
    return [_option_row(option) for option in OPTIONS if option.meaning is not None]


def _option_row(option: TableOption) -> dict[str, Any]:
    if option.values_text is not None:
        values: Any = option.values_text
    elif option.kind is Kind.SWITCH:
        values = f"{option.value_label(True)} / {option.value_label(False)}"
    elif option.kind is Kind.CHOICE:
        values = ", ".join(str(option.value_label(code)) for code in option.codes())
    else:
        values = f"{option.minimum}–{option.maximum}"
    default = str(option.value_label(option.default))
    if option.rule and option.name != "variant":
        # A rule whose default the variant changes (players: 2 for habanero) says so.
        for variant in VARIANT_NAMES:
            value = getattr(Options.from_dict({"variant": variant}), option.name)
            if value != option.default:
                default += f"; {option.value_label(value)} ({VARIANT_NAMES[variant]})"
    # Players read each option by the name the table form gives it.
    return {"label": option.label, "meaning": option.meaning, "values": values, "default": default}
