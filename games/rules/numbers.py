"""The numbers the rules pages state, read from the code that applies them, never retyped.

Card points and strength come from the engine's card tables, option ranges and defaults from
its option checks, cante values, pocha scores and the habanero threshold from deals the engine
itself played (see :mod:`games.rules.examples`), XP from :func:`rankings.xp.xp_for_game` and
the bank's cut from the chips service. Pages print them with ``{% num "key" %}``, which marks
each one with ``data-rule`` so tests can read them back from the HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from games.engine.cards import POINTS_OF, RANK_POINTS, RANKS_BY_STRENGTH, deck_for
from games.engine.options import (
    PLAYERS_ALLOWED,
    STOCK_PLAY,
    OptionError,
    Options,
    pocha_ladder,
)

from .examples import ExampleError, example


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


def _cante_values() -> tuple[int, int]:
    """(plain, trump): what the engine scored for the cantes of the worked example."""
    ex = example("cante")
    trump = {c.value for c in ex.cantes if c.suit == ex.trump_suit}
    plain = {c.value for c in ex.cantes if c.suit != ex.trump_suit}
    if len(trump) != 1 or len(plain) != 1:
        raise ExampleError("the cante example must sing one pair in trump and one outside it")
    return plain.pop(), trump.pop()


def _habanero_threshold() -> int:
    """The lowest total that wins a habanero deal, bracketed by two deals the engine scored."""
    short, enough = example("habanero_100"), example("habanero_101")
    if short.winner is not None or enough.winner is None:
        raise ExampleError("the habanero threshold records no longer bracket the threshold")
    low, high = max(short.points), max(enough.points)
    if high != low + 1:
        raise ExampleError("the habanero threshold records must end one point apart")
    return high


def _pocha_scores() -> tuple[int, int, int]:
    """(base for an exact bid, per trick taken, penalty per trick of difference)."""
    rows = example("pocha_hand").rows
    exact = [r for r in rows if r["bid"] == r["took"]]
    missed = [r for r in rows if r["bid"] != r["took"]]
    zero = [r["score"] for r in exact if r["took"] == 0]
    some = [r for r in exact if r["took"] > 0]
    if not zero or not some or not missed:
        raise ExampleError("the pocha example needs an exact 0, an exact bid and a miss")
    base = zero[0]
    per_trick = (some[0]["score"] - base) // some[0]["took"]
    penalty = -missed[0]["score"] // abs(missed[0]["bid"] - missed[0]["took"])
    for r in rows:
        expected = (
            base + per_trick * r["took"]
            if r["bid"] == r["took"]
            else -penalty * abs(r["bid"] - r["took"])
        )
        if r["score"] != expected:
            raise ExampleError("the pocha scores do not follow one rule")
    return base, per_trick, penalty


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
    rules = default.rules
    deck_points = sum(POINTS_OF)
    plain, trump = _cante_values()
    threshold = _habanero_threshold()
    pocha_base, pocha_per_trick, pocha_penalty = _pocha_scores()
    rounds = _accepted("rounds", range(0, 12))
    points_to_win = _accepted("points_to_win", range(0, 12), variant="habanero")
    numbers: dict[str, int] = {
        "deck_cards": len(deck_for(4)),
        "deck_cards_3p": len(deck_for(3)),
        "deck_points": deck_points,
        "suit_points": deck_points // 4,
        "last_trick": rules.last_trick_bonus,
        "deal_total": deck_points + rules.last_trick_bonus,
        "cante_plain": plain,
        "cante_trump": trump,
        "habanero_over": threshold - 1,
        "habanero_target": threshold,
        "rounds_default": default.rounds,
        "rounds_min": min(rounds),
        "rounds_max": max(rounds),
        "points_to_win_default": Options.from_dict({"variant": "habanero"}).points_to_win,
        "points_to_win_min": min(points_to_win),
        "points_to_win_max": max(points_to_win),
        "players_default": default.players,
        "players_default_habanero": Options.from_dict({"variant": "habanero"}).players,
        "pocha_exact": pocha_base,
        "pocha_per_trick": pocha_per_trick,
        "pocha_penalty": pocha_penalty,
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
    return numbers


def _xp_numbers() -> dict[str, int]:
    from rankings.xp import XP_FOR_LOSER, XP_PER_EXTRA_DEAL, XP_PER_PLAYER

    out = {f"xp_win_{row['key']}": row["won"][0] for row in xp_table()}
    out["xp_per_player"] = XP_PER_PLAYER
    out["xp_extra_deal"] = XP_PER_EXTRA_DEAL
    out["xp_loser"] = XP_FOR_LOSER
    return out


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
