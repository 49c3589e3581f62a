"""Mining recorded games for puzzles, each checked by the solver from scratch: one best action
at each of the player's moves, every other losing at least the gap, the stored replies and
refutations the solver's own; mined twice, stored once; queued after the analysis."""

from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.bots.solver import Solver, deal_value, seat_to_act
from games.engine import Action
from games.engine.options import PLAYERS_ALLOWED, VARIANTS, Options
from games.events import Ending, GameEnded
from games.models import Game, GameAnalysis
from games.options import variant_players
from games.puzzles import tasks as puzzle_tasks
from games.puzzles.mining import MIN_GAP, action_key
from games.puzzles.models import MinedGame, Puzzle, PuzzleTheme
from games.puzzles.store import games_unmined, puzzles_mine_game, unmined_games
from tests.support.mined import mine_games, replay
from tests.support.stored_games import stored_game
from tute_site.celery import route_by_lane, slow_queue

pytestmark = pytest.mark.django_db

EPSILON = 1e-9


def fresh_values(state, seat, legal):
    """Each action's exact value for ``seat``'s side, by a solver that has seen nothing."""
    carry = state.carry
    solver = Solver(state.side_of[seat], seat, tuple(carry) if carry is not None else None)
    return solver.values(state, legal)


def end_value(state, line, seat):
    """What the deal is worth to ``seat`` once ``line`` is played out from ``state``."""
    state = state.clone()
    for data in line:
        state.apply(Action.from_dict(data, 2))
    assert state.deal_over
    return deal_value(state, state.side_of[seat], seat)


def check_from_scratch(puzzle: Puzzle) -> int:
    """Check every action of the puzzle's line; the number of the player's moves."""
    seat = puzzle.seat
    state = replay(puzzle, 0)
    assert state.n == 2 and state.stock_left == 0 and not state.deal_over
    steps = {step["at"]: step for step in puzzle.steps}
    moves = 0
    for index, data in enumerate(puzzle.line):
        action = Action.from_dict(data, 2)
        assert seat_to_act(state) == action.seat
        legal = state.legal_actions_for(action.seat)
        values = fresh_values(state, seat, legal)
        chosen = values[legal.index(action)]
        if action.seat == seat:
            moves += 1
            best = max(values)
            assert chosen == best
            assert sum(abs(v - best) < EPSILON for v in values) == 1  # one best, no other
            step = steps[index]
            assert step["best"] == data
            assert set(step["wrong"]) == {action_key(a) for a in legal if a != action}
            for other, value in zip(legal, values, strict=True):
                if other == action:
                    continue
                assert 100 * (best - value) >= MIN_GAP - EPSILON
                wrong = step["wrong"][action_key(other)]
                # The refutation is best play from there: it ends at the solver's value.
                assert wrong["line"][0] == other.to_dict()
                assert abs(end_value(state, wrong["line"], seat) - value) < EPSILON
        else:
            assert index not in steps
            assert chosen == min(values)  # the solver's reply: the other side's best
        state.apply(action)
    assert moves == len(puzzle.steps) >= 1
    return moves


@pytest.fixture
def puzzles():
    found = mine_games()
    assert len(found) >= 4
    return found


def test_each_mined_puzzle_has_one_best_move_at_each_step_and_the_solvers_line(puzzles):
    variants = {p.variant for p in puzzles}
    assert variants == {"habanero", "tute"}
    assert any(len(p.steps) > 1 for p in puzzles)  # a line of moves, not only one
    for puzzle in puzzles:
        check_from_scratch(puzzle)


def test_the_solution_ends_the_deal_as_stored_and_better_than_every_refutation(puzzles):
    for puzzle in puzzles:
        end = replay(puzzle, len(puzzle.line))
        for data in puzzle.rest:
            end.apply(Action.from_dict(data, 2))
        assert end.deal_over
        assert list(end.points) == puzzle.outcome["points"]
        assert end.deal_winner == puzzle.outcome["winner"]
        solution = deal_value(end, puzzle.seat, puzzle.seat)
        start = replay(puzzle, 0)
        for wrong in puzzle.steps[0]["wrong"].values():
            assert solution - end_value(start, wrong["line"], puzzle.seat) >= MIN_GAP / 100 - 1e-9


def test_themes_are_stored_from_the_solvers_lines(puzzles):
    codes = set(PuzzleTheme.objects.values_list("code", flat=True))
    assert codes  # the robots' games hold at least some themes
    for theme in PuzzleTheme.objects.filter(code="last_trick").select_related("puzzle"):
        assert theme.puzzle.outcome["last_trick"] == theme.puzzle.seat


def test_mining_twice_stores_nothing_twice():
    game = stored_game(8, "habanero")
    first = puzzles_mine_game(game_id=game.pk)
    assert first and Puzzle.objects.count() == first
    # The task delivered twice, and the game mined again once its row is gone.
    puzzle_tasks.mine_game(game.pk)
    assert puzzles_mine_game(game_id=game.pk) == first
    MinedGame.objects.all().delete()
    puzzles_mine_game(game_id=game.pk)
    assert Puzzle.objects.count() == first
    assert MinedGame.objects.get(game=game)


def test_a_game_not_finished_or_of_four_players_gives_no_puzzle():
    game = stored_game(8, "habanero")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING)
    assert puzzles_mine_game(game_id=game.pk) is None
    assert not MinedGame.objects.exists()
    four = Game.objects.create(
        variant="tute",
        options={"players": 4},
        record={"variant": "tute", "options": {"players": 4}, "deals": []},
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
    )
    assert puzzles_mine_game(game_id=four.pk) == 0


def test_the_games_mined_are_those_whose_rules_have_a_stock():
    """Every game the engine allows, its options saying how many play or not (the variant's
    default): the sweep's query takes it exactly when its rules have a stock, whose endgame
    the miner solves (2-player tute and habanero), and the miner mines no other."""
    stocked, games = set(), []
    for variant in VARIANTS:
        for players in PLAYERS_ALLOWED[variant]:
            rules = Options.from_dict({"variant": variant, "players": players}).rules
            said = [{"players": players}] + ([{}] if variant_players(variant) == players else [])
            for options in said:
                game = Game.objects.create(
                    variant=variant,
                    options=options,
                    record={"variant": variant, "options": options, "deals": []},
                    status=Game.Status.FINISHED,
                    finished_at=timezone.now(),
                )
                assert game.players == players
                games.append(game)
                if rules.has_stock:
                    stocked.add(game.pk)
    assert {(g.variant, g.players) for g in games if g.pk in stocked} == {
        ("tute", 2),
        ("habanero", 2),
    }
    assert set(unmined_games().values_list("pk", flat=True)) == stocked
    for game in games:
        assert puzzles_mine_game(game_id=game.pk) == 0  # no deal: nothing to find
    assert not unmined_games().exists()


def test_a_games_end_queues_its_mining_on_the_slow_lane_after_its_analysis(settings, monkeypatch):
    settings.GAME_ANALYSIS_SECONDS = 0.2
    game = stored_game(8, "habanero")
    queued = []
    monkeypatch.setattr(
        puzzle_tasks, "puzzles_mining_queue", lambda game_id, analyse: queued.append(analyse)
    )
    ended = GameEnded(game.pk, 1, "habanero", 2, Ending.FINISHED, arena=False, guest_practice=False)
    puzzle_tasks.mine_ended_game(ended)
    puzzle_tasks.mine_ended_game(replace(ended, guest_practice=True))
    # Neither a cancelled game nor one of four players is mined.
    puzzle_tasks.mine_ended_game(replace(ended, ending=Ending.CANCELLED))
    puzzle_tasks.mine_ended_game(replace(ended, variant="tute", players=4))
    assert queued == [True, False]
    # The mining task: the analyses' lane, never ahead of an award or a timer.
    assert route_by_lane(puzzle_tasks.mine_game.name, (), {}, {}, task=puzzle_tasks.mine_game) == {
        "queue": slow_queue()
    }
    # The analysis task was lost: the mining computes the analysis before it mines.
    assert not GameAnalysis.objects.filter(game=game).exists()
    assert puzzle_tasks.mine_game.apply(args=(game.pk,), kwargs={"analyse": True}).get() >= 1
    assert GameAnalysis.objects.filter(game=game).exists()
    assert MinedGame.objects.filter(game=game).exists()


def test_the_sweep_queues_a_guests_practice_game_never_analysed(monkeypatch):
    guest = User.objects.create(username="guest-1", is_guest=True)
    old = stored_game(8, "habanero", users=(guest, None))
    recent = stored_game(10, "habanero", users=(guest, None))
    # Not analysed yet: its mining waits for its analysis.
    waiting = stored_game(22, "habanero")
    half_an_hour_ago = timezone.now() - timedelta(minutes=30)
    Game.objects.filter(pk__in=[old.pk, waiting.pk]).update(finished_at=half_an_hour_ago)
    assert games_unmined(now=timezone.now()) == [old.pk]
    assert recent.pk not in games_unmined(now=timezone.now())
    queued = []
    monkeypatch.setattr(puzzle_tasks, "puzzles_mining_queue", queued.append)
    assert puzzle_tasks.mining_sweep.apply().get() == 1
    assert queued == [old.pk]
    puzzle_tasks.mine_game.apply(args=(old.pk,)).get()
    assert games_unmined(now=timezone.now()) == []


def test_the_back_filling_command_mines_the_games_not_mined_yet():
    from io import StringIO

    from django.core.management import call_command

    games = [stored_game(seed, "habanero") for seed in (8, 10, 22)]
    puzzles_mine_game(game_id=games[0].pk)
    out = StringIO()
    call_command("mine_puzzles", games=10, stdout=out)
    assert "2 games mined" in out.getvalue()
    assert MinedGame.objects.count() == 3
    count = Puzzle.objects.count()
    call_command("mine_puzzles", game=[games[1].pk], stdout=StringIO())
    assert Puzzle.objects.count() == count  # mined before: nothing stored twice
