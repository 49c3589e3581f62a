"""Bad input on a table socket: a clear error on that socket, in the player's language, and
the stored game record unchanged."""

import json

import pytest
from channels.db import database_sync_to_async as sync_to_async

from tests.support.factories import UserFactory
from tests.support.live import WAIT, open_socket, record_of, table_socket
from tests.support.play import close, refused, setup

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.asyncio
async def test_malformed_messages_are_refused_and_change_nothing():
    table_id, _users, sockets, views, turn = await setup()
    before = await record_of(table_id)
    socket = sockets[turn]
    await refused(socket, "this is not json", "malformed")
    await refused(socket, "[1, 2, 3]", "malformed")
    await refused(socket, {"type": "teleport"}, "malformed")
    await refused(socket, {"type": "act"}, "malformed")
    await refused(socket, {"type": "act", "action": {"seat": turn, "play": "13X"}}, "malformed")
    await refused(
        socket, {"type": "act", "action": {"seat": turn, "play": "1O", "sing": "O"}}, "malformed"
    )
    await refused(
        socket,
        {"type": "act", "action": views[turn]["legal_actions"][0], "count": "0"},
        "malformed",
    )
    assert await record_of(table_id) == before
    await close(*sockets)


@pytest.mark.asyncio
async def test_a_message_over_four_kibibytes_is_refused():
    table_id, _users, sockets, _views, turn = await setup()
    before = await record_of(table_id)
    big = json.dumps({"type": "chat", "text": "x" * 5000})
    frame = await refused(sockets[turn], big, "too_large")
    assert frame["table_id"] == table_id
    assert await record_of(table_id) == before
    await close(*sockets)


@pytest.mark.asyncio
async def test_an_illegal_card_is_refused_with_the_rule_it_breaks():
    table_id, _users, sockets, views, turn = await setup()
    before = await record_of(table_id)
    mine = set(views[turn]["hand"])
    not_mine = next(c for c in views[1 - turn]["hand"] if c not in mine)
    frame = await refused(
        sockets[turn], {"type": "act", "action": {"seat": turn, "play": not_mine}}, "illegal"
    )
    assert frame["request"] == "act" and frame["count"] == 0
    assert await record_of(table_id) == before
    await close(*sockets)


@pytest.mark.asyncio
async def test_an_action_out_of_turn_is_refused_in_the_players_language():
    table_id, _users, sockets, views, turn = await setup()
    before = await record_of(table_id)
    other = 1 - turn
    action = {"seat": other, "play": views[other]["hand"][0]}
    frame = await refused(sockets[other], {"type": "act", "action": action}, "illegal")
    # users[1] plays in Spanish, users[0] in English.
    expected = {0: "It is not your turn to play.", 1: "No es tu turno."}[other]
    assert (frame["message"], frame["rule"]) == (expected, "§2")
    assert await record_of(table_id) == before
    await close(*sockets)


@pytest.mark.asyncio
async def test_an_action_for_a_seat_that_is_not_yours_is_refused():
    table_id, _users, sockets, views, turn = await setup()
    before = await record_of(table_id)
    other = 1 - turn
    # The seat on turn's legal action, sent by the other player: legal, but not theirs.
    action = views[turn]["legal_actions"][0]
    await refused(sockets[other], {"type": "act", "action": action}, "not_your_seat")
    assert await record_of(table_id) == before
    await close(*sockets)


@pytest.mark.asyncio
async def test_a_message_for_another_table_is_refused():
    table_id, _users, sockets, views, turn = await setup()
    before = await record_of(table_id)
    await refused(
        sockets[turn],
        {"type": "act", "table_id": table_id + 1000, "action": views[turn]["legal_actions"][0]},
        "wrong_table",
    )
    assert await record_of(table_id) == before
    await close(*sockets)


@pytest.mark.asyncio
async def test_an_action_on_a_stale_count_is_refused_then_the_state_follows():
    table_id, _users, sockets, views, turn = await setup()
    before = await record_of(table_id)
    await refused(
        sockets[turn],
        {"type": "act", "action": views[turn]["legal_actions"][0], "count": 5},
        "stale",
    )
    state = await sockets[turn].receive_json_from(timeout=WAIT)
    assert state["type"] == "state" and state["count"] == 0
    assert await record_of(table_id) == before
    await close(*sockets)


@pytest.mark.asyncio
async def test_an_unknown_table_gets_an_error_and_the_socket_closes():
    socket = await open_socket("/ws/tables/987654/", await sync_to_async(UserFactory)())
    frame = await socket.receive_json_from(timeout=WAIT)
    assert (frame["type"], frame["code"]) == ("error", "unknown_table")
    assert (await socket.receive_output(timeout=WAIT))["code"] == 4404


@pytest.mark.asyncio
async def test_spectators_and_anonymous_visitors_watch_but_never_act():
    table_id, _users, sockets, views, turn = await setup()
    before = await record_of(table_id)
    action = views[turn]["legal_actions"][0]
    anonymous, first = await table_socket(table_id)
    assert first["you"]["seat"] is None and first["game"]["view"]["hand"] is None
    await refused(anonymous, {"type": "act", "action": action}, "login_required")
    await refused(anonymous, {"type": "chat", "text": "hi"}, "login_required")
    spectator, _first = await table_socket(table_id, await sync_to_async(UserFactory)())
    await refused(spectator, {"type": "act", "action": action}, "not_seated")
    assert await record_of(table_id) == before
    await close(anonymous, spectator, *sockets)


@pytest.mark.asyncio
async def test_without_guests_anonymous_sockets_are_turned_away_and_spectators_see_no_game():
    table_id, _users, sockets, _views, _turn = await setup(guests=False)
    anonymous = await open_socket(f"/ws/tables/{table_id}/")
    frame = await anonymous.receive_json_from(timeout=WAIT)
    assert (frame["type"], frame["code"]) == ("error", "login_required")
    assert (await anonymous.receive_output(timeout=WAIT))["code"] == 4403
    spectator, first = await table_socket(table_id, await sync_to_async(UserFactory)())
    assert first["game"]["view"] is None and first["chat"] == []
    await close(spectator, *sockets)


@pytest.mark.asyncio
async def test_a_socket_from_a_foreign_origin_is_refused():
    from channels.testing import WebsocketCommunicator

    from tute_site.asgi import application

    socket = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await socket.connect(timeout=WAIT)
    assert not connected
