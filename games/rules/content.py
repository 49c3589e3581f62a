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
        "grades": _grades() if slug == "rankings" else (),
        "table_options": table_options() if slug == "tables" else (),
        "marks": _analysis_marks() if slug == "tables" else None,
        "reconnect_minutes": _table_default("reconnect_minutes"),
        "move_time": _table_default("move_time"),
    }


def _analysis_marks() -> dict[str, float]:
    """The points lost from which a decision of the analysis is an inaccuracy, a mistake,
    a blunder (games/bots/analysis.py)."""
    from games.bots.analysis import THRESHOLDS

    inaccuracy, mistake, blunder = (int(t) if t == int(t) else t for t in THRESHOLDS)
    return {"inaccuracy": inaccuracy, "mistake": mistake, "blunder": blunder}


def _grades() -> tuple:
    from rankings.grades import GRADES

    return GRADES


# Table settings that no code holds yet: the tables issue brings a Table model, and once it
# has these fields their defaults are read from it instead (see `_table_default`).
NOT_YET_IN_CODE = {"move_time": 30, "private": False, "guests": True, "reconnect_minutes": 3}


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
    """The table options of the tables page: name, meaning, values and default, from code."""
    from django.utils.translation import gettext_lazy as _

    from games.engine.options import STOCK_PLAY
    from games.models import Game, Variant
    from games.option_labels import option_label, option_value_label

    from .numbers import rule_numbers

    n = rule_numbers()
    default = Options()
    habanero = Options.from_dict({"variant": "habanero"})
    game_field = Game._meta.get_field
    on, off = _("on"), _("off")

    def switch(value: bool) -> Any:
        return on if value else off

    rows = [
        {
            "code": "variant",
            "meaning": _("The game played at the table."),
            "values": ", ".join(label for _code, label in Variant.choices),
            "default": option_value_label("variant", default.variant),
            "default_code": default.variant,
        },
        {
            "code": "players",
            "meaning": _("How many seats the table has."),
            "values": _("2, 3 or 4, as the game allows"),
            "default": f"{default.players}; {habanero.players} "
            f"({option_value_label('variant', habanero.variant)})",
        },
        {
            "code": "pairs",
            "meaning": _("Four-player Tute in two pairs, partners face to face."),
            "values": f"{on} / {off}",
            "default": switch(default.pairs),
        },
        {
            "code": "rounds",
            "meaning": _("Deals to win a game of Tute."),
            "values": f"{n['rounds_min']}–{n['rounds_max']}",
            "default": default.rounds,
        },
        {
            "code": "points_to_win",
            "meaning": _("Deals (points) to win a game of Habanero."),
            "values": f"{n['points_to_win_min']}–{n['points_to_win_max']}",
            "default": habanero.points_to_win,
        },
        {
            "code": "move_time",
            "meaning": _("Seconds for each move; when they run out the server plays for you."),
            "values": _("seconds"),
            "default": _table_default("move_time"),
        },
        {
            "code": "competitive",
            "meaning": _(
                "Play for XP, ranking and chips. Off, the game is practice: nothing is won or lost."
            ),
            "values": f"{on} / {off}",
            "default": switch(game_field("competitive").get_default()),
        },
        {
            "code": "stake",
            "meaning": _("Chips each player puts in the pot (competitive games only)."),
            "values": _("chips"),
            "default": game_field("stake").get_default(),
        },
        {
            "code": "private",
            "meaning": _("Only invited players and the master's friends may sit."),
            "values": f"{on} / {off}",
            "default": switch(_table_default("private")),
        },
        {
            "code": "guests",
            "meaning": _("Others may watch the game and chat."),
            "values": f"{on} / {off}",
            "default": switch(_table_default("guests")),
        },
        {
            "code": "allow_tute",
            "meaning": _("Whether a tute may be announced."),
            "values": f"{on} / {off}",
            "default": switch(default.allow_tute),
        },
        {
            "code": "stock_play",
            "meaning": _("How strictly to answer while the stock lasts (two-player Tute)."),
            "values": ", ".join(str(option_value_label("stock_play", v)) for v in STOCK_PLAY),
            "default": option_value_label("stock_play", default.stock_play),
            "default_code": default.stock_play,
        },
    ]
    # Players read each option by the name the table form gives it; the code stays for tests.
    return [{**row, "label": option_label(row["code"])} for row in rows]
