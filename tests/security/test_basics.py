"""Security basics (issue #15): CSRF on every post, the admin for staff only, chat and names
escaped, shuffles from the system's random source. `check --deploy` is in
tests/site/test_deploy.py; chat drawn as text in a real browser in tests/e2e/test_table.py."""

from __future__ import annotations

import random
import re
import secrets
from html.parser import HTMLParser

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

from accounts.models import Friendship, User
from accounts.validators import username_validator
from games.table import chat, play, seating
from tests.support.factories import ModeratorFactory, StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db

PLACEHOLDERS = {"int": "1", "str": "x", "slug": "x", "path": "x"}


def every_path(patterns=None, prefix: str = "") -> list[str]:
    """One concrete path for each of the site's URL patterns (converters filled with a
    placeholder; the admin's regex patterns with one group are filled from their choices)."""
    paths = []
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        pattern = entry.pattern
        if isinstance(pattern, RoutePattern):
            route = re.sub(
                r"<(?:(\w+):)?\w+>", lambda m: PLACEHOLDERS[m.group(1) or "str"], pattern._route
            )
        else:
            route = str(pattern.regex.pattern).lstrip("^").rstrip("$").replace("\\Z", "")
            # The admin's app index: ^(?P<app_label>accounts|games|...)/$ -> accounts/
            route = re.sub(r"\(\?P<\w+>([\w|]+)\)", lambda m: m.group(1).split("|")[0], route)
            route = re.sub(r"\(\?P<\w+>[^)]*\)", "1", route).replace("\\", "")
            if any(c in route for c in "()[]*+?"):
                continue
        if isinstance(entry, URLResolver):
            paths += every_path(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            paths.append("/" + prefix + route)
    return paths


def test_every_url_refuses_a_post_without_the_csrf_token():
    """Whatever a view does with a post, one without the token never reaches it: 403, for a
    visitor and for a superuser (who may post to every admin page)."""
    paths = every_path()
    assert len(paths) > 60  # the site's pages, allauth's and the admin's
    assert {"/tables/new/", "/tables/1/request/", "/admin/login/", "/accounts/login/"} <= set(paths)
    superuser = UserFactory(is_staff=True, is_superuser=True)
    for user in (None, superuser):
        client = Client(enforce_csrf_checks=True)
        if user is not None:
            client.force_login(user)
        accepted = [p for p in paths if client.post(p, {"x": "1"}).status_code != 403]
        assert accepted == [], f"posted without a CSRF token: {accepted}"


class Forms(HTMLParser):
    """The post forms of a page, each with the names of its inputs; htmx posting elements."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.hx_posts: list[dict] = []
        self.body: dict = {}
        self.open = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body":
            self.body = attrs
        if "hx-post" in attrs:
            self.hx_posts.append(attrs)
        if tag == "form":
            self.open = {"attrs": attrs, "inputs": []} if attrs.get("method") == "post" else None
            if self.open is not None:
                self.forms.append(self.open)
        elif tag == "input" and self.open is not None:
            self.open["inputs"].append(attrs.get("name"))

    def handle_endtag(self, tag):
        if tag == "form":
            self.open = None


def read_forms(client: Client, path: str) -> Forms:
    response = client.get(path)
    assert response.status_code == 200, path
    forms = Forms()
    forms.feed(response.content.decode())
    return forms


def test_every_post_form_carries_the_token_and_htmx_posts_send_it():
    """Every page with a form, as a player would see it: each post form holds the token; the
    body's hx-headers give htmx the same token, and a friend request posted as htmx posts it
    (the header, no form field) goes through, while the same post without it is refused."""
    master, friend = UserFactory(chips=1000), UserFactory(chips=1000)
    table = seating.table_create(master=master, options={"variant": "habanero"})
    client = Client(enforce_csrf_checks=True)
    client.force_login(master)
    pages = [
        "/",
        "/tables/",
        f"/tables/{table.pk}/",
        "/settings/",
        f"/players/{friend.username}/",
        "/players/",
        "/rankings/",
        "/accounts/password/change/",
        "/accounts/email/",
    ]
    visitor = Client(enforce_csrf_checks=True)
    seen_forms = 0
    for who, pages_of in ((client, pages), (visitor, ["/accounts/login/", "/accounts/signup/"])):
        for path in pages_of:
            forms = read_forms(who, path)
            for form in forms.forms:
                assert "csrfmiddlewaretoken" in form["inputs"], (path, form["attrs"])
                seen_forms += 1
    assert seen_forms >= 15
    profile = read_forms(client, f"/players/{friend.username}/")
    assert profile.hx_posts, "the profile's friend button posts with htmx"
    headers = profile.body["hx-headers"]
    hx_token = re.search(r'"X-CSRFToken": "([^"]+)"', headers).group(1)
    url = profile.hx_posts[0]["hx-post"]
    refused = client.post(url, headers={"HX-Request": "true"})
    assert refused.status_code == 403
    assert not Friendship.objects.exists()
    accepted = client.post(url, headers={"HX-Request": "true", "X-CSRFToken": hx_token})
    assert accepted.status_code == 200
    assert "Friend request sent to" in accepted.content.decode()
    assert Friendship.objects.filter(requested_by=master).exists()


def test_the_admin_is_for_staff_only():
    pages = ["/admin/", "/admin/accounts/user/", "/admin/games/table/", "/admin/games/chatmessage/"]
    anonymous, player, moderator = Client(), Client(), Client()
    player.force_login(UserFactory())
    moderator.force_login(ModeratorFactory())
    for client in (anonymous, player):
        for path in pages:
            response = client.get(path)
            assert response.status_code == 302, path
            assert response["Location"].startswith("/admin/login/"), path
    # A player who logs in on the admin's own form is not let in either.
    user = UserFactory(username="plainplayer")
    user.set_password("a long passphrase 15")
    user.save()
    login = Client().post(
        "/admin/login/", {"username": "plainplayer", "password": "a long passphrase 15"}
    )
    assert login.status_code == 200 and "/admin/login/" in login.request["PATH_INFO"]
    for path in pages:
        assert moderator.get(path).status_code == 200, path
    # Staff without the moderators' rights see no player list.
    staff = Client()
    staff.force_login(StaffUserFactory())
    assert staff.get("/admin/accounts/user/").status_code == 403


@pytest.mark.parametrize(
    "name", ["<b>bold</b>", "a<script>", 'quo"te', "it's", "a&b", "x>y", "sp ace", "é-ñ"]
)
def test_a_name_with_html_characters_is_refused(name):
    with pytest.raises(ValidationError):
        username_validator(name)
    response = Client().post(
        "/accounts/signup/",
        {"username": name, "email": "x@example.com", "password1": "a long pass 15!"},
    )
    assert response.status_code == 200  # the form again, with the error
    assert not User.objects.filter(username=name).exists()


def test_chat_is_escaped_in_the_admin_and_never_drawn_as_html_by_the_table_page():
    master, guest = UserFactory(chips=1000), UserFactory(chips=1000)
    table = seating.table_create(master=master, options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=guest)
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    chat.chat_post(table_id=table.pk, user=guest, text=evil)
    moderator = Client()
    moderator.force_login(ModeratorFactory())
    for path in ("/admin/games/chatmessage/", f"/admin/games/table/{table.pk}/change/"):
        page = moderator.get(path).content.decode()
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page, path
        assert evil not in page and "<img src=x" not in page, path
    # The table page leaves the chat to its script, which writes text (textContent): the
    # page's HTML never holds the message.
    player = Client()
    player.force_login(master)
    page = player.get(f"/tables/{table.pk}/").content.decode()
    assert "alert(" not in page
    assert re.search(r'<ol id="chat-log"[^>]*></ol>', page)


class SpyRandom(secrets.SystemRandom):
    made = 0
    shuffles = 0

    def __init__(self, *args):
        SpyRandom.made += 1
        super().__init__(*args)

    def shuffle(self, x):
        SpyRandom.shuffles += 1
        super().shuffle(x)


def test_every_deal_is_shuffled_by_the_systems_random_source(monkeypatch):
    """The services deal from `secrets.SystemRandom` (the OS's source, which nobody can seed
    or predict from earlier deals): a spy in its place sees each deal's shuffle."""
    assert SpyRandom.__mro__[1] is random.SystemRandom
    SpyRandom.made = SpyRandom.shuffles = 0
    monkeypatch.setattr(play.secrets, "SystemRandom", SpyRandom)
    users = [UserFactory(chips=1000), UserFactory(chips=1000)]
    table = seating.table_create(master=users[0], options={"variant": "habanero"})
    seating.table_sit(table_id=table.pk, user=users[1])
    play.game_start(table_id=table.pk, user=users[0])
    assert (SpyRandom.made, SpyRandom.shuffles) == (1, 1)
    # Play the deal out, then deal the next: a second shuffle, from a new SystemRandom.
    from games.engine import from_record
    from games.models import Table
    from games.table.record import game_record

    def state():
        return from_record(game_record(game=Table.objects.get(pk=table.pk).game))

    while not state().needs_deal and not state().over:
        current = state()
        seat, actions = next((s, a) for s, a in current.legal_actions().items() if a)
        play.game_act(table_id=table.pk, user=users[seat], action=actions[0].to_dict())
    if not state().over:
        play.game_next_deal(table_id=table.pk, user=users[0])
        assert (SpyRandom.made, SpyRandom.shuffles) == (2, 2)
