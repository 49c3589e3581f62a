"""Every number a rules page states is the one the code applies, in every language.

The expected values are read here straight from the engine and the rankings code, not from
the rules package, so a page that drifted from the code, or a helper that computed a number
wrongly, fails the same way.
"""

import pytest
from django.utils import translation

from games.engine.cards import POINTS_OF, RANK_POINTS, RANKS_BY_STRENGTH
from games.engine.options import Options, pocha_ladder
from games.engine.replay import replay
from games.options import option_label, option_value_label
from games.rules.examples import BUILT, load_record
from games.rules.numbers import rule_numbers
from rankings.services import BANK_CUT_PERCENT, pot_split
from rankings.xp import XP_FOR_LOSER, XP_PER_EXTRA_DEAL, XP_PER_PLAYER, xp_for_game
from tests.support.html import body_rows, find

pytestmark = pytest.mark.django_db

LANGUAGES = ("fr", "es", "en")


def _cante_values() -> dict[str, int]:
    record = BUILT["cante"]()
    status, out = replay(record)
    assert status == 0
    trump = record["deals"][0]["trump_card"][-1]
    values = {}
    for side in out["deals"][0]["cantes"]:
        for cante in side:
            values["cante_trump" if cante["suit"] == trump else "cante_plain"] = cante["value"]
    return values


def _habanero_threshold() -> int:
    """The engine's verdict on two deals ending on 100 and 101 points."""
    verdicts = {}
    for name in ("habanero_100", "habanero_101"):
        status, out = replay(load_record(name))
        assert status == 0
        deal = out["deals"][0]
        verdicts[max(deal["points"])] = deal["winner"]
    assert verdicts[100] is None, "100 points must not win a habanero deal"
    assert verdicts[101] is not None, "101 points must win a habanero deal"
    return 101


@pytest.fixture(scope="module")
def expected() -> dict[str, int]:
    """The numbers as the code has them, computed without the rules package's helpers."""
    default = Options()
    values = {
        "deck_points": sum(POINTS_OF),
        "suit_points": sum(POINTS_OF) // 4,
        "last_trick": default.rules.last_trick_bonus,
        "deal_total": sum(POINTS_OF) + default.rules.last_trick_bonus,
        "habanero_target": _habanero_threshold(),
        "habanero_over": _habanero_threshold() - 1,
        "rounds_default": default.rounds,
        "points_to_win_default": Options.from_dict({"variant": "habanero"}).points_to_win,
        "xp_per_player": XP_PER_PLAYER,
        "xp_extra_deal": XP_PER_EXTRA_DEAL,
        "xp_loser": XP_FOR_LOSER,
        "xp_win_2": xp_for_game(2, False, 1, True),
        "xp_win_3": xp_for_game(3, False, 1, True),
        "xp_win_4": xp_for_game(4, False, 1, True),
        "xp_win_4p": xp_for_game(4, True, 1, True),
        "bank_cut_percent": BANK_CUT_PERCENT,
        "pot_bank": pot_split(400, 2)[0],
        "pot_share": pot_split(400, 2)[1],
        "pocha_hands_4p": len(pocha_ladder(4)),
        "pocha_hands_3p": len(pocha_ladder(3)),
        "pocha_peak_3p": max(pocha_ladder(3)),
        "pocha_peak_4p": max(pocha_ladder(4)),
        **_cante_values(),
        **{f"points_{rank}": RANK_POINTS.get(rank, 0) for rank in RANKS_BY_STRENGTH},
    }
    for players in (2, 3, 4):
        values[f"hand_{players}p"] = Options.from_dict({"players": players}).rules.hand_size
    # Pocha scores: what the engine gave each seat of the worked hand, by bid and tricks.
    status, out = replay(BUILT["pocha_hand"]())
    assert status == 0
    scores = out["deals"][-1]["points"]
    bids = out["deals"][-1]["bids"]
    zero = next(s for b, s in zip(bids, scores, strict=True) if b == 0 and s > 0)
    values["pocha_exact"] = zero
    values["pocha_per_trick"] = next(
        (s - zero) // b for b, s in zip(bids, scores, strict=True) if b > 0 and s > zero
    )
    values["pocha_penalty"] = -min(scores)  # the worked hand misses one bid by one trick
    return values


REQUIRED = {
    "index": {"deck_points", "last_trick", "deal_total", "suit_points"},
    "tute": {"deck_points", "last_trick", "deal_total", "cante_plain", "cante_trump"},
    "habanero": {
        "deal_total",
        "last_trick",
        "cante_plain",
        "cante_trump",
        "habanero_over",
        "habanero_target",
        "points_to_win_default",
    },
    "pocha": {"pocha_exact", "pocha_per_trick", "pocha_penalty", "pocha_hands_4p"},
    "rankings": {
        "xp_per_player",
        "xp_extra_deal",
        "xp_loser",
        "xp_win_2",
        "xp_win_4",
        "xp_win_4p",
        "bank_cut_percent",
    },
    "tables": {
        "arena_win",
        "arena_streak_from",
        "arena_win_streak",
        "arena_share_1",
        "arena_share_2",
        "arena_share_3",
        "bank_cut_percent",
        "arena_two_part_1",
        "arena_two_part_2",
        "arena_example_pot",
        "arena_example_cut",
        "arena_example_rounding",
        "arena_example_bank",
        "arena_example_first",
        "arena_example_second",
    },
}
LADDER_PAGES = ("index", "tute", "habanero", "pocha")


def _url(slug: str, lang: str) -> str:
    return ("/rules/" if slug == "index" else f"/rules/{slug}/") + f"?lang={lang}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", list(REQUIRED))
def test_page_states_the_numbers_the_code_uses(client, slug, lang, expected):
    html = client.get(_url(slug, lang)).content.decode()
    stated = [(e.attrs["data-rule"], e.attrs["value"], e.text) for e in find(html, "data")]
    keys = {key for key, _value, _text in stated}
    assert REQUIRED[slug] <= keys, f"{slug} ({lang}) does not state {REQUIRED[slug] - keys}"
    code = rule_numbers()
    for key, value, text in stated:
        assert value == text, f"{key}: shown {text!r} but marked {value!r}"
        want = expected.get(key, code[key])
        assert int(value) == want, f"{slug} ({lang}) states {key} = {value}, the code says {want}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", LADDER_PAGES)
def test_card_ladder_follows_the_engine_order_and_points(client, slug, lang):
    html = client.get(_url(slug, lang)).content.decode()
    items = [e for e in find(html, "li", data_rank=True)]
    assert [int(e.attrs["data-rank"]) for e in items] == list(RANKS_BY_STRENGTH)
    assert [int(e.attrs["data-points"]) for e in items] == [
        RANK_POINTS.get(rank, 0) for rank in RANKS_BY_STRENGTH
    ]
    cards = [e.attrs["data-card"] for e in find(html, "svg", data_card=True)]
    for rank in RANKS_BY_STRENGTH:
        assert any(card[:-1] == str(rank) for card in cards)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_xp_table_is_what_rankings_award(client, lang):
    html = client.get(_url("rankings", lang)).content.decode()
    rows = find(html, "tr", data_players=True)
    assert len(rows) == 4
    cells = find(html, "td", data_xp=True)
    assert len(cells) == 16
    # Cells come row by row: three winner cells (1, 2, 3 deals to win), then the loser's.
    for row_index, row in enumerate(rows):
        players, pairs = int(row.attrs["data-players"]), row.attrs["data-pairs"] == "1"
        for cell in cells[row_index * 4 : row_index * 4 + 4]:
            won = cell.attrs["data-xp-won"] == "1"
            deals = int(cell.attrs["data-xp-deals"])
            assert int(cell.attrs["data-xp"]) == xp_for_game(players, pairs, deals, won)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_options_table_shows_the_engine_defaults(client, lang):
    html = client.get(_url("tables", lang)).content.decode()
    # The Default column, by the name each option has on the table form.
    with translation.override(lang):
        defaults = {cells[0].text: cells[3].text for cells in body_rows(html, "options-table")}

        def shown(name: str) -> str:
            return defaults[str(option_label(name))]

        options = Options()
        assert shown("variant") == str(option_value_label("variant", options.variant))
        assert shown("rounds") == str(options.rounds)
        habanero = Options.from_dict({"variant": "habanero"})
        assert shown("points_to_win") == str(habanero.points_to_win)
        assert shown("stock_play") == str(option_value_label("stock_play", options.stock_play))
        assert shown("players").startswith(f"{options.players}; {habanero.players} (")
        others = ("move_time", "competitive", "stake", "private", "guests", "allow_tute")
        assert set(defaults) >= {str(option_label(name)) for name in others}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pocha_scores_are_the_engine_scores(client, lang):
    status, out = replay(BUILT["pocha_hand"]())
    assert status == 0
    html = client.get(_url("pocha", lang)).content.decode()
    rows = find(html, "tr", data_score=True)
    assert [int(r.attrs["data-score"]) for r in rows] == out["deals"][-1]["points"]
    assert [int(r.attrs["data-bid"]) for r in rows] == out["deals"][-1]["bids"]
