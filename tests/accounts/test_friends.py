"""Friends: ask, answer, remove, as players do it on each other's profile."""

import pytest

from accounts.models import Friendship
from accounts.selectors import are_friends, friends_of
from accounts.services import FriendshipError, friend_accept, friend_request
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


def post(client, username, action, **data):
    return client.post(f"/players/{username}/friend/{action}/", data, follow=True)


def test_a_request_accepted_makes_friends_listed_on_both_profiles(client):
    ana, beto = UserFactory(username="ana"), UserFactory(username="beto")
    client.force_login(ana)
    html = post(client, "beto", "request").content.decode()
    assert "Friend request sent to beto." in html
    assert "Withdraw the request" in html
    assert not are_friends(ana, beto)

    client.force_login(beto)
    own = client.get("/players/beto/").content.decode()
    assert "Friend requests" in own and 'href="/players/ana/"' in own
    html = post(client, "ana", "accept", next="self").content.decode()
    assert "You and ana are now friends." in html

    assert are_friends(ana, beto) and are_friends(beto, ana)
    assert list(friends_of(ana)) == [beto] and list(friends_of(beto)) == [ana]
    ana_profile = client.get("/players/ana/").content.decode()
    assert "You are friends." in ana_profile
    assert '<li><a href="/players/beto/">beto</a></li>' in ana_profile


def test_a_declined_request_disappears_and_can_be_made_again(client):
    ana, beto = UserFactory(username="ana"), UserFactory(username="beto")
    friend_request(from_user=ana, to_user=beto)
    client.force_login(beto)
    html = post(client, "ana", "decline", next="self").content.decode()
    assert "You declined the request from ana." in html
    assert "Friend requests" not in html
    assert not Friendship.objects.exists() and not are_friends(ana, beto)

    client.force_login(ana)
    assert "Friend request sent to beto." in post(client, "beto", "request").content.decode()


def test_removing_a_friend_ends_it_for_both(client):
    ana, beto = UserFactory(username="ana"), UserFactory(username="beto")
    friend_request(from_user=ana, to_user=beto)
    friend_accept(user=beto, requester=ana)
    client.force_login(beto)
    html = post(client, "ana", "remove").content.decode()
    assert "ana is no longer your friend." in html
    assert "Add as a friend" in html
    assert not are_friends(ana, beto) and list(friends_of(ana)) == []


def test_asking_someone_who_already_asked_you_makes_you_friends():
    ana, beto = UserFactory(), UserFactory()
    friend_request(from_user=ana, to_user=beto)
    friend_request(from_user=ana, to_user=beto)  # asking twice changes nothing
    assert Friendship.objects.get().status == Friendship.Status.PENDING
    friend_request(from_user=beto, to_user=ana)
    assert are_friends(ana, beto)


def test_only_the_asked_player_can_accept_and_nobody_befriends_themselves(client):
    ana, beto = UserFactory(username="ana"), UserFactory(username="beto")
    friend_request(from_user=ana, to_user=beto)
    with pytest.raises(FriendshipError):
        friend_accept(user=ana, requester=ana)
    client.force_login(ana)
    html = post(client, "beto", "accept").content.decode()
    assert "That is not possible with beto." in html
    assert not are_friends(ana, beto)
    assert "That is not possible with ana." in post(client, "ana", "request").content.decode()
    assert Friendship.objects.count() == 1


def test_visitors_are_sent_to_log_in_and_get_is_refused(client):
    UserFactory(username="ana")
    response = client.post("/players/ana/friend/request/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.force_login(UserFactory())
    assert client.get("/players/ana/friend/request/").status_code == 405
    assert client.post("/players/ana/friend/befriend/").status_code == 404


def test_with_htmx_the_friend_box_is_swapped_in_place(client):
    UserFactory(username="ana")
    client.force_login(UserFactory(username="beto"))
    response = client.post("/players/ana/friend/request/", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="social"')
    assert "Friend request sent to ana." in html and "<html" not in html
