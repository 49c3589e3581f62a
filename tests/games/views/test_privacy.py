"""No player's address, email or account id on a public page (issue #39).

Two players play a competitive game from one address: it is excluded from the leaderboards
for that reason. Every public page and JSON of that game and of its players is then fetched,
logged out and as another player, in each language: none shows the address, an account's
id or email, and the exclusion is told in the reader's language, as what happened, never
as a moderator's reason. The moderator finds the address and the accounts in the admin.

The accounts get ids far from any other row's, so an id found on a page is that account's.
"""

import random
import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from games.arenas.models import Arena
from games.models import Game
from games.table import play, seating
from games.views.game_pages import EXCLUDED
from rankings.models import GameResult
from rankings.services import game_result_award
from tests.support.arenas import habanero_arena, play_out
from tests.support.factories import ModeratorFactory, UserFactory

pytestmark = pytest.mark.django_db

ADDRESS = "203.0.113.77"
FIRST_ID = 7_346_021  # no game, table or arena of a test comes near it


def private_facts(users) -> dict[str, re.Pattern]:
    """What no public page may hold, each as the pattern that finds it."""
    facts = {"address": re.compile(re.escape(ADDRESS)), "players' note": re.compile("players \\d")}
    for user in users:
        facts[f"{user.username}'s id"] = re.compile(rf"(?<!\d){user.pk}(?!\d)")
        facts[f"{user.username}'s email"] = re.compile(re.escape(user.email), re.IGNORECASE)
    return facts


def shared_address_game() -> tuple[Game, list]:
    """A competitive habanero at a stake, both players from `ADDRESS`, played to the end
    and awarded; and its players."""
    ana = UserFactory(id=FIRST_ID, username="ana", chips=500)
    beto = UserFactory(id=FIRST_ID + 1, username="beto", chips=500)
    table = seating.table_create(
        master=ana,
        options={"variant": "habanero", "points_to_win": 1, "stake": 20, "guests": True},
        ip_address=ADDRESS,
    )
    seating.table_sit(table_id=table.pk, user=beto, ip_address=ADDRESS)
    game = play.game_start(table_id=table.pk, user=ana)
    play_out(game, {ana.pk: ana, beto.pk: beto}, random.Random(39))
    game_result_award(game_id=game.pk)
    return game, [ana, beto]


def public_urls(game: Game, users) -> list[str]:
    arena = habanero_arena(name="Privacy arena")
    urls = [
        f"/games/{game.pk}/",
        f"/games/{game.pk}/record.json",
        f"/games/{game.pk}/awards.json",
        f"/tables/{game.table_id}/",
        "/tables/",
        "/players/?q=a",
        "/rankings/",
        "/rankings/?board=chips",
        "/arenas/",
        f"/arenas/{arena.pk}/",
        "/rules/tables/",
    ]
    urls += [f"/players/{user.username}/" for user in users]
    return urls


def test_a_shared_address_game_shows_no_address_nor_id_on_any_public_page():
    game, users = shared_address_game()
    result = GameResult.objects.get(game_id=game.pk)
    assert result.exclusion == GameResult.Exclusion.SAME_IP
    assert ADDRESS in result.exclusion_note and str(users[0].pk) in result.exclusion_note
    carla = UserFactory(id=FIRST_ID + 2, username="carla")
    facts = private_facts([*users, carla])
    viewers = {"logged out": Client(), "carla": Client()}
    viewers["carla"].force_login(carla)
    fetched = 0
    for language in ("en", "fr", "es"):
        with translation.override(language):
            said = str(EXCLUDED["same_ip"])
            moderators = gettext("The moderator's reason: %(note)s").split("%")[0].strip()
        carla.language = language  # a player reads the site in their own language
        carla.save(update_fields=["language"])
        for viewer, client in viewers.items():
            for url in public_urls(game, users):
                response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
                assert response.status_code == 200, (viewer, url, response.status_code)
                body = response.content.decode()
                if viewer == "carla":  # her own id is hers to see on her pages
                    body = body.replace(str(carla.pk), "")
                for fact, pattern in facts.items():
                    assert not pattern.search(body), f"{url} ({viewer}, {language}) shows {fact}"
                if url.startswith(f"/games/{game.pk}/") and not url.endswith("record.json"):
                    text = body if url.endswith("/") else response.json()["excluded"]
                    assert said.split(":")[0] in text.replace("&#x27;", "'"), (url, language)
                    assert moderators not in text.replace("&#x27;", "'"), (url, language)
                fetched += 1
    assert fetched == 3 * 2 * len(public_urls(game, users))


def test_the_public_sentence_is_translated_and_names_no_moderator():
    sentences = {}
    for language in ("en", "fr", "es"):
        with translation.override(language):
            sentences[language] = str(EXCLUDED["same_ip"])
    assert len(set(sentences.values())) == 3, sentences
    assert "moderator" not in sentences["en"]


def test_the_moderator_sees_the_address_and_the_accounts_in_the_admin():
    game, users = shared_address_game()
    moderator = ModeratorFactory(username="mod")
    client = Client()
    client.force_login(moderator)
    result = GameResult.objects.get(game_id=game.pk)
    page = client.get(f"/admin/rankings/gameresult/{result.pk}/change/").content.decode()
    assert ADDRESS in page
    assert f"players {users[0].pk}, {users[1].pk}" in page
    assert all(user.username in page for user in users)
    listing = client.get("/admin/rankings/gameresult/?excluded=yes").content.decode()
    assert ADDRESS in listing
    # Nobody else reaches the admin.
    assert Client().get(f"/admin/rankings/gameresult/{result.pk}/change/").status_code == 302


def test_a_moderators_own_reason_stays_public_and_is_called_theirs():
    from rankings.services import game_result_exclude, game_result_include

    game, _users = shared_address_game()
    moderator = ModeratorFactory(username="mod")
    result = GameResult.objects.get(game_id=game.pk)
    game_result_include(result=result, moderator=moderator, reason="Checked")
    game_result_exclude(result=result, moderator=moderator, reason="One person, two accounts")
    excluded = Client().get(f"/games/{game.pk}/awards.json").json()["excluded"]
    assert excluded.endswith("The moderator's reason: One person, two accounts")
    assert Arena.objects.count() == 0
