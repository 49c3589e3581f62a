"""Finding a game (issue #23): the lobby as each player sees it, practice and guests, "Play
now" under a crowd, the rematch and the practice hint (invitations and friends are in
test_invitations.py). Against the real PostgreSQL and Redis; "Play now"'s crowd over real
sockets to a real daphne."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.utils import timezone

from accounts.models import User
from accounts.services import friend_accept, friend_request
from bench.support.client import connect
from games.models import Game, Table, TableSeat, TableSocket
from games.selectors import lobby_tables
from games.table import guests, hint, matchmaking, practice, rematch, seating
from games.table.play import game_start
from games.table.refusals import TableError
from rankings.models import GameResult
from tests.support.factories import UserFactory
from tests.support.live import WAIT, robots_play_first, session_cookie, table_socket
from tests.support.play import current, finish, first_state

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PROCESS = "00000000-0000-0000-0000-000000000023"


# --- The lobby ---------------------------------------------------------------------------


def test_the_lobby_leaves_out_practice_tables_and_shows_private_ones_to_who_may_sit():
    alicia, bruno, carmen, dario = (UserFactory(chips=1000) for _ in range(4))
    public = seating.table_create(master=alicia, options={"variant": "habanero"})
    private = seating.table_create(master=bruno, options={"variant": "habanero", "private": True})
    seating.table_practice(master=carmen, options={"variant": "habanero"})
    seating.table_invite(table_id=private.pk, user=bruno, username=carmen.username)
    friend_request(from_user=bruno, to_user=dario)
    friend_accept(user=dario, requester=bruno)

    def ids(user):
        return [row["id"] for row in lobby_tables(user=user)]

    assert ids(None) == [public.pk]
    assert ids(alicia) == [public.pk]
    assert ids(bruno) == [private.pk, public.pk]
    assert ids(dario) == [private.pk, public.pk]  # the master's friend
    rows = {row["id"]: row for row in lobby_tables(user=carmen)}
    assert list(rows) == [private.pk, public.pk]
    assert rows[private.pk]["invited"] and not rows[public.pk]["invited"]
    assert all(seat is None or seat["user"] for row in rows.values() for seat in row["seats"])


def test_a_row_counts_the_people_watching_and_not_those_seated(client):
    alicia, bruno, carmen = (UserFactory(chips=1000) for _ in range(3))
    table = seating.table_create(master=alicia, options={"variant": "habanero"})
    from games.models import ServerProcess

    process = ServerProcess.objects.create(
        id="00000000-0000-0000-0000-000000000023", last_seen=timezone.now()
    )
    for n, user in enumerate((alicia, bruno, bruno, carmen)):
        TableSocket.objects.create(channel_name=f"c{n}", table=table, user=user, process=process)
    (row,) = lobby_tables()
    assert row["watchers"] == 2  # bruno (two tabs) and carmen; alicia sits
    html = client.get("/tables/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "2 watching" in html


def test_a_finished_practice_table_closes_once_left_alone_and_a_guests_leaves_nothing(client):
    player = UserFactory()
    table = seating.table_practice(
        master=player, options={"variant": "habanero", "points_to_win": 1, "robot_level": "random"}
    )
    guest = User.objects.create(username="guest~0123456789", is_guest=True)
    guest_table = seating.table_practice(
        master=guest, options={"variant": "habanero", "points_to_win": 1}
    )
    for t in (table, guest_table):
        Game.objects.filter(table=t).update(status=Game.Status.FINISHED, ended_at=timezone.now())
        Table.objects.filter(pk=t.pk).update(status=Table.Status.OPEN)
    now = timezone.now()
    assert practice.practice_close_idle(now=now) == 0  # just ended: left a minute first
    later = now + timedelta(seconds=practice.IDLE_SECONDS + 1)
    assert practice.practice_close_idle(now=later) == 2
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED
    # The guest's replay link still answers while the guest exists (issue 53, P14)...
    game = Game.objects.get(seats__user=guest)
    assert Table.objects.get(pk=guest_table.pk).status == Table.Status.CLOSED
    assert client.get(game.get_absolute_url()).status_code == 200
    # ... and once the guest is swept, nothing of their practice is left.
    assert practice.guests_sweep(now=later + timedelta(hours=guests.GUEST_IDLE_HOURS + 1)) == 1
    assert not Table.objects.filter(pk=guest_table.pk).exists()
    assert not Game.objects.filter(pk=game.pk).exists()


# --- Guests --------------------------------------------------------------------------------


def test_a_visitor_practises_as_a_guest_who_may_do_nothing_else(client):
    response = client.post(
        "/tables/practice/",
        {"variant": "habanero", "players": "2", "robot_level": "easy"},
    )
    assert response.status_code == 302
    table = Table.objects.get()
    guest = table.master
    assert guest.is_guest and not guest.has_usable_password()
    assert response["Location"] == table.get_absolute_url()
    assert table.status == Table.Status.PLAYING and not table.competitive and table.stake == 0
    assert list(table.seats.values_list("robot", flat=True)) == ["", "easy"]
    # Never with people, never chatting, nothing opened, never invited.
    people_table = seating.table_create(master=UserFactory(), options={"variant": "habanero"})
    for attempt in (
        lambda: seating.table_sit(table_id=people_table.pk, user=guest),
        lambda: seating.table_create(master=guest, options={"variant": "habanero"}),
        lambda: matchmaking.play_now(user=guest, variant="habanero"),
        lambda: seating.table_invite(
            table_id=people_table.pk, user=people_table.master, username=guest.username
        ),
    ):
        with pytest.raises(TableError):
            attempt()
    from games.table import requests

    with pytest.raises(TableError, match="Guests practise"):
        requests.handle(requests.Chat("hola"), table_id=table.pk, user=guest, ip_address=None)
    # The game ends: nothing is ranked or paid for a guest.
    finish(table.pk, guest)
    assert Game.objects.get(table=table).status == Game.Status.FINISHED
    assert not GameResult.objects.exists()
    # Not a player: no profile, no settings, no friends, no reports; the tables and rules.
    assert client.get(f"/players/{guest.username}/").status_code == 302
    for path in ("/settings/", "/friends/", "/invitations/", f"/tables/{table.pk}/report/"):
        assert client.get(path)["Location"] == "/", path
    page = client.get(table.get_absolute_url())
    assert page.status_code == 200
    # Their table's page offers no invitation, no report, and says why there is no chat.
    html = page.content.decode()
    assert 'id="invite-form"' not in html and 'id="report-link"' not in html
    assert "Sign up to chat: a guest plays robots only." in html
    assert client.get("/rules/").status_code == 200
    client.logout()
    assert client.get(f"/players/{guest.username}/").status_code == 404
    # Idle for hours: the guest and whatever was theirs are deleted.
    later = timezone.now() + timedelta(hours=guests.GUEST_IDLE_HOURS + 1)
    assert practice.guests_sweep(now=later) == 1
    assert not User.objects.filter(pk=guest.pk).exists()
    assert not Table.objects.filter(pk=table.pk).exists()


def test_a_guest_who_signs_up_starts_as_any_new_player(client):
    client.post("/tables/practice/", {"variant": "habanero", "players": "2", "robot_level": "easy"})
    guest = User.objects.get(is_guest=True)
    response = client.post("/guest/sign-up/")
    assert response.status_code == 302 and response["Location"] == "/accounts/signup/"
    assert client.get("/accounts/signup/").status_code == 200  # the guest is gone
    client.post(
        "/accounts/signup/",
        {
            "username": "nueva",
            "email": "nueva@example.com",
            "password1": "x9!kLm#pQ2",
            "password2": "x9!kLm#pQ2",
        },
    )
    player = User.objects.get(username="nueva")
    assert not player.is_guest and player.pk != guest.pk
    from rankings.selectors import chips_balance

    assert chips_balance(user=player) == 1000
    assert not TableSeat.objects.filter(user=player).exists()


# --- Play now ------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_eight_players_pressing_play_now_at_once_fill_two_tables_never_a_third(
    daphne_server,
):
    users = await sync_to_async(lambda: [UserFactory(chips=1000) for _ in range(8)])()
    sessions = [await sync_to_async(session_cookie)(u) for u in users]
    sockets = [await connect(daphne_server, "/ws/lobby/", session=s) for s in sessions]
    for socket in sockets:
        assert json.loads(await socket.recv())["type"] == "tables"

    async def press(socket) -> dict:
        await socket.send(json.dumps({"type": "play_now", "variant": "tute", "stake": 0}))
        while True:
            frame = json.loads(await asyncio.wait_for(socket.recv(), 20))
            if frame["type"] in ("seated", "error"):
                return frame

    answers = await asyncio.gather(*(press(s) for s in sockets))
    assert {a["type"] for a in answers} == {"seated"}, answers
    for socket in sockets:
        await socket.close()

    def tables():
        return [
            (t.status, sorted(t.seats.values_list("user_id", flat=True)), t.game_id is not None)
            for t in Table.objects.order_by("pk")
        ]

    found = await sync_to_async(tables)()
    assert len(found) == 2, found
    assert sorted(uid for _s, seated, _g in found for uid in seated) == sorted(u.pk for u in users)
    assert all(status == "playing" and len(seated) == 4 and game for status, seated, game in found)
    # Each was told the table it sits at.
    seated_at = await sync_to_async(
        lambda: {s.user_id: s.table_id for s in TableSeat.objects.all()}
    )()
    assert [a["table_id"] for a in answers] == [seated_at[u.pk] for u in users]


def test_play_now_waits_then_fills_with_robots_as_practice(client):
    alicia, bruno = UserFactory(chips=1000), UserFactory(chips=1000)
    table = matchmaking.play_now(user=alicia, variant="tute", stake=10)
    assert matchmaking.play_now(user=alicia, variant="tute", stake=10).pk == table.pk
    assert matchmaking.play_now(user=bruno, variant="tute", stake=10).pk == table.pk
    client.force_login(UserFactory())

    def waiting_shown() -> str:
        page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        return page.split('<p class="play-now-waiting">', 1)[1].split("</p>", 1)[0]

    # Alicia pressed twice: she waits once.
    assert waiting_shown() == "Tute: 2 players waiting"
    # Another stake is another queue; the lobby counts every stake's.
    other = matchmaking.play_now(user=UserFactory(chips=1000), variant="tute", stake=0)
    assert other.pk != table.pk
    assert waiting_shown() == "Tute: 3 players waiting"
    matchmaking.table_fill_robots(table_id=table.pk, user=bruno)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and not table.competitive and table.stake == 0
    assert table.seats.exclude(robot="").count() == 2
    assert table.game.stake == 0


# --- Rematch and hint ----------------------------------------------------------------------


def test_a_player_who_is_not_the_master_offers_a_rematch_and_it_starts_once_accepted():
    alicia, bruno = UserFactory(chips=1000), UserFactory(chips=1000)
    table = seating.table_create(master=alicia, options={"variant": "habanero", "points_to_win": 1})
    seating.table_sit(table_id=table.pk, user=bruno)
    with pytest.raises(TableError):
        rematch.rematch_offer(table_id=table.pk, user=bruno)  # no game yet
    game_start(table_id=table.pk, user=alicia)
    finish(table.pk, alicia)
    first = Table.objects.get(pk=table.pk).game_id
    rematch.rematch_offer(table_id=table.pk, user=bruno)
    from games.table.frames import table_summary

    t = Table.objects.get(pk=table.pk)
    offer = table_summary(table=t, seats=list(t.seats.select_related("user")))["rematch"]
    assert offer == {
        "by": bruno.username,
        "accepted": [bruno.username],
        "waiting": [alicia.username],
    }
    rematch.rematch_answer(table_id=table.pk, user=alicia, accept=True)
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.PLAYING and t.game_id != first


def test_the_summary_says_whether_a_rematch_starts_at_once_as_the_offer_does():
    """The page names its button by the summary's `rematch_at_once` (a new game, or an offer):
    it is true exactly when offering starts the next game, for every seating after a game."""
    alicia, bruno = UserFactory(chips=1000), UserFactory(chips=1000)

    def offered(table_id: int, by) -> bool:
        """The summary's word, then whether the offer started a game."""
        said = first_state(table_id, by)["table"]["rematch_at_once"]
        first = Table.objects.get(pk=table_id).game_id
        rematch.rematch_offer(table_id=table_id, user=by)
        started = Table.objects.get(pk=table_id).game_id != first
        assert said == started, (said, started)
        return started

    robots = seating.table_practice(master=alicia, options={"variant": "habanero"})
    finish(robots.pk, alicia)
    assert offered(robots.pk, alicia)  # a robot alone to play: at once
    people = seating.table_create(master=alicia, options={"variant": "habanero"})
    seating.table_sit(table_id=people.pk, user=bruno)
    game_start(table_id=people.pk, user=alicia)
    finish(people.pk, alicia)
    assert not offered(people.pk, bruno)  # alicia is asked
    rematch.rematch_answer(table_id=people.pk, user=alicia, accept=False)
    seating.table_stand(table_id=people.pk, user=bruno)
    assert not offered(people.pk, alicia)  # alone, but a seat is free: it waits


def test_a_declined_rematch_ends_the_offer():
    alicia, bruno = UserFactory(chips=1000), UserFactory(chips=1000)
    table = seating.table_create(master=alicia, options={"variant": "habanero", "points_to_win": 1})
    seating.table_sit(table_id=table.pk, user=bruno)
    game_start(table_id=table.pk, user=alicia)
    finish(table.pk, alicia)
    rematch.rematch_offer(table_id=table.pk, user=alicia)
    rematch.rematch_answer(table_id=table.pk, user=bruno, accept=False)
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN
    with pytest.raises(TableError, match="No rematch"):
        rematch.rematch_answer(table_id=table.pk, user=bruno, accept=True)


@pytest.mark.asyncio
async def test_a_hint_is_refused_at_a_table_with_people_and_given_in_practice(settings):
    alicia, bruno = await sync_to_async(
        lambda: (UserFactory(chips=1000), UserFactory(chips=1000))
    )()

    def people_table():
        table = seating.table_create(master=alicia, options={"variant": "habanero"})
        seating.table_sit(table_id=table.pk, user=bruno)
        game_start(table_id=table.pk, user=alicia)
        return table

    table = await sync_to_async(people_table)()
    sockets = [(await table_socket(table.pk, u))[0] for u in (alicia, bruno)]
    for socket in sockets:
        state = await current(socket)
        await socket.send_json_to({"type": "hint"})
        error = await socket.receive_json_from(timeout=WAIT)
        assert error["type"] == "error" and error["request"] == "hint"
        assert error["message"] == "Hints are given at practice tables only, against robots."
    assert state["count"] == (await current(sockets[0]))["count"]  # nothing changed
    for socket in sockets:
        await socket.disconnect()

    practice_table = await sync_to_async(seating.table_practice)(
        master=alicia, options={"variant": "habanero", "robot_level": "random"}
    )
    await sync_to_async(robots_play_first)(practice_table.pk)
    socket = (await table_socket(practice_table.pk, alicia))[0]
    state = await current(socket)
    assert state["game"]["view"]["legal_actions"]
    # A short budget for the test: the robot's choice is one of the player's own.
    original = hint.HINT_BUDGET_MS
    hint.HINT_BUDGET_MS = 50.0
    try:
        await socket.send_json_to({"type": "hint"})
        while (frame := await socket.receive_json_from(timeout=WAIT))["type"] != "hint":
            pass
    finally:
        hint.HINT_BUDGET_MS = original
    assert frame["count"] == state["count"]
    assert frame["action"] in state["game"]["view"]["legal_actions"]
    await socket.disconnect()
