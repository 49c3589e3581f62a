"""Rankings' stored truth, a module by concern: the chips ledger and XP (ledger.py), game
results and the leaderboards (results.py), ratings and trophies (ratings.py). Only rankings
reads these models; the rest of the site goes through rankings.services and
rankings.selectors (tests/site/test_layering.py)."""

from rankings.models.ledger import ChipAccount, ChipTransfer, LedgerEntry, XpEvent
from rankings.models.ratings import Rating, RatingChange, RatingKind, TrophyAward
from rankings.models.results import VARIANTS, BoardCount, BoardRow, GameResult, GameResultSeat

__all__ = [
    "VARIANTS",
    "BoardCount",
    "BoardRow",
    "ChipAccount",
    "ChipTransfer",
    "GameResult",
    "GameResultSeat",
    "LedgerEntry",
    "Rating",
    "RatingChange",
    "RatingKind",
    "TrophyAward",
    "XpEvent",
]
