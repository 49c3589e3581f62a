"""The numbers the rules pages state, read from the code that applies them, never retyped.

Card points and strength come from the engine's card tables, option ranges and defaults from
its option checks, the last trick's 10, the 130, cante values, pocha scores and the habanero
threshold from the constants of :mod:`games.engine.rulebook` that the engine scores with,
XP from :func:`rankings.xp.xp_for_game` and
the bank's cut from the chips service. Pages print them with ``{% num "key" %}``, which marks
each one with ``data-rule`` so tests can read them back from the HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from games.engine import rulebook
from games.engine.cards import RANK_POINTS, RANKS_BY_STRENGTH, deck_for
from games.engine.options import (
    PLAYERS_ALLOWED,
    STOCK_PLAY,
    OptionError,
    Options,
    pocha_ladder,
)


@dataclass(frozen=True)
class RankInfo:
    rank: int
    points: int
    place: int  # 1 for the strongest


def card_ranks() -> list[RankInfo]:
    """The ten ranks from strongest to weakest, with their points."""
    return [
        RankInfo(rank, RANK_POINTS.get(rank, 0), place)
        for place, rank in enumerate(RANKS_BY_STRENGTH, start=1)
    ]


def _accepted(option: str, candidates: range, **base: Any) -> list[int]:
    """The values the engine's option check accepts, tried one by one."""
    ok = []
    for value in candidates:
        try:
            Options.from_dict({**base, option: value})
        except OptionError:
            continue
        ok.append(value)
    return ok


def xp_table() -> list[dict[str, Any]]:
    """XP by table size for 1, 2 and 3 deals to win, and for a loser, from the XP code."""
    from rankings.xp import xp_for_game

    rows = []
    for players, pairs in ((2, False), (3, False), (4, False), (4, True)):
        rows.append(
            {
                "players": players,
                "pairs": pairs,
                "key": f"{players}{'p' if pairs else ''}",
                "won": [xp_for_game(players, pairs, deals, True) for deals in (1, 2, 3)],
                "lost": xp_for_game(players, pairs, 1, False),
            }
        )
    return rows


def pot_example(stake: int = 100, players: int = 4, winners: int = 2) -> dict[str, int]:
    """How a pot is paid out, by the chips service's own split."""
    from rankings.services import pot_split

    pot = stake * players
    bank, share = pot_split(pot, winners)
    return {"stake": stake, "players": players, "pot": pot, "bank": bank, "share": share}


@cache
def rule_numbers() -> dict[str, int]:
    """Every number a rules page may state, by key."""
    default = Options()
    deck_points = rulebook.DECK_POINTS
    rounds = _accepted("rounds", range(0, 12))
    points_to_win = _accepted("points_to_win", range(0, 12), variant="habanero")
    numbers: dict[str, int] = {
        "deck_cards": len(deck_for(4)),
        "deck_cards_3p": len(deck_for(3)),
        "deck_points": deck_points,
        "suit_points": deck_points // 4,
        "last_trick": rulebook.LAST_TRICK_BONUS,
        "deal_total": rulebook.DEAL_POINTS,
        "cante_plain": rulebook.CANTE_PLAIN,
        "cante_trump": rulebook.CANTE_TRUMP,
        "habanero_over": rulebook.HABANERO_OVER,
        "habanero_target": rulebook.HABANERO_OVER + 1,
        "rounds_default": default.rounds,
        "rounds_min": min(rounds),
        "rounds_max": max(rounds),
        "points_to_win_default": Options.from_dict({"variant": "habanero"}).points_to_win,
        "points_to_win_min": min(points_to_win),
        "points_to_win_max": max(points_to_win),
        "players_default": default.players,
        "players_default_habanero": Options.from_dict({"variant": "habanero"}).players,
        "pocha_exact": rulebook.POCHA_EXACT,
        "pocha_per_trick": rulebook.POCHA_PER_TRICK,
        "pocha_penalty": rulebook.POCHA_MISS_PER_TRICK,
        "stock_play_count": len(STOCK_PLAY),
    }
    for players in (2, 3, 4):
        numbers[f"hand_{players}p"] = Options.from_dict({"players": players}).rules.hand_size
        ladder = pocha_ladder(players)
        numbers[f"pocha_peak_{players}p"] = max(ladder)
        numbers[f"pocha_hands_{players}p"] = len(ladder)
    numbers["stock_2p"] = numbers["deck_cards"] - 2 * numbers["hand_2p"]
    numbers["arrastre_tricks"] = numbers["hand_2p"]
    numbers["stock_tricks"] = numbers["stock_2p"] // 2
    for info in card_ranks():
        numbers[f"points_{info.rank}"] = info.points
    for variant, allowed in PLAYERS_ALLOWED.items():
        numbers[f"players_min_{variant}"] = min(allowed)
        numbers[f"players_max_{variant}"] = max(allowed)
    numbers.update(_xp_numbers())
    numbers.update(_chip_numbers())
    numbers.update(_arena_numbers())
    return numbers


def _xp_numbers() -> dict[str, int]:
    from rankings.xp import XP_FOR_LOSER, XP_PER_EXTRA_DEAL, XP_PER_PLAYER

    out = {f"xp_win_{row['key']}": row["won"][0] for row in xp_table()}
    out["xp_per_player"] = XP_PER_PLAYER
    out["xp_extra_deal"] = XP_PER_EXTRA_DEAL
    out["xp_loser"] = XP_FOR_LOSER
    return out


def _arena_numbers() -> dict[str, int]:
    """An arena's scoring (games/arenas/scoring.py) and its podium's shares of the pot
    (rankings/arena_pots.py), each share in percent of what the bank leaves."""
    from games.arenas.scoring import STREAK_FROM, WIN_POINTS, game_score
    from rankings.selectors import PODIUM_SHARES

    return {
        "arena_win": WIN_POINTS,
        "arena_streak_from": STREAK_FROM,
        "arena_win_streak": game_score(won=True, streak=STREAK_FROM).points,
        **{
            f"arena_share_{place}": 100 * share // sum(PODIUM_SHARES)
            for place, share in enumerate(PODIUM_SHARES, start=1)
        },
        # Two on the podium share in the first two parts' ratio (5 to 3).
        "arena_two_part_1": PODIUM_SHARES[0],
        "arena_two_part_2": PODIUM_SHARES[1],
        **_arena_example(),
    }


ARENA_EXAMPLE_POT = 40  # a two-player arena's pot, its rounding leaving one chip


def _arena_example() -> dict[str, int]:
    """A pot of two players paid out by the payout's own split: the bank's cut, the chip
    the rounding leaves, both prizes."""
    from rankings.selectors import podium_split
    from rankings.services import BANK_CUT_PERCENT

    pot = ARENA_EXAMPLE_POT
    bank, (first, second) = podium_split(pot, 2)
    cut = pot * BANK_CUT_PERCENT // 100
    return {
        "arena_example_pot": pot,
        "arena_example_cut": cut,
        "arena_example_rounding": bank - cut,
        "arena_example_bank": bank,
        "arena_example_first": first,
        "arena_example_second": second,
    }


def _chip_numbers() -> dict[str, int]:
    from rankings.services import BANK_CUT_PERCENT, DAILY_BONUS, DAILY_BONUS_BELOW, SIGNUP_GRANT

    pot = pot_example()
    return {
        "bank_cut_percent": BANK_CUT_PERCENT,
        "signup_grant": SIGNUP_GRANT,
        "daily_bonus": DAILY_BONUS,
        "daily_bonus_below": DAILY_BONUS_BELOW,
        **{f"pot_{key}": value for key, value in pot.items()},
    }
