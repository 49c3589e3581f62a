"""Finding people: a player search by name from the header, and the friend requests waiting
for an answer counted in the header."""

import re

import pytest

from accounts.services import friend_accept, friend_request, user_ban
from tests.support.factories import ModeratorFactory, StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db


def names(html: str) -> list[str]:
    section = html[html.index('id="player-results"') :]
    return re.findall(r'<li><a href="/players/[^"]+/">([^<]+)</a></li>', section)


def test_search_finds_players_by_part_of_their_name_best_match_first(client):
    for name in ["barosa", "Rosalia", "rosa", "Amparo", "ROSARIO"]:
        UserFactory(username=name)
    html = client.get("/players/", {"q": "Rosa"}).content.decode()
    assert names(html) == ["rosa", "Rosalia", "ROSARIO", "barosa"]
    assert 'value="Rosa"' in html  # the box keeps what was typed


def test_search_leaves_out_banned_players_and_staff_who_never_played(client):
    UserFactory(username="marta")
    user_ban(user=UserFactory(username="marta_cheat"), moderator=ModeratorFactory(), reason="x")
    StaffUserFactory(username="marta_mod")
    assert names(client.get("/players/", {"q": "marta"}).content.decode()) == ["marta"]


def test_search_says_when_nobody_matches_and_escapes_what_was_typed(client):
    html = client.get("/players/", {"q": "<b>zz"}).content.decode()
    assert "No player’s name contains “&lt;b&gt;zz”." in html
    assert "<b>zz" not in html


def test_an_empty_search_explains_itself(client):
    html = client.get("/players/").content.decode()
    assert "Type part of a name" in html and names(html) == []


def test_htmx_gets_the_results_alone(client):
    UserFactory(username="pepe")
    response = client.get("/players/", {"q": "pep"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html and html.strip().startswith('<section id="player-results"')
    assert names(html) == ["pepe"]
    assert "HX-Request" in response["Vary"]


def test_the_search_is_in_the_header_and_translated(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    nav = html[html.index('class="site-nav"') : html.index("</nav>")]
    assert '<a href="/players/">Jugadores</a>' in nav
    page = client.get("/players/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "<h1>Buscar un jugador</h1>" in page


def header_count(client) -> str | None:
    html = client.get("/").content.decode()
    match = re.search(
        r'<a class="requests-count friend-requests-count" href="([^"]+)"[^>]*'
        r'aria-label="([^"]+)"><span aria-hidden="true">(\d+) requests?</span></a>',
        html,
    )
    return match.groups() if match else None


def test_the_header_counts_friend_requests_waiting_for_an_answer(client):
    me = UserFactory(username="lola")
    client.force_login(me)
    assert header_count(client) is None
    friend_request(from_user=UserFactory(username="ana"), to_user=me)
    friend_request(from_user=UserFactory(username="eva"), to_user=me)
    friend_request(from_user=me, to_user=UserFactory(username="ivan"))  # mine: not counted
    assert header_count(client) == (
        "/friends/#friend-requests",
        "2 friend requests waiting for your answer",
        "2",
    )
    friend_accept(user=me, requester=UserFactory._meta.model.objects.get(username="ana"))
    assert header_count(client)[1:] == ("1 friend request waiting for your answer", "1")
    friends = client.get("/friends/").content.decode()
    assert 'id="friend-requests"' in friends  # where the count leads
