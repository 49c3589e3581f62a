"""An arena's edge cases on the chips ledger (issue #39): every chip of every entry ends in a
prize, the bank or a refund, and the sums balance to the chip.

Each test plays a real arena (habanero, one deal a game) and reads the ledger back: the pot's
entries, the one payout transfer and each account's balance, and the arena's frame (`pot`,
`paid`, the podium, the standings) against them. The rules page and docs/protocol.md state
these cases; the last tests check their figures against the code.
"""

import random
import re
from collections import defaultdict
from datetime import timedelta
from itertools import pairwise
from pathlib import Path

import pytest
from django.utils import timezone

from games.arenas import services
from games.arenas.frames import arena_state
from games.arenas.models import Arena, ArenaPlayer
from games.arenas.pairing import arena_pair
from games.arenas.scoring import arena_game_score
from games.models import Game
from games.rules.numbers import rule_numbers
from rankings.arena_pots import PODIUM_SHARES, podium_split
from rankings.models import ChipAccount, ChipTransfer, LedgerEntry, TrophyAward
from rankings.selectors import chips_balance, ledger_mismatches, ledger_totals
from rankings.services import BANK_CUT_PERCENT
from tests.support.arenas import habanero_arena, play_out, present, running_games
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

START = 1000
DOC = Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


def bank_balance() -> int:
    bank = ChipAccount.objects.filter(kind=ChipAccount.Kind.BANK).first()
    return bank.balance if bank else 0


def join(arena: Arena, users, *, addresses=None) -> None:
    for n, user in enumerate(users):
        address = addresses[n] if addresses else f"198.51.100.{n + 1}"
        services.arena_join(arena_id=arena.pk, user=user, ip_address=address)


def play_round(arena: Arena, by_id: dict, rng: random.Random, *, now=None) -> list[Game]:
    """Seat the free players (at `now`), play every game out and score them."""
    arena_pair(arena_id=arena.pk, now=now)
    games = running_games(arena)
    for game in games:
        play_out(game, by_id, rng)
        # Scored here, not by a tick, which would seat the free players again at once.
        assert arena_game_score(game_id=game.pk)
    return games


def finish(arena: Arena) -> dict:
    for player in ArenaPlayer.objects.filter(arena=arena).select_related("user"):
        services.arena_pause(arena_id=arena.pk, user=player.user)
    Arena.objects.filter(pk=arena.pk).update(starts_at=timezone.now() - timedelta(minutes=11))
    assert services.arena_tick()["finished"] == 1
    return arena_state(arena.pk)


def ledger_of(arena: Arena, users, *, bank_before: int) -> dict:
    """Where every chip of the arena's entries went, checked to balance; by kind and user."""
    entries = LedgerEntry.objects.filter(
        destination__arena_id=arena.pk, transfer__reason=ChipTransfer.Reason.ENTRY
    )
    entered = sum(e.amount for e in entries)
    assert entered == arena.entry * len(users)
    payout = ChipTransfer.objects.get(key=f"arena-payout:{arena.pk}")
    went: dict[str, int] = defaultdict(int)
    to_user: dict[int, int] = defaultdict(int)
    for entry in payout.entries.select_related("source", "destination"):
        assert entry.source.arena_id == arena.pk
        if entry.destination.kind == ChipAccount.Kind.BANK:
            went["bank"] += entry.amount
        else:
            went["refunds" if payout.reason == "refund" else "prizes"] += entry.amount
            to_user[entry.destination.user_id] += entry.amount
    # Every chip entered left the pot, to a prize, the bank or a refund: none is left over.
    assert went["prizes"] + went["bank"] + went["refunds"] == entered
    assert ChipAccount.objects.get(arena_id=arena.pk).balance == 0
    assert bank_balance() - bank_before == went["bank"]
    for user in users:
        received = to_user.get(user.pk, 0)
        assert chips_balance(user=user) == START - arena.entry + received, user.username
    assert ledger_totals().accounted and ledger_mismatches() == []
    return {"entered": entered, **went, "to_user": dict(to_user), "memo": payout.memo}


def check_frame(frame: dict, ledger: dict) -> None:
    """The finished arena's frame shows the pot that was paid and where it went."""
    assert frame["arena"]["pot"] == ledger["entered"]
    paid = frame["arena"]["paid"]
    assert paid == {
        "prizes": ledger["prizes"],
        "bank": ledger["bank"],
        "refunds": ledger["refunds"],
    }
    assert sum(paid.values()) == frame["arena"]["pot"]
    by_name = {s["user"]: s for s in frame["standings"]}
    assert sum(place["prize"] for place in frame["podium"]) == ledger["prizes"]
    for place in frame["podium"]:
        assert by_name[place["user"]]["games"] > 0


def test_an_arena_where_no_game_counted_gives_every_entry_back_whole():
    # Two players from one address play the only game; a third joined and never played.
    ana, beto, cruz = (UserFactory(chips=START) for _ in range(3))
    by_id = {u.pk: u for u in (ana, beto, cruz)}
    arena = habanero_arena(entry=15)
    bank_before = bank_balance()
    join(arena, [ana, beto, cruz], addresses=["203.0.113.5", "203.0.113.5", "198.51.100.9"])
    present(arena, ana, beto)
    assert arena_state(arena.pk)["arena"]["pot"] == 45
    (game,) = play_round(arena, by_id, random.Random(1), now=timezone.now() + timedelta(minutes=1))
    assert Game.objects.get(pk=game.pk).shared_ip
    running = arena_state(arena.pk)
    for name in (ana.username, beto.username):
        standing = next(s for s in running["standings"] if s["user"] == name)
        # The game is the player's: listed, marked as not counted (None), scoring nothing.
        assert (standing["game_ids"], standing["points"]) == ([game.pk], [None])
        assert (standing["games"], standing["score"]) == (0, 0)
    frame = finish(arena)
    ledger = ledger_of(arena, [ana, beto, cruz], bank_before=bank_before)
    assert (ledger["refunds"], ledger["bank"], ledger["prizes"]) == (45, 0, 0)
    assert ledger["to_user"] == {ana.pk: 15, beto.pk: 15, cruz.pk: 15}
    assert frame["podium"] == [] and frame["arena"]["pot"] == 45
    check_frame(frame, ledger)
    assert not TrophyAward.objects.filter(trophy__startswith="arena").exists()
    assert "refunded" in ledger["memo"]


def test_players_tied_on_score_wins_and_games_are_ranked_by_who_joined_first():
    users = [UserFactory(chips=START) for _ in range(4)]
    by_id = {u.pk: u for u in users}
    arena = habanero_arena(entry=25)
    bank_before = bank_balance()
    join(arena, users)
    present(arena, *users)
    play_round(arena, by_id, random.Random(7))
    frame = finish(arena)
    joined = [u.username for u in users]
    standings = frame["standings"]
    keys = [(-s["score"], -s["wins"], s["games"], joined.index(s["user"])) for s in standings]
    assert keys == sorted(keys)
    ties = [
        (a["user"], b["user"])
        for a, b in pairwise(standings)
        if (a["score"], a["wins"], a["games"]) == (b["score"], b["wins"], b["games"])
    ]
    assert ties, standings  # two games: at least the two losers are equal on all three
    for first, second in ties:
        assert joined.index(first) < joined.index(second)
    ledger = ledger_of(arena, users, bank_before=bank_before)
    bank, prizes = podium_split(100, 3)
    assert (ledger["bank"], ledger["prizes"]) == (bank, sum(prizes)) == (26, 74)
    # Each place's prize goes to the player ranked there, tie or not.
    by_name = {u.username: u.pk for u in users}
    assert [ledger["to_user"].get(by_name[s["user"]], 0) for s in standings] == [*prizes, 0]
    check_frame(frame, ledger)


def test_a_two_player_arena_pays_the_chip_the_rounding_leaves_to_the_bank():
    ana, beto = UserFactory(chips=START), UserFactory(chips=START)
    arena = habanero_arena(entry=20)
    bank_before = bank_balance()
    join(arena, [ana, beto])
    present(arena, ana, beto)
    play_round(arena, {ana.pk: ana, beto.pk: beto}, random.Random(3))
    frame = finish(arena)
    ledger = ledger_of(arena, [ana, beto], bank_before=bank_before)
    assert [place["prize"] for place in frame["podium"]] == [18, 11]
    assert (ledger["entered"], ledger["bank"], ledger["prizes"]) == (40, 11, 29)
    cut = 40 * BANK_CUT_PERCENT // 100
    assert f"bank 11 ({BANK_CUT_PERCENT}% = {cut}, rounding {11 - cut})" in ledger["memo"]
    check_frame(frame, ledger)
    # The rules page's worked example is this very arena.
    numbers = rule_numbers()
    assert (numbers["arena_example_pot"], numbers["arena_example_bank"]) == (40, 11)
    assert (numbers["arena_example_cut"], numbers["arena_example_rounding"]) == (cut, 11 - cut)
    assert [numbers["arena_example_first"], numbers["arena_example_second"]] == [18, 11]


def test_an_entry_of_a_player_who_never_played_goes_to_the_podium_and_the_bank():
    # Three joined, two played: the podium has two places and the pot all three entries.
    ana, beto, cruz = (UserFactory(chips=START) for _ in range(3))
    arena = habanero_arena(entry=10)
    bank_before = bank_balance()
    join(arena, [ana, beto, cruz])
    present(arena, ana, beto)
    play_round(arena, {ana.pk: ana, beto.pk: beto}, random.Random(5))
    frame = finish(arena)
    ledger = ledger_of(arena, [ana, beto, cruz], bank_before=bank_before)
    bank, prizes = podium_split(30, 2)
    assert (bank, prizes) == (8, [14, 8])
    assert [place["prize"] for place in frame["podium"]] == prizes
    assert cruz.pk not in ledger["to_user"] and ledger["bank"] == bank
    assert len(frame["podium"]) == 2 and frame["arena"]["pot"] == 30
    check_frame(frame, ledger)


def test_a_lone_player_on_the_podium_takes_all_the_bank_leaves():
    assert podium_split(40, 1) == (10, [30])
    for pot in range(0, 300):
        for places in (1, 2, 3):
            bank, prizes = podium_split(pot, places)
            assert bank + sum(prizes) == pot and min(prizes) >= 0
            # The rounding leaves less than a chip a place to the bank.
            assert 0 <= bank - pot * BANK_CUT_PERCENT // 100 < places
            assert prizes == sorted(prizes, reverse=True)


def test_the_protocol_doc_states_each_arena_case_with_the_codes_figures():
    doc = " ".join(DOC.read_text().split())
    found = re.search(
        r"A pot of (\d+) between two players: the bank (\d+) \+ (\d+), the first (\d+), "
        r"the second (\d+)",
        doc,
    )
    assert found, "docs/protocol.md has no worked example of a two-player pot"
    pot, cut, rounding, first, second = (int(n) for n in found.groups())
    assert podium_split(pot, 2) == (cut + rounding, [first, second])
    assert cut == pot * BANK_CUT_PERCENT // 100
    shares = " : ".join(str(s) for s in PODIUM_SHARES)
    two = " : ".join(str(s) for s in PODIUM_SHARES[:2])
    assert f"shared {shares} by three places, {two} by two" in doc
    assert f"The bank keeps {BANK_CUT_PERCENT}% of the pot" in doc
    for case in (
        "players equal on all three are ranked by who joined the arena first",
        "every entry goes back whole to its player and the bank takes nothing",
        "the same figure while the arena runs and after it ended",
        "including the ones that did not count",
    ):
        assert case in doc, case


@pytest.mark.parametrize("lang", ["fr", "es", "en"])
def test_the_rules_page_states_each_arena_case(client, lang):
    html = client.get(f"/rules/tables/?lang={lang}").content.decode()
    cases = html.split('<ul id="arena-cases">', 1)[1].split("</ul>", 1)[0]
    assert cases.count("<li>") == 5
    for key in ("arena_example_first", "arena_example_second", "arena_example_bank"):
        assert f'data-rule="{key}">{rule_numbers()[key]}<' in cases
