"""Reads of chips, XP, grades, leaderboards and a player's game statistics: with
rankings.services, the one face the rest of the site reads rankings through.

A module by concern: chips, XP and a player's standing (chips.py), the leaderboards
(boards.py), and a player's statistics, ratings, trophies and a game's awards (players.py);
the arenas' pots are read from rankings/arena_pots.py. Everything is read from here.
"""

from rankings.arena_pots import PODIUM_SHARES, arena_pot_entered, arena_pot_paid, podium_split
from rankings.selectors.boards import (
    BOARDS,
    PER_PAGE,
    RATING_BOARDS,
    BoardLine,
    BoardPage,
    leaderboard,
)
from rankings.selectors.chips import (
    LedgerTotals,
    Standing,
    chips_balance,
    chips_daily_bonus_available,
    ledger_entries_for,
    ledger_mismatches,
    ledger_totals,
    player_standing,
    xp_history,
    xp_total,
)
from rankings.selectors.players import (
    GamePayout,
    GameRating,
    RatingLine,
    SeatPayout,
    VariantStats,
    game_awarded,
    game_payout,
    game_rating_changes,
    game_trophies,
    player_ratings,
    player_trophies,
    player_variant_stats,
    rating_history,
    shown_rating,
    trophy,
    win_chances_for,
)

__all__ = [
    "BOARDS",
    "PER_PAGE",
    "PODIUM_SHARES",
    "RATING_BOARDS",
    "BoardLine",
    "BoardPage",
    "GamePayout",
    "GameRating",
    "LedgerTotals",
    "RatingLine",
    "SeatPayout",
    "Standing",
    "VariantStats",
    "arena_pot_entered",
    "arena_pot_paid",
    "chips_balance",
    "chips_daily_bonus_available",
    "game_awarded",
    "game_payout",
    "game_rating_changes",
    "game_trophies",
    "leaderboard",
    "ledger_entries_for",
    "ledger_mismatches",
    "ledger_totals",
    "player_ratings",
    "player_standing",
    "player_trophies",
    "player_variant_stats",
    "podium_split",
    "rating_history",
    "shown_rating",
    "trophy",
    "win_chances_for",
    "xp_history",
    "xp_total",
]
