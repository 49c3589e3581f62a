"""Moderators see each game's awards and exclusions, and exclude a game by hand."""

import re

import pytest

from rankings.models import BoardRow, GameResult
from rankings.services import game_result_award
from tests.accounts.factories import UserFactory
from tests.accounts.moderation import logged
from tests.accounts.moderation import moderator_fixture as moderator_fixture
from tests.rankings.awards import finish_game

pytestmark = pytest.mark.django_db

RESULTS = "/admin/rankings/gameresult/"


def awarded(players, **game):
    return game_result_award(game_id=finish_game(players, **game).game_id)


def test_a_moderator_sees_each_games_awards_and_why_a_game_is_excluded(client, moderator):
    ana, beto = UserFactory(username="ana", chips=1000), UserFactory(username="beto", chips=1000)
    counted = awarded([ana, beto], stake=100)
    shared = awarded([ana, beto], stake=0, ips={0: "203.0.113.4", 1: "203.0.113.4"})
    listing = client.get(RESULTS, {"excluded": "yes"}).content.decode()
    assert f"203.0.113.4: players {ana.pk}, {beto.pk}" in listing
    assert f">{counted.game_id}<" not in listing and f">{shared.game_id}<" in listing
    page = client.get(f"{RESULTS}{counted.pk}/change/").content.decode()

    # The seats with what each got: ana staked 100 and took 150 and 20 XP.
    def column(name):
        return re.findall(rf'<td class="field-{name}">\s*<p>([^<]*)</p>', page)

    assert (column("staked"), column("chips"), column("xp")) == (
        ["100", "100"],
        ["150", "0"],
        ["20", "5"],
    )
    assert f"/admin/rankings/chiptransfer/?game_id={counted.game_id}" in page
    # Two stakes and the payout.
    transfers = client.get("/admin/rankings/chiptransfer/", {"game_id": counted.game_id})
    assert transfers.status_code == 200 and "3 chip transfers" in transfers.content.decode()


def test_a_moderator_excludes_a_game_with_a_reason_and_it_leaves_the_boards(client, moderator):
    ana, beto = UserFactory(username="ana"), UserFactory(username="beto")
    result = awarded([ana, beto], stake=0)
    data = {"action": "exclude_games", "_selected_action": [result.pk]}
    assert "Reason" in client.post(RESULTS, data).content.decode()
    refused = client.post(RESULTS, {**data, "apply": "1", "reason": ""})
    assert "This field is required." in refused.content.decode()
    assert BoardRow.objects.filter(games__gt=0).exists()

    done = client.post(RESULTS, {**data, "apply": "1", "reason": "Collusion: soft play"})
    said = client.get(done["Location"]).content.decode()
    assert f"Excluded game {result.game_id} from the leaderboards." in said  # which game
    again = client.post(RESULTS, {**data, "apply": "1", "reason": "Twice"})
    assert "these games were already excluded" in client.get(again["Location"]).content.decode()
    result.refresh_from_db()
    assert (result.exclusion, result.exclusion_note, result.excluded_by) == (
        "moderator",
        "Collusion: soft play",
        moderator,
    )
    assert logged(moderator, result) == ["Excluded. Reason: Collusion: soft play"]
    assert not BoardRow.objects.filter(games__gt=0).exists()
    assert "ana" not in client.get("/rankings/").content.decode()


def test_nobody_deletes_or_edits_a_game_result(client, moderator):
    result = awarded([UserFactory(), UserFactory()], stake=0)
    assert client.post(f"{RESULTS}{result.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.post(f"{RESULTS}{result.pk}/change/", {"variant": "pocha"}).status_code == 403
    assert GameResult.objects.filter(pk=result.pk, variant="tute").exists()
