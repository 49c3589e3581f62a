"""The benchmarks' data tool (bench/tools/rankings_data.py) writes what the awards would have."""

import io

import pytest
from django.db.models import Sum

from bench.tools.rankings_data import make_bench_rankings
from rankings.models import BoardRow, GameResult, GameResultSeat
from rankings.selectors import leaderboard, ledger_mismatches, ledger_totals

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def test_the_benchmark_data_is_consistent_and_ranked():
    make_bench_rankings(players=40, games=300, days=10, stdout=io.StringIO())
    assert GameResult.objects.count() == 300
    counted = GameResultSeat.objects.filter(result__exclusion="")
    all_time = BoardRow.objects.filter(period="all", variant="")
    assert all_time.aggregate(xp=Sum("xp"))["xp"] == counted.aggregate(xp=Sum("xp"))["xp"]
    assert all_time.aggregate(games=Sum("games"))["games"] == counted.count()
    weeks = BoardRow.objects.filter(period="week", variant="tute").aggregate(xp=Sum("xp"))
    assert weeks["xp"] == counted.filter(result__variant="tute").aggregate(xp=Sum("xp"))["xp"]
    assert ledger_totals().accounted and ledger_mismatches() == []
    page = leaderboard(board="xp")
    assert page.total == 40 and len(page.lines) == 40
    assert [line.value for line in page.lines] == sorted(
        (line.value for line in page.lines), reverse=True
    )


def test_the_benchmark_data_counts_its_boards_and_rates_its_players():
    make_bench_rankings(players=40, games=600, days=10, stdout=io.StringIO())
    for board, variant in (("xp", ""), ("week", "tute"), ("chips", ""), ("month", "pocha")):
        page = leaderboard(board=board, variant=variant)
        assert page.total == len(page.lines) > 0
    page = leaderboard(board="rating", variant="tute3")
    assert page.total == len(page.lines) > 0
    assert [line.value for line in page.lines] == sorted(
        (line.value for line in page.lines), reverse=True
    )
    gain = leaderboard(board="gain", variant="pocha")
    assert gain.total == len(gain.lines) > 0
