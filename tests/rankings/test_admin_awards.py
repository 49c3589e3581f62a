"""Moderators see each game's awards and exclusions, and exclude a game by hand."""

import re

import pytest

from accounts.models import ModerationAction
from rankings.models import BoardRow, GameResult
from rankings.services import NotOnAnyBoard, game_result_award, game_result_exclude
from tests.support.awards import finish_game
from tests.support.factories import UserFactory
from tests.support.moderation import logged, messages_after
from tests.support.moderation import moderator_fixture as moderator_fixture

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
    assert f">Game {counted.game_id}<" not in listing and f">Game {shared.game_id}<" in listing
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


def test_count_it_again_puts_the_game_back_on_every_board_and_both_are_logged(client, moderator):
    ana, beto = UserFactory(username="ana"), UserFactory(username="beto")
    result = awarded([ana, beto], stake=0, variant="habanero")
    boards = list(BoardRow.objects.order_by("period", "variant", "user").values())
    assert len(boards) == 2 * 3 * 2  # two players, three periods, overall and habanero
    data = {"_selected_action": [result.pk], "apply": "1"}
    client.post(RESULTS, {**data, "action": "exclude_games", "reason": "Wrong game, sorry"})
    assert not BoardRow.objects.filter(games__gt=0).exists()

    form = client.post(RESULTS, {"action": "include_games", "_selected_action": [result.pk]})
    assert "Count it again" in form.content.decode() and "Reason" in form.content.decode()
    back = client.post(RESULTS, {**data, "action": "include_games", "reason": "My mistake"})
    assert messages_after(client, back) == [
        f"Game {result.game_id} counts again on its leaderboards."
    ]
    # Every row is as it was before the exclusion: games, wins, XP and chips.
    assert list(BoardRow.objects.order_by("period", "variant", "user").values()) == boards
    assert "ana" in client.get("/rankings/").content.decode()
    again = client.post(RESULTS, {**data, "action": "include_games", "reason": "Twice"})
    assert messages_after(client, again) == ["Nothing changed: these games were already counting."]
    result.refresh_from_db()
    assert (result.exclusion, result.excluded_by, result.counts) == ("", None, True)

    log = ModerationAction.objects.filter(game_id=result.game_id).order_by("created_at", "pk")
    assert [(a.kind, a.moderator, a.reason, a.target) for a in log] == [
        ("exclude", moderator, "Wrong game, sorry", None),
        ("include", moderator, "My mistake", None),
    ]
    page = client.get("/admin/accounts/moderationaction/").content.decode()
    assert f"game {result.game_id}" in page and "Game counted again" in page
    assert "Game excluded from the leaderboards" in page
    # The game's own page in the admin shows its log too.
    own = client.get(f"{RESULTS}{result.pk}/change/").content.decode()
    assert "Wrong game, sorry" in own and "My mistake" in own


def test_a_game_excluded_for_a_shared_address_can_be_counted_again(client, moderator):
    ana, beto = UserFactory(username="ana"), UserFactory(username="beto")
    result = awarded([ana, beto], stake=0, ips={0: "203.0.113.4", 1: "203.0.113.4"})
    assert not BoardRow.objects.filter(games__gt=0).exists()
    data = {"_selected_action": [result.pk], "apply": "1", "action": "include_games"}
    client.post(RESULTS, {**data, "reason": "Brother and sister, checked"})
    assert BoardRow.objects.filter(user=ana, period="all", variant="", games=1).exists()


def test_excluding_a_practice_game_is_refused_with_a_clear_message(client, moderator):
    ana = UserFactory(username="ana")
    result = awarded([ana, None], stake=0, competitive=False)
    data = {"_selected_action": [result.pk], "apply": "1", "reason": "Collusion"}
    refused = client.post(RESULTS, {**data, "action": "exclude_games"})
    assert messages_after(client, refused) == [
        f"Game {result.game_id} is a practice game: it is on no leaderboard, so nothing changed."
    ]
    result.refresh_from_db()
    assert result.exclusion == ""
    assert not ModerationAction.objects.exists()
    with pytest.raises(NotOnAnyBoard):
        game_result_exclude(result=result, moderator=moderator, reason="Collusion")


def test_the_admin_names_a_game_by_its_number_links_it_and_searches_it_exactly(client, moderator):
    ana5, beto = UserFactory(username="ana5"), UserFactory(username="beto")
    # Result rows and game numbers differ: the row id is never shown as the game.
    other = awarded([ana5, beto], stake=0, game_id=77)
    result = awarded([ana5, beto], stake=0, game_id=5)
    assert result.pk != 5
    listing = client.get(RESULTS).content.decode()
    assert "Game 5" in listing and 'href="/games/5/"' in listing
    assert 'href="/games/5/#replay"' in listing
    page = client.get(f"{RESULTS}{result.pk}/change/").content.decode()
    assert "Game 5 (tute)" in page and 'href="/games/5/"' in page
    # "5" is game 5, not every game of a player with a 5 in their name.
    found = client.get(RESULTS, {"q": "5"}).content.decode()
    assert "Game 5" in found and f"Game {other.game_id}" not in found
    by_name = client.get(RESULTS, {"q": "ana5"}).content.decode()
    assert "Game 5" in by_name and f"Game {other.game_id}" in by_name
