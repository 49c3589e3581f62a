"""Helpers for the table options' tests: the lobby form as a browser posts it, and what the
declaration and its English labels are."""

from pathlib import Path

from games.options import (
    OPTIONS,
    Kind,
)


def form_data(**changes) -> dict:
    """The lobby form as a browser posts it with every option at its default."""
    data = {}
    for option in OPTIONS:
        if option.kind is Kind.SWITCH:
            if option.default:
                data[option.name] = "on"
        else:
            data[option.name] = str(option.default)
    data.update(changes)
    return {name: value for name, value in data.items() if value is not None}


ROOT = Path(__file__).resolve().parents[2]
DECLARATION = ROOT / "games" / "options.py"
# What an English-speaking player reads on the lobby's form, in its order.
ENGLISH_LABELS = {
    "variant": "Game",
    "players": "Players",
    "pairs": "In pairs",
    "rounds": "Deals to win",
    "points_to_win": "Points to win",
    "move_time": "Time per move",
    "competitive": "Competitive",
    "stake": "Stake",
    "private": "Private table",
    "guests": "Spectators",
    "allow_tute": "Tute allowed",
    "stock_play": "Play while the stock lasts",
    "robot_level": "Robots",
}
