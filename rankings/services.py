"""Rankings' writes, as the rest of the site reads them: the one public face of the ledger
(rankings/ledger.py, rankings/pots.py, rankings/arena_pots.py), the awards
(rankings/awards.py, rankings/trophies.py) and the leaderboards (rankings/boards.py).

Other apps import from here, from rankings.selectors for reads, or from the modules that hold
no storage (kinds, grades, xp, rating_math, svg); never rankings' models or a private name of
its own modules (tests/site/test_layering.py).
"""

from rankings.arena_pots import chips_arena_entry, chips_arena_payout
from rankings.awards import (
    GameResultInvalid,
    SeatResult,
    game_result_award,
    game_result_submit,
    game_results_unawarded,
    seats_by_side_won,
    shared_ip_note,
    xp_award,
)
from rankings.boards import (
    ALL_TIME,
    NotOnAnyBoard,
    board_count_add,
    board_periods,
    game_result_exclude,
    game_result_include,
)
from rankings.ledger import (
    BANK_CUT_PERCENT,
    DAILY_BONUS,
    DAILY_BONUS_BELOW,
    SIGNUP_GRANT,
    ChipsError,
    DailyBonusAlreadyClaimed,
    DailyBonusNotNeeded,
    DailyBonusUnavailable,
    IdempotencyKeyReused,
    InsufficientChips,
    PotAlreadySettled,
    Reason,
    chips_adjust,
    chips_adjust_by_moderator,
    chips_daily_bonus,
    chips_grant,
    chips_signup_grant,
    utc_today,
)
from rankings.pots import (
    chips_pay_pot,
    chips_refund,
    chips_stake,
    pot_split,
)
from rankings.trophies import trophies_grant

__all__ = [
    "ALL_TIME",
    "BANK_CUT_PERCENT",
    "DAILY_BONUS",
    "DAILY_BONUS_BELOW",
    "SIGNUP_GRANT",
    "ChipsError",
    "DailyBonusAlreadyClaimed",
    "DailyBonusNotNeeded",
    "DailyBonusUnavailable",
    "GameResultInvalid",
    "IdempotencyKeyReused",
    "InsufficientChips",
    "NotOnAnyBoard",
    "PotAlreadySettled",
    "Reason",
    "SeatResult",
    "board_count_add",
    "board_periods",
    "chips_adjust",
    "chips_adjust_by_moderator",
    "chips_arena_entry",
    "chips_arena_payout",
    "chips_daily_bonus",
    "chips_grant",
    "chips_pay_pot",
    "chips_refund",
    "chips_signup_grant",
    "chips_stake",
    "game_result_award",
    "game_result_exclude",
    "game_result_include",
    "game_result_submit",
    "game_results_unawarded",
    "pot_split",
    "seats_by_side_won",
    "shared_ip_note",
    "trophies_grant",
    "utc_today",
    "xp_award",
]
