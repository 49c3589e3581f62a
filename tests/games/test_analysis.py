"""The analysis of a finished game: stored once, shown on the replay page and the profile,
and never for a game still in play."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

import games.analysis as analysis_module
import games.tasks as tasks_module
from games.analysis import game_analysis_compute, player_accuracy_by_kind
from games.bots.analysis import accuracy_of, seat_marks
from games.models import Game, GameAnalysis
from games.tasks import analyse_game
from tests.support.analysis import finished_game
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db
PLAYOUTS = 24  # per decision, no clock: the same analysis on a loaded machine


def test_run_twice_the_analysis_is_computed_once(monkeypatch):
    game = finished_game(UserFactory())
    calls = []
    real = analysis_module.analyse_record

    def counted(record, **kwargs):
        calls.append(record)
        return real(record, **kwargs)

    monkeypatch.setattr(analysis_module, "analyse_record", counted)
    first = game_analysis_compute(game_id=game.pk, playouts=PLAYOUTS)
    second = game_analysis_compute(game_id=game.pk, playouts=PLAYOUTS)
    assert first.pk == second.pk
    assert len(calls) == 1
    assert GameAnalysis.objects.filter(game=game).count() == 1
    # The task says the game has its analysis, and still computes nothing more.
    assert analyse_game.apply(args=(game.pk,)).get() is True
    assert len(calls) == 1


def test_the_unique_game_settles_two_analyses_at_once():
    game = finished_game(UserFactory())
    GameAnalysis.objects.create(game=game, data={"deals": []})
    with pytest.raises(IntegrityError), transaction.atomic():
        GameAnalysis.objects.create(game=game, data={"deals": []})


def test_a_game_in_play_is_not_analysed():
    game = finished_game(UserFactory(), status=Game.Status.PLAYING)
    assert game_analysis_compute(game_id=game.pk, playouts=PLAYOUTS) is None
    assert not GameAnalysis.objects.exists()


def test_every_decision_is_scored_and_the_endgame_solved_exactly():
    game = finished_game(UserFactory())
    data = game_analysis_compute(game_id=game.pk, playouts=PLAYOUTS).data
    decisions = [d for deal in data["deals"] for d in deal["decisions"]]
    plays = sum(len(deal["actions"]) for deal in game.record["deals"])
    assert 0 < len(decisions) <= plays
    assert data["exact"]  # the arrastre of habanero: every card known
    assert all(d["expected_best"] >= d["expected"] for d in decisions)
    assert {d["mark"] for d in decisions} <= {"best", "inaccuracy", "mistake", "blunder"}
    assert all(accuracy_of(seat_marks(data, seat)) is not None for seat in (0, 1))


def test_the_replay_page_shows_marks_best_choices_chart_and_accuracy(client):
    player = UserFactory(username="marta")
    game = finished_game(player)
    before = client.get(game.get_absolute_url()).content.decode()
    assert 'id="analysis"' not in before  # not analysed yet: nothing to show
    data = game_analysis_compute(game_id=game.pk, playouts=PLAYOUTS).data
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'id="analysis"' in html
    assert html.count('class="analysis-chart"') == len(data["deals"])
    assert "solved exactly" in html
    rows = [d for deal in data["deals"] for d in deal["decisions"]]
    assert html.count('<li class="mark-') == len(rows)
    for row in rows:
        if row["mark"] != "best":
            assert f'data-mark="{row["mark"]}"' in html
            assert "Best: " in html
    assert f"{accuracy_of(seat_marks(data, 1))}%" in html


def test_the_profile_shows_average_accuracy_per_kind_of_table(client):
    player = UserFactory(username="lucia")
    accuracies = []
    for _ in range(2):
        game = finished_game(player)
        data = game_analysis_compute(game_id=game.pk, playouts=PLAYOUTS).data
        accuracies.append(accuracy_of(seat_marks(data, 1)))
    rows = player_accuracy_by_kind(user=player)
    assert rows == [{"kind": "Habanero", "accuracy": round(sum(accuracies) / 2, 1), "games": 2}]
    html = client.get(player.get_absolute_url()).content.decode()
    assert 'id="accuracy"' in html
    assert f"{rows[0]['accuracy']}%" in html


def test_the_end_of_a_game_queues_its_analysis_on_commit(
    django_capture_on_commit_callbacks, monkeypatch
):
    """The finishing transaction queues the analysis once it commits; the task then finds
    a finished game and analyses it."""
    from tests.support.play import play_to_the_end, seated_table

    table, users = seated_table({"variant": "habanero", "points_to_win": 1}, 2)
    queued = []
    monkeypatch.setattr(tasks_module, "game_analysis_queue", queued.append)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(table, users, seed=3)
    assert queued == [game.pk]
    assert analyse_game.apply(args=(game.pk,)).get() is True
    assert GameAnalysis.objects.get(game=game).data["deals"]
