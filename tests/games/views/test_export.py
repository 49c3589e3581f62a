"""A stored game, exported and replayed with the replay command, gives back its stored result."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from games.table.record import game_state
from tests.support.engine import replay
from tests.support.game_factories import GameFactory
from tests.support.play import play_random_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "tute", "players": 4, "pairs": True, "rounds": 2},
        {"variant": "tute", "players": 3},
        {"variant": "tute", "players": 2, "stock_play": "strict"},
        {"variant": "habanero", "players": 2, "points_to_win": 2},
        {"variant": "pocha", "players": 3},
    ],
    ids=lambda o: f"{o['variant']}-{o['players']}",
)
def test_exported_game_replays_to_its_stored_result(options, tmp_path):
    state = play_random_game(options, seed=11)
    outcome = state.outcome()
    game = GameFactory(
        variant=options["variant"],
        options=options,
        record=state.to_record(),
        status=Game.Status.FINISHED,
        result={"winner": outcome.winner, "score": list(outcome.score)},
    )
    out = StringIO()
    call_command("export_game", str(game.pk), stdout=out)
    status, replayed = replay(tmp_path, out.getvalue())
    assert status == 0, replayed
    replayed = replayed["game"]
    assert replayed["over"] is True
    assert replayed["winner"] == game.result["winner"]
    assert replayed["score"] == game.result["score"]
    # The engine's own reading of the record says the same.
    outcome = game_state(game=game).outcome()
    assert {"over": outcome.over, "winner": outcome.winner, "score": list(outcome.score)} == {
        "over": True,
        **game.result,
    }


def test_export_of_an_unknown_game_is_a_clear_error():
    with pytest.raises(CommandError, match="No game with id 999999"):
        call_command("export_game", "999999")
